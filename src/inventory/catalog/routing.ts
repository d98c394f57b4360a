/** Tables of layer 3: routing tables and BGP neighbours. */
import { col, deviceColumns, idColumn } from './columns.js'
import type { StoredTableDef, TableDef } from './types.js'

export const ROUTE_PROTOCOLS = ['connected', 'local', 'static', 'ospf', 'bgp', 'eigrp', 'isis'] as const

export const ROUTES: StoredTableDef = {
  path: 'networks/routes',
  title: 'Routing tables',
  description: 'Routes of the routing table (RIB) of every layer 3 device, per VRF.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.routes' },
  columns: [
    idColumn('route'),
    ...deviceColumns(),
    col('vrf', 'string', 'VRF of the routing table (empty string for the global table).'),
    col('network', 'network', 'Destination network.'),
    col('prefix', 'integer', 'Prefix length of the destination network.'),
    col('protocol', 'string', 'Protocol that installed the route.', { values: ROUTE_PROTOCOLS }),
    col(
      'nexthop',
      'json',
      'Next hops: array of {ip, intName, ad, metric, vrfLeak} (ip null for directly connected, intName null for recursive next hops).',
    ),
    col('nhCount', 'integer', 'Number of next hops (equal-cost paths).'),
  ],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['network'], ['protocol']],
  webPath: '/technology/routing/route-table',
}

export const BGP_STATES = ['established', 'idle', 'active', 'connect', 'opensent', 'openconfirm'] as const

export const BGP_NEIGHBORS: StoredTableDef = {
  path: 'routing/protocols/bgp/neighbors',
  title: 'BGP neighbours',
  description: 'BGP sessions configured on every device, with their state and received prefixes.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.bgp_neighbors' },
  columns: [
    idColumn('BGP session'),
    ...deviceColumns(),
    col('vrf', 'string', 'VRF of the session (empty string for the global table).'),
    col('localAs', 'integer', 'Local autonomous system number.'),
    col('localAddress', 'ip', 'Local address of the session.'),
    col('neiHostname', 'string', 'Hostname of the neighbour when it is a discovered device, null otherwise.'),
    col('neiAddress', 'ip', 'Address of the neighbour.'),
    col('neiAs', 'integer', 'Autonomous system number of the neighbour.'),
    col('state', 'string', 'Session state.', { values: BGP_STATES }),
    col('currStateTime', 'integer', 'Seconds the session has been in its current state.'),
    col('totalReceivedPrefixes', 'integer', 'Prefixes received from the neighbour (0 unless established).'),
  ],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['state']],
  webPath: '/technology/routing/bgp/neighbors',
}

export const ROUTING_TABLES: readonly TableDef[] = [ROUTES, BGP_NEIGHBORS]
