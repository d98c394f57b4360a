/**
 * Migration 450: spanning-tree ports (spanning-tree/ports), collected by network discovery, and
 * the parent table of their sort positions (a large table: a row per trunk of every switch, and
 * on MSTP and RSTP switches per switch port). Frozen text: an applied migration
 * never changes. Snapshots taken before it have no partition of the table: it reads as empty for
 * them until the snapshot is next attached, which creates it.
 */
export const STP_PORTS_SQL = `
CREATE TABLE IF NOT EXISTS inventory.stp_ports (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "int_name" text,
  "vlan_id" bigint,
  "instance" bigint,
  "port_role" text,
  "port_status" text,
  "port_cost" bigint,
  "port_priority" bigint,
  "designated_root" text,
  "designated_cost" bigint,
  "designated_bridge" text,
  "designated_port" text,
  "edge" boolean,
  "p2p" boolean
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.stp_ports_positions (snapshot_id text NOT NULL, id text NOT NULL, "hostname" bigint NOT NULL) PARTITION BY LIST (snapshot_id);
`
