/**
 * Migration 2: the parent tables of snapshot rows, one per stored catalog table, partitioned by
 * snapshot. Frozen text, generated once from the catalog when this migration was written: an
 * applied migration never changes. A later change of a stored table's columns needs a migration
 * of its own (an ALTER TABLE on the parent reaches every partition); test/inventory/migrations
 * fails until there is one.
 */
export const SNAPSHOT_TABLES_SQL = `
CREATE TABLE IF NOT EXISTS inventory.devices (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "sn_hw" text,
  "hostname" text,
  "site_name" text,
  "vendor" text,
  "family" text,
  "platform" text,
  "model" text,
  "version" text,
  "image" text,
  "dev_type" text,
  "login_ip" inet,
  "login_type" text,
  "mac" text,
  "uptime" bigint,
  "reload" text,
  "memory_total_bytes" bigint,
  "memory_used_bytes" bigint,
  "memory_utilization" double precision,
  "processor" text,
  "fqdn" text,
  "domain" text,
  "stp_domain" text,
  "config_reg" text,
  "object_id" text,
  "task_key" text,
  "slug" text
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.interfaces (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "int_name" text,
  "name_original" text,
  "dscr" text,
  "l1" text,
  "l2" text,
  "reason" text,
  "err_disabled" text,
  "speed" text,
  "speed_value" bigint,
  "speed_type" text,
  "duplex" text,
  "media" text,
  "mtu" bigint,
  "mac" text,
  "primary_ip" inet,
  "has_transceiver" boolean,
  "transceiver_type" text,
  "login_ip" inet
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.sites (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "site_name" text,
  "devices_count" bigint,
  "routers_count" bigint,
  "switches_count" bigint,
  "networks_count" bigint,
  "users_count" bigint,
  "vlan_count" bigint
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.pn (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "device_sn" text,
  "hostname" text,
  "site_name" text,
  "name" text,
  "dscr" text,
  "pid" text,
  "vid" text,
  "vendor" text,
  "platform" text,
  "model" text
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.arp (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "int_name" text,
  "ip" inet,
  "mac" text,
  "vlan_id" bigint,
  "vrf" text,
  "proxy" boolean,
  "vendor" text
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.mac (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "int_name" text,
  "mac" text,
  "vlan" bigint,
  "edge" boolean,
  "user" text,
  "vendor" text,
  "type" text,
  "source" text
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.managed_devs (
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
  "state_l2" text,
  "dns_name" text
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.hosts (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "ip" inet,
  "mac" text,
  "vlan" bigint,
  "vrf" text,
  "dns_name" text,
  "site_name" text,
  "edges" jsonb,
  "gateways" jsonb,
  "type" text,
  "vendor" text
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.routes (
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

CREATE TABLE IF NOT EXISTS inventory.bgp_neighbors (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "vrf" text,
  "local_as" bigint,
  "local_address" inet,
  "nei_hostname" text,
  "nei_address" inet,
  "nei_as" bigint,
  "state" text,
  "curr_state_time" bigint,
  "total_received_prefixes" bigint
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.vlans (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "vlan_id" bigint,
  "vlan_name" text,
  "status" text,
  "stp_domain" text
) PARTITION BY LIST (snapshot_id);

CREATE TABLE IF NOT EXISTS inventory.neighbors (
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

CREATE TABLE IF NOT EXISTS inventory.switchports (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "int_name" text,
  "dscr" text,
  "mode" text,
  "acc_vlan" bigint,
  "native_vlan" bigint,
  "trunk_vlan" text,
  "voice_vlan" bigint
) PARTITION BY LIST (snapshot_id)
`
