/**
 * Migration 440: OSPFv3 neighbours (routing/protocols/ospf-v3/neighbors), collected from
 * OSPFV3-MIB, partitioned by snapshot. Frozen text: an applied migration never changes.
 * Snapshots taken before have no partition of the table: it reads as empty for them.
 */
export const OSPFV3_NEIGHBORS_SQL = `
CREATE TABLE IF NOT EXISTS inventory.ospfv3_neighbors (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "vrf" text,
  "area" text,
  "int_name" text,
  "instance_id" bigint,
  "nei_router_id" inet,
  "nei_ip" inet,
  "nei_hostname" text,
  "state" text,
  "curr_state_time" bigint,
  "local_cost" bigint,
  "nei_cost" bigint
) PARTITION BY LIST (snapshot_id);
`
