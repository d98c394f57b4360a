/**
 * At start: work that a previous run of the service accepted but did not finish (a restart or a
 * crash) is marked error, so nothing accepted silently disappears; its partial rows are dropped.
 */
import type { Db } from '../../shared/db/index.js'
import { dropSnapshotRows } from '../storage/index.js'

export async function recoverInterrupted(db: Db, now: number): Promise<{ jobs: number; snapshots: number }> {
  const snaps = await db.query<{ id: string }>(`SELECT id FROM inventory.snapshots WHERE status IN ('run', 'finishing')`)
  for (const { id } of snaps.rows) {
    await dropSnapshotRows(db, id)
    await db.query(
      `UPDATE inventory.snapshots SET status = 'error', loaded = false, loading = false, ts_end = $2, ts_change = $2, errors = $3 WHERE id = $1`,
      [id, now, JSON.stringify([{ errorType: 'INTERRUPTED', count: 1 }])],
    )
  }
  const jobs = await db.query(
    `UPDATE inventory.jobs SET status = 'error', finished_at = $1, message = 'interrupted by a restart of the service' WHERE status IN ('scheduled', 'running')`,
    [now],
  )
  return { jobs: jobs.rowCount, snapshots: snaps.rows.length }
}
