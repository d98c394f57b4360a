/**
 * Snapshot downloads as `snapshotDownload` jobs. `GET snapshots/{id}/download` streams the
 * snapshot file and records the job (running while it streams, done when the last byte is out,
 * error when the client went away), with the file's name in `downloadFile`; clients of this API
 * family then find the job in `tables/jobs` and fetch `GET jobs/{id}/download`, which writes the
 * same file again: an export of a snapshot is the same bytes every time (format.ts), so netinv
 * keeps no copy of it.
 */
import { randomUUID } from 'node:crypto'
import { ApiError } from '../../shared/errors.js'
import type { InventoryServices } from '../discovery/runner.js'
import { getJob, insertJob, jobFinished } from '../discovery/jobs.js'
import { exportSnapshot } from './format.js'
import { findSnapshot, getSnapshot, type SnapshotRow } from './store.js'

export type Write = (text: string) => Promise<void>

/** Name of the file a snapshot downloads as. */
export function downloadFileName(snapshotId: string): string {
  return `snapshot-${snapshotId}.ndjson`
}

function assertExportable(s: SnapshotRow): void {
  if (s.status !== 'done') throw new ApiError('API_SNAPSHOT_NOT_LOADED', `Snapshot ${s.id} has no data to export (status ${s.status})`)
}

export interface Download {
  snapshot: SnapshotRow
  file: string
  jobId: string
  /** Writes the file through `write` and records the job's end. */
  run: (write: Write) => Promise<void>
}

/** Checks the snapshot and records its download job (running); the caller sends headers, then runs it. */
export async function startDownload(svc: InventoryServices, id: string, username: string | null): Promise<Download> {
  const s = await getSnapshot(svc.db, id)
  assertExportable(s)
  const jobId = randomUUID()
  const file = downloadFileName(s.id)
  const untrack = svc.runner.track(jobId)
  try {
    await insertJob(svc.db, { id: jobId, name: 'snapshotDownload', snapshotId: s.id, username, now: svc.now(), status: 'running', owner: svc.runner.instance, downloadFile: file })
  } catch (err) {
    untrack()
    throw err
  }
  const run = async (write: Write) => {
    try {
      await exportSnapshot(svc.db, s, write)
      await jobFinished(svc.db, jobId, svc.now())
    } catch (err) {
      await svc.runner.record(jobId, () => jobFinished(svc.db, jobId, svc.now(), `download failed: ${err instanceof Error ? err.message : 'error'}`))
      throw err
    } finally {
      untrack()
    }
  }
  return { snapshot: s, file, jobId, run }
}

/** The file of a finished download job, to write with `exportSnapshot`: 404/409 when there is none. */
export async function downloadOfJob(svc: InventoryServices, jobId: string): Promise<{ snapshot: SnapshotRow; file: string }> {
  const job = await getJob(svc.db, jobId)
  if (job.name !== 'snapshotDownload' || job.download_file === null) throw new ApiError('API_CONFLICT', `Job ${job.id} is a ${job.name} job; only a snapshotDownload job has a file`)
  if (job.status !== 'done') throw new ApiError('API_CONFLICT', `Job ${job.id} has no file (status ${job.status})`)
  const s = job.snapshot_id === null ? undefined : await findSnapshot(svc.db, job.snapshot_id)
  if (!s) throw new ApiError('API_NOT_FOUND', `The snapshot of job ${job.id} was deleted; its file is gone`)
  assertExportable(s)
  return { snapshot: s, file: job.download_file }
}
