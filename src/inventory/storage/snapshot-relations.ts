/**
 * Relations computed once per snapshot from its rows and kept in step with them (`computed.ts`):
 * the sort positions, the value counts and the materialised tables. Each is a
 * partition of its own, attached in the transaction that attaches the rows (ready means
 * attached), computed again in the transaction that changes them, computed at start for loaded
 * snapshots taken before it existed.
 */
import type { Db, Queryable } from '../../shared/db/index.js'
import { partitionName } from '../catalog/index.js'
import { INTERFACES } from '../catalog/inventory.js'

/** Whether a relation of the inventory schema exists, and whether it is an attached partition. */
export async function relationState(db: Queryable, name: string): Promise<{ exists: boolean; attached: boolean }> {
  const r = await db.query<{ attached: boolean }>(
    `SELECT c.relispartition AS attached FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'inventory' AND c.relname = $1`,
    [name],
  )
  return { exists: r.rows.length > 0, attached: r.rows[0]?.attached === true }
}

/** One snapshot's partition of a relation computed from its rows, and the statements that make it. */
export interface SnapshotRelation {
  /** The partition's unqualified name. */
  name: string
  /** Statements computing the (detached) partition from the snapshot's rows. */
  build: () => string[]
  attach: () => string
  detach: () => string
  /** Statements computing the partition again from the rows as they are now. */
  recompute: () => string[]
}

/** The statements of one kind of such relation, for a table and a snapshot. */
export interface RelationSql<T> {
  name: (table: T, snapshotId: string) => string
  build: (table: T, snapshotId: string) => string[]
  attach: (table: T, snapshotId: string) => string
  detach: (table: T, snapshotId: string) => string
  recompute: (table: T, snapshotId: string) => string[]
}

/** A snapshot's relations of one kind, one per table. */
export function relationsOf<T>(tables: readonly T[], sql: RelationSql<T>, snapshotId: string): SnapshotRelation[] {
  return tables.map((table) => ({
    name: sql.name(table, snapshotId),
    build: () => sql.build(table, snapshotId),
    attach: () => sql.attach(table, snapshotId),
    detach: () => sql.detach(table, snapshotId),
    recompute: () => sql.recompute(table, snapshotId),
  }))
}

/** Attaches each relation, computing those the snapshot lacks first; returns how many it computed. */
export async function attachRelations(tx: Queryable, relations: readonly SnapshotRelation[]): Promise<number> {
  let built = 0
  for (const relation of relations) {
    const state = await relationState(tx, relation.name)
    if (!state.exists) {
      for (const sql of relation.build()) await tx.query(sql)
      built++
    }
    if (!state.attached) await tx.query(relation.attach())
  }
  return built
}

/** Detaches each relation that is attached (the snapshot's rows are being detached in `tx`). */
export async function detachRelations(tx: Queryable, relations: readonly SnapshotRelation[]): Promise<void> {
  for (const relation of relations) if ((await relationState(tx, relation.name)).attached) await tx.query(relation.detach())
}

/** Computes each relation the snapshot has again, inside the transaction that changed its rows; one it lacks stays lacking (read without it). */
export async function recomputeRelations(tx: Queryable, relations: readonly SnapshotRelation[]): Promise<void> {
  for (const relation of relations) {
    if (!(await relationState(tx, relation.name)).exists) continue
    for (const sql of relation.recompute()) await tx.query(sql)
  }
}

/**
 * Runs `complete` (what a snapshot's rows are attached with: it returns how many relations it
 * computed) for each loaded snapshot, oldest first, each in a transaction of its own; returns how
 * many snapshots it computed something for. Run at start, after the migrations.
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
