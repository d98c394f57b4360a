/**
 * Device attributes in the database: global (`inventory.global_attributes`, one value per serial
 * and name) and per snapshot (`inventory.snapshot_attributes`). Writes of a list run in one
 * transaction; a snapshot's attributes go with it (foreign key, ON DELETE CASCADE).
 */
import type { Db, Queryable } from '../../shared/db/index.js'
import { ApiError } from '../../shared/errors.js'
import type { AttributeInput, AttributeSelector } from './input.js'

/** Global attributes, or those of one snapshot. */
export type AttributeScope = { kind: 'global' } | { kind: 'local'; snapshotId: string }

export interface AttributeRow {
  id: string
  sn: string
  name: string
  value: string
}

const RETURNING = 'RETURNING id::text AS id, sn, name, value'

/** Adds one global attribute; 409 when the device already has one of that name. */
export async function addGlobal(db: Queryable, a: AttributeInput, now: number): Promise<AttributeRow> {
  const r = await db.query<AttributeRow>(
    `INSERT INTO inventory.global_attributes (sn, name, value, updated_at) VALUES ($1, $2, $3, $4) ON CONFLICT (sn, name) DO NOTHING ${RETURNING}`,
    [a.sn, a.name, a.value, now],
  )
  const row = r.rows[0]
  if (!row) throw new ApiError('API_CONFLICT', `Device ${a.sn} already has the global attribute ${a.name}; change it with PUT attributes/global`)
  return row
}

/** Adds or updates a list of attributes at once; returns the rows in the order given. */
export async function putAttributes(db: Db, scope: AttributeScope, list: readonly AttributeInput[], now: number): Promise<AttributeRow[]> {
  if (list.length === 0) return []
  const sns = list.map((a) => a.sn)
  const names = list.map((a) => a.name)
  const values = list.map((a) => a.value)
  return db.transaction(async (tx) => {
    const r =
      scope.kind === 'global'
        ? await tx.query<AttributeRow>(
            `INSERT INTO inventory.global_attributes (sn, name, value, updated_at)
             SELECT u.sn, u.name, u.value, $4 FROM unnest($1::text[], $2::text[], $3::text[]) AS u (sn, name, value)
             ON CONFLICT (sn, name) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at ${RETURNING}`,
            [sns, names, values, now],
          )
        : await tx.query<AttributeRow>(
            `INSERT INTO inventory.snapshot_attributes (snapshot_id, sn, name, value, updated_at)
             SELECT $5, u.sn, u.name, u.value, $4 FROM unnest($1::text[], $2::text[], $3::text[]) AS u (sn, name, value)
             ON CONFLICT (snapshot_id, sn, name) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at ${RETURNING}`,
            [sns, names, values, now, scope.snapshotId],
          )
    const byKey = new Map(r.rows.map((row) => [JSON.stringify([row.sn, row.name]), row]))
    return list.map((a) => byKey.get(JSON.stringify([a.sn, a.name]))!)
  })
}

/** Deletes attributes by device serial or attribute id; returns how many went. */
export async function deleteAttributes(db: Queryable, scope: AttributeScope, selector: AttributeSelector): Promise<number> {
  const column = selector.by === 'sn' ? 'sn' : 'id::text'
  const r =
    scope.kind === 'global'
      ? await db.query(`DELETE FROM inventory.global_attributes WHERE ${column} = ANY($1::text[])`, [selector.values])
      : await db.query(`DELETE FROM inventory.snapshot_attributes WHERE snapshot_id = $2 AND ${column} = ANY($1::text[])`, [selector.values, scope.snapshotId])
  return r.rowCount
}

/** Gives a new snapshot the global attributes of now (in the transaction that creates it). */
export async function copyGlobalAttributes(tx: Queryable, snapshotId: string, now: number): Promise<void> {
  await tx.query(
    'INSERT INTO inventory.snapshot_attributes (snapshot_id, sn, name, value, updated_at) SELECT $1, sn, name, value, $2 FROM inventory.global_attributes',
    [snapshotId, now],
  )
}

/** Gives a clone the attributes of the snapshot it copies. */
export async function copySnapshotAttributes(tx: Queryable, fromId: string, toId: string, now: number): Promise<void> {
  await tx.query(
    'INSERT INTO inventory.snapshot_attributes (snapshot_id, sn, name, value, updated_at) SELECT $2, sn, name, value, $3 FROM inventory.snapshot_attributes WHERE snapshot_id = $1',
    [fromId, toId, now],
  )
}
