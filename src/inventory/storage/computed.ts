/**
 * What a snapshot's attached rows come with, each a partition of its own computed from them
 * (`snapshot-relations.ts`), in the order they are computed: the sort positions of its large
 * tables (`catalog/positions.ts`: a page at any offset is an index range), the value counts of
 * their filtered columns (`catalog/value-counts.ts`: a count sums the matching values' counts), and
 * the materialised tables (`materialised.ts`). Until one is attached, the query that would read it
 * reads the rows, so an answer is never wrong, only slower.
 */
import { attachPositionsSql, buildPositionsSql, detachPositionsSql, dropPositionsSql, positionedTables, positionsPartitionName, recomputePositionsSql } from '../catalog/positions.js'
import { attachValuesSql, buildValuesSql, countedTables, detachValuesSql, dropValuesSql, recomputeValuesSql, valuesPartitionName } from '../catalog/value-counts.js'
import { materialisedOf } from './materialised.js'
import { relationsOf, type SnapshotRelation } from './snapshot-relations.js'

/** A snapshot's computed relations. */
export function computedOf(snapshotId: string): SnapshotRelation[] {
  return [
    ...relationsOf(
      positionedTables(),
      { name: positionsPartitionName, build: buildPositionsSql, attach: attachPositionsSql, detach: detachPositionsSql, recompute: recomputePositionsSql },
      snapshotId,
    ),
    ...relationsOf(
      countedTables(),
      { name: valuesPartitionName, build: buildValuesSql, attach: attachValuesSql, detach: detachValuesSql, recompute: recomputeValuesSql },
      snapshotId,
    ),
    ...materialisedOf(snapshotId),
  ]
}

/**
 * The companions of a snapshot's rows computed from its partitions alone (the positions and the
 * value counts; the materialised tables read the attached rows): built detached beside the rows
 * before they are attached (the loader's queue, a clone), one job of statements per table.
 */
export function companionBuildJobs(snapshotId: string): string[][] {
  return [...positionedTables().map((t) => buildPositionsSql(t, snapshotId)), ...countedTables().map((t) => buildValuesSql(t, snapshotId))]
}

/** Statements dropping those companions, attached or not (a failed load or clone, a deleted snapshot). */
export function companionDropSql(snapshotId: string): string[] {
  return [...positionedTables().map((t) => dropPositionsSql(t, snapshotId)), ...countedTables().map((t) => dropValuesSql(t, snapshotId))]
}
