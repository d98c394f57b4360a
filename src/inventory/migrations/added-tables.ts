/**
 * Migration 5: the parent tables of the snapshot tables added after the first release (hardware
 * environment, neighbours beyond discovered devices, interface counters, OSPF, FHRP, spanning
 * tree, IPv6 routes, port-channels, configurations, end of life, and the tables computed from
 * the others when a snapshot is loaded), partitioned by snapshot. Frozen text, generated once
 * from the catalog: an applied migration never changes. Snapshots taken before it have no
 * partition of these tables: they read as empty until the snapshot is next attached, which
 * creates them (computed ones filled from the snapshot's other tables); see
 * src/inventory/storage/partitions.ts.
 */
export const ADDED_TABLES_SQL = `
CREATE TABLE IF NOT EXISTS inventory.fans (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "name" text,
  "part_sn" text,
  "fan_state" text,
  "speed" bigint
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.power_supplies (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "name" text,
  "dscr" text,
  "pid" text,
  "part_sn" text,
  "pw_supply_state" text
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.modules (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "name" text,
  "dscr" text,
  "pid" text,
  "part_sn" text,
  "module_state" text
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.eof_detail (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "vendor" text,
  "pid" text,
  "part_sn" text,
  "replacement" text,
  "end_sale" bigint,
  "end_maintenance" bigint,
  "end_support" bigint
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.ipv6_routes (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "vrf" text,
  "network" cidr,
  "prefix" bigint,
  "protocol" text,
  "nexthop" jsonb,
  "nh_count" bigint
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.ospf_neighbors (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "vrf" text,
  "area" text,
  "int_name" text,
  "local_ip" inet,
  "nei_router_id" inet,
  "nei_ip" inet,
  "nei_hostname" text,
  "state" text,
  "curr_state_time" bigint,
  "local_cost" bigint,
  "nei_cost" bigint
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.fhrp_groups (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "int_name" text,
  "vlan_id" bigint,
  "protocol" text,
  "group_id" bigint,
  "virtual_ip" inet,
  "state" text,
  "priority" bigint,
  "preempt" boolean
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.networks (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "net" cidr,
  "vrf" text,
  "site_name" text,
  "vlan_id" bigint,
  "dev_count" bigint,
  "int_count" bigint
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.duplicate_ip (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "ip" inet,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "int_name" text,
  "vrf" text,
  "mac" text,
  "count" bigint
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.vrf_detail (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "vrf" text,
  "int_count" bigint,
  "route_count" bigint
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.vrf_summary (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "vrf" text,
  "dev_count" bigint,
  "int_count" bigint,
  "route_count" bigint
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.vlan_device_summary (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_key" text,
  "site_name" text,
  "total_vlan_count" bigint,
  "active_vlan_count" bigint
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.vlan_site_summary (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "site_name" text,
  "vlan_id" bigint,
  "vlan_name" text,
  "dev_count" bigint,
  "active_dev_count" bigint
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.vlan_network_summary (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "vlan_id" bigint,
  "vlan_name" text,
  "site_count" bigint,
  "dev_count" bigint
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.stp_bridges (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "stp_domain" text,
  "mode" text,
  "priority" bigint,
  "bridge_id" text,
  "root_id" text,
  "is_root" boolean
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.neighbors_unidirectional (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "local_sn" text,
  "local_host" text,
  "local_int" text,
  "remote_sn" text,
  "remote_host" text,
  "remote_int" text,
  "remote_ip" inet,
  "protocols" text[],
  "site_name" text
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.neighbors_unmanaged (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "local_sn" text,
  "local_host" text,
  "local_int" text,
  "site_name" text,
  "remote_name" text,
  "remote_int" text,
  "remote_ip" inet,
  "remote_platform" text,
  "protocol" text,
  "capabilities" text[]
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.neighbors_endpoints (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "local_sn" text,
  "local_host" text,
  "local_int" text,
  "site_name" text,
  "remote_name" text,
  "remote_int" text,
  "remote_ip" inet,
  "remote_platform" text,
  "protocol" text,
  "capabilities" text[]
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.phones (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "int_name" text,
  "name" text,
  "model" text,
  "ip" inet,
  "mac" text,
  "vendor" text,
  "voice_vlan" bigint,
  "protocol" text
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.counters (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "int_name" text,
  "dscr" text,
  "speed_value" bigint,
  "in_bytes" bigint,
  "out_bytes" bigint,
  "in_pkts" bigint,
  "out_pkts" bigint,
  "in_err_pkts" bigint,
  "out_err_pkts" bigint,
  "in_drop_pkts" bigint,
  "out_drop_pkts" bigint
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.duplex (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "int_name" text,
  "duplex" text,
  "speed_value" bigint,
  "nei_hostname" text,
  "nei_int_name" text,
  "nei_duplex" text,
  "status" text
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.port_channel_members (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "int_name" text,
  "dscr" text,
  "protocol" text,
  "members" jsonb,
  "member_count" bigint,
  "bundled_count" bigint
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.config_saved (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "hash" text,
  "status" text
) PARTITION BY LIST (snapshot_id)
`
