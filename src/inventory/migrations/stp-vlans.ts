/**
 * Migration 470: the spanning tree of each VLAN of a per-VLAN switch (spanning-tree/vlans),
 * collected by network discovery from each VLAN's instance of the BRIDGE-MIB. Frozen text: an
 * applied migration never changes. Snapshots taken before it have no partition of the table: it
 * reads as empty for them until the snapshot is next attached, which creates it.
 */
export const STP_VLANS_SQL = `
CREATE TABLE IF NOT EXISTS inventory.stp_vlans (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "vlan_id" bigint,
  "vlan_name" text,
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
