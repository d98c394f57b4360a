/**
 * Discovery: accept a request (snapshot and job rows written before answering), then discover in
 * the background: produce every table's rows from the source (the simulator or the network),
 * bulk-load them into the snapshot's partitions, analyze, and mark the snapshot done — or error,
 * with the reason in the job (a user's stop, a service shutdown, a failure).
 */
import { discoveryDuration, discoveryJobs, ingestRows } from '../metrics.js'
import { randomUUID } from 'node:crypto'
import { PRODUCT_VERSION } from '../../shared/product.js'
import { STORED_TABLES, partitionTable, type StoredTableDef } from '../catalog/index.js'
import { buildNetworkInTurns, simulate } from '../simulator/index.js'
import { dropSnapshotRows, loadSnapshotRows, type TableRows } from '../storage/index.js'
import type { DiscoverySettings } from '../settings/index.js'
import { insertSnapshot, updateSnapshot, type SnapshotOrigin, type SnapshotSite } from '../snapshots/store.js'
import { measureSnapshot } from '../snapshots/figures.js'
import { previousSnapshot } from '../snapshots/previous.js'
import { keepChanges } from '../query/change-counts.js'
import { trackBackground } from '../query/keeping.js'
import { ApiError } from '../../shared/errors.js'
import { copyGlobalAttributes } from '../attributes/index.js'
import { insertJob, jobFinished, jobProgress, jobStarted } from './jobs.js'
import type { InventoryServices } from './runner.js'

/** Index builds run at once on PostgreSQL after the load (PGlite has one connection). */
export const LOAD_CONCURRENCY = 3

export interface DiscoveryRequest {
  settings: DiscoverySettings
  name: string | null
  note: string | null
  username: string | null
}

/** The reason a job's signal carries when a user stopped it. */
export class StopRequested extends Error {
  constructor(readonly by: string | null) {
    super(`stopped by ${by ?? 'a user'}`)
    this.name = 'StopRequested'
  }
}

/** Identity of a simulated network (kept in the snapshot's settings; PATCH never changes it). */
function networkKey(s: DiscoverySettings): string {
  return `${s.profile}/${s.seed}`
}

