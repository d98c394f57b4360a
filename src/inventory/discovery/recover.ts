/**
 * Work that was accepted but whose runner died (a crash, a kill, a restart) is marked error, so
 * nothing accepted silently disappears; its partial rows are dropped. A job is dead when its
 * owner's heartbeat is stale, so a second replica (or the new pod of a rolling update) never
 * fails work another live instance is doing. The configuration texts such a job stored go
 * when no snapshot refers to them. Runs at start and then periodically. An instance
 * beats only for the jobs it is working on; the end of a job it could not record (the database
 * was away) is written by `JobRunner.record` as soon as the database is back.
 */
import type { Db } from '../../shared/db/index.js'
import { dropSnapshotRows } from '../storage/index.js'
import { heartbeat } from './jobs.js'
import { pruneOrphanConfigTexts } from './network/ssh/texts.js'
import type { InventoryServices } from './runner.js'

/** How often a running instance refreshes its jobs' heartbeat and looks for dead work. */
export const HEARTBEAT_MS = 10_000
/** A job whose heartbeat is older than this is dead. */
export const STALE_MS = 60_000

export async function recoverInterrupted(db: Db, now: number, staleMs = STALE_MS): Promise<{ jobs: number; snapshots: number }> {
  const jobs = await db.query<{ name: string; snapshot_id: string | null }>(
    `UPDATE inventory.jobs SET status = 'error', finished_at = $1, message = 'interrupted: the service instance running it stopped'
     WHERE status IN ('scheduled', 'running') AND coalesce(heartbeat_at, 0) < $2 RETURNING name, snapshot_id`,
    [now, now - staleMs],
  )
  // a load or unload that died: its attach or detach ran in one transaction, so the snapshot is
  // as it was; only the mark that it was changing stays behind
  const toggled = jobs.rows.filter((j) => (j.name === 'snapshotLoad' || j.name === 'snapshotUnload') && j.snapshot_id !== null).map((j) => j.snapshot_id)
  if (toggled.length > 0) await db.query('UPDATE inventory.snapshots SET loading = false WHERE id = ANY($1::text[])', [toggled])
  // snapshots still in discovery with no live job behind them
  const snaps = await db.query<{ id: string }>(
    `SELECT s.id FROM inventory.snapshots s WHERE s.status IN ('run', 'finishing')
     AND NOT EXISTS (SELECT 1 FROM inventory.jobs j WHERE j.snapshot_id = s.id AND j.status IN ('scheduled', 'running'))`,
  )
  for (const { id } of snaps.rows) {
    await dropSnapshotRows(db, id)
    await db.query(
      `UPDATE inventory.snapshots SET status = 'error', loaded = false, loading = false, ts_end = $2, ts_change = $2, errors = $3 WHERE id = $1`,
      [id, now, JSON.stringify([{ errorType: 'INTERRUPTED', count: 1 }])],
    )
  }
  // the configuration texts a dead job stored before the rows that would refer to them
  if (jobs.rowCount > 0) await pruneOrphanConfigTexts(db, now)
  return { jobs: jobs.rowCount, snapshots: snaps.rows.length }
}

/**
 * Recovery at start. On PostgreSQL other replicas may be running jobs, so only jobs whose heartbeat
 * went stale are dead. The embedded database belongs to this one process: whatever it finds still
 * running at start was running in a process that is gone, and fails at once.
 */
export async function recoverAtStart(db: Db, now: number): Promise<{ jobs: number; snapshots: number }> {
  return recoverInterrupted(db, now, db.kind === 'pglite' ? 0 : STALE_MS)
}

/** Keeps this instance's jobs alive and fails dead ones; returns the function that stops it. */
export function startWatchdog(svc: InventoryServices, intervalMs = HEARTBEAT_MS): () => void {
  let busy = false
  const timer = setInterval(() => {
    if (busy) return
    busy = true
    void (async () => {
      try {
        await heartbeat(svc.db, svc.runner.instance, svc.runner.liveJobs(), svc.now())
        const r = await recoverInterrupted(svc.db, svc.now())
        if (r.jobs > 0 || r.snapshots > 0) svc.log.warn(r, 'failed work whose instance stopped')
      } catch (err) {
        svc.log.warn({ err }, 'job watchdog round failed')
      } finally {
        busy = false
      }
    })()
  }, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
