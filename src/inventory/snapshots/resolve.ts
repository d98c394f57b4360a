/**
 * Resolving the `snapshot` of a table request: an id, or `$last` / `$prev` / `$lastLocked`
 * over loaded snapshots whose discovery is done (newest by end of discovery).
 */
import type { Queryable } from '../../shared/db/index.js'
import { ApiError } from '../../shared/errors.js'
import { findSnapshot } from './store.js'

const NEWEST = `status = 'done' AND loaded ORDER BY ts_end DESC NULLS LAST, seq DESC`

export const SNAPSHOT_VARIABLES = ['$last', '$prev', '$lastLocked'] as const

/**
 * The snapshot id a reference names. Unknown id or nothing to resolve to → 404 API_NOT_FOUND;
 * a snapshot that exists but cannot be queried (unloaded, discovering, failed) → 409
 * API_SNAPSHOT_NOT_LOADED.
 */
export async function resolveSnapshot(db: Queryable, ref: string): Promise<string> {
  if (ref.startsWith('$')) {
    const sql =
      ref === '$last'
        ? `SELECT id FROM inventory.snapshots WHERE ${NEWEST} LIMIT 1`
        : ref === '$prev'
          ? `SELECT id FROM inventory.snapshots WHERE ${NEWEST} OFFSET 1 LIMIT 1`
          : ref === '$lastLocked'
            ? `SELECT id FROM inventory.snapshots WHERE locked AND ${NEWEST} LIMIT 1`
            : null
    if (sql === null) throw new ApiError('API_NOT_FOUND', `Unknown snapshot variable ${JSON.stringify(ref).slice(0, 40)}; use one of ${SNAPSHOT_VARIABLES.join(', ')}`)
    const r = await db.query<{ id: string }>(sql)
    const id = r.rows[0]?.id
    if (!id) throw new ApiError('API_NOT_FOUND', `No loaded snapshot matches ${ref}`)
    return id
  }
  const s = await findSnapshot(db, ref)
  if (!s) throw new ApiError('API_NOT_FOUND', `Snapshot ${JSON.stringify(ref).slice(0, 80)} not found`)
  if (s.status === 'run' || s.status === 'finishing') throw new ApiError('API_SNAPSHOT_NOT_LOADED', `Snapshot ${s.id} is still being discovered`)
  if (s.status === 'error') throw new ApiError('API_SNAPSHOT_NOT_LOADED', `Snapshot ${s.id} failed and holds no data`)
  if (!s.loaded) throw new ApiError('API_SNAPSHOT_NOT_LOADED', `Snapshot ${s.id} is not loaded; load it first (POST snapshots/${s.id}/load)`)
  return s.id
}
