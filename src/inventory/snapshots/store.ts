/** The inventory.snapshots bookkeeping rows and the snapshot object clients see. */
import type { Queryable } from '../../shared/db/index.js'
import { ApiError } from '../../shared/errors.js'
import { isSnapshotId } from '../catalog/index.js'

export type SnapshotStatus = 'run' | 'finishing' | 'done' | 'error'
export type SnapshotOrigin = 'simulator' | 'network' | 'import' | 'clone'

export interface SnapshotSite {
  siteName: string
  uid: string
  id: string
}

export interface SnapshotRow {
  id: string
  seq: number
  name: string | null
  note: string | null
  status: SnapshotStatus
  loaded: boolean
  loading: boolean
  locked: boolean
  origin: SnapshotOrigin
  settings: Record<string, unknown>
  sites: SnapshotSite[]
  errors: Array<{ errorType: string; count: number }>
  counts: Record<string, number>
  total_dev_count: number
  licensed_dev_count: number
  device_added_count: number
  device_removed_count: number
  interface_count: number
  /** Measured once the rows are in (./figures.ts); 0 before. */
  loaded_size: number
  unloaded_size: number
  interface_active_count: number
  interface_edge_count: number
  user_count: number
  /**
   * Rows per stored table of the snapshot (table path → rows), counted once its rows are in
   * (./figures.ts), in the same statement or transaction that makes them visible; null before.
   * A request without filters reads its count here instead of scanning the partition.
   */
  row_counts: Record<string, number> | null
  ts_start: number
  ts_end: number | null
  ts_change: number
  creator_username: string | null
  version: string
  initial_version: string
  job_id: string | null
}

/** Counts, times and versions of a snapshot, as both the API and the snapshot file name them. */
export function snapshotFigures(s: SnapshotRow) {
  return {
    totalDevCount: s.total_dev_count,
    licensedDevCount: s.licensed_dev_count,
    deviceAddedCount: s.device_added_count,
    deviceRemovedCount: s.device_removed_count,
    interfaceCount: s.interface_count,
    tsStart: s.ts_start,
    tsEnd: s.ts_end,
    version: s.version,
    initialVersion: s.initial_version,
    creatorUsername: s.creator_username,
  }
}

/** How a caller is told a stored product version (`reportedSnapshotVersion` of src/shared/product.ts). */
export type VersionView = (stored: string) => string

/** The snapshot as `GET snapshots` and `GET snapshots/{id}` show it (COMPAT.md). */
export function toApi(s: SnapshotRow, versionView: VersionView = (v) => v): Record<string, unknown> {
  const discovering = s.status === 'run' || s.status === 'finishing'
  return {
    id: s.id,
    name: s.name,
    note: s.note,
    state: discovering ? 'discovering' : s.loaded ? 'loaded' : 'unloaded',
    status: discovering || s.status === 'error' ? s.status : s.loaded ? 'done' : 'unloaded',
    finishStatus: s.status === 'done' || s.status === 'error' ? s.status : null,
    loading: s.loading,
    locked: s.locked,
    ...snapshotFigures(s),
    version: versionView(s.version),
    initialVersion: versionView(s.initial_version),
    tsChange: s.ts_change,
    loadedSize: s.loaded_size,
    unloadedSize: s.unloaded_size,
    fromArchive: s.origin === 'import',
    interfaceActiveCount: s.interface_active_count,
    interfaceEdgeCount: s.interface_edge_count,
    userCount: s.user_count,
    origin: s.origin,
    jobId: s.job_id,
    sites: s.sites,
    errors: s.errors,
  }
}

export interface NewSnapshot {
  id: string
  name: string | null
  note: string | null
  status: SnapshotStatus
  origin: SnapshotOrigin
  settings: Record<string, unknown>
  sites: SnapshotSite[]
  tsStart: number
  tsEnd?: number | null
  creator: string | null
  version: string
  initialVersion: string
  jobId: string | null
}

export async function insertSnapshot(db: Queryable, s: NewSnapshot): Promise<void> {
  await db.query(
    `INSERT INTO inventory.snapshots (id, name, note, status, origin, settings, sites, ts_start, ts_end, ts_change, creator_username, version, initial_version, job_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $8, $10, $11, $12, $13)`,
    [s.id, s.name, s.note, s.status, s.origin, JSON.stringify(s.settings), JSON.stringify(s.sites), s.tsStart, s.tsEnd ?? null, s.creator, s.version, s.initialVersion, s.jobId],
  )
}

/** Sets the given columns (names from this module only, never from input). */
export async function updateSnapshot(db: Queryable, id: string, fields: Partial<Record<keyof SnapshotRow, unknown>>): Promise<void> {
  const keys = Object.keys(fields) as Array<keyof SnapshotRow>
  if (keys.length === 0) return
  const json = new Set(['settings', 'sites', 'errors', 'counts', 'row_counts'])
  const sets = keys.map((k, i) => `${k} = $${i + 2}`)
  const values = keys.map((k) => (json.has(k) ? JSON.stringify(fields[k]) : fields[k]))
  await db.query(`UPDATE inventory.snapshots SET ${sets.join(', ')} WHERE id = $1`, [id, ...values])
}

export async function findSnapshot(db: Queryable, id: string): Promise<SnapshotRow | undefined> {
  if (!isSnapshotId(id)) return undefined
  const r = await db.query<SnapshotRow>('SELECT * FROM inventory.snapshots WHERE id = $1', [id])
  return r.rows[0]
}

/** The snapshot or 404 API_NOT_FOUND. */
export async function getSnapshot(db: Queryable, id: string): Promise<SnapshotRow> {
  const s = await findSnapshot(db, id)
  if (!s) throw new ApiError('API_NOT_FOUND', `Snapshot ${JSON.stringify(id).slice(0, 80)} not found`)
  return s
}

/** Every snapshot, newest first. */
export async function listSnapshots(db: Queryable): Promise<SnapshotRow[]> {
  const r = await db.query<SnapshotRow>('SELECT * FROM inventory.snapshots ORDER BY ts_start DESC, seq DESC')
  return r.rows
}

export async function deleteSnapshotRow(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM inventory.snapshots WHERE id = $1', [id])
}
