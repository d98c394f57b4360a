/**
 * IPv6 addresses, neighbours and end hosts: the IPv6 rows of addressing/managed-devs and
 * addressing/arp, which hold both families (discovery reads IP-MIB's address and neighbour tables
 * once, for both), as the API family's tables of their own, and the end hosts found in them;
 * computed when the snapshot is loaded, as picking them out of the large tables would scan those
 * on every request.
 */
import { col, deviceColumns, idColumn } from './columns.js'
import type { StoredTableDef, TableDef } from './types.js'

export const IPV6_MANAGED_DEVS: StoredTableDef = {
  path: 'addressing/ipv6-managed-devs',
  title: 'Managed IPv6 addresses',
  description:
    'IPv6 addresses configured on the interfaces of discovered devices: the IPv6 rows of addressing/managed-devs (link-local addresses and ::1 are not collected), copied when the snapshot is loaded.',
  snapshotScoped: true,
  source: {
    kind: 'stored',
    table: 'inventory.ipv6_managed_devs',
    compute: 'SELECT id, sn, hostname, site_name, int_name, ip, net, mac, vlan_id, vrf, type, state_l1, state_l2 FROM {inventory.managed_devs} WHERE family(ip) = 6',
  },
  columns: [
    idColumn('interface address (the id of its addressing/managed-devs row)'),
    ...deviceColumns(),
    col('intName', 'string', 'Interface the address is configured on.'),
    col('ip', 'ip', 'The configured IPv6 address.'),
    col('net', 'network', 'Network the address belongs to (address and prefix length).'),
    col('mac', 'mac', 'MAC address of the interface.'),
    col('vlanId', 'integer', 'VLAN of an SVI, null for routed ports and when not known.'),
    col('vrf', 'string', 'VRF of the interface (empty string for the global table).'),
    col('type', 'string', 'Kind of address as addressing/managed-devs says it; null for discovered IPv6 addresses (IPv6 has no primary address).'),
    col('stateL1', 'string', 'Layer 1 state of the interface.', { values: ['up', 'down', 'admin-down', 'err-disabled'] }),
    col('stateL2', 'string', 'Layer 2 state of the interface.', { values: ['up', 'down'] }),
  ],
  key: ['sn', 'intName', 'ip'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['ip']],
  webPath: '/technology/addressing/managed-ip/ipv6',
}

export const IPV6_NEIGHBORS: StoredTableDef = {
  path: 'addressing/ipv6-neighbors',
  title: 'IPv6 neighbour discovery',
  description:
    'IPv6 neighbours in the neighbour caches of discovered devices: the IPv6 rows of addressing/arp (link-local neighbours are not collected), copied when the snapshot is loaded. A neighbour that no discovered device holds is an IPv6 end host (addressing/ipv6-hosts).',
  snapshotScoped: true,
  source: {
    kind: 'stored',
    table: 'inventory.ipv6_neighbors',
    compute: 'SELECT id, sn, hostname, site_name, int_name, ip AS ipv6, mac, vlan_id, vrf, proxy, vendor FROM {inventory.arp} WHERE family(ip) = 6',
  },
  columns: [
    idColumn('neighbour entry (the id of its addressing/arp row)'),
    ...deviceColumns(),
    col('intName', 'string', 'Interface the neighbour was learned on.'),
    col('ipv6', 'ip', 'IPv6 address of the neighbour.'),
    col('mac', 'mac', 'MAC address the IPv6 address resolves to.'),
    col('vlanId', 'integer', 'VLAN of the interface, null for routed ports and when not known.'),
    col('vrf', 'string', 'VRF of the interface (empty string for the global table).'),
    col('proxy', 'boolean', 'Whether the entry was answered by proxy, null when not known.'),
    col('vendor', 'string', 'Vendor registered for the MAC address prefix (OUI), null when not known.'),
  ],
  key: ['sn', 'vrf', 'ipv6'],
  nullableKey: ['vrf'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['ipv6']],
  webPath: '/technology/addressing/ipv6-neighbor-discovery',
}

/**
 * Each neighbour entry of an IPv6 address that no discovered device holds, with the device's own
 * address on that interface in the host's network (the longest prefix, then the lowest address).
 */
const ENTRIES = [
  'SELECT DISTINCT ON (a.sn, a.int_name, a.vrf, a.ip) a.sn, a.hostname, a.site_name, a.int_name, coalesce(a.vrf, \'\') AS vrf, a.ip AS ipv6, a.mac, a.vendor, g.ip AS gw',
  'FROM {inventory.arp} a LEFT JOIN {inventory.managed_devs} g ON g.sn = a.sn AND g.int_name = a.int_name AND family(g.ip) = 6 AND a.ip << g.net',
  'WHERE family(a.ip) = 6 AND a.mac IS NOT NULL AND NOT EXISTS (SELECT 1 FROM {inventory.managed_devs} o WHERE o.ip = a.ip)',
  'ORDER BY a.sn, a.int_name, a.vrf, a.ip, masklen(g.net) DESC NULLS LAST, g.ip',
].join(' ')

