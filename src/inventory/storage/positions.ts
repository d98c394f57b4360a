/**
 * A snapshot's sort positions (`catalog/positions.ts`) kept in step with its rows: attached with
 * them, computed again in the transaction that changes them, computed at start for snapshots
 * taken before positions existed. Until a snapshot's positions are attached, its pages are read
 * by the scan (`query/plan.ts`), so they are never wrong, only slower.
 */
import type { Queryable } from '../../shared/db/index.js'
import { attachPositionsSql, buildPositionsSql, detachPositionsSql, positionedTables, positionsPartitionName, recomputePositionsSql } from '../catalog/positions.js'
import { attachRelations, detachRelations, recomputeRelations, type SnapshotRelation } from './snapshot-relations.js'

/** A snapshot's positions, one relation per positioned table. */
function positionsOf(snapshotId: string): SnapshotRelation[] {
  return positionedTables().map((table) => ({
    name: positionsPartitionName(table, snapshotId),
    build: () => buildPositionsSql(table, snapshotId),
    attach: () => attachPositionsSql(table, snapshotId),
    detach: () => detachPositionsSql(table, snapshotId),
    recompute: () => recomputePositionsSql(table, snapshotId),
  }))
}

/**
 * Attaches a snapshot's positions, computing those it lacks from its rows (which must be in).
 * `tx` is a transaction: the positions become visible with the rows (`attachSnapshot`), or all
 * at once for a snapshot whose rows already are (`backfillComputed`). Returns how many tables'
 * positions it computed.
 */
export function attachPositions(tx: Queryable, snapshotId: string): Promise<number> {
  return attachRelations(tx, positionsOf(snapshotId))
}

/** Detaches a snapshot's positions with its rows (`detachSnapshot`). */
export function detachPositions(tx: Queryable, snapshotId: string): Promise<void> {
  return detachRelations(tx, positionsOf(snapshotId))
}

/**
 * Computes a snapshot's positions again from its rows as they are now, inside the transaction
 * that changed them (`device-rows.ts`). A snapshot that has none yet keeps none (read by the scan).
 */
export function recomputePositions(tx: Queryable, snapshotId: string): Promise<void> {
  return recomputeRelations(tx, positionsOf(snapshotId))
}
