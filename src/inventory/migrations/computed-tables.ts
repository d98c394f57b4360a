/**
 * Migration 420: the tables read from a snapshot's other tables that the API family's clients
 * ask for (IPv6 addresses and neighbours, FHRP group members, gateway redundancy), computed when a
 * snapshot is loaded, and the dynamic MAC count of switch ports, kept with each port instead of
 * counted from the MAC table for every row of every request. Frozen text: an applied migration
 * never changes. Snapshots taken before have no partition of the new tables: they read as empty
 * until the snapshot is next attached, which computes them. The ports of those snapshots get
 * their counts here, once, from their MAC tables (one aggregate per snapshot), in the partitions
 * of unloaded snapshots too, which must keep the parent's columns to be attached again.
 */
export const COMPUTED_TABLES_SQL = `
CREATE TABLE IF NOT EXISTS inventory.ipv6_managed_devs (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "int_name" text,
  "ip" inet,
  "net" cidr,
  "mac" text,
  "vlan_id" bigint,
  "vrf" text,
  "type" text,
  "state_l1" text,
  "state_l2" text
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.ipv6_neighbors (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "int_name" text,
  "ipv6" inet,
  "mac" text,
  "vlan_id" bigint,
  "vrf" text,
  "proxy" boolean,
  "vendor" text
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.fhrp_group_members (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "protocol" text,
  "group_id" bigint,
  "vrf" text,
  "virtual_ip" inet,
  "virtual_ipv6" inet,
  "count" bigint,
  "devices" jsonb
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.gateway_redundancy (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "net" cidr,
  "mask" bigint,
  "vrf" text,
  "site_name" text,
  "vlan_id" bigint,
  "gw" inet[],
  "gwcount" bigint,
  "gw_v" inet[],
  "gwcount_v" bigint,
  "hosts" bigint
) PARTITION BY LIST (snapshot_id);

ALTER TABLE inventory.switchports ADD COLUMN IF NOT EXISTS dynamic_mac_count bigint;

-- one statement: no semicolon ends a line inside it (the migration runner splits statements there)
DO $$ DECLARE p record; mac text; BEGIN
  FOR p IN SELECT c.relname, c.relispartition FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'inventory' AND c.relkind = 'r' AND c.relname LIKE 'switchports\\_s\\_%' LOOP
    IF NOT p.relispartition THEN EXECUTE format('ALTER TABLE inventory.%I ADD COLUMN IF NOT EXISTS dynamic_mac_count bigint', p.relname); END IF
    ; EXECUTE format('UPDATE inventory.%I SET dynamic_mac_count = 0', p.relname)
    ; mac := 'mac' || substr(p.relname, length('switchports') + 1)
    ; IF to_regclass(format('inventory.%I', mac)) IS NOT NULL THEN EXECUTE format(
        'UPDATE inventory.%I s SET dynamic_mac_count = m.n FROM (SELECT hostname, int_name, count(*) AS n FROM inventory.%I WHERE type = %L GROUP BY hostname, int_name) m WHERE m.hostname = s.hostname AND m.int_name = s.int_name',
        p.relname, mac, 'dynamic'); END IF
  ; END LOOP
; END $$;
`
