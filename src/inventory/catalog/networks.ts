/**
 * Tables computed from the addresses of addressing/managed-devs: managed networks, duplicate
 * addresses and VRFs (with the routing tables of networks/routes). Those that aggregate are
 * computed when a snapshot is loaded (see `compute` in ./types.ts); vrf/interfaces is a view.
 */
import { col, deviceColumns, idColumn } from './columns.js'
import type { StoredTableDef, TableDef } from './types.js'

/** Interface addresses of discovered devices, without FHRP virtual addresses. */
const OWN_ADDRESSES = "{inventory.managed_devs} WHERE type <> 'virtual'"

export const NETWORKS: StoredTableDef = {
  path: 'networks',
  title: 'Managed networks',
  description: 'IP networks configured on the interfaces of discovered devices, per site and VRF, computed from addressing/managed-devs when the snapshot is loaded.',
  snapshotScoped: true,
  source: {
    kind: 'stored',
    table: 'inventory.networks',
    compute: [
      "SELECT concat_ws('/', site_name, vrf, net::text) AS id, net, vrf, site_name, max(vlan_id) AS vlan_id,",
      `count(DISTINCT sn)::bigint AS dev_count, count(*)::bigint AS int_count FROM ${OWN_ADDRESSES} GROUP BY site_name, vrf, net`,
    ].join(' '),
  },
  columns: [
    col('id', 'string', 'The site/VRF/network the row describes (unique per snapshot).'),
    col('net', 'network', 'The network (address and prefix length).'),
    col('vrf', 'string', 'VRF of the network (empty string for the global table).'),
    col('siteName', 'string', 'Site whose devices hold addresses in the network.'),
    col('vlanId', 'integer', 'VLAN of the network when it sits on VLAN interfaces, null for routed links and loopbacks.'),
    col('devCount', 'integer', 'Number of devices of the site with an address in the network.'),
    col('intCount', 'integer', 'Number of interfaces with an address in the network.'),
  ],
  key: ['vrf', 'net'],
  nullableKey: ['vrf'],
  defaultSort: { column: 'net', order: 'asc' },
  indexes: [['net', 'id'], ['siteName']],
  webPath: '/technology/networks/managed-networks',
}

export const DUPLICATE_IP: StoredTableDef = {
  path: 'addressing/duplicate-ip',
  legacyPaths: ['addressing/duplicateIp'],
  title: 'Duplicate IP addresses',
  description:
    'Interface addresses configured on more than one interface of the network, regardless of the VRF: rows of addressing/managed-devs (FHRP virtual addresses, which are shared on purpose, left out), computed when the snapshot is loaded.',
  snapshotScoped: true,
  source: {
    kind: 'stored',
    table: 'inventory.duplicate_ip',
    compute: [
      'SELECT m.id, m.ip, m.sn, m.hostname, m.site_name, m.int_name, m.vrf, m.mac, d.n AS count',
      `FROM {inventory.managed_devs} m JOIN (SELECT ip, count(*)::bigint AS n FROM ${OWN_ADDRESSES} GROUP BY ip HAVING count(*) > 1) d`,
      "ON d.ip = m.ip WHERE m.type <> 'virtual'",
    ].join(' '),
  },
  columns: [
    idColumn('address (the id of its addressing/managed-devs row)'),
    col('ip', 'ip', 'The duplicated address.'),
    ...deviceColumns(),
    col('intName', 'string', 'Interface holding the address.'),
    col('vrf', 'string', 'VRF of the interface (empty string for the global table).'),
    col('mac', 'mac', 'MAC address of the interface.'),
    col('count', 'integer', 'Number of interfaces holding the address.'),
  ],
  key: ['vrf', 'ip', 'sn', 'intName'],
  nullableKey: ['vrf'],
  defaultSort: { column: 'ip', order: 'asc' },
  indexes: [['ip', 'id']],
  webPath: '/technology/addressing/managed-duplicate-ip',
}

