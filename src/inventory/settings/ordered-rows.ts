/**
 * A table of credentials tried in order (SNMP, SSH): rows keyed by id with a `position` (steps of
 * ten, so one can be put between two), looked up by id with a 404 naming the kind.
 */
import type { Queryable } from '../../shared/db/index.js'
import { notFound } from '../../shared/errors.js'
import { isSnapshotId } from '../catalog/index.js'

export interface OrderedRows {
  /** Qualified table name, e.g. `inventory.snmp_credentials` (a constant of the code, never input). */
  table: string
  /** What a row is, for the 404: "SNMP credential". */
  noun: string
}

export async function countRows(db: Queryable, t: OrderedRows): Promise<number> {
  return (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t.table}`)).rows[0]!.n
}

/** The row of `id`; 404 when there is none (or `id` is not one). */
export async function getRow<Row>(db: Queryable, t: OrderedRows, id: string): Promise<Row> {
  const r = isSnapshotId(id) ? await db.query<Row & object>(`SELECT * FROM ${t.table} WHERE id = $1`, [id]) : { rows: [] }
  const row = r.rows[0]
  if (!row) throw notFound(`${t.noun} ${JSON.stringify(id).slice(0, 80)} not found`)
  return row
}

/** Puts row `id` at `position` (1-based) and numbers every row again. */
export async function moveTo(db: Queryable, t: OrderedRows, id: string, position: number): Promise<void> {
  const ids = (await db.query<{ id: string }>(`SELECT id FROM ${t.table} ORDER BY position, id`)).rows.map((r) => r.id).filter((x) => x !== id)
  ids.splice(Math.min(position - 1, ids.length), 0, id)
  for (let i = 0; i < ids.length; i++) await db.query(`UPDATE ${t.table} SET position = $2 WHERE id = $1`, [ids[i], (i + 1) * 10])
}
