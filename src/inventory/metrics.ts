/**
 * The inventory's Prometheus metrics (prom-client, one registry per process, rendered on its
 * admin listener's /metrics with the process's runtime and database families). Labels are
 * bounded: a table is a path of the catalog, a source one of the snapshot origins, an outcome or
 * kind one of a fixed few; never an id, an address or a user.
 */
import { Counter, Histogram, Registry } from 'prom-client'
import { ApiError } from '../shared/errors.js'

export const inventoryRegistry = new Registry()
const registers = [inventoryRegistry]

const QUERY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]
const JOB_BUCKETS = [0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600]

/** How a request ended, as a label: ok, rejected (4xx), timeout, unavailable (the database), error. */
export type Outcome = 'ok' | 'rejected' | 'timeout' | 'unavailable' | 'error'

export function outcomeOf(err: unknown): Outcome {
  if (err === undefined) return 'ok'
  if (err instanceof ApiError) {
    if (err.code === 'API_QUERY_TIMEOUT') return 'timeout'
    if (err.code === 'API_DATABASE_BUSY' || err.code === 'API_DATABASE_UNAVAILABLE') return 'unavailable'
    if (err.status < 500) return 'rejected'
  }
  return 'error'
}

export const tableQueryDuration = new Histogram({
  name: 'netinv_inventory_table_query_duration_seconds',
  help: 'Table requests (POST tables/<path>), from the body read to the last byte of the answer, by table, format (json, csv), whether a comparison (compare) and outcome.',
  labelNames: ['table', 'format', 'comparison', 'outcome'],
  buckets: QUERY_BUCKETS,
  registers,
})

export const tableRows = new Counter({
  name: 'netinv_inventory_table_rows_returned_total',
  help: 'Rows answered by table requests (a JSON page, or every row of a CSV export), by table.',
  labelNames: ['table'],
  registers,
})

export const csvBytes = new Counter({
  name: 'netinv_inventory_csv_bytes_total',
  help: 'Bytes of CSV exports written, by table.',
  labelNames: ['table'],
  registers,
})

export const changesDuration = new Histogram({
  name: 'netinv_inventory_changes_duration_seconds',
  help: 'GET snapshots/{id}/changes (rows added, removed and changed per table between two snapshots), by outcome.',
  labelNames: ['outcome'],
  buckets: QUERY_BUCKETS,
  registers,
})

export const discoveryJobs = new Counter({
  name: 'netinv_inventory_discovery_jobs_total',
  help: 'Discoveries (snapshots made by a source) that ended, by source (network, simulator, import, clone) and outcome (done, failed, stopped, interrupted).',
  labelNames: ['source', 'outcome'],
  registers,
})

export const discoveryDuration = new Histogram({
  name: 'netinv_inventory_discovery_duration_seconds',
  help: 'Time from the start of a discovery to its end, by source and outcome.',
  labelNames: ['source', 'outcome'],
  buckets: JOB_BUCKETS,
  registers,
})

export const devicesCollected = new Counter({
  name: 'netinv_inventory_discovery_devices_total',
  help: 'Devices a network discovery tried to collect over SNMP, by result (ok, timeout, auth, refused, error).',
  labelNames: ['result'],
  registers,
})

export const snmpErrors = new Counter({
  name: 'netinv_inventory_snmp_errors_total',
  help: 'SNMP failures of network discoveries by kind (timeout, auth, too-big, refused, protocol, stopped); a device may count several (one per credential or MIB group tried).',
  labelNames: ['kind'],
  registers,
})

export const ingestRows = new Counter({
  name: 'netinv_inventory_ingest_rows_total',
  help: 'Rows loaded into snapshots (discoveries and uploads), by source; rate() gives rows per second.',
  labelNames: ['source'],
  registers,
})

// Families without a series yet still show at zero where their labels are few and known.
for (const kind of ['timeout', 'auth', 'too-big', 'refused', 'protocol', 'stopped']) snmpErrors.inc({ kind }, 0)
for (const result of ['ok', 'timeout', 'auth', 'refused', 'error']) devicesCollected.inc({ result }, 0)
for (const source of ['network', 'simulator']) for (const outcome of ['done', 'failed']) discoveryJobs.inc({ source, outcome }, 0)
