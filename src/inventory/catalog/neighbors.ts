/**
 * Neighbour discovery (CDP/LLDP) beyond the links between discovered devices (neighbors/all):
 * links seen from one side only, neighbours that were not discovered (network devices and end
 * points), and the IP phones among them.
 */
import { col, deviceColumns, idColumn } from './columns.js'
import { NEIGHBORS } from './layer2.js'
import type { ColumnDef, StoredTableDef, TableDef } from './types.js'

export const NEIGHBORS_UNIDIRECTIONAL: StoredTableDef = {
  path: 'neighbors/unidirectional',
  title: 'Unidirectional neighbours',
  description:
    'Rows of neighbors/all whose neighbour does not report the link back (e.g. CDP/LLDP transmission off on its port, or the entry aged out there): a discovered device sees a discovered neighbour that does not see it. Computed when the snapshot is loaded.',
  snapshotScoped: true,
  source: {
    kind: 'stored',
    table: 'inventory.neighbors_unidirectional',
    compute: [
      'SELECT n.id, n.local_sn, n.local_host, n.local_int, n.remote_sn, n.remote_host, n.remote_int, n.remote_ip, n.protocols, n.site_name',
      'FROM {inventory.neighbors} n WHERE NOT EXISTS (SELECT 1 FROM {inventory.neighbors} r',
      'WHERE r.local_sn = n.remote_sn AND r.local_int = n.remote_int AND r.remote_sn = n.local_sn AND r.remote_int = n.local_int)',
    ].join(' '),
  },
  // the columns of neighbors/all, whose rows these are
  columns: NEIGHBORS.columns.map((c) =>
    c.name === 'id' ? idColumn('neighbour relation (the id of its neighbors/all row)') : c.name === 'remoteSn' ? { ...c, description: 'Serial number of the neighbour, which does not report this link.' } : c,
  ),
  key: ['localSn', 'localInt', 'remoteSn', 'remoteInt'],
  nullableKey: NEIGHBORS.nullableKey,
  defaultSort: { column: 'localHost', order: 'asc' },
  indexes: [['localHost', 'id']],
  webPath: '/technology/cdp-lldp/unidirectional-neighbors',
}

/** Columns of a neighbour that discovery saw through CDP/LLDP but did not discover itself. */
function foreignNeighborColumns(kind: string): ColumnDef[] {
  const local = new Set(['localSn', 'localHost', 'localInt', 'siteName'])
  return [
    idColumn(`${kind} neighbour`),
    ...NEIGHBORS.columns.filter((c) => local.has(c.name)),
    col('remoteName', 'string', 'Name the neighbour advertises (CDP device id or LLDP system name).'),
    col('remoteInt', 'string', 'Port the neighbour advertises (CDP port id or LLDP port description), null when none.'),
    col('remoteIp', 'ip', 'Management address the neighbour advertises, null when none.'),
    col('remotePlatform', 'string', 'Platform the neighbour advertises (CDP platform or LLDP system description).'),
    col('protocol', 'string', 'Discovery protocol that saw the neighbour.', { values: ['cdp', 'lldp'] }),
    col('capabilities', 'stringArray', 'Capabilities the neighbour advertises, e.g. ["router"], ["phone"], ["station"].', { unordered: true }),
  ]
}

/** A table of neighbours that discovery saw through CDP/LLDP but did not discover itself. */
function foreignNeighbors(kind: 'unmanaged' | 'endpoints', title: string, description: string, indexes: ReadonlyArray<readonly string[]>): StoredTableDef {
  return {
    path: `neighbors/${kind}`,
    title,
    description,
    snapshotScoped: true,
    source: { kind: 'stored', table: `inventory.neighbors_${kind}` },
    columns: foreignNeighborColumns(kind === 'unmanaged' ? 'unmanaged' : 'end point'),
    key: ['localSn', 'localInt', 'remoteName', 'remoteInt'],
    nullableKey: ['remoteName', 'remoteInt'],
    defaultSort: { column: 'localHost', order: 'asc' },
    indexes: [['localHost', 'id'], ['localSn'], ...indexes],
    webPath: `/technology/cdp-lldp/${kind === 'unmanaged' ? 'unmanaged-neighbors' : 'endpoints'}`,
  }
}

export const NEIGHBORS_UNMANAGED = foreignNeighbors(
  'unmanaged',
  'Unmanaged neighbours',
  'Network devices seen through CDP/LLDP that discovery did not discover (e.g. a provider edge router or a partner switch).',
  [],
)

export const NEIGHBORS_ENDPOINTS = foreignNeighbors(
  'endpoints',
  'End point neighbours',
  'End points that announce themselves through CDP/LLDP (IP phones, cameras, printers) on ports of discovered devices.',
  [['remoteIp']],
)

export const PHONES: StoredTableDef = {
  path: 'inventory/phones',
  title: 'IP phones',
  description: 'IP phones found through CDP/LLDP on switch ports (each is also in neighbors/endpoints and addressing/hosts).',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.phones' },
  columns: [
    idColumn('phone'),
    ...deviceColumns().map((c) => ({ ...c, description: c.description.replace('the device', 'the switch') })),
    col('intName', 'string', 'Switch port the phone is connected to.'),
    col('name', 'string', 'Name the phone advertises, e.g. SEP001BD4A1B2C3.'),
    col('model', 'string', 'Phone model the phone advertises.'),
    col('ip', 'ip', 'IP address of the phone.'),
    col('mac', 'mac', 'MAC address of the phone.'),
    col('vendor', 'string', 'Vendor registered for the MAC address prefix (OUI).'),
    col('voiceVlan', 'integer', 'Voice VLAN configured on the switch port, null when none.'),
    col('protocol', 'string', 'Discovery protocol the phone was seen with.', { values: ['cdp', 'lldp'] }),
    col('userMac', 'mac', 'MAC address of the computer connected through the phone; netinv does not tell it apart from the phone: always null.', { sql: 'NULL::text' }),
  ],
  key: ['sn', 'intName', 'mac'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['ip'], ['mac']],
  webPath: '/technology/ip-telephony/phones',
}

export const NEIGHBOR_TABLES: readonly TableDef[] = [NEIGHBORS_UNIDIRECTIONAL, NEIGHBORS_UNMANAGED, NEIGHBORS_ENDPOINTS, PHONES]