/** Earlier simulator snapshots of the same network: the next one drifts from them. */
async function nextGeneration(svc: InventoryServices, s: DiscoverySettings): Promise<number> {
  const r = await svc.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM inventory.snapshots WHERE origin = 'simulator' AND settings->>'network' = $1`,
    [networkKey(s)],
  )
  return r.rows[0]!.n
}

function stopped(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted')
}

/** The rows of a slice, checking every 5000 rows whether the discovery was stopped. */
function guarded(rows: TableRows['rows'], signal: AbortSignal): TableRows['rows'] {
  if (Symbol.asyncIterator in rows) {
    return (async function* () {
      let n = 0
      for await (const r of rows) {
        if (++n % 5000 === 0 && signal.aborted) throw stopped(signal)
        yield r
      }
    })()
  }
  return (function* () {
    let n = 0
    for (const r of rows) {
      if (++n % 5000 === 0 && signal.aborted) throw stopped(signal)
      yield r
    }
  })()
}

function* abortable(source: Iterable<TableRows>, signal: AbortSignal, onTable: (i: number, table: StoredTableDef) => void): Generator<TableRows> {
  let i = 0
  for (const t of source) {
    if (signal.aborted) throw stopped(signal)
    onTable(i++, t.table)
    yield { table: t.table, rows: guarded(t.rows, signal) }
  }
}

/**
 * Marks a snapshot and its job failed and drops whatever rows it had (idempotent); `afterDrop`
 * runs once the rows are gone and before the job is marked ended (it removes what the job stored
 * that only those rows referred to).
 */
export async function failSnapshot(
  svc: InventoryServices,
  id: string,
  jobId: string,
  errorType: string,
  message: string,
  errors: Array<{ errorType: string; count: number }> = [],
  afterDrop: () => Promise<void> = async () => {},
): Promise<void> {
  await dropSnapshotRows(svc.db, id)
  await afterDrop()
  const now = svc.now()
  await updateSnapshot(svc.db, id, { status: 'error', loaded: false, loading: false, ts_end: now, ts_change: now, errors: [{ errorType, count: 1 }, ...errors] })
  await jobFinished(svc.db, jobId, now, message)
}

export interface OpenedDiscovery {
  id: string
  jobId: string
  /** Its source (a label of the discovery metrics). */
  origin: SnapshotOrigin
  /** performance.now() at its start. */
  startedAt: number
  /** Ends this instance's heartbeats for the job: call it when the job's task ends. */
  untrack(): void
}

/** Writes the snapshot and job rows of a new discovery in one transaction. */
export async function openDiscovery(
  svc: InventoryServices,
  s: { origin: SnapshotOrigin; settings: Record<string, unknown>; sites: SnapshotSite[]; name: string | null; note: string | null; username: string | null },
): Promise<OpenedDiscovery> {
  const id = randomUUID()
  const jobId = randomUUID()
  const now = svc.now()
  const startedAt = performance.now()
  // Tracked before its rows exist, so the job is never seen without its owner alive.
  const untrack = svc.runner.track(jobId)
  await svc.db.transaction(async (tx) => {
    await insertSnapshot(tx, { id, name: s.name, note: s.note, status: 'run', origin: s.origin, settings: s.settings, sites: s.sites, tsStart: now, creator: s.username, version: PRODUCT_VERSION, initialVersion: PRODUCT_VERSION, jobId })
    await insertJob(tx, { id: jobId, name: 'discoveryNew', snapshotId: id, username: s.username, now, owner: svc.runner.instance })
    await copyGlobalAttributes(tx, id, now)
  }).catch((err: unknown) => {
    untrack()
    throw err
  })
  return { id, jobId, origin: s.origin, startedAt, untrack }
}

export interface LoadedFigures {
  counts: Record<string, number>
  added: number
  removed: number
  sites?: SnapshotSite[]
  errors?: Array<{ errorType: string; count: number }>
}

/**
 * Loads a source's rows into the snapshot (progress from `from` to 0.95 of the job), analyzes
 * and marks it done with its figures (`figures` gets the row counts per table).
 */
export async function loadAndFinish(
  svc: InventoryServices,
  d: OpenedDiscovery,
  source: Iterable<TableRows>,
  slices: number,
  from: number,
  signal: AbortSignal,
  figures: (counts: Record<string, number>) => Promise<LoadedFigures>,
): Promise<void> {
  let current = 0
  const total = Math.max(1, slices)
  const counts = await loadSnapshotRows(
    svc.db,
    d.id,
    abortable(source, signal, (i) => (current = i)),
    async (table, n) => {
      const stop = await jobProgress(svc.db, d.jobId, from + ((current + 0.5) / total) * (0.95 - from), `loading ${table.path}: ${n} rows`)
      if (stop) svc.runner.stop(d.jobId, new StopRequested(stop.by))
    },
    svc.db.kind === 'postgres' ? LOAD_CONCURRENCY : 1,
  )
  await updateSnapshot(svc.db, d.id, { status: 'finishing', ts_change: svc.now() })
  await jobProgress(svc.db, d.jobId, 0.96, 'analyzing')
  for (const table of STORED_TABLES) await svc.db.query(`ANALYZE ${partitionTable(table, d.id)}`)
  const f = await figures(counts)
  const measures = await measureSnapshot(svc.db, d.id)
  const end = svc.now()
  await updateSnapshot(svc.db, d.id, {
    ...measures,
    status: 'done',
    loaded: true,
    counts,
    total_dev_count: counts['inventory/devices'] ?? 0,
    licensed_dev_count: counts['inventory/devices'] ?? 0,
    device_added_count: f.added,
    device_removed_count: f.removed,
    interface_count: counts['inventory/interfaces'] ?? 0,
    ts_end: end,
    ts_change: end,
    ...(f.sites ? { sites: f.sites } : {}),
    ...(f.errors ? { errors: f.errors } : {}),
  })
  // the snapshot is there: its comparison with the previous one is kept in the background
  keepChangesSincePrevious(svc, d.id)
  await jobFinished(svc.db, d.jobId, end)
  discoveryEnded(d, 'done')
  let rows = 0
  for (const n of Object.values(counts)) rows += n
  ingestRows.inc({ source: d.origin }, rows)
}

function discoveryEnded(d: OpenedDiscovery, outcome: 'done' | 'failed' | 'stopped' | 'interrupted'): void {
  discoveryJobs.inc({ source: d.origin, outcome })
  discoveryDuration.observe({ source: d.origin, outcome }, (performance.now() - d.startedAt) / 1000)
}

/** How long the keeping of one table of a discovery's comparison may take (a request's is the query limit). */
const CHANGE_KEEPING_LIMIT_MS = 10 * 60_000

/**
 * Keeps the comparison with the snapshot before this one of the same network (the rows that
 * differ and their counts) in the background (`query.keepingConcurrency` tables at once on PostgreSQL), so that `GET snapshots/{id}/changes` and compared
 * table requests read them (`query/change-counts.ts`, `query/kept-comparison.ts`); a request that
 * comes while a table is being kept waits for that table (`query/keeping.ts`). Call it once the
 * snapshot is done: nothing waits for this. Without such a snapshot (or with one unloaded) there
 * is nothing to keep; a table that fails, or that a restart or shutdown cuts short, is left to the
 * first request. A rediscovery of devices keeps it again after it replaced their rows.
 */
export function keepChangesSincePrevious(svc: InventoryServices, id: string): void {
  let finished!: () => void
  trackBackground(svc.db, new Promise<void>((resolve) => (finished = resolve)))
  const work = async (signal: AbortSignal) => {
    let older: string
    try {
      older = await previousSnapshot(svc.db, id)
    } catch (err) {
      if (err instanceof ApiError) return
      throw err
    }
    try {
      const started = performance.now()
      const concurrency = svc.db.kind === 'postgres' ? svc.config.query.keepingConcurrency : 1
      const kept = await keepChanges(svc.db, { newer: id, older }, false, CHANGE_KEEPING_LIMIT_MS, signal, concurrency)
      svc.log.info({ snapshot: id, against: older, tables: kept, ms: Math.round(performance.now() - started) }, 'kept the comparison with the previous snapshot')
    } catch (err) {
      if (signal.aborted) return
      svc.log.warn({ err, snapshot: id, against: older }, 'comparison with the previous snapshot not kept; the first request keeps it')
    }
  }
  try {
    svc.runner.run(`keepComparison ${id}`, (signal) => work(signal).finally(finished))
  } catch (err) {
    // the service is shutting down: left to the first request
    finished()
    svc.log.info({ err, snapshot: id }, 'comparison with the previous snapshot left to the first request')
  }
}

/**
 * Records why a discovery ended early: a user's stop, the service stopping, or a failure.
 * `afterDrop` as `failSnapshot`'s.
 */
export async function recordFailure(
  svc: InventoryServices,
  d: OpenedDiscovery,
  signal: AbortSignal,
  err: unknown,
  errors: Array<{ errorType: string; count: number }> = [],
  afterDrop?: () => Promise<void>,
): Promise<void> {
  const reason: unknown = signal.reason
  const [type, message] =
    signal.aborted && reason instanceof StopRequested
      ? ['STOPPED', reason.message]
      : signal.aborted
        ? ['INTERRUPTED', 'interrupted: the service stopped']
        : ['DISCOVERY_FAILED', `discovery failed: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500)]
  discoveryEnded(d, type === 'STOPPED' ? 'stopped' : type === 'INTERRUPTED' ? 'interrupted' : 'failed')
  if (type === 'DISCOVERY_FAILED') svc.log.error({ err, snapshot: d.id }, 'discovery failed')
  else svc.log.info({ snapshot: d.id, reason: message }, 'discovery ended early')
  await svc.runner.record(d.jobId, () => failSnapshot(svc, d.id, d.jobId, type, message, errors, afterDrop))
}

/** Starts a discovery of the simulated network the settings name. */
export async function startDiscovery(svc: InventoryServices, req: DiscoveryRequest): Promise<OpenedDiscovery> {
  const generation = await nextGeneration(svc, req.settings)
  const settings = { ...req.settings, generation, network: networkKey(req.settings) }
  const sim = simulate(settings, await buildNetworkInTurns(settings))
  const d = await openDiscovery(svc, { origin: 'simulator', settings, sites: sim.summary.sites, name: req.name, note: req.note, username: req.username })
  svc.runner.run(
    `discovery ${d.id}`,
    async (signal) => {
      try {
        await jobStarted(svc.db, d.jobId, svc.now())
        await loadAndFinish(svc, d, sim.tables(), sim.slices, 0, signal, async () => ({ counts: {}, added: sim.summary.deviceAddedCount, removed: sim.summary.deviceRemovedCount }))
      } catch (err) {
        await recordFailure(svc, d, signal, err)
      } finally {
        d.untrack()
      }
    },
    d.jobId,
  )
  return d
}
