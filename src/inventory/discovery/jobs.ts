/**
 * Background jobs (discovery, import, clone, load, unload, download): bookkeeping rows with state
 * and progress, named as clients of this API family filter them in `tables/jobs`.
 */
import type { Queryable } from '../../shared/db/index.js'
import { ApiError } from '../../shared/errors.js'
import { JOB_NAMES, isSnapshotId } from '../catalog/index.js'

export { JOB_NAMES }
/** A job's name, as clients filter them (`name eq snapshotLoad`); docs/snapshots.md says what each does. */
export type JobName = (typeof JOB_NAMES)[number]
/** Rediscovery of some devices of a snapshot: by serial (refresh) or by address (may add devices). */
export type RediscoveryJobName = 'discoveryRefresh' | 'discoveryAdd'
export const REDISCOVERY_JOBS: readonly RediscoveryJobName[] = ['discoveryRefresh', 'discoveryAdd']
/** Jobs a user can stop (`POST jobs/{id}/stop`): those that collect from the network or the simulator. */
export const STOPPABLE_JOBS: readonly JobName[] = ['discoveryNew', ...REDISCOVERY_JOBS]
export type JobStatus = 'scheduled' | 'running' | 'done' | 'error'

export interface JobRow {
  id: string
  name: JobName
  status: JobStatus
  snapshot_id: string | null
  scheduled_at: number
  started_at: number | null
  finished_at: number | null
  username: string | null
  progress: number
  message: string | null
  /** File name of a download job's result (`GET jobs/{id}/download`), null for other jobs. */
  download_file: string | null
}

export function jobToApi(j: JobRow): Record<string, unknown> {
  return {
    id: j.id,
    name: j.name,
    status: j.status,
    isDone: j.status === 'done' || j.status === 'error',
    snapshot: j.snapshot_id,
    scheduledAt: j.scheduled_at,
    startedAt: j.started_at,
    finishedAt: j.finished_at,
    username: j.username,
    progress: j.progress,
    message: j.message,
    downloadFile: j.download_file,
  }
}

export interface NewJob {
  id: string
  name: JobName
  snapshotId: string
  username: string | null
  now: number
  /** Service instance that runs the job (it keeps the job's heartbeat fresh). */
  owner: string
  status?: JobStatus
  downloadFile?: string
}

export async function insertJob(db: Queryable, job: NewJob): Promise<void> {
  const status = job.status ?? 'scheduled'
  await db.query(
    `INSERT INTO inventory.jobs (id, name, status, snapshot_id, scheduled_at, started_at, username, owner, heartbeat_at, download_file)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $5, $9)`,
    [job.id, job.name, status, job.snapshotId, job.now, status === 'running' ? job.now : null, job.username, job.owner, job.downloadFile ?? null],
  )
}

/**
 * Marks the jobs an instance is working on alive. Only those: a job whose work ended without its
 * end being recorded (the database was away) must go stale, not be kept alive by its owner.
 */
export async function heartbeat(db: Queryable, owner: string, jobIds: readonly string[], now: number): Promise<void> {
  if (jobIds.length === 0) return
  await db.query(`UPDATE inventory.jobs SET heartbeat_at = $3 WHERE owner = $1 AND id = ANY($2::text[]) AND status IN ('scheduled', 'running')`, [
    owner,
    [...jobIds],
    now,
  ])
}

export async function jobStarted(db: Queryable, id: string, now: number): Promise<void> {
  await db.query(`UPDATE inventory.jobs SET status = 'running', started_at = $2 WHERE id = $1`, [id, now])
}

/**
 * Records a job's progress; returns who asked to stop it (through any replica), if anyone did:
 * `{ by }` (by null for an anonymous caller), or null when no stop was requested.
 */
export async function jobProgress(db: Queryable, id: string, progress: number, message: string): Promise<StopRequest | null> {
  const r = await db.query<StopRow>(`UPDATE inventory.jobs SET progress = $2, message = $3 WHERE id = $1 RETURNING stop_requested_by, stop_requested_at`, [
    id,
    Math.max(0, Math.min(1, progress)),
    message,
  ])
  return stopOf(r.rows[0])
}

/** The stop requested for job `id` (from any replica), or null. */
export async function stopRequest(db: Queryable, id: string): Promise<StopRequest | null> {
  return stopOf((await db.query<StopRow>('SELECT stop_requested_by, stop_requested_at FROM inventory.jobs WHERE id = $1', [id])).rows[0])
}

/** A stop asked for a job, and by whom (null: a user without a name, or the service). */
export interface StopRequest {
  by: string | null
}
type StopRow = { stop_requested_by: string | null; stop_requested_at: number | null }

function stopOf(row: StopRow | undefined): StopRequest | null {
  return row?.stop_requested_at != null ? { by: row.stop_requested_by } : null
}

export async function jobFinished(db: Queryable, id: string, now: number, error?: string): Promise<void> {
  await db.query(
    `UPDATE inventory.jobs SET status = $2, finished_at = $3, message = $4, progress = CASE WHEN $2 = 'done' THEN 1 ELSE progress END WHERE id = $1`,
    [id, error === undefined ? 'done' : 'error', now, error ?? 'finished'],
  )
}

export async function getJob(db: Queryable, id: string): Promise<JobRow> {
  const r = isSnapshotId(id) ? await db.query<JobRow>('SELECT * FROM inventory.jobs WHERE id = $1', [id]) : { rows: [] }
  const job = r.rows[0]
  if (!job) throw new ApiError('API_NOT_FOUND', `Job ${JSON.stringify(id).slice(0, 80)} not found`)
  return job
}
