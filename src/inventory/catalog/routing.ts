/** Tables of layer 3: IPv4 and IPv6 routing tables, BGP, OSPF and OSPFv3 neighbours, first hop redundancy groups. */
import { col, deviceColumns, idColumn } from './columns.js'
import type { StoredTableDef, TableDef } from './types.js'

export const ROUTE_PROTOCOLS = ['connected', 'local', 'static', 'ospf', 'ospfv3', 'bgp', 'eigrp', 'isis', 'rip'] as const

/** A routing table (RIB) of one address family. */
function routeTable(family: 'IPv4' | 'IPv6', path: string, table: string, legacyPaths: readonly string[], webPath: string): StoredTableDef {
  const example = family === 'IPv4' ? '' : ' (::/0 is the default route)'
  return {
    path,
    ...(legacyPaths.length > 0 ? { legacyPaths } : {}),
    title: family === 'IPv4' ? 'Routing tables' : 'IPv6 routing tables',
    description: `${family} routes of the routing table (RIB) of every layer 3 device, per VRF.`,
    snapshotScoped: true,
    source: { kind: 'stored', table },
    columns: [
      idColumn('route'),
      ...deviceColumns(),
      col('vrf', 'string', 'VRF of the routing table (empty string for the global table).'),
      col('network', 'network', `Destination network${example}.`),
      col('prefix', 'integer', 'Prefix length of the destination network.'),
      col('protocol', 'string', 'Protocol that installed the route.', { values: ROUTE_PROTOCOLS }),
      col(
        'nexthop',
        'json',
        'Next hops: array of {ip, intName, ad, metric, vrfLeak} (ip null for directly connected, intName null for recursive next hops); a route that discards what it matches has one next hop with type "blackhole" or "reject" (ip and intName null).',
      ),
      col('nhCount', 'integer', 'Number of next hops (equal-cost paths).'),
    ],
    key: ['sn', 'vrf', 'network'],
    nullableKey: ['vrf'],
    defaultSort: { column: 'hostname', order: 'asc' },
    indexes: [['hostname', 'id'], ['network'], ['protocol']],
    positions: ['hostname'],
    webPath,
  }
}

export const ROUTES = routeTable('IPv4', 'networks/routes', 'inventory.routes', [], '/technology/routing/route-table')
export const IPV6_ROUTES = routeTable('IPv6', 'networks/ipv6-routes', 'inventory.ipv6_routes', ['networks/ipv6Routes'], '/technology/routing/route-table-ipv6')

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
    col('srcInt', 'string', 'Local interface that holds the session\'s local address (as in addressing/managed-devs), null when no interface of the device holds it.', { sql: '(SELECT m."int_name" FROM inventory.managed_devs m WHERE m."snapshot_id" = t."snapshot_id" AND m."sn" = t."sn" AND m."ip" = t."local_address" ORDER BY m."int_name" LIMIT 1)' }),
    col('neiHostname', 'string', 'Hostname of the neighbour when it is a discovered device, null otherwise.'),
    col('neiAddress', 'ip', 'Address of the neighbour.'),
    col('neiAs', 'integer', 'Autonomous system number of the neighbour.'),
    col('state', 'string', 'Session state.', { values: BGP_STATES }),
    col('currStateTime', 'integer', 'Seconds the session has been in its current state.'),
    col('totalReceivedPrefixes', 'integer', 'Prefixes received from the neighbour (0 unless established).'),
  ],
  key: ['sn', 'vrf', 'neiAddress'],
  nullableKey: ['vrf'],
  volatile: ['currStateTime', 'totalReceivedPrefixes'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['state']],
  webPath: '/technology/routing/bgp/neighbors',
}

export const OSPF_STATES = ['full', '2way', 'init', 'exstart', 'exchange', 'loading', 'down'] as const

