/**
 * What users do with snapshots: rename/annotate, lock/unlock, clone, delete (load/unload: loading.ts).
 * Every state check happens under a row lock, so two concurrent calls cannot both pass it.
 */
import { randomUUID } from 'node:crypto'
import { ApiError } from '../../shared/errors.js'
import type { Queryable } from '../../shared/db/index.js'
import { cloneSnapshotRows, dropSnapshotRows } from '../storage/index.js'
import type { InventoryServices } from '../discovery/runner.js'
import { insertJob, jobFinished } from '../discovery/jobs.js'
import { copySnapshotAttributes } from '../attributes/index.js'
import { deleteSnapshotRow, getSnapshot, insertSnapshot, updateSnapshot, type SnapshotRow } from './store.js'
import { measureSnapshot } from './figures.js'
import { pruneConfigTexts, snapshotConfigHashes } from '../discovery/network/ssh/texts.js'

function assertSettled(s: SnapshotRow): void {
  if (s.status === 'run' || s.status === 'finishing') throw new ApiError('API_SNAPSHOT_BUSY', `Snapshot ${s.id} is being discovered`)
  if (s.loading) throw new ApiError('API_SNAPSHOT_BUSY', `Snapshot ${s.id} is being loaded or unloaded`)
}

export function assertHasData(s: SnapshotRow): void {
  assertSettled(s)
  if (s.status === 'error') throw new ApiError('API_CONFLICT', `Snapshot ${s.id} failed and holds no data`)
}

/** The snapshot, its row locked until the transaction ends. */
export async function lockedSnapshot(tx: Queryable, id: string): Promise<SnapshotRow> {
  await tx.query('SELECT id FROM inventory.snapshots WHERE id = $1 FOR UPDATE', [id])
  return getSnapshot(tx, id)
}

export async function patchSnapshot(svc: InventoryServices, id: string, fields: { name?: string | null; note?: string | null }): Promise<SnapshotRow> {
  await getSnapshot(svc.db, id)
  await updateSnapshot(svc.db, id, { ...fields, ts_change: svc.now() })
  return getSnapshot(svc.db, id)
}

export async function setLocked(svc: InventoryServices, id: string, lock: boolean): Promise<SnapshotRow> {
  await svc.db.transaction(async (tx) => {
    const s = await lockedSnapshot(tx, id)
    if (lock) assertHasData(s)
    if (s.locked !== lock) await updateSnapshot(tx, id, { locked: lock, ts_change: svc.now() })
  })
  return getSnapshot(svc.db, id)
}

/** Deletes a snapshot and its rows; 409 when locked or busy. */
export async function deleteSnapshot(svc: InventoryServices, id: string): Promise<void> {
  await svc.db.transaction(async (tx) => {
    const s = await lockedSnapshot(tx, id)
    if (s.locked) throw new ApiError('API_SNAPSHOT_LOCKED', `Snapshot ${id} is locked; unlock it before deleting`)
    assertSettled(s)
    await updateSnapshot(tx, id, { loading: true })
  })
  let hashes: string[]
  try {
    hashes = await snapshotConfigHashes(svc.db, id)
    await dropSnapshotRows(svc.db, id)
    await deleteSnapshotRow(svc.db, id)
  } catch (err) {
    await updateSnapshot(svc.db, id, { loading: false }).catch(() => {})
    throw err
  }
  // the configuration texts only this snapshot referred to
  await pruneConfigTexts(svc.db, hashes, svc.now()).catch((err: unknown) => svc.log.warn({ err, snapshot: id }, 'could not remove the configuration texts of a deleted snapshot'))
}

export interface Clone {
  /** The new snapshot's id. */
  id: string
  /** Its `snapshotClone` job, done when this answers. */
  jobId: string
}

/**
 * Copies a snapshot (rows and metadata) into a new snapshot, as clones are in this API family
 * (docs/snapshots.md): a new id; the source's discovery times, sites, counts and settings; the
 * name `<source name or id> (clone)`; unlocked; and **unloaded**, so it costs no query capacity
 * until a client loads it. The copy runs as a `snapshotClone` job of the new snapshot.
 */
export async function cloneSnapshot(svc: InventoryServices, id: string, username: string | null): Promise<Clone> {
  const src = await getSnapshot(svc.db, id)
  assertHasData(src)
  const cloneId = randomUUID()
  const jobId = randomUUID()
  const now = svc.now()
  const untrack = svc.runner.track(jobId)
  try {
    await cloneRows(svc, src, { cloneId, jobId, now, username })
    return { id: cloneId, jobId }
  } finally {
    untrack()
  }
}

async function cloneRows(
  svc: InventoryServices,
  src: SnapshotRow,
  job: { cloneId: string; jobId: string; now: number; username: string | null },
): Promise<void> {
  const { cloneId, jobId, now, username } = job
  await svc.db.transaction(async (tx) => {
    await insertSnapshot(tx, {
      id: cloneId,
      name: `${src.name ?? src.id} (clone)`,
      note: src.note,
      status: 'finishing',
      origin: 'clone',
      settings: { ...src.settings, clonedFrom: src.id },
      sites: src.sites,
      tsStart: src.ts_start,
      tsEnd: src.ts_end,
      creator: username,
      version: src.version,
      initialVersion: src.initial_version,
      jobId,
    })
    await insertJob(tx, { id: jobId, name: 'snapshotClone', snapshotId: cloneId, username, now, status: 'running', owner: svc.runner.instance })
    await copySnapshotAttributes(tx, src.id, cloneId, now)
  })
  let measures
  try {
    await cloneSnapshotRows(svc.db, src.id, cloneId, false)
    measures = await measureSnapshot(svc.db, cloneId)
  } catch (err) {
    await svc.runner.record(jobId, async () => {
      await dropSnapshotRows(svc.db, cloneId)
      await deleteSnapshotRow(svc.db, cloneId)
      await jobFinished(svc.db, jobId, svc.now(), 'clone failed')
    })
    throw err
  }
  await updateSnapshot(svc.db, cloneId, {
    ...measures,
    status: 'done',
    loaded: false,
    errors: src.errors,
    counts: src.counts,
    total_dev_count: src.total_dev_count,
    licensed_dev_count: src.licensed_dev_count,
    device_added_count: src.device_added_count,
    device_removed_count: src.device_removed_count,
    interface_count: src.interface_count,
    ts_change: now,
  })
  await jobFinished(svc.db, jobId, svc.now())
}
