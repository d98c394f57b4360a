/**
 * Ingest benchmark: simulate a profile and bulk-load it into a fresh database through the same
 * code path discovery uses (COPY into new partitions, computed tables, indexes after the load,
 * attach, ANALYZE, the snapshot's sizes and counts).
 * Prints one JSON line. Not a test: numbers depend on the machine.
 *
 *   npx tsx bench/ingest.ts [--profile large] [--engine postgres|pglite] [--keep]
 *
 * PostgreSQL: a new database next to DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test),
 * dropped afterwards unless --keep (then its URL and the snapshot id are printed, e.g. for the
 * query benchmark). PGlite: on disk in a temporary directory, as the embedded default runs (its
 * worker thread is part of this process). The line includes the peak resident set size of the
 * process (VmHWM) and the heap limit V8 chose, which sets most of that peak.
 */
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { getHeapStatistics } from 'node:v8'
import { migrateInventory } from '../src/inventory/migrations/index.js'
import { isProfileName, simulate } from '../src/inventory/simulator/index.js'
import { loadSnapshotRows } from '../src/inventory/storage/index.js'
import { LOAD_CONCURRENCY } from '../src/inventory/discovery/index.js'
import { STORED_TABLES, partitionTable } from '../src/inventory/catalog/index.js'
import { insertSnapshot, updateSnapshot } from '../src/inventory/snapshots/store.js'
import { measureSnapshot } from '../src/inventory/snapshots/figures.js'
import { PRODUCT_VERSION } from '../src/shared/product.js'
import { openBenchDb } from './db.js'

const { values } = parseArgs({
  options: {
    profile: { type: 'string', default: 'large' },
    engine: { type: 'string', default: 'postgres' },
    seed: { type: 'string', default: '1' },
    keep: { type: 'boolean', default: false },
  },
})
const profile = values.profile!
if (!isProfileName(profile)) throw new Error(`unknown profile ${profile}`)

/** The process's peak resident set (VmHWM), in bytes: exact, where sampling misses short peaks. */
function peakRss(): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]
  return kb === undefined ? process.memoryUsage().rss : Number(kb) * 1024
}

const { db, url, drop } = await openBenchDb(values.engine!, values.keep)
try {
  await migrateInventory(db)
  const id = randomUUID()
  const settings = { profile, seed: Number(values.seed), sites: [], generation: 0 }
  await insertSnapshot(db, { id, name: `bench ${profile}`, note: null, status: 'run', origin: 'simulator', settings: { ...settings, network: `${profile}/${settings.seed}` }, sites: [], tsStart: Date.now(), creator: 'bench', version: PRODUCT_VERSION, initialVersion: PRODUCT_VERSION, jobId: null })
  const sim = simulate(settings)
  const t0 = performance.now()
  const counts = await loadSnapshotRows(db, id, sim.tables(), () => {}, db.kind === 'postgres' ? LOAD_CONCURRENCY : 1)
  const loaded = performance.now()
  for (const table of STORED_TABLES) await db.query(`ANALYZE ${partitionTable(table, id)}`)
  const analyzed = performance.now()
  const measures = await measureSnapshot(db, id)
  const measured = performance.now()
  await updateSnapshot(db, id, { ...measures, status: 'done', loaded: true, counts, total_dev_count: counts['inventory/devices'] ?? 0, interface_count: counts['inventory/interfaces'] ?? 0, ts_end: Date.now(), ts_change: Date.now() })
  const rows = Object.values(counts).reduce((a, b) => a + b, 0)
  const seconds = (loaded - t0) / 1000
  console.log(
    JSON.stringify({
      bench: 'ingest',
      engine: values.engine,
      profile,
      rows,
      interfaces: counts['inventory/interfaces'],
      devices: counts['inventory/devices'],
      loadSeconds: Math.round(seconds * 10) / 10,
      analyzeSeconds: Math.round((analyzed - loaded) / 100) / 10,
      measureSeconds: Math.round((measured - analyzed) / 100) / 10,
      rowsPerSecond: Math.round(rows / seconds),
      peakRssMb: Math.round(peakRss() / 1048576),
      // what the heap still holds after a full collection would be far less: V8 lets garbage grow
      // to its old-generation limit, which follows the machine's memory (--max-old-space-size)
      maxOldSpaceMb: Math.round(getHeapStatistics().heap_size_limit / 1048576),
      ...(values.keep && url ? { databaseUrl: url, snapshotId: id } : {}),
    }),
  )
} finally {
  await drop()
}
