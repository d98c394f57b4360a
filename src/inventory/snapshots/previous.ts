/**
 * `$prev` of a comparison: the snapshot before a given one of the same network. A network is
 * named by its discovery settings: the seeds of a network discovery (in any order), or the
 * simulator's profile and seed; clones and imports keep the settings of their source. "Before"
 * is the order of `$last`: end of discovery, then creation.
 */
import type { Queryable } from '../../shared/db/index.js'
import { ApiError } from '../../shared/errors.js'
import { resolveSnapshot } from './resolve.js'

/** SQL naming the network of a snapshot row `s` (null when its settings name none). */
export const NETWORK_KEY_SQL = `CASE
  WHEN s.settings ? 'seeds' THEN 'seeds:' || coalesce((SELECT string_agg(x, ',' ORDER BY x) FROM jsonb_array_elements_text(s.settings->'seeds') AS x), '')
  WHEN s.settings ? 'profile' THEN 'simulator:' || coalesce(s.settings->>'network', (s.settings->>'profile') || '/' || (s.settings->>'seed'))
END`

/**
 * The id of the latest finished snapshot of the same network taken before `id`. None → 404;
 * one that is unloaded → 409 (as for any snapshot a table request names).
 */
export async function previousSnapshot(db: Queryable, id: string): Promise<string> {
  const r = await db.query<{ id: string }>(
    `WITH this AS (SELECT s.id, s.seq, coalesce(s.ts_end, s.ts_start) AS ts, ${NETWORK_KEY_SQL} AS network FROM inventory.snapshots s WHERE s.id = $1)
     SELECT s.id FROM inventory.snapshots s, this
     WHERE s.status = 'done' AND s.id <> this.id AND this.network IS NOT NULL AND ${NETWORK_KEY_SQL} = this.network
       AND (coalesce(s.ts_end, s.ts_start), s.seq) < (this.ts, this.seq)
     ORDER BY coalesce(s.ts_end, s.ts_start) DESC, s.seq DESC LIMIT 1`,
    [id],
  )
  const prev = r.rows[0]?.id
  if (!prev) throw new ApiError('API_NOT_FOUND', `No earlier snapshot of the same network as ${id} (same seeds, or same simulator profile and seed)`)
  return resolveSnapshot(db, prev)
}