/** One host per VRF and address: its gateways (every device with an entry), MAC, site and vendor as the gateway of the lowest serial sees them. */
const HOSTS6 = [
  'SELECT n.vrf, n.ipv6, (array_agg(n.mac ORDER BY n.sn, n.int_name))[1] AS mac, (array_agg(n.site_name ORDER BY n.sn, n.int_name))[1] AS site_name,',
  '(array_agg(n.vendor ORDER BY n.sn, n.int_name))[1] AS vendor,',
  "jsonb_agg(jsonb_build_object('sn', n.sn, 'hostname', n.hostname, 'intName', n.int_name, 'ip', host(n.gw)) ORDER BY n.sn, n.int_name) AS gateways",
  `FROM (${ENTRIES}) n GROUP BY n.vrf, n.ipv6`,
].join(' ')

/** The access ports (MAC table rows with `edge`) each MAC address of an IPv6 neighbour was learned on, and the VLAN of the first. */
const EDGES = [
  "SELECT p.mac, jsonb_agg(jsonb_build_object('sn', p.sn, 'hostname', p.hostname, 'intName', p.int_name) ORDER BY p.sn, p.int_name) AS edges,",
  '(array_agg(p.vlan ORDER BY p.sn, p.int_name) FILTER (WHERE p.vlan IS NOT NULL))[1] AS vlan',
  'FROM (SELECT DISTINCT ON (m.mac, m.sn, m.int_name) m.mac, m.sn, m.hostname, m.int_name, m.vlan FROM {inventory.mac} m',
  'WHERE m.edge AND m.mac IN (SELECT a.mac FROM {inventory.arp} a WHERE family(a.ip) = 6) ORDER BY m.mac, m.sn, m.int_name, m.vlan) p GROUP BY p.mac',
].join(' ')

export const IPV6_HOSTS: StoredTableDef = {
  path: 'addressing/ipv6-hosts',
  title: 'IPv6 end hosts',
  description:
    'IPv6 end hosts, found as addressing/hosts finds IPv4 ones: an address in the neighbour caches of discovered devices (addressing/ipv6-neighbors) that no discovered device holds, per VRF of the interface it was learned on; its gateways are the devices with the entry, its edges the access ports of the MAC tables that learned its MAC address. Computed when the snapshot is loaded; path lookup reads its IPv6 end hosts here. A host\'s temporary (privacy) addresses are hosts of their own, as the neighbour caches list them.',
  snapshotScoped: true,
  source: {
    kind: 'stored',
    table: 'inventory.ipv6_hosts',
    compute: [
      "SELECT CASE WHEN h.vrf = '' THEN host(h.ipv6) ELSE h.vrf || '/' || host(h.ipv6) END AS id, h.ipv6, h.mac, e.vlan, h.vrf, h.site_name,",
      "coalesce(e.edges, '[]'::jsonb) AS edges, h.gateways, NULL::text AS type, h.vendor",
      `FROM (${HOSTS6}) h LEFT JOIN (${EDGES}) e ON e.mac = h.mac`,
    ].join(' '),
  },
  columns: [
    idColumn('host (its VRF and address)'),
    col('ipv6', 'ip', 'IPv6 address of the host.'),
    col('mac', 'mac', 'MAC address of the host.'),
    col('vlan', 'integer', 'VLAN of the access port the host was learned on, null when no access port learned it.'),
    col('vrf', 'string', 'VRF of the host network (empty string for the global table).'),
    col('siteName', 'string', 'Site of the gateway that sees the host (the one of lowest serial number).'),
    col('edges', 'json', 'Switch ports the host is connected to: array of {sn, hostname, intName}.', { unordered: true }),
    col('gateways', 'json', "Devices whose neighbour cache holds the host: array of {sn, hostname, intName, ip}, ip the device's own address on that interface in the host's network.", { unordered: true }),
    col('type', 'string', 'Kind of host; netinv does not guess it for IPv6 hosts: always null.'),
    col('vendor', 'string', 'Vendor registered for the MAC address prefix (OUI).'),
    col('uniqId', 'string', 'Identifier of the host that names the same host in every snapshot: its VRF and address (the table\'s key), e.g. "/2001:db8:1::10" in the global table.', {
      sql: `(coalesce(t."vrf", '') || '/' || host(t."ipv6"))`,
    }),
  ],
  key: ['vrf', 'ipv6'],
  nullableKey: ['vrf'],
  defaultSort: { column: 'ipv6', order: 'asc' },
  indexes: [['ipv6', 'id'], ['mac'], ['siteName']],
  webPath: '/inventory/hosts/ipv6',
}

export const IPV6_ADDRESSING_TABLES: readonly TableDef[] = [IPV6_MANAGED_DEVS, IPV6_NEIGHBORS, IPV6_HOSTS]
