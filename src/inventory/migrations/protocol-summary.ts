/**
 * Migration 460: the routing protocol summary (networks/summary/protocols), computed when a
 * snapshot is loaded from its routing tables and neighbour tables. Frozen text: an applied
 * migration never changes. Snapshots loaded before have no partition of the table: it reads as
 * empty for them until the snapshot is next attached, which computes it.
 */
export const PROTOCOL_SUMMARY_SQL = `
CREATE TABLE IF NOT EXISTS inventory.protocol_summary (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "vrf" text,
  "protocol" text,
  "route_count" bigint,
  "ipv6_route_count" bigint,
  "nei_count" bigint,
  "nei_up_count" bigint
) PARTITION BY LIST (snapshot_id);
`
