/**
 * The routing protocol summary: per device, VRF and protocol, the routes that protocol installed
 * in the IPv4 and IPv6 routing tables and, for the protocols whose neighbours netinv collects, its
 * neighbours. Computed when a snapshot is loaded (a GROUP BY over the routing tables, which are
 * among the largest); one endpoint for all protocols and one per protocol, as clients of the API
 * family ask "which routing protocols run here" by counting the rows of each.
 */
import { col, deviceColumns, idColumn } from './columns.js'
import { ROUTE_PROTOCOLS } from './routing.js'
import type { StoredTableDef, TableDef } from './types.js'

/** Protocols and the neighbour table (with the state that counts as up) netinv collects for them. */
const NEIGHBOURS = [
  ['bgp', 'inventory.bgp_neighbors', 'established'],
  ['ospf', 'inventory.ospf_neighbors', 'full'],
  ['ospfv3', 'inventory.ospfv3_neighbors', 'full'],
] as const

const PARTS = [
  'SELECT sn, hostname, site_name, vrf, protocol, count(*) AS routes, 0::bigint AS routes6, NULL::bigint AS neis, NULL::bigint AS neis_up FROM {inventory.routes} GROUP BY 1, 2, 3, 4, 5',
  'SELECT sn, hostname, site_name, vrf, protocol, 0, count(*), NULL, NULL FROM {inventory.ipv6_routes} GROUP BY 1, 2, 3, 4, 5',
  ...NEIGHBOURS.map(([protocol, table, up]) => `SELECT sn, hostname, site_name, vrf, '${protocol}', 0, 0, count(*), count(*) FILTER (WHERE state = '${up}') FROM {${table}} GROUP BY 1, 2, 3, 4`),
]
const WITH_NEIGHBOURS = NEIGHBOURS.map(([p]) => `'${p}'`).join(', ')

const COLUMNS = [
  idColumn('row (device, VRF and protocol)'),
  ...deviceColumns(),
  col('vrf', 'string', 'VRF of the routing table (empty string for the global table).'),
  col('protocol', 'string', 'Routing protocol, as the protocol column of networks/routes names it.', { values: ROUTE_PROTOCOLS }),
  col('routeCount', 'integer', 'IPv4 routes the protocol installed in the routing table (networks/routes).'),
  col('ipv6RouteCount', 'integer', 'IPv6 routes the protocol installed in the routing table (networks/ipv6-routes).'),
  col('neiCount', 'integer', 'Neighbours of the protocol (BGP sessions, OSPF and OSPFv3 adjacencies) on the device in that VRF; null for protocols without neighbours or whose neighbours netinv does not collect.'),
  col('neiUpCount', 'integer', 'Of those, the neighbours up: BGP sessions established, OSPF and OSPFv3 adjacencies full.'),
]

export const PROTOCOL_SUMMARY: StoredTableDef = {
  path: 'networks/summary/protocols',
  title: 'Routing protocols summary',
  description:
    'Per device, VRF and routing protocol (connected and static included): the routes the protocol installed in the IPv4 and IPv6 routing tables and, for BGP, OSPF and OSPFv3, its neighbours and how many are up. A protocol with neighbours but no route has a row; one neither in the routing tables nor with a neighbour has none. Computed when the snapshot is loaded from networks/routes, networks/ipv6-routes and the neighbour tables. Memory and overhead figures of a device\'s routing table summary are not collected.',
  snapshotScoped: true,
  source: {
    kind: 'stored',
    table: 'inventory.protocol_summary',
    compute: [
      "SELECT concat_ws('/', s.sn, s.vrf, s.protocol) AS id, s.sn, min(s.hostname) AS hostname, min(s.site_name) AS site_name, s.vrf, s.protocol,",
      'sum(s.routes) AS route_count, sum(s.routes6) AS ipv6_route_count,',
      `CASE WHEN s.protocol IN (${WITH_NEIGHBOURS}) THEN coalesce(sum(s.neis), 0) END AS nei_count,`,
      `CASE WHEN s.protocol IN (${WITH_NEIGHBOURS}) THEN coalesce(sum(s.neis_up), 0) END AS nei_up_count`,
      `FROM (${PARTS.join(' UNION ALL ')}) s GROUP BY s.sn, s.vrf, s.protocol`,
    ].join(' '),
  },
  columns: COLUMNS,
  key: ['sn', 'vrf', 'protocol'],
  nullableKey: ['vrf'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['protocol']],
  webPath: '/technology/routing/summary/protocols',
}

/** The stored columns of the summary. */
const STORED = ['id', 'sn', 'hostname', 'site_name', 'vrf', 'protocol', 'route_count', 'ipv6_route_count', 'nei_count', 'nei_up_count']

/** The summary of one protocol: the rows of PROTOCOL_SUMMARY for it. */
function ofProtocol(protocol: (typeof ROUTE_PROTOCOLS)[number], name: string): TableDef {
  const neighbours = NEIGHBOURS.some(([p]) => p === protocol)
  return {
    path: `networks/summary/protocols/${protocol}`,
    title: `Routing protocols summary: ${name}`,
    description: `The rows of networks/summary/protocols for ${name}: per device and VRF, the routes ${name} installed and ${neighbours ? 'its neighbours' : 'null neighbour counts (netinv does not collect its neighbours)'}. No row means no device in the snapshot has a ${name} route${neighbours ? ' or neighbour' : ''}.`,
    snapshotScoped: true,
    source: { kind: 'derived', sql: `SELECT snapshot_id, ${STORED.join(', ')} FROM inventory.protocol_summary WHERE protocol = '${protocol}'` },
    columns: COLUMNS,
    key: ['sn', 'vrf'],
    nullableKey: ['vrf'],
    defaultSort: { column: 'hostname', order: 'asc' },
    indexes: [],
    webPath: `/technology/routing/summary/protocols/${protocol}`,
  }
}

export const PROTOCOL_SUMMARY_TABLES: readonly TableDef[] = [
  PROTOCOL_SUMMARY,
  ofProtocol('bgp', 'BGP'),
  ofProtocol('eigrp', 'EIGRP'),
  ofProtocol('isis', 'IS-IS'),
  ofProtocol('ospf', 'OSPF'),
  ofProtocol('ospfv3', 'OSPFv3'),
  ofProtocol('rip', 'RIP'),
]
