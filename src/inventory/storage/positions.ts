/**
 * A snapshot's sort positions (`catalog/positions.ts`) kept in step with its rows: attached with
 * them, computed again in the transaction that changes them, computed at start for snapshots
 * taken before positions existed. Until a snapshot's positions are attached, its pages are read
 * by the scan (`query/plan.ts`), so they are never wrong, only slower.
 */
import type { Db, Queryable } from '../../shared/db/index.js'
import { attachPositionsSql, buildPositionsSql, positionedTables, positionsPartitionName, recomputePositionsSql } from '../catalog/positions.js'
import { INTERFACES } from '../catalog/inventory.js'
import { partitionName } from '../catalog/index.js'

/** Whether a relation of the inventory schema exists, and whether it is an attached partition. */
export async function relationState(db: Queryable, name: string): Promise<{ exists: boolean; attached: boolean }> {
  const r = await db.query<{ attached: boolean }>(
    `SELECT c.relispartition AS attached FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'inventory' AND c.relname = $1`,
    [name],
  )
  return { exists: r.rows.length > 0, attached: r.rows[0]?.attached === true }
}

/**
 * Attaches a snapshot's positions, computing those it lacks from its rows (which must be in).
 * `tx` is a transaction: the positions become visible with the rows (`attachSnapshot`), or all
 * at once for a snapshot whose rows already are (`backfillPositions`). Returns how many tables'
 * positions it computed.
 */
export async function attachPositions(tx: Queryable, snapshotId: string): Promise<number> {
  let built = 0
  for (const table of positionedTables()) {
    const state = await relationState(tx, positionsPartitionName(table, snapshotId))
    if (!state.exists) {
      for (const sql of buildPositionsSql(table, snapshotId)) await tx.query(sql)
      built++
    }
    if (!state.attached) await tx.query(attachPositionsSql(table, snapshotId))
  }
  return built
}

/**
 * Computes a snapshot's positions again from its rows as they are now, inside the transaction
 * that changed them (`device-rows.ts`). A snapshot that has none yet keeps none (read by the scan).
 */
export async function recomputePositions(tx: Queryable, snapshotId: string): Promise<void> {
  for (const table of positionedTables()) {
    if (!(await relationState(tx, positionsPartitionName(table, snapshotId))).exists) continue
    for (const sql of recomputePositionsSql(table, snapshotId)) await tx.query(sql)
  }
}

/**
 * The loaded snapshots whose rows are attached without positions (taken before them) get them,
 * each in a transaction of its own; returns how many snapshots changed. Run at start, after
 * the migrations.
 */
export function backfillPositions(db: Db): Promise<number> {
  return backfillLoaded(db, attachPositions)
}

/**
 * Runs `complete` (what a snapshot's rows are attached with: it returns how many relations it
 * computed) for each loaded snapshot, oldest first, each in a transaction of its own; returns how
 * many snapshots it computed something for.
 */
export async function backfillLoaded(db: Db, complete: (tx: Queryable, snapshotId: string) => Promise<number>): Promise<number> {
  const r = await db.query<{ id: string }>("SELECT id FROM inventory.snapshots WHERE status = 'done' AND loaded AND NOT loading ORDER BY ts_end")
  let n = 0
  for (const { id } of r.rows) {
    const built = await db.transaction(async (tx) => {
      // a device change of the snapshot waits for this (or this for it: then it reads its rows)
      const live = await tx.query("SELECT 1 FROM inventory.snapshots WHERE id = $1 AND status = 'done' AND loaded AND NOT loading FOR UPDATE", [id])
      if (live.rows.length === 0 || !(await relationState(tx, partitionName(INTERFACES, id))).attached) return 0
      return complete(tx, id)
    })
    if (built > 0) n++
  }
  return n
}
