/** Tables of the addressing group: ARP, MAC address tables, managed addresses, end hosts. */
import { col, deviceColumns, idColumn } from './columns.js'
import type { StoredTableDef, TableDef } from './types.js'

export const ARP: StoredTableDef = {
  path: 'addressing/arp',
  title: 'ARP table',
  description: 'IP-to-MAC entries of the ARP caches (IPv4) and neighbour caches (IPv6) of every layer 3 device.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.arp' },
  columns: [
    idColumn('ARP entry'),
    ...deviceColumns(),
    col('intName', 'string', 'Interface the entry was learned on.'),
    col('ip', 'ip', 'IP address of the entry.'),
    col('mac', 'mac', 'MAC address the IP address resolves to.'),
    col('vlanId', 'integer', 'VLAN of the interface, null for routed ports.'),
    col('vrf', 'string', 'VRF of the interface (empty string for the global table).'),
    col('proxy', 'boolean', 'Whether the entry was answered by proxy ARP.'),
    col('vendor', 'string', 'Vendor registered for the MAC address prefix (OUI).'),
  ],
  key: ['sn', 'vrf', 'ip'],
  nullableKey: ['vrf'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['ip'], ['mac']],
  positions: ['hostname'],
  webPath: '/technology/addressing/arp',
}

export const MAC: StoredTableDef = {
  path: 'addressing/mac',
  title: 'MAC address table',
  description: 'Forwarding-table entries of every switch.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.mac' },
  columns: [
    idColumn('MAC table entry'),
    ...deviceColumns(),
    col('intName', 'string', 'Interface the address was learned on.'),
    col('mac', 'mac', 'Learned MAC address.'),
    col('vlan', 'integer', 'VLAN the address was learned in.'),
    col('edge', 'boolean', 'Whether the port is an edge (access) port rather than a link to another network device.'),
    col('user', 'string', 'User authenticated on the port (802.1X), null when none.'),
    col('vendor', 'string', 'Vendor registered for the MAC address prefix (OUI).'),
    col('type', 'string', 'How the entry was created.', { values: ['dynamic', 'static', 'secure'] }),
    col('source', 'string', 'Where the entry comes from: the forwarding table or a port-security table.', { values: ['forwarding', 'port-security'] }),
  ],
  key: ['sn', 'vlan', 'mac'],
  nullableKey: ['vlan'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['mac']],
  positions: ['hostname'],
  webPath: '/technology/addressing/mac',
}

export const MANAGED_DEVS: StoredTableDef = {
  path: 'addressing/managed-devs',
  legacyPaths: ['addressing/managedDevs'],
  title: 'Managed IP addresses',
  description: 'IP addresses configured on the interfaces of discovered devices.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.managed_devs' },
  columns: [
    idColumn('address'),
    ...deviceColumns(),
    col('intName', 'string', 'Interface the address is configured on.'),
    col('ip', 'ip', 'The configured address.'),
    col('net', 'network', 'Network the address belongs to (address and prefix length).'),
    col('mac', 'mac', 'MAC address of the interface.'),
    col('vlanId', 'integer', 'VLAN of an SVI, null for routed ports.'),
    col('vrf', 'string', 'VRF of the interface (empty string for the global table).'),
    col('type', 'string', 'Kind of address.', { values: ['primary', 'secondary', 'virtual'] }),
    col('stateL1', 'string', 'Layer 1 state of the interface.', { values: ['up', 'down', 'admin-down', 'err-disabled'] }),
    col('stateL2', 'string', 'Layer 2 state of the interface.', { values: ['up', 'down'] }),
    col('dnsName', 'string', 'Reverse DNS name of the address, null when none.'),
    col('dnsReverseMatch', 'boolean', 'Whether the reverse DNS name of the address begins with the device hostname (case-insensitive, the first label compared), null when the address has no reverse name.', {
      sql: `CASE WHEN t."dns_name" IS NULL THEN NULL ELSE lower(split_part(t."dns_name", '.', 1)) = lower(split_part(t."hostname", '.', 1)) END`,
    }),
    col('dnsHostnameMatch', 'boolean', 'Whether the forward DNS lookup of the hostname gives the address; netinv makes no forward lookups: always null.', { sql: 'NULL::boolean' }),
    col('snHw', 'string', 'Hardware serial number of the device (as in inventory/devices).', { sql: '(SELECT d."sn_hw" FROM inventory.devices d WHERE d."snapshot_id" = t."snapshot_id" AND d."sn" = t."sn")' }),
  ],
  key: ['sn', 'intName', 'ip'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['ip'], ['net']],
  webPath: '/technology/addressing/managed-ip',
}

export const HOSTS: StoredTableDef = {
  path: 'addressing/hosts',
  title: 'End hosts',
  description: 'End hosts (users, phones, printers, servers) located from ARP and MAC tables; IPv4 only (addressing/ipv6-hosts has the IPv6 ones).',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.hosts' },
  columns: [
    idColumn('host'),
    col('ip', 'ip', 'IP address of the host.'),
    col('mac', 'mac', 'MAC address of the host.'),
    col('vlan', 'integer', 'Access VLAN the host sits in.'),
    col('vrf', 'string', 'VRF of the host network (empty string for the global table).'),
    col('dnsName', 'string', 'Reverse DNS name of the host, null when none.'),
    col('siteName', 'string', 'Site the host is connected at.'),
    col('edges', 'json', 'Switch ports the host is connected to: array of {sn, hostname, intName}.', { unordered: true }),
    col('gateways', 'json', 'Default gateways of the host network: array of {sn, hostname, intName, ip}.', { unordered: true }),
    col('type', 'string', 'Kind of host, guessed from the MAC vendor and the port.', { values: ['workstation', 'phone', 'printer', 'server', 'camera', 'ap'] }),
    col('vendor', 'string', 'Vendor registered for the MAC address prefix (OUI).'),
    col('accessPoints', 'json', 'Wireless access points the host is associated with, a list like edges and gateways; netinv does not read wireless associations from a controller: always an empty list.', { sql: "'[]'::jsonb" }),
    col('uniqId', 'string', 'Identifier of the host that names the same host in every snapshot: its VRF and address (the table\'s key), e.g. "/10.1.10.23" in the global table.', {
      sql: `(coalesce(t."vrf", '') || '/' || host(t."ip"))`,
    }),
  ],
  key: ['vrf', 'ip'],
  nullableKey: ['vrf'],
  defaultSort: { column: 'ip', order: 'asc' },
  indexes: [['ip', 'id'], ['mac'], ['siteName']],
  positions: ['ip'],
  webPath: '/inventory/hosts',
}

export const ADDRESSING_TABLES: readonly TableDef[] = [ARP, MAC, MANAGED_DEVS, HOSTS]
