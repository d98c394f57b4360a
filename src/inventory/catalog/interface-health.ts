/**
 * Interface health: traffic counters and the tables computed from them (load, errors, drops),
 * err-disabled ports, duplex agreement across links, and port-channel membership.
 */
import { col, deviceColumns, idColumn, storageName } from './columns.js'
import type { ColumnDef, StoredTableDef, TableDef } from './types.js'
import { COUNTERS_PATH } from './interface-rates.js'

const portColumns = (): ColumnDef[] => [
  ...deviceColumns(),
  col('intName', 'string', 'Interface name (as in inventory/interfaces).'),
  col('dscr', 'string', 'Configured interface description.'),
]

const rate = (name: string, what: string) => col(name, 'integer', `${what} per second, averaged over an interval: the one the device reports (e.g. 5 minutes), or for network discoveries the time between netinv's two readings of the counters (settings limits.counterIntervalMs).`)

/** Speed and data rates, as interfaces/counters stores them and interfaces/load shows them. */
const traffic = (): ColumnDef[] => [
  col('speedValue', 'integer', 'Operational speed in bits per second, null when unknown.'),
  rate('inBytes', 'Bytes received'),
  rate('outBytes', 'Bytes sent'),
  rate('inPkts', 'Packets received'),
  rate('outPkts', 'Packets sent'),
]

export const COUNTERS: StoredTableDef = {
  path: COUNTERS_PATH,
  title: 'Interface counters',
  description:
    'Traffic rates of every operationally up interface (IF-MIB ifHC*Octets, ifHC*UcastPkts, if*Errors, if*Discards as rates): the source of interfaces/load, interfaces/errors/bidirectional and interfaces/drops/bidirectional.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.counters' },
  columns: [
    idColumn('interface (the id of its inventory/interfaces row)'),
    ...portColumns(),
    ...traffic(),
    rate('inErrPkts', 'Received packets with errors (CRC, runts, giants, alignment)'),
    rate('outErrPkts', 'Packets that could not be sent because of errors (collisions, late collisions)'),
    rate('inDropPkts', 'Received packets discarded without an error (input queue full, no buffer)'),
    rate('outDropPkts', 'Packets discarded on output (output queue full, policing)'),
  ],
  key: ['sn', 'intName'],
  volatile: ['inBytes', 'outBytes', 'inPkts', 'outPkts', 'inErrPkts', 'outErrPkts', 'inDropPkts', 'outDropPkts'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'intName', 'id'], ['sn']],
  positions: ['hostname'],
  webPath: '/technology/interfaces/counters',
}

const COUNTER_BASE = 'snapshot_id, id, sn, hostname, site_name, int_name, dscr'

/** Share of `part` in `whole` in percent, null when there was no traffic. */
const pct = (part: string, whole: string, digits: number) => `round((100.0 * (${part}) / nullif(${whole}, 0))::numeric, ${digits})::float8`

export const LOAD: TableDef = {
  path: 'interfaces/load',
  title: 'Interface load',
  description: 'Current data rates of every operationally up interface and its utilisation, computed from interfaces/counters.',
  snapshotScoped: true,
  source: {
    kind: 'derived',
    sql: `SELECT ${COUNTER_BASE}, speed_value, in_bytes, out_bytes, in_pkts, out_pkts, ${pct('in_bytes * 8', 'speed_value', 2)} AS in_load, ${pct('out_bytes * 8', 'speed_value', 2)} AS out_load FROM inventory.counters`,
  },
  columns: [
    idColumn('interface'),
    ...portColumns(),
    ...traffic(),
    col('inLoad', 'number', 'Received bits as a percentage of the speed (0–100), null when the speed is unknown.'),
    col('outLoad', 'number', 'Sent bits as a percentage of the speed (0–100), null when the speed is unknown.'),
  ],
  key: ['sn', 'intName'],
  volatile: ['inBytes', 'outBytes', 'inPkts', 'outPkts', 'inLoad', 'outLoad'],
  rowFrom: COUNTERS_PATH,
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [],
  webPath: '/technology/interfaces/current-rates/bidirectional',
}

/** errors/bidirectional or drops/bidirectional: a share of packets, both directions together. */
function bidirectional(kind: 'errors' | 'drops'): TableDef {
  const [word, prefix, impact, cols] =
    kind === 'errors'
      ? (['with errors', 'err', 'impactErr', 'in_err_pkts + out_err_pkts'] as const)
      : (['discarded', 'drop', 'impactDrops', 'in_drop_pkts + out_drop_pkts'] as const)
  const share = pct(cols, 'in_pkts + out_pkts', 3)
  return {
    path: `interfaces/${kind}/bidirectional`,
    title: `Interface ${kind}: both directions`,
    description: `Packets ${word} on every operationally up interface, both directions together, computed from interfaces/counters.`,
    snapshotScoped: true,
    source: {
      kind: 'derived',
      sql: `SELECT ${COUNTER_BASE}, in_pkts + out_pkts AS pkts, ${cols} AS ${prefix}_pkts, ${share} AS ${prefix}_pkts_pct, ceil(coalesce(${share}, 0))::bigint AS ${storageName(impact)}, in_bytes + out_bytes AS bytes_rate FROM inventory.counters`,
    },
    columns: [
      idColumn('interface'),
      ...portColumns(),
      col('pkts', 'integer', 'Packets per second, received and sent.'),
      col(`${prefix}Pkts`, 'integer', `Packets ${word} per second, received and sent.`),
      col(`${prefix}PktsPct`, 'number', `Packets ${word} as a percentage of all packets, null without traffic.`),
      col(impact, 'integer', `The percentage rounded up to a whole number: 0 only when no packet was ${word}.`),
      col('bytesRate', 'integer', 'Bytes per second, received and sent.'),
      // the names IP Fabric's clients request
      ...(kind === 'errors'
        ? [col('errRate', 'integer', 'Packets with errors per second, received and sent (the same value as errPkts).', { sql: 't."err_pkts"' })]
        : [
            col('dropsRate', 'integer', 'Packets discarded per second, received and sent (the same value as dropPkts).', { sql: 't."drop_pkts"' }),
            col('dropsPktsPct', 'number', 'Packets discarded as a percentage of all packets, null without traffic (the same value as dropPktsPct).', { sql: 't."drop_pkts_pct"' }),
          ]),
    ],
    // by device, as the counters are indexed; sorting by the impact reads every row (~0.2 s on the large profile)
    key: ['sn', 'intName'],
    volatile: ['pkts', `${prefix}Pkts`, `${prefix}PktsPct`, impact, 'bytesRate', ...(kind === 'errors' ? ['errRate'] : ['dropsRate', 'dropsPktsPct'])],
    rowFrom: COUNTERS_PATH,
    defaultSort: { column: 'hostname', order: 'asc' },
    indexes: [],
    webPath: `/technology/interfaces/${kind === 'errors' ? 'error' : 'drop'}-rates/bidirectional`,
  }
}

