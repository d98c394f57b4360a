/**
 * A snapshot's sort positions (`catalog/positions.ts`) kept in step with its rows: attached with
 * them, computed again in the transaction that changes them, computed at start for snapshots
 * taken before positions existed. Until a snapshot's positions are attached, its pages are read
 * by the scan (`query/plan.ts`), so they are never wrong, only slower.
 */
import type { Db, Queryable } from '../../shared/db/index.js'
import { attachPositionsSql, buildPositionsSql, positionedTables, positionsPartitionName, recomputePositionsSql } from '../catalog/positions.js'
import { attachRelations, backfillLoaded, recomputeRelations, type SnapshotRelation } from './snapshot-relations.js'

/** A snapshot's positions, one relation per positioned table. */
function positionsOf(snapshotId: string): SnapshotRelation[] {
  return positionedTables().map((table) => ({
    name: positionsPartitionName(table, snapshotId),
    build: () => buildPositionsSql(table, snapshotId),
    attach: () => attachPositionsSql(table, snapshotId),
    recompute: () => recomputePositionsSql(table, snapshotId),
  }))
}

/**
 * Attaches a snapshot's positions, computing those it lacks from its rows (which must be in).
 * `tx` is a transaction: the positions become visible with the rows (`attachSnapshot`), or all
 * at once for a snapshot whose rows already are (`backfillPositions`). Returns how many tables'
 * positions it computed.
 */
export function attachPositions(tx: Queryable, snapshotId: string): Promise<number> {
  return attachRelations(tx, positionsOf(snapshotId))
}

/**
 * Computes a snapshot's positions again from its rows as they are now, inside the transaction
 * that changed them (`device-rows.ts`). A snapshot that has none yet keeps none (read by the scan).
 */
export function recomputePositions(tx: Queryable, snapshotId: string): Promise<void> {
  return recomputeRelations(tx, positionsOf(snapshotId))
}

/**
 * The loaded snapshots whose rows are attached without positions (taken before them) get them,
 * each in a transaction of its own; returns how many snapshots changed. Run at start, after
 * the migrations.
 */
export function backfillPositions(db: Db): Promise<number> {
  return backfillLoaded(db, attachPositions)
}
