/** OSPF and OSPFv3 interfaces: the interfaces that hold adjacencies, read from the adjacencies themselves. */
import { col, deviceColumns, idColumn } from './columns.js'
import type { TableDef } from './types.js'

export const OSPF_INTERFACES: TableDef = {
  path: 'routing/protocols/ospf/interfaces',
  title: 'OSPF interfaces',
  description:
    'Interfaces running OSPF with at least one adjacency, one row per device, VRF, area and interface, computed from routing/protocols/ospf/neighbors. An OSPF interface without any neighbour (passive, or its neighbour down) is not collected and has no row.',
  snapshotScoped: true,
  source: {
    kind: 'derived',
    sql: [
      'SELECT snapshot_id, min(id) AS id, sn, min(hostname) AS hostname, min(site_name) AS site_name, vrf, area, int_name,',
      "min(host(local_ip))::inet AS ip, min(local_cost) AS cost, count(*) AS nei_count, count(*) FILTER (WHERE state = 'full') AS nei_full_count",
      'FROM inventory.ospf_neighbors GROUP BY snapshot_id, sn, vrf, area, int_name',
    ].join(' '),
  },
  columns: [
    idColumn('OSPF interface (the id of its first adjacency)'),
    ...deviceColumns(),
    col('vrf', 'string', 'VRF of the OSPF process (empty string for the global table).'),
    col('area', 'string', 'OSPF area in dotted form, e.g. 0.0.0.0.'),
    col('intName', 'string', 'Interface name.'),
    col('ip', 'ip', 'Address of the interface.'),
    col('cost', 'integer', 'OSPF cost of the interface.'),
    col('neiCount', 'integer', 'Number of OSPF neighbours on the interface.'),
    col('neiFullCount', 'integer', 'Number of those neighbours in state full.'),
  ],
  key: ['sn', 'vrf', 'area', 'intName'],
  nullableKey: ['vrf'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [],
  webPath: '/technology/routing/ospf/interfaces',
}

export const OSPFV3_INTERFACES: TableDef = {
  path: 'routing/protocols/ospf-v3/interfaces',
  title: 'OSPFv3 interfaces',
  description:
    'Interfaces running OSPFv3 with at least one adjacency, one row per device, VRF, area, interface and instance, computed from routing/protocols/ospf-v3/neighbors. An OSPFv3 interface without any neighbour (passive, or its neighbour down) is not collected and has no row.',
  snapshotScoped: true,
  source: {
    kind: 'derived',
    sql: [
      'SELECT snapshot_id, min(id) AS id, sn, min(hostname) AS hostname, min(site_name) AS site_name, vrf, area, int_name, instance_id,',
      "min(local_cost) AS cost, count(*) AS nei_count, count(*) FILTER (WHERE state = 'full') AS nei_full_count",
      'FROM inventory.ospfv3_neighbors GROUP BY snapshot_id, sn, vrf, area, int_name, instance_id',
    ].join(' '),
  },
  columns: [
    idColumn('OSPFv3 interface (the id of its first adjacency)'),
    ...deviceColumns(),
    col('vrf', 'string', 'VRF of the OSPFv3 process (empty string for the global table).'),
    col('area', 'string', 'OSPFv3 area in dotted form, e.g. 0.0.0.0.'),
    col('intName', 'string', 'Interface name.'),
    col('instanceId', 'integer', 'OSPFv3 instance id on the interface (RFC 5340; 0 unless configured).'),
    col('cost', 'integer', 'OSPFv3 cost of the interface.'),
    col('neiCount', 'integer', 'Number of OSPFv3 neighbours on the interface.'),
    col('neiFullCount', 'integer', 'Number of those neighbours in state full.'),
  ],
  key: ['sn', 'vrf', 'area', 'intName', 'instanceId'],
  nullableKey: ['vrf'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [],
  webPath: '/technology/routing/protocols/ospf-v3/interfaces',
}
