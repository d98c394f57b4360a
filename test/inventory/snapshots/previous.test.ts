/**
 * `$prev` of a comparison: the snapshot before of the same network. Network discoveries are the
 * same network when they name the same seeds in any order; simulated ones when they share profile
 * and seed (whatever their site lists); clones keep their source's settings.
 */
import t from 'tap'
import { freshDb } from '../../helpers/db.js'
import { previousSnapshot } from '../../../src/inventory/snapshots/index.js'
import { migrateInventory } from '../../../src/inventory/migrations/index.js'
import { ApiError } from '../../../src/shared/errors.js'

async function code(p: Promise<unknown>): Promise<string> {
  try {
    return `resolved ${String(await p)}`
  } catch (err) {
    return err instanceof ApiError ? err.code : String(err)
  }
}

t.test('the snapshot before of the same network', async (t) => {
  const db = await freshDb(t, 'pglite')
  await migrateInventory(db)
  let n = 0
  const add = async (settings: Record<string, unknown>, end: number | null, extra: { status?: string; loaded?: boolean; origin?: string } = {}) => {
    const id = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`
    await db.query(
      `INSERT INTO inventory.snapshots (id, status, loaded, origin, settings, ts_start, ts_end, ts_change, version, initial_version)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $6, 'v7.6', 'v7.6')`,
      [id, extra.status ?? 'done', extra.loaded ?? true, extra.origin ?? 'network', JSON.stringify(settings), end ?? 5000, end],
    )
    return id
  }
  const seeds = (...list: string[]) => ({ source: 'network', seeds: list })
  const n1 = await add(seeds('10.0.0.1', '10.0.0.2'), 1000)
  const s1 = await add({ profile: 'lab', seed: 1, sites: [], generation: 0, network: 'lab/1' }, 1500, { origin: 'simulator' })
  const other = await add(seeds('10.9.9.9'), 1800)
  const n2 = await add(seeds('10.0.0.2', '10.0.0.1'), 2000)
  const failed = await add(seeds('10.0.0.1', '10.0.0.2'), 2500, { status: 'error' })
  const s2 = await add({ profile: 'lab', seed: 1, sites: ['BERLIN-01'], generation: 1 }, 3000, { origin: 'simulator' })
  const s3 = await add({ profile: 'lab', seed: 2, sites: [], generation: 0, network: 'lab/2' }, 3500, { origin: 'simulator' })
  const n3 = await add(seeds('10.0.0.1', '10.0.0.2'), 4000, { loaded: false })
  const clone = await add({ ...seeds('10.0.0.1', '10.0.0.2'), clonedFrom: n3 }, 4500, { origin: 'clone' })
  const n4 = await add(seeds('10.0.0.1', '10.0.0.2'), 6000)

  t.equal(await code(previousSnapshot(db, n2)), `resolved ${n1}`, 'seeds in another order are the same network')
  t.equal(await code(previousSnapshot(db, s2)), `resolved ${s1}`, 'same profile and seed, another site list, no network key')
  t.equal(await code(previousSnapshot(db, n1)), 'API_NOT_FOUND', 'the first of its network')
  t.equal(await code(previousSnapshot(db, other)), 'API_NOT_FOUND', 'other seeds')
  t.equal(await code(previousSnapshot(db, s3)), 'API_NOT_FOUND', 'another seed of the simulator')
  t.equal(await code(previousSnapshot(db, n3)), `resolved ${n2}`, 'a failed discovery is skipped')
  t.equal(await code(previousSnapshot(db, clone)), 'API_SNAPSHOT_NOT_LOADED', 'the previous one is unloaded: 409')
  t.equal(await code(previousSnapshot(db, n4)), `resolved ${clone}`, 'a clone is of its source network')
  t.equal(await code(previousSnapshot(db, failed)), `resolved ${n2}`)
})
