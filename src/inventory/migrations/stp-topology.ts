/**
 * Migration 500: the topology changes of each spanning tree of each switch (spanning-tree/topology),
 * collected by network discovery from BRIDGE-MIB dot1dStpTopChanges and
 * dot1dStpTimeSinceTopologyChange (each VLAN's instance on per-VLAN switches) and
 * IEEE8021-MSTP-MIB (each MSTI). Frozen text: an applied migration never changes. Snapshots taken
 * before it have no partition of the table: it reads as empty for them until the snapshot is next
 * attached, which creates it.
 */
export const STP_TOPOLOGY_SQL = `
CREATE TABLE IF NOT EXISTS inventory.stp_topology (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "vlan_id" bigint,
  "instance" bigint,
  "topology_changes" bigint,
  "seconds_since_change" bigint
) PARTITION BY LIST (snapshot_id);
`
