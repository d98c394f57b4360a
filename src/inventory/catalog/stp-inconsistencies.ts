/**
 * Spanning-tree inconsistencies found by comparing what the two ends of a link say: links whose
 * ends do not carry the same VLANs (the classic mismatched trunk, native VLAN or access VLAN),
 * spanning-tree ports with more than one CDP/LLDP neighbour (something unmanaged in between, a hub
 * or a switch that passes BPDUs), and ports whose BPDUs come from another bridge than the
 * neighbour CDP/LLDP names. Computed from neighbors/all, interfaces/switchports, spanning-tree/ports
 * and spanning-tree/bridges; nothing of their own is stored.
 */
import { col, deviceColumns, idColumn } from './columns.js'
import type { TableDef } from './types.js'

const VLAN_MODES = ['access', 'trunk']

/**
 * The VLAN sets of the two ends of a link (inventory.vlan_set, migration 490), each also naming a
 * column of the other end (never null after the join): where the table is the nullable side of an
 * outer join (a comparison's), an expression of one end's columns only is computed on every row of
 * that end's scan, before the join leaves the few links whose ends differ.
 */
const SRC = "CASE WHEN x.dst_sn IS NOT NULL THEN inventory.vlan_set(x.src_mode, x.src_acc, x.src_trunk) END"
const DST = "CASE WHEN x.sn IS NOT NULL THEN inventory.vlan_set(x.dst_mode, x.dst_acc, x.dst_trunk) END"

/** Whether a switch port's VLANs are known, as inventory.vlan_set (migration 490) says by not being null. */
const knownVlans = (p: string) => `((${p}.mode = 'access' AND ${p}.acc_vlan BETWEEN 1 AND 4094) OR (${p}.mode = 'trunk' AND ${p}.trunk_vlan IS NOT NULL))`

