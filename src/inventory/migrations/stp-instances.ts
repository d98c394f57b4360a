/**
 * Migration 480: the instances of MSTP switches (spanning-tree/instances), collected by network
 * discovery from the BRIDGE-MIB (the CIST) and IEEE8021-MSTP-MIB (each MSTI). Frozen text: an
 * applied migration never changes. Snapshots taken before it have no partition of the table: it
 * reads as empty for them until the snapshot is next attached, which creates it.
 */
export const STP_INSTANCES_SQL = `
CREATE TABLE IF NOT EXISTS inventory.stp_instances (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "instance" bigint,
  "vlans" text,
  "region_name" text,
  "revision" bigint,
  "priority" bigint,
  "bridge_id" text,
  "root_id" text,
  "is_root" boolean,
  "root_port" text,
  "root_cost" bigint,
  "forwarding_ports" bigint,
  "blocking_ports" bigint
) PARTITION BY LIST (snapshot_id);
`
