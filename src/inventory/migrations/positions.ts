/**
 * Migration 410: the parent tables of the sort positions of the large tables
 * (`catalog/positions.ts`), partitioned by snapshot like the rows. Frozen text, generated once
 * from the catalog: an applied migration never changes. Snapshots taken before it get their
 * positions at the next start (`storage/computed.ts`); until then their pages are read by the scan.
 */
export const POSITIONS_SQL = `
CREATE TABLE IF NOT EXISTS inventory.interfaces_positions (snapshot_id text NOT NULL, id text NOT NULL, "hostname" bigint NOT NULL) PARTITION BY LIST (snapshot_id);
CREATE TABLE IF NOT EXISTS inventory.arp_positions (snapshot_id text NOT NULL, id text NOT NULL, "hostname" bigint NOT NULL) PARTITION BY LIST (snapshot_id);
CREATE TABLE IF NOT EXISTS inventory.mac_positions (snapshot_id text NOT NULL, id text NOT NULL, "hostname" bigint NOT NULL) PARTITION BY LIST (snapshot_id);
CREATE TABLE IF NOT EXISTS inventory.hosts_positions (snapshot_id text NOT NULL, id text NOT NULL, "ip" bigint NOT NULL) PARTITION BY LIST (snapshot_id);
CREATE TABLE IF NOT EXISTS inventory.routes_positions (snapshot_id text NOT NULL, id text NOT NULL, "hostname" bigint NOT NULL) PARTITION BY LIST (snapshot_id);
CREATE TABLE IF NOT EXISTS inventory.switchports_positions (snapshot_id text NOT NULL, id text NOT NULL, "hostname" bigint NOT NULL) PARTITION BY LIST (snapshot_id);
CREATE TABLE IF NOT EXISTS inventory.ipv6_routes_positions (snapshot_id text NOT NULL, id text NOT NULL, "hostname" bigint NOT NULL) PARTITION BY LIST (snapshot_id);
CREATE TABLE IF NOT EXISTS inventory.counters_positions (snapshot_id text NOT NULL, id text NOT NULL, "hostname" bigint NOT NULL) PARTITION BY LIST (snapshot_id);
`