export const OSPF_NEIGHBORS: StoredTableDef = {
  path: 'routing/protocols/ospf/neighbors',
  title: 'OSPF neighbours',
  description: 'OSPF adjacencies of every device (one row per direction), with their state and interface costs.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.ospf_neighbors' },
  columns: [
    idColumn('OSPF adjacency'),
    ...deviceColumns(),
    col('vrf', 'string', 'VRF of the OSPF process (empty string for the global table).'),
    col('area', 'string', 'OSPF area in dotted form, e.g. 0.0.0.0.'),
    col('intName', 'string', 'Local interface of the adjacency.'),
    col('localIp', 'ip', 'Local address on that interface.'),
    col('neiRouterId', 'ip', 'Router id of the neighbour.'),
    col('neiIp', 'ip', 'Address of the neighbour on the link.'),
    col('neiHostname', 'string', 'Hostname of the neighbour when it is a discovered device, null otherwise.'),
    col('state', 'string', 'Adjacency state (lower case).', { values: OSPF_STATES }),
    col('currStateTime', 'integer', 'Seconds the adjacency has been in its current state.'),
    col('localCost', 'integer', 'OSPF cost of the local interface.'),
    col('neiCost', 'integer', 'OSPF cost of the neighbour interface, null when the neighbour is not discovered.'),
  ],
  key: ['sn', 'vrf', 'intName', 'neiRouterId'],
  nullableKey: ['vrf'],
  volatile: ['currStateTime'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['state']],
  webPath: '/technology/routing/ospf/neighbors',
}

export const OSPFV3_NEIGHBORS: StoredTableDef = {
  path: 'routing/protocols/ospf-v3/neighbors',
  title: 'OSPFv3 neighbours',
  description: 'OSPFv3 adjacencies of every device (one row per direction and instance), with their state and interface costs.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.ospfv3_neighbors' },
  columns: [
    idColumn('OSPFv3 adjacency'),
    ...deviceColumns(),
    col('vrf', 'string', 'VRF of the OSPFv3 process (empty string for the global table).'),
    col('area', 'string', 'OSPFv3 area of the local interface in dotted form, e.g. 0.0.0.0.'),
    col('intName', 'string', 'Local interface of the adjacency.'),
    col('instanceId', 'integer', 'OSPFv3 instance id on the interface (RFC 5340; 0 unless configured).'),
    col('neiRouterId', 'ip', 'Router id of the neighbour.'),
    col('neiIp', 'ip', 'Address of the neighbour on the link (its link-local address, as a rule).'),
    col('neiHostname', 'string', 'Hostname of the neighbour when it is a discovered device, null otherwise.'),
    col('state', 'string', 'Adjacency state (lower case).', { values: OSPF_STATES }),
    col('currStateTime', 'integer', 'Seconds the adjacency has been in its current state.'),
    col('localCost', 'integer', 'OSPFv3 cost of the local interface.'),
    col('neiCost', 'integer', 'OSPFv3 cost the neighbour advertises for its end of the link, null when unknown.'),
  ],
  key: ['sn', 'vrf', 'intName', 'instanceId', 'neiRouterId'],
  nullableKey: ['vrf'],
  volatile: ['currStateTime'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['state']],
  webPath: '/technology/routing/protocols/ospf-v3/neighbors',
}

export const FHRP_GROUP_STATE: StoredTableDef = {
  path: 'fhrp/group-state',
  legacyPaths: ['fhrp/groupState'],
  title: 'FHRP groups',
  description: 'First hop redundancy (HSRP, VRRP) groups on every interface, with the local state and priority.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.fhrp_groups' },
  columns: [
    idColumn('FHRP group membership'),
    ...deviceColumns(),
    col('intName', 'string', 'Interface the group runs on.'),
    col('vlanId', 'integer', 'VLAN of the interface, null for routed ports.'),
    col('protocol', 'string', 'Redundancy protocol.', { values: ['hsrp', 'vrrp', 'glbp'] }),
    col('groupId', 'integer', 'Group number.'),
    col('virtualIp', 'ip', 'Virtual gateway address of the group.'),
    col('state', 'string', 'Local state: active (forwarding for the group; VRRP master), standby (VRRP backup), listen, init.', {
      values: ['active', 'standby', 'listen', 'init'],
    }),
    col('priority', 'integer', 'Local priority (default 100).'),
    col('preempt', 'boolean', 'Whether the interface takes over as active when its priority is highest.'),
  ],
  // VRRPv3 runs an IPv4 and an IPv6 group under the same number on one interface: the virtual address tells them apart
  key: ['sn', 'intName', 'protocol', 'groupId', 'virtualIp'],
  nullableKey: ['virtualIp'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['virtualIp']],
  webPath: '/technology/fhrp/group-state',
}

export const ROUTING_TABLES: readonly TableDef[] = [ROUTES, BGP_NEIGHBORS, IPV6_ROUTES, OSPF_NEIGHBORS, OSPFV3_NEIGHBORS, FHRP_GROUP_STATE]
