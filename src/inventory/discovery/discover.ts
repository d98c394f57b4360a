/**
 * Discovery: accept a request (snapshot and job rows written before answering), then discover in
 * the background: simulate, bulk-load every table into the snapshot's partitions, analyze,
 * and mark the snapshot done — or error, with the reason in the job.
 */
import { randomUUID } from 'node:crypto'
import { PRODUCT_VERSION } from '../../shared/product.js'
import { STORED_TABLES, partitionTable, type StoredTableDef } from '../catalog/index.js'
import { simulate } from '../simulator/index.js'
import { dropSnapshotRows, loadSnapshotRows, type TableRows } from '../storage/index.js'
import type { DiscoverySettings } from '../settings/index.js'
import { insertSnapshot, updateSnapshot } from '../snapshots/store.js'
import { measureSnapshot } from '../snapshots/figures.js'
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

function* abortable(source: Iterable<TableRows>, signal: AbortSignal, onTable: (i: number, table: StoredTableDef) => void): Generator<TableRows> {
  let i = 0
  for (const t of source) {
    onTable(i++, t.table)
    const rows = t.rows as Iterable<readonly unknown[]>
    yield {
      table: t.table,
      rows: (function* () {
        let n = 0
        for (const r of rows) {
          if (++n % 5000 === 0 && signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted')
          yield r
        }
      })(),
    }
  }
}

/** Marks a snapshot and its job failed and drops whatever rows it had (idempotent). */
export async function failSnapshot(svc: InventoryServices, id: string, jobId: string, errorType: string, message: string): Promise<void> {
  await dropSnapshotRows(svc.db, id)
  const now = svc.now()
  await updateSnapshot(svc.db, id, { status: 'error', loaded: false, loading: false, ts_end: now, ts_change: now, errors: [{ errorType, count: 1 }] })
  await jobFinished(svc.db, jobId, now, message)
}

/** Writes the snapshot and job rows and starts discovery in the background. */
export async function startDiscovery(svc: InventoryServices, req: DiscoveryRequest): Promise<{ id: string; jobId: string }> {
  const id = randomUUID()
  const jobId = randomUUID()
  const now = svc.now()
  const generation = await nextGeneration(svc, req.settings)
  const settings = { ...req.settings, generation, network: networkKey(req.settings) }
  const sim = simulate(settings)
  const untrack = svc.runner.track(jobId)
  await svc.db.transaction(async (tx) => {
    await insertSnapshot(tx, {
      id,
      name: req.name,
      note: req.note,
      status: 'run',
      origin: 'simulator',
      settings,
      sites: sim.summary.sites,
      tsStart: now,
      creator: req.username,
      version: PRODUCT_VERSION,
      initialVersion: PRODUCT_VERSION,
      jobId,
    })
    await insertJob(tx, { id: jobId, name: 'discovery', snapshotId: id, username: req.username, now, owner: svc.runner.instance })
  }).catch((err: unknown) => {
    untrack()
    throw err
  })
  svc.runner.run(`discovery ${id}`, async (signal) => {
    try {
      await jobStarted(svc.db, jobId, svc.now())
      let current = 0
      const total = Math.max(1, sim.slices)
      const source = abortable(sim.tables(), signal, (i) => (current = i))
      const counts = await loadSnapshotRows(
        svc.db,
        id,
        source,
        (table, n) => jobProgress(svc.db, jobId, ((current + 0.5) / total) * 0.95, `loading ${table.path}: ${n} rows`),
        svc.db.kind === 'postgres' ? LOAD_CONCURRENCY : 1,
      )
      await updateSnapshot(svc.db, id, { status: 'finishing', ts_change: svc.now() })
      await jobProgress(svc.db, jobId, 0.96, 'analyzing')
      for (const table of STORED_TABLES) await svc.db.query(`ANALYZE ${partitionTable(table, id)}`)
      const measures = await measureSnapshot(svc.db, id)
      const end = svc.now()
      await updateSnapshot(svc.db, id, {
        ...measures,
        status: 'done',
        loaded: true,
        counts,
        total_dev_count: counts['inventory/devices'] ?? 0,
        licensed_dev_count: counts['inventory/devices'] ?? 0,
        device_added_count: sim.summary.deviceAddedCount,
        device_removed_count: sim.summary.deviceRemovedCount,
        interface_count: counts['inventory/interfaces'] ?? 0,
        ts_end: end,
        ts_change: end,
      })
      await jobFinished(svc.db, jobId, end)
    } catch (err) {
      svc.log.error({ err, snapshot: id }, 'discovery failed')
      const interrupted = signal.aborted
      const [errorType, message] = interrupted ? ['INTERRUPTED', 'interrupted: the service stopped'] : ['DISCOVERY_FAILED', 'discovery failed']
      await svc.runner.record(jobId, () => failSnapshot(svc, id, jobId, errorType, message))
    } finally {
      untrack()
    }
  })
  return { id, jobId }
}
