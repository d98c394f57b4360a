/** A migrated inventory database holding one simulated "lab" snapshot, registered as done and loaded. */
import type { Db } from '../../../src/shared/db/index.js'
import { migrateInventory } from '../../../src/inventory/migrations/index.js'
import { simulate, type ProfileName } from '../../../src/inventory/simulator/index.js'
import { loadSnapshotRows } from '../../../src/inventory/storage/index.js'

export const LAB_ID = '00000000-0000-4000-8000-000000000001'

export async function labSnapshot(db: Db, id = LAB_ID, seed = 7, profile: ProfileName = 'lab'): Promise<Record<string, number>> {
  await migrateInventory(db)
  const sim = simulate({ profile, seed, sites: [], generation: 0 })
  const counts = await loadSnapshotRows(db, id, sim.tables())
  const now = 1_700_000_000_000
  await db.query(
    `INSERT INTO inventory.snapshots (id, status, loaded, origin, ts_start, ts_end, ts_change, version, initial_version)
     VALUES ($1, 'done', true, 'simulator', $2, $2, $2, 'v7.6', 'v7.6')`,
    [id, now],
  )
  return counts
}