export const VRF_INTERFACES: TableDef = {
  path: 'vrf/interfaces',
  title: 'VRF interfaces',
  description: 'Every addressed interface with its VRF (empty string for the global table), computed from addressing/managed-devs (primary addresses).',
  snapshotScoped: true,
  source: { kind: 'derived', sql: "SELECT snapshot_id, id, sn, hostname, site_name, vrf, int_name, ip, net FROM inventory.managed_devs WHERE type = 'primary'" },
  columns: [
    idColumn('interface address (the id of its addressing/managed-devs row)'),
    ...deviceColumns(),
    col('vrf', 'string', 'VRF of the interface (empty string for the global table).'),
    col('intName', 'string', 'Interface name.'),
    col('ip', 'ip', 'Primary address of the interface.'),
    col('net', 'network', 'Network of the address.'),
  ],
  key: ['sn', 'intName', 'ip'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [],
  webPath: '/technology/routing/vrf/interfaces',
}

export const VRF_DETAIL: StoredTableDef = {
  path: 'vrf/detail',
  title: 'VRFs per device',
  description: 'Every VRF of every device with its addressed interfaces and routes, computed from addressing/managed-devs and networks/routes when the snapshot is loaded.',
  snapshotScoped: true,
  source: {
    kind: 'stored',
    table: 'inventory.vrf_detail',
    compute: [
      "SELECT i.sn || '/' || i.vrf AS id, i.sn, i.hostname, i.site_name, i.vrf, i.int_count, coalesce(r.route_count, 0)::bigint AS route_count",
      "FROM (SELECT sn, hostname, site_name, vrf, count(*)::bigint AS int_count FROM {inventory.managed_devs} WHERE type = 'primary' GROUP BY sn, hostname, site_name, vrf) i",
      'LEFT JOIN (SELECT sn, vrf, count(*)::bigint AS route_count FROM {inventory.routes} GROUP BY sn, vrf) r ON r.sn = i.sn AND r.vrf = i.vrf',
    ].join(' '),
  },
  columns: [
    col('id', 'string', 'The device serial number/VRF the row describes (unique per snapshot).'),
    ...deviceColumns(),
    col('vrf', 'string', 'VRF name (empty string for the global table).'),
    col('intCount', 'integer', 'Number of addressed interfaces of the device in the VRF.'),
    col('routeCount', 'integer', 'Number of IPv4 routes of the device in the VRF.'),
  ],
  key: ['sn', 'vrf'],
  nullableKey: ['vrf'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['vrf']],
  webPath: '/technology/routing/vrf/detail',
}

export const VRF_SUMMARY: StoredTableDef = {
  path: 'vrf/summary',
  title: 'VRFs',
  description: 'Every VRF of the network with the devices, addressed interfaces and routes in it, computed from vrf/detail when the snapshot is loaded.',
  snapshotScoped: true,
  source: {
    kind: 'stored',
    table: 'inventory.vrf_summary',
    compute: [
      "SELECT 'vrf/' || vrf AS id, vrf, count(*)::bigint AS dev_count, sum(int_count)::bigint AS int_count, sum(route_count)::bigint AS route_count",
      'FROM {inventory.vrf_detail} GROUP BY vrf',
    ].join(' '),
  },
  columns: [
    col('id', 'string', '"vrf/" followed by the VRF name (unique per snapshot).'),
    col('vrf', 'string', 'VRF name (empty string for the global table).'),
    col('devCount', 'integer', 'Number of devices with addressed interfaces in the VRF.'),
    col('intCount', 'integer', 'Number of addressed interfaces in the VRF.'),
    col('routeCount', 'integer', 'Number of IPv4 routes in the VRF, all devices together.'),
  ],
  key: ['vrf'],
  nullableKey: ['vrf'],
  defaultSort: { column: 'vrf', order: 'asc' },
  indexes: [['vrf']],
  webPath: '/technology/routing/vrf/summary',
}

export const NETWORK_TABLES: readonly TableDef[] = [NETWORKS, DUPLICATE_IP, VRF_INTERFACES, VRF_DETAIL, VRF_SUMMARY]
