/**
 * Migration 510: the spanning-tree protections of each bridge port (spanning-tree/guards),
 * collected by network discovery from CISCO-STP-EXTENSIONS-MIB. Frozen text: an applied migration
 * never changes. Snapshots taken before it have no partition of the table: it reads as empty for
 * them until the snapshot is next attached, which creates it.
 */
export const STP_GUARDS_SQL = `
CREATE TABLE IF NOT EXISTS inventory.stp_guards (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "int_name" text,
  "port_fast" boolean,
  "bpdu_guard" boolean,
  "bpdu_filter" boolean,
  "root_guard" boolean,
  "loop_guard" boolean
) PARTITION BY LIST (snapshot_id);
`
