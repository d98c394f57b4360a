/** Tables of layer 2: VLANs, neighbour discovery (CDP/LLDP), switch ports. */
import { col, deviceColumns, idColumn } from './columns.js'
import type { StoredTableDef, TableDef } from './types.js'

export const VLANS: StoredTableDef = {
  path: 'vlan/device',
  title: 'VLANs per device',
  description: 'VLANs configured on every switch.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.vlans' },
  columns: [
    idColumn('VLAN entry'),
    ...deviceColumns(),
    col('vlanId', 'integer', 'VLAN id (1–4094).'),
    col('vlanName', 'string', 'Configured VLAN name.'),
    col('status', 'string', 'VLAN state.', { values: ['active', 'suspend', 'act/lshut'] }),
    col('stpDomain', 'string', 'Spanning-tree domain the device belongs to, null when none.'),
    col('stdStatus', 'string', 'The VLAN state in the same standard terms as status (netinv stores it normalised already).', { sql: 't."status"', values: ['active', 'suspend', 'act/lshut'] }),
  ],
  key: ['sn', 'vlanId'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['vlanId']],
  webPath: '/technology/vlans/device',
}

export const NEIGHBORS: StoredTableDef = {
  path: 'neighbors/all',
  title: 'Neighbours',
  description: 'Links between discovered devices seen by CDP or LLDP, one row per direction.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.neighbors' },
  columns: [
    idColumn('neighbour relation'),
    col('localSn', 'string', 'Serial number of the device that reports the neighbour.'),
    col('localHost', 'string', 'Hostname of the device that reports the neighbour.'),
    col('localInt', 'string', 'Local interface of the link.'),
    col('remoteSn', 'string', 'Serial number of the neighbour device.'),
    col('remoteHost', 'string', 'Hostname of the neighbour device.'),
    col('remoteInt', 'string', 'Interface of the neighbour on the link.'),
    col('remoteIp', 'ip', 'Management address the neighbour advertises, null when none.'),
    col('protocols', 'stringArray', 'Discovery protocols that saw the link, e.g. ["cdp","lldp"].', { unordered: true }),
    col('siteName', 'string', 'Site of the reporting device.'),
    // an empty serial is no serial: the key matches null to '' (nullableKey), so must this
    col('managedDev', 'boolean', 'Whether the neighbour is a discovered device (it has a serial number in the snapshot).', { sql: `coalesce(t."remote_sn", '') <> ''` }),
  ],
  key: ['localSn', 'localInt', 'remoteSn', 'remoteInt'],
  // a neighbour that was not discovered has no serial (and may advertise no port)
  nullableKey: ['remoteSn', 'remoteInt'],
  defaultSort: { column: 'localHost', order: 'asc' },
  indexes: [['localHost', 'id'], ['localSn'], ['remoteSn']],
  webPath: '/technology/neighbors',
}

export const SWITCHPORTS: StoredTableDef = {
  path: 'interfaces/switchports',
  title: 'Switch ports',
  description: 'Layer 2 configuration of every switch port: mode and VLANs.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.switchports' },
  columns: [
    idColumn('switch port'),
    ...deviceColumns(),
    col('intName', 'string', 'Interface name.'),
    col('dscr', 'string', 'Configured interface description.'),
    col('mode', 'string', 'Switch port mode.', { values: ['access', 'trunk'] }),
    col('accVlan', 'integer', 'Access VLAN (access ports), null on trunks.'),
    col('nativeVlan', 'integer', 'Native VLAN (trunks), null on access ports.'),
    col('trunkVlan', 'string', 'VLANs allowed on a trunk as configured, e.g. "1-4094" or "10,20,30"; null on access ports.'),
    col('voiceVlan', 'integer', 'Voice VLAN, null when none.'),
    col('edge', 'boolean', 'Whether the port is an edge port: no discovered device is its CDP/LLDP neighbour (neighbors/all).', {
      // set once when the rows are in: computed at every read, it hashed the neighbours of every
      // loaded snapshot for each request (145 of 147 ms of a page of 100 on "large", two loaded)
      atLoad: { default: true, where: 'EXISTS (SELECT 1 FROM {inventory.neighbors} n WHERE n.local_sn = t."sn" AND n.local_int = t."int_name")' },
    }),
    col('dynamicMacCount', 'integer', 'Number of MAC addresses the switch learned dynamically on the port (its addressing/mac rows of type dynamic), counted when the rows are collected; null in snapshots uploaded from files written before netinv kept it.'),
  ],
  key: ['sn', 'intName'],
  // the MAC addresses a port learned come and go as hosts talk (and age out): between two
  // discoveries of the same simulated network ("small") they were the only difference on 783 of
  // the 815 changed ports
  volatile: ['dynamicMacCount'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'intName', 'id'], ['accVlan']],
  positions: ['hostname'],
  webPath: '/technology/interfaces/switchports',
}

export const LAYER2_TABLES: readonly TableDef[] = [VLANS, NEIGHBORS, SWITCHPORTS]
