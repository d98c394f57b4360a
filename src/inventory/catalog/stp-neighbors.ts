/**
 * Spanning-tree neighbours: each link between two discovered switches (neighbors/all) seen from
 * the spanning tree of both ends, so that a blocked link, a root port facing a designated one or
 * a link with spanning tree at one end only reads in one row.
 */
import { col, deviceColumns, idColumn } from './columns.js'
import type { TableDef } from './types.js'
import { STP_PORT_ROLES, STP_PORT_STATES } from './vlans.js'

export const STP_NEIGHBORS: TableDef = {
  path: 'spanning-tree/neighbors',
  title: 'Spanning-tree neighbours',
  description:
    'Links between discovered devices (neighbors/all, one row per direction) whose local end is a spanning-tree port (spanning-tree/ports), with the role and state of both ends in the same tree (a row per VLAN on per-VLAN switches); computed from those tables and spanning-tree/bridges. The remote role and state are null where the neighbour has no spanning-tree port on the link (a router, or spanning tree off there).',
  snapshotScoped: true,
  source: {
    kind: 'derived',
    sql: [
      // one row per link and tree: a per-VLAN switch's links once per VLAN, the far end's port in the same tree
      "SELECT p.snapshot_id, CASE WHEN p.vlan_id IS NULL OR p.vlan_id = 1 THEN n.id ELSE n.id || '/' || p.vlan_id END AS id, p.sn, p.hostname, p.site_name, b.stp_domain, b.root_id,",
      'p.int_name, p.vlan_id, p.instance, p.port_role, p.port_status,',
      'n.remote_sn AS nei_sn, n.remote_host AS nei_hostname, n.remote_int AS nei_int_name, q.port_role AS port_role_dst, q.port_status AS port_status_dst',
      'FROM inventory.stp_ports p',
      'JOIN inventory.neighbors n ON n.snapshot_id = p.snapshot_id AND n.local_sn = p.sn AND n.local_int = p.int_name',
      'LEFT JOIN inventory.stp_ports q ON q.snapshot_id = p.snapshot_id AND q.sn = n.remote_sn AND q.int_name = n.remote_int',
      'AND q.vlan_id IS NOT DISTINCT FROM p.vlan_id AND q.instance IS NOT DISTINCT FROM p.instance',
      'LEFT JOIN (SELECT DISTINCT ON (snapshot_id, sn) snapshot_id, sn, stp_domain, root_id FROM inventory.stp_bridges ORDER BY snapshot_id, sn, id) b',
      'ON b.snapshot_id = p.snapshot_id AND b.sn = p.sn',
    ].join(' '),
    materialised: true,
  },
  columns: [
    idColumn('spanning-tree neighbour (the id of its row in neighbors/all, with "/" and the VLAN for a tree of a VLAN other than 1)'),
    ...deviceColumns(),
    col('stpDomain', 'string', 'Spanning-tree domain of the local switch, as in spanning-tree/bridges.'),
    col('rootId', 'string', 'Bridge id of the root the local switch sees, e.g. "4096.001e.7a00.0400".'),
    col('intName', 'string', 'Local spanning-tree port.'),
    col('vlanId', 'integer', 'VLAN of the local port\'s tree, as in spanning-tree/ports.'),
    col('instance', 'integer', 'Spanning-tree instance of the local port\'s tree, as in spanning-tree/ports.'),
    col('portRole', 'string', 'Role of the local port.', { values: STP_PORT_ROLES }),
    col('portStatus', 'string', 'Spanning-tree state of the local port.', { values: STP_PORT_STATES }),
    col('neiSn', 'string', 'Serial number of the neighbour.'),
    col('neiHostname', 'string', 'Hostname of the neighbour.'),
    col('neiIntName', 'string', 'Port of the neighbour on the link.'),
    col('portRoleDst', 'string', 'Role of the neighbour\'s port, null where it is not a spanning-tree port.', { values: STP_PORT_ROLES }),
    col('portStatusDst', 'string', 'Spanning-tree state of the neighbour\'s port, null where it is not a spanning-tree port.', { values: STP_PORT_STATES }),
  ],
  key: ['sn', 'intName', 'neiSn', 'neiIntName', 'vlanId', 'instance'],
  nullableKey: ['vlanId', 'instance'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [],
  webPath: '/technology/spanning-tree/neighbors',
}
