/**
 * Interface rates by direction, per interface and per device: current load, transfer rates,
 * errors and drops received, sent, or both together. Every table here is a view of
 * interfaces/counters (the rates the device reports, averaged over its own interval), the same
 * source as interfaces/load and interfaces/{errors,drops}/bidirectional.
 */
import { col, deviceColumns, idColumn } from './columns.js'
import type { ColumnDef, TableDef } from './types.js'

/** The table a row per interface here is computed from (`rowFrom`: its kept comparison is derived from that one's). */
export const COUNTERS_PATH = 'interfaces/counters'

type Direction = 'bidirectional' | 'inbound' | 'outbound'
type Metric = 'load' | 'transfer-rates' | 'errors' | 'drops'

const DIRECTIONS: readonly Direction[] = ['bidirectional', 'inbound', 'outbound']

/** A counter of `inventory.counters` in one direction, or both added. */
function counter(name: 'bytes' | 'pkts' | 'err_pkts' | 'drop_pkts', d: Direction): string {
  if (d === 'inbound') return `in_${name}`
  if (d === 'outbound') return `out_${name}`
  return `(in_${name} + out_${name})`
}

/** Share of `part` in `whole` in percent, null when there was no traffic. */
const pct = (part: string, whole: string, digits: number) => `round((100.0 * (${part}) / nullif(${whole}, 0))::numeric, ${digits})::float8`

const WORDS: Readonly<Record<Direction, string>> = { bidirectional: 'received and sent', inbound: 'received', outbound: 'sent' }
/** The prefix IP Fabric's column names of a direction carry: impactErr, inImpactErr, outImpactErr. */
const impactName = (d: Direction, base: string) => (d === 'bidirectional' ? `impact${base}` : `${d === 'inbound' ? 'in' : 'out'}Impact${base}`)

function sourceSql(metric: Metric, d: Direction, perDevice: boolean): string {
  const bad = metric === 'errors' ? counter('err_pkts', d) : metric === 'drops' ? counter('drop_pkts', d) : '0'
  const inner = perDevice
    ? `SELECT snapshot_id, min(id) AS id, sn, min(hostname) AS hostname, min(site_name) AS site_name, count(*) AS int_count, sum(${counter('bytes', d)}) AS bytes, sum(${counter('pkts', d)}) AS pkts, sum(${bad}) AS bad, sum(speed_value) AS speed_value FROM inventory.counters GROUP BY snapshot_id, sn`
    : `SELECT snapshot_id, id, sn, hostname, site_name, int_name, dscr, speed_value, ${counter('bytes', d)} AS bytes, ${counter('pkts', d)} AS pkts, ${bad} AS bad FROM inventory.counters`
  const speedFactor = d === 'bidirectional' ? '2 * speed_value' : 'speed_value'
  const extra =
    metric === 'load' || metric === 'transfer-rates'
      ? [`${pct('bytes * 8', speedFactor, 2)} AS load`]
      : [`${pct('bad', 'pkts', 3)} AS bad_pct`, `ceil(coalesce(${pct('bad', 'pkts', 3)}, 0))::bigint AS impact`]
  return `SELECT x.*, ${extra.join(', ')} FROM (${inner}) x`
}