export const STP_NEIGHBOR_PORTS_VLAN_MISMATCH: TableDef = {
  path: 'spanning-tree/inconsistencies/neighbor-ports-vlan-mismatch',
  title: 'Neighbour ports with different VLANs',
  description:
    'Links between two switch ports (neighbors/all, one row per direction) whose ends do not carry the same VLANs: a trunk allowing VLANs the other end does not, trunks with different native VLANs, different access VLANs, or an access port facing a trunk. The VLANs are those of interfaces/switchports (an access port\'s VLAN, a trunk\'s allowed list, compared as sets: "1-3" and "1,2,3" are the same); ports whose VLANs are not known are left out.',
  snapshotScoped: true,
  source: {
    kind: 'derived',
    sql: [
      'SELECT x.snapshot_id, x.id, x.sn, x.hostname, x.site_name, x.src_int_name, x.src_mode,',
      `CASE WHEN x.src_mode = 'trunk' THEN x.src_native END AS src_native_vlan, inventory.vlan_ranges(${SRC}) AS src_vlans, cardinality(${SRC}) AS src_vlan_count,`,
      'x.dst_sn, x.dst_hostname, x.dst_int_name, x.dst_mode,',
      `CASE WHEN x.dst_mode = 'trunk' THEN x.dst_native END AS dst_native_vlan, inventory.vlan_ranges(${DST}) AS dst_vlans, cardinality(${DST}) AS dst_vlan_count,`,
      `inventory.vlan_ranges(ARRAY(SELECT unnest(${SRC}) EXCEPT SELECT unnest(${DST}))) AS src_only_vlans,`,
      `inventory.vlan_ranges(ARRAY(SELECT unnest(${DST}) EXCEPT SELECT unnest(${SRC}))) AS dst_only_vlans`,
      'FROM (',
      // the links whose two ends are not configured alike, as written: only they can differ (the
      // VLAN sets of the others are equal), and only theirs are read as sets
      'SELECT n.snapshot_id, n.id, a.sn, a.hostname, a.site_name, a.int_name AS src_int_name, a.mode AS src_mode, a.native_vlan AS src_native,',
      'a.acc_vlan AS src_acc, a.trunk_vlan AS src_trunk, b.sn AS dst_sn, b.hostname AS dst_hostname, b.int_name AS dst_int_name, b.mode AS dst_mode,',
      'b.native_vlan AS dst_native, b.acc_vlan AS dst_acc, b.trunk_vlan AS dst_trunk',
      'FROM inventory.neighbors n',
      'JOIN inventory.switchports a ON a.snapshot_id = n.snapshot_id AND a.sn = n.local_sn AND a.int_name = n.local_int',
      'JOIN inventory.switchports b ON b.snapshot_id = n.snapshot_id AND b.sn = n.remote_sn AND b.int_name = n.remote_int',
      // both ends' VLANs known (where inventory.vlan_set is not null), tested without calling it:
      // a test of one end alone is made on every row of the table before the join
      `WHERE ${knownVlans('a')} AND ${knownVlans('b')}`,
      "AND (a.mode, a.acc_vlan, a.trunk_vlan, CASE WHEN a.mode = 'trunk' THEN a.native_vlan END) IS DISTINCT FROM (b.mode, b.acc_vlan, b.trunk_vlan, CASE WHEN b.mode = 'trunk' THEN b.native_vlan END)",
      ') x',
      `WHERE ${SRC} <> ${DST} OR x.src_mode <> x.dst_mode OR (x.src_mode = 'trunk' AND x.src_native IS DISTINCT FROM x.dst_native)`,
    ].join(' '),
    // both ends of every link joined: kept computed per snapshot, not joined at every page
    materialised: true,
  },
  columns: [
    idColumn('link (the id of its row in neighbors/all)'),
    ...deviceColumns(),
    col('srcIntName', 'string', 'Local switch port of the link.'),
    col('srcMode', 'string', 'Mode of the local port.', { values: VLAN_MODES }),
    col('srcNativeVlan', 'integer', 'Native VLAN of the local port, null on an access port.'),
    col('srcVlans', 'string', 'VLANs the local port carries as ranges, e.g. "1,10-20" (its access VLAN, or its trunk\'s allowed VLANs); null when none.'),
    col('srcVlanCount', 'integer', 'Number of VLANs the local port carries.'),
    col('dstSn', 'string', 'Serial number of the neighbour.'),
    col('dstHostname', 'string', 'Hostname of the neighbour.'),
    col('dstIntName', 'string', 'Port of the neighbour on the link.'),
    col('dstMode', 'string', 'Mode of the neighbour\'s port.', { values: VLAN_MODES }),
    col('dstNativeVlan', 'integer', 'Native VLAN of the neighbour\'s port, null on an access port.'),
    col('dstVlans', 'string', 'VLANs the neighbour\'s port carries as ranges; null when none.'),
    col('dstVlanCount', 'integer', 'Number of VLANs the neighbour\'s port carries.'),
    col('srcOnlyVlans', 'string', 'VLANs the local port carries and the neighbour\'s does not, as ranges; null when none.'),
    col('dstOnlyVlans', 'string', 'VLANs the neighbour\'s port carries and the local one does not, as ranges; null when none.'),
  ],
  key: ['sn', 'srcIntName', 'dstSn', 'dstIntName'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [],
  webPath: '/technology/spanning-tree/inconsistencies/neighbor-ports-vlan-mismatch',
}

export const STP_PORTS_MULTIPLE_NEIGHBORS: TableDef = {
  path: 'spanning-tree/inconsistencies/ports-multiple-neighbors',
  title: 'Spanning-tree ports with several neighbours',
  description:
    'Spanning-tree ports (spanning-tree/ports, any tree) on which CDP or LLDP sees more than one neighbour (neighbors/all): a shared segment behind the port, such as an unmanaged switch or a hub, which the spanning tree of the discovered switches cannot see into.',
  snapshotScoped: true,
  source: {
    kind: 'derived',
    sql: [
      "SELECT n.snapshot_id, n.local_sn || '/' || n.local_int AS id, n.local_sn AS sn, max(n.local_host) AS hostname, max(n.site_name) AS site_name,",
      'n.local_int AS src_int_name, count(*) AS nei_count,',
      "array_agg(coalesce(n.remote_host, '') || ' ' || coalesce(n.remote_int, '') ORDER BY n.remote_host, n.remote_int) AS neighbors",
      'FROM inventory.neighbors n',
      'WHERE EXISTS (SELECT 1 FROM inventory.stp_ports p WHERE p.snapshot_id = n.snapshot_id AND p.sn = n.local_sn AND p.int_name = n.local_int)',
      'GROUP BY n.snapshot_id, n.local_sn, n.local_int HAVING count(*) > 1',
    ].join(' '),
    materialised: true,
  },
  columns: [
    idColumn('port (the serial number and the port)'),
    ...deviceColumns(),
    col('srcIntName', 'string', 'Spanning-tree port with several neighbours.'),
    col('neiCount', 'integer', 'Number of CDP/LLDP neighbours on the port.'),
    col('neighbors', 'stringArray', 'The neighbours as "hostname port", sorted.'),
  ],
  key: ['sn', 'srcIntName'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [],
  webPath: '/technology/spanning-tree/inconsistencies/ports-multiple-neighbors',
}

/** The MAC part of a bridge id ("priority.xxxx.xxxx.xxxx" → "xxxx.xxxx.xxxx") in SQL. */
const bridgeMac = (id: string) => `substring(${id} FROM position('.' IN ${id}) + 1)`

export const STP_CDP_PORTS_MISMATCH: TableDef = {
  path: 'spanning-tree/inconsistencies/stp-cdp-ports-mismatch',
  title: 'Spanning-tree and CDP/LLDP neighbours that differ',
  description:
    'Root and alternate ports (spanning-tree/ports, each tree) whose designated bridge, the bridge whose BPDUs the port receives, is not the discovered switch that CDP or LLDP sees on the port (neighbors/all, spanning-tree/bridges): a switch in between that is not discovered, a bridge that forwards BPDUs, or a wrong cable record. The bridge whose BPDUs arrive is named where it was discovered.',
  snapshotScoped: true,
  source: {
    kind: 'derived',
    sql: [
      "SELECT p.snapshot_id, p.id || '/' || n.id AS id, p.sn, p.hostname, p.site_name, p.int_name, p.vlan_id, p.instance, p.port_role, p.designated_bridge,",
      'd.sn AS stp_nei_sn, d.hostname AS stp_nei_hostname, n.remote_sn AS nei_sn, n.remote_host AS nei_hostname, n.remote_int AS nei_int_name, b.bridge_id AS nei_bridge_id',
      'FROM inventory.stp_ports p',
      'JOIN inventory.neighbors n ON n.snapshot_id = p.snapshot_id AND n.local_sn = p.sn AND n.local_int = p.int_name',
      'JOIN (SELECT DISTINCT ON (snapshot_id, sn) snapshot_id, sn, bridge_id FROM inventory.stp_bridges WHERE bridge_id IS NOT NULL ORDER BY snapshot_id, sn, id) b',
      'ON b.snapshot_id = p.snapshot_id AND b.sn = n.remote_sn',
      'LEFT JOIN LATERAL (SELECT x.sn, x.hostname FROM inventory.stp_bridges x',
      `WHERE x.snapshot_id = p.snapshot_id AND ${bridgeMac('x.bridge_id')} = ${bridgeMac('p.designated_bridge')} ORDER BY x.id LIMIT 1) d ON true`,
      `WHERE p.port_role IN ('root', 'alternate') AND p.designated_bridge IS NOT NULL AND ${bridgeMac('b.bridge_id')} <> ${bridgeMac('p.designated_bridge')}`,
    ].join(' '),
  },
  columns: [
    idColumn('port and link (the id of the spanning-tree/ports row, "/" and the id of the neighbors/all row)'),
    ...deviceColumns(),
    col('intName', 'string', 'Root or alternate port.'),
    col('vlanId', 'integer', 'VLAN of the port\'s tree, as in spanning-tree/ports.'),
    col('instance', 'integer', 'Instance of the port\'s tree, as in spanning-tree/ports.'),
    col('portRole', 'string', 'Role of the port.', { values: ['root', 'alternate'] }),
    col('designatedBridge', 'string', 'Bridge id of the designated bridge of the port\'s segment: the bridge whose BPDUs the port receives.'),
    col('stpNeiSn', 'string', 'Serial number of the discovered switch with that bridge id\'s MAC address, null where none was discovered.'),
    col('stpNeiHostname', 'string', 'Hostname of that switch, null where none was discovered.'),
    col('neiSn', 'string', 'Serial number of the CDP/LLDP neighbour on the port.'),
    col('neiHostname', 'string', 'Hostname of the CDP/LLDP neighbour.'),
    col('neiIntName', 'string', 'Port of the CDP/LLDP neighbour.'),
    col('neiBridgeId', 'string', 'Bridge id of the CDP/LLDP neighbour (spanning-tree/bridges).'),
  ],
  key: ['sn', 'intName', 'vlanId', 'instance', 'neiSn', 'neiIntName'],
  nullableKey: ['vlanId', 'instance'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [],
  webPath: '/technology/spanning-tree/inconsistencies/stp-cdp-ports-mismatch',
}

export const STP_INCONSISTENCY_TABLES: readonly TableDef[] = [STP_NEIGHBOR_PORTS_VLAN_MISMATCH, STP_PORTS_MULTIPLE_NEIGHBORS, STP_CDP_PORTS_MISMATCH]
