/**
 * Migration 430: IPv6 end hosts (addressing/ipv6-hosts), computed when a snapshot is loaded.
 * Frozen text: an applied migration never changes. Snapshots loaded before have no partition of
 * the table: it reads as empty for them until the snapshot is next attached, which computes it.
 */
export const IPV6_HOSTS_SQL = `
CREATE TABLE IF NOT EXISTS inventory.ipv6_hosts (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "ipv6" inet,
  "mac" text,
  "vlan" bigint,
  "vrf" text,
  "site_name" text,
  "edges" jsonb,
  "gateways" jsonb,
  "type" text,
  "vendor" text
) PARTITION BY LIST (snapshot_id);
`