function columnsOf(metric: Metric, d: Direction, perDevice: boolean): ColumnDef[] {
  const words = WORDS[d]
  const what = perDevice ? 'on all interfaces of the device together' : 'on the interface'
  const cols: ColumnDef[] = [idColumn(perDevice ? 'device (the id of one of its counters rows)' : 'interface'), ...deviceColumns()]
  if (perDevice) cols.push(col('intCount', 'integer', 'Number of interfaces counted (operationally up interfaces with counters).'))
  else cols.push(col('intName', 'string', 'Interface name (as in inventory/interfaces).'), col('dscr', 'string', 'Configured interface description.'))
  cols.push(
    col('speedValue', 'integer', perDevice ? 'Sum of the operational speeds of the interfaces in bits per second.' : 'Operational speed in bits per second, null when unknown.'),
    col('bytes', 'integer', `Bytes per second ${words} ${what}.`),
    col('pkts', 'integer', `Packets per second ${words} ${what}.`),
  )
  if (metric === 'load' || metric === 'transfer-rates') {
    cols.push(col('load', 'number', `Bits ${words} as a percentage of the speed${d === 'bidirectional' ? ' in both directions (twice the speed)' : ''} (0–100), null when the speed is unknown.`))
    if (metric === 'transfer-rates') {
      cols.push(col(impactName(d, 'Loss'), 'number', 'Share of traffic lost in transit; netinv does not measure it: always null.', { sql: 'NULL::float8' }))
    }
    return cols
  }
  const [word, prefix, impact, rateName, pctAlias] =
    metric === 'errors' ? (['with errors', 'err', 'Err', 'errRate', undefined] as const) : (['discarded', 'drop', 'Drops', 'dropsRate', 'dropsPktsPct'] as const)
  cols.push(
    col(`${prefix}Pkts`, 'integer', `Packets ${word} per second, ${words}.`, { sql: 't."bad"' }),
    col(`${prefix}PktsPct`, 'number', `Packets ${word} as a percentage of all packets ${words}, null without traffic.`, { sql: 't."bad_pct"' }),
    col(rateName, 'integer', `Packets ${word} per second, ${words} (the same value as ${prefix}Pkts).`, { sql: 't."bad"' }),
    col('bytesRate', 'integer', `Bytes per second, ${words} (the same value as bytes).`, { sql: 't."bytes"' }),
    col(impactName(d, impact), 'integer', `The percentage rounded up to a whole number: 0 only when no packet was ${word}.`, { sql: 't."impact"' }),
  )
  if (pctAlias) cols.push(col(pctAlias, 'number', `The same value as ${prefix}PktsPct.`, { sql: 't."bad_pct"' }))
  return cols
}

const TITLES: Readonly<Record<Metric, string>> = { load: 'Interface load', 'transfer-rates': 'Interface transfer rates', errors: 'Interface errors', drops: 'Interface drops' }
const WHAT: Readonly<Record<Metric, string>> = {
  load: 'Current data rates and utilisation',
  'transfer-rates': 'Average data rates and utilisation',
  errors: 'Packets with errors',
  drops: 'Packets discarded',
}

function rateTable(metric: Metric, d: Direction, perDevice: boolean): TableDef {
  const path = `interfaces/${metric}/${d}${perDevice ? '-device' : ''}`
  const columns = columnsOf(metric, d, perDevice)
  const volatile = columns.filter((c) => !['id', 'sn', 'hostname', 'siteName', 'intName', 'dscr', 'speedValue', 'intCount'].includes(c.name)).map((c) => c.name)
  return {
    path,
    title: `${TITLES[metric]}: ${d}${perDevice ? ' per device' : ''}`,
    description: `${WHAT[metric]} ${WORDS[d]} ${perDevice ? 'per device (its operationally up interfaces together)' : 'per operationally up interface'}, computed from interfaces/counters.`,
    snapshotScoped: true,
    // a row per device sums the device's rows: kept computed per snapshot, not summed at every page
    source: { kind: 'derived', sql: sourceSql(metric, d, perDevice), ...(perDevice ? { materialised: true as const } : {}) },
    columns,
    key: perDevice ? ['sn'] : ['sn', 'intName'],
    volatile,
    // (a row per device sums the device's rows: not one row's copy)
    ...(perDevice ? {} : { rowFrom: COUNTERS_PATH }),
    defaultSort: { column: 'hostname', order: 'asc' },
    indexes: [],
    webPath: `/technology/${path}`,
  }
}

/** Every table of this module; errors and drops in both directions together per interface are in interface-health.ts. */
export const INTERFACE_RATE_TABLES: readonly TableDef[] = [
  ...DIRECTIONS.map((d) => rateTable('load', d, false)),
  ...DIRECTIONS.flatMap((d) => [rateTable('transfer-rates', d, false), rateTable('transfer-rates', d, true)]),
  ...DIRECTIONS.flatMap((d) => [...(d === 'bidirectional' ? [] : [rateTable('errors', d, false)]), rateTable('errors', d, true)]),
  ...DIRECTIONS.flatMap((d) => [...(d === 'bidirectional' ? [] : [rateTable('drops', d, false)]), rateTable('drops', d, true)]),
]

