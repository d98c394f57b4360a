/**
 * The snapshots of the scale benchmark (bench/scale.ts), made once and kept between runs: the
 * simulator's profile `p` (lab ≈ 25 k interfaces... large ≈ 1.1 M, huge ≈ 10 M) in the database
 * `netinv_bench_scale_<p>`, generation 0 and, when asked, generation 1 (the same network a
 * discovery later: a few devices come and go), loaded as a discovery loads them (rows, indexes,
 * sort positions), then analysed and measured. Reproducible: the simulator is deterministic.
 *
 *   DATABASE_URL=... npx tsx bench/scale-data.ts huge [generations]   (makes them only)
 */
import { pathToFileURL } from 'node:url'
import type { Db } from '../src/shared/db/index.js'
import { createPostgresDb } from '../src/shared/db/index.js'
import { migrateInventory } from '../src/inventory/migrations/index.js'
import { isProfileName, simulate, type ProfileName } from '../src/inventory/simulator/index.js'
import { loadSnapshotRows } from '../src/inventory/storage/index.js'
import { attachComputed } from '../src/inventory/storage/partitions.js'
import { recordMeasures } from '../src/inventory/snapshots/index.js'
import { keptBenchDatabase } from './db.js'

/** The snapshot id of a generation: fixed, so that a run finds what an earlier one made. */
export function scaleSnapshotId(generation: number): string {
  return `00000000-0000-4000-8000-00000000e00${generation + 1}`
}

export interface ScaleData {
  url: string
  /** Snapshot ids, generation 0 first. */
  snapshots: string[]
  /** Interface rows of generation 0. */
  interfaces: number
  /** What loading took, for the snapshots made in this run; `positionsSeconds`: the sort positions and materialised rows computed afterwards (a snapshot made before them). */
  loads: Array<{ id: string; rows: number; seconds: number; positionsSeconds: number }>
}

async function ensureGeneration(db: Db, profile: ProfileName, generation: number, log: (line: string) => void): Promise<ScaleData['loads'][number] | undefined> {
  const id = scaleSnapshotId(generation)
  const have = await db.query('SELECT 1 FROM inventory.snapshots WHERE id = $1', [id])
  let load: ScaleData['loads'][number] | undefined
  if (have.rows.length === 0) {
    log(`making ${profile} generation ${generation} (${id}) ...`)
    const started = performance.now()
    const counts = await loadSnapshotRows(db, id, simulate({ profile, seed: 1, sites: [], generation }).tables(), undefined, 2)
    const rows = Object.values(counts).reduce((a, b) => a + b, 0)
    const seconds = (performance.now() - started) / 1000
    const ts = Date.now() + generation
    await db.query(
      `INSERT INTO inventory.snapshots (id, status, loaded, origin, ts_start, ts_end, ts_change, version, initial_version)
       VALUES ($1, 'done', true, 'simulator', $2, $2, $2, 'v7.6', 'v7.6')`,
      [id, ts],
    )
    load = { id, rows, seconds, positionsSeconds: 0 }
    log(`loaded ${rows} rows (${counts['inventory/interfaces']} interfaces) in ${seconds.toFixed(1)} s: ${Math.round(rows / seconds)} rows/s`)
    await db.exec('ANALYZE')
  }
  // a snapshot made before sort positions, value counts or materialised tables existed gets them, as a start of the service does
  const started = performance.now()
  const built = await db.transaction((tx) => attachComputed(tx, id))
  if (built > 0) {
    const seconds = (performance.now() - started) / 1000
    log(`computed the sort positions, value counts or materialised rows of ${built} tables in ${seconds.toFixed(1)} s`)
    if (load) load.positionsSeconds = seconds
    else load = { id, rows: 0, seconds: 0, positionsSeconds: seconds }
    await db.exec('ANALYZE')
  }
  const measured = await db.query<{ m: boolean }>('SELECT row_counts IS NOT NULL AS m FROM inventory.snapshots WHERE id = $1', [id])
  if (!measured.rows[0]?.m) await recordMeasures(db, id)
  return load
}

export async function ensureScaleData(profile: ProfileName, generations: number, log: (line: string) => void = console.log): Promise<ScaleData> {
  const url = await keptBenchDatabase(`scale_${profile}`)
  const db = createPostgresDb({ url, max: 4 })
  try {
    await migrateInventory(db)
    const loads: ScaleData['loads'] = []
    const snapshots: string[] = []
    for (let g = 0; g < generations; g++) {
      const load = await ensureGeneration(db, profile, g, log)
      if (load) loads.push(load)
      snapshots.push(scaleSnapshotId(g))
    }
    const n = await db.query<{ n: string }>("SELECT (row_counts ->> 'inventory/interfaces') AS n FROM inventory.snapshots WHERE id = $1", [snapshots[0]])
    return { url, snapshots, interfaces: Number(n.rows[0]?.n), loads }
  } finally {
    await db.close()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const profile = process.argv[2] ?? 'large'
  if (!isProfileName(profile)) throw new Error(`unknown profile ${profile}`)
  ensureScaleData(profile, Number(process.argv[3] ?? 1)).then(
    (d) => console.log(`${profile}: ${d.interfaces} interfaces in ${d.snapshots.length} snapshots (${d.url})`),
    (err: unknown) => {
      console.error(err)
      process.exitCode = 1
    },
  )
}