export const ERRORS_BIDIRECTIONAL = bidirectional('errors')
export const DROPS_BIDIRECTIONAL = bidirectional('drops')

export const ERR_DISABLED: TableDef = {
  path: 'interfaces/errors/disabled',
  title: 'Err-disabled interfaces',
  description: 'Interfaces the device shut down because of an error (inventory/interfaces rows with l1 err-disabled).',
  snapshotScoped: true,
  source: {
    kind: 'derived',
    sql: "SELECT snapshot_id, id, sn, hostname, site_name, int_name, dscr, err_disabled AS error_reason FROM inventory.interfaces WHERE l1 = 'err-disabled'",
  },
  columns: [idColumn('interface'), ...portColumns(), col('errorReason', 'string', 'Cause of the err-disabled state, e.g. bpduguard, psecure-violation, link-flap.')],
  key: ['sn', 'intName'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [],
  webPath: '/technology/interfaces/errdisabled',
}

export const DUPLEX: StoredTableDef = {
  path: 'interfaces/duplex',
  title: 'Duplex across links',
  description: 'Duplex of both ends of every link between discovered devices (neighbors/all joined with inventory/interfaces), computed when the snapshot is loaded.',
  snapshotScoped: true,
  source: {
    kind: 'stored',
    table: 'inventory.duplex',
    compute: [
      'SELECT n.id, l.sn, l.hostname, l.site_name, l.int_name, l.duplex, l.speed_value, n.remote_host AS nei_hostname, n.remote_int AS nei_int_name,',
      "r.duplex AS nei_duplex, CASE WHEN l.duplex IS NULL OR r.duplex IS NULL THEN 'missing' WHEN l.duplex = r.duplex THEN 'ok' ELSE 'mismatch' END AS status",
      'FROM {inventory.neighbors} n',
      'JOIN {inventory.interfaces} l ON l.hostname = n.local_host AND l.int_name = n.local_int AND l.sn = n.local_sn',
      'LEFT JOIN {inventory.interfaces} r ON r.hostname = n.remote_host AND r.int_name = n.remote_int AND r.sn = n.remote_sn',
    ].join(' '),
  },
  columns: [
    idColumn('link end (the id of its neighbors/all row)'),
    ...deviceColumns(),
    col('intName', 'string', 'Local interface of the link.'),
    col('duplex', 'string', 'Duplex of the local interface.', { values: ['full', 'half', 'auto'] }),
    col('speedValue', 'integer', 'Speed of the local interface in bits per second.'),
    col('neiHostname', 'string', 'Hostname of the neighbour.'),
    col('neiIntName', 'string', 'Interface of the neighbour.'),
    col('neiDuplex', 'string', 'Duplex of the neighbour interface, null when unknown.', { values: ['full', 'half', 'auto'] }),
    col('status', 'string', 'ok when both ends agree, mismatch when they differ, missing when either end is unknown.', { values: ['ok', 'mismatch', 'missing'] }),
  ],
  key: ['sn', 'intName'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['status']],
  webPath: '/technology/interfaces/duplex',
}

export const PORT_CHANNEL_MEMBERS: StoredTableDef = {
  path: 'interfaces/port-channel/member-status',
  legacyPaths: ['interfaces/portChannel/memberStatus'],
  title: 'Port-channel members',
  description: 'Every port-channel (LAG) with its member ports and their bundling state.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.port_channel_members' },
  columns: [
    idColumn('port-channel'),
    ...portColumns().map((c) => (c.name === 'intName' ? { ...c, description: 'Port-channel interface, e.g. Po1, ae0.' } : c)),
    col('protocol', 'string', 'Aggregation protocol.', { values: ['lacp', 'pagp', 'static'] }),
    col('members', 'json', 'Member ports: array of {intName, state}; state bundled, standby, suspended or down.', { unordered: true }),
    col('memberCount', 'integer', 'Number of member ports.'),
    col('bundledCount', 'integer', 'Number of member ports that are bundled (forwarding).'),
  ],
  key: ['sn', 'intName'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id']],
  webPath: '/technology/port-channels/member-status-table',
}

export const INTERFACE_HEALTH_TABLES: readonly TableDef[] = [COUNTERS, LOAD, ERRORS_BIDIRECTIONAL, DROPS_BIDIRECTIONAL, ERR_DISABLED, DUPLEX, PORT_CHANNEL_MEMBERS]
