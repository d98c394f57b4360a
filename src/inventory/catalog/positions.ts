/**
 * Sort positions of a snapshot's rows. For a table that declares `positions` (its large tables),
 * `<table>_positions` holds, per snapshot (a partition of its own, like the rows), each row's `id`
 * and its 0-based position in the table's total order for each declared column (`ORDER BY
 * <column> ASC NULLS LAST, id ASC NULLS LAST`, the order `query/plan.ts` writes; the descending
 * order is the same list read backwards). Snapshots never change once their rows are in, so the
 * positions are computed once with the rows, and a page without filters at any offset is a range
 * of a position index joined to the rows by `id` (an index of its own on the row partition)
 * instead of a walk over every row before it.
 *
 * Ready means attached: the positions partition is attached in the same transaction as the rows'
 * partitions (`storage/partitions.ts`), and recomputed in the transaction of a device change; a
 * snapshot without it (taken before, computed at the next start) answers by the scan.
 */
import { storageName } from './columns.js'
import { attachCompanionSql, companionParent, companionPartition, companionPartitionName, createCompanionSql, detachCompanionSql, dropCompanionSql, partitionName, partitionTable } from './ddl.js'
import { STORED_TABLES } from './tables.js'
import type { StoredTableDef } from './types.js'

/** The stored tables with positions, in catalog order. */
export function positionedTables(): StoredTableDef[] {
  return STORED_TABLES.filter((t) => (t.positions?.length ?? 0) > 0)
}

/** Whether rows of `table` sorted by `column` have positions. */
export function hasPositions(table: StoredTableDef, column: string): boolean {
  return table.positions?.includes(column) === true
}

/** Qualified parent table of a table's positions: "inventory.interfaces_positions". */
export function positionsParent(table: StoredTableDef): string {
  return companionParent(table, 'positions')
}

/** Unqualified name of a snapshot's positions partition. */
export function positionsPartitionName(table: StoredTableDef, snapshotId: string): string {
  return companionPartitionName(table, 'positions', snapshotId)
}

export function positionsPartition(table: StoredTableDef, snapshotId: string): string {
  return companionPartition(table, 'positions', snapshotId)
}

/** The storage column of a position: the sort column's storage name. */
export function positionColumn(column: string): string {
  return `"${storageName(column)}"`
}

function columns(table: StoredTableDef): string[] {
  return (table.positions ?? []).map(positionColumn)
}

/** CREATE TABLE of the parent (migrations). */
export function positionsParentSql(table: StoredTableDef): string {
  const cols = columns(table).map((c) => `${c} bigint NOT NULL`)
  return `CREATE TABLE IF NOT EXISTS ${positionsParent(table)} (snapshot_id text NOT NULL, id text NOT NULL, ${cols.join(', ')}) PARTITION BY LIST (snapshot_id)`
}

/**
 * The statements that make a snapshot's positions partition, detached, from its row partition:
 * the table, its rows (one window per column), an index per position, and the index on the rows'
 * `id` the page joins through. Run in one transaction, or before the snapshot is attached.
 */
export function buildPositionsSql(table: StoredTableDef, snapshotId: string): string[] {
  const part = positionsPartition(table, snapshotId)
  const name = positionsPartitionName(table, snapshotId)
  const rows = partitionTable(table, snapshotId)
  const cols = columns(table)
  const windows = cols.map((c) => `row_number() OVER (ORDER BY r.${c} ASC NULLS LAST, r.id ASC NULLS LAST) - 1`)
  return [
    createCompanionSql(table, 'positions', snapshotId),
    `INSERT INTO ${part} (snapshot_id, id, ${cols.join(', ')}) SELECT '${snapshotId}', r.id, ${windows.join(', ')} FROM ${rows} r`,
    ...cols.map((c, i) => `CREATE INDEX ${name}_p${i} ON ${part} (${c}) INCLUDE (id)`),
    `CREATE INDEX IF NOT EXISTS ${partitionName(table, snapshotId)}_id ON ${rows} (id)`,
  ]
}

/** Computes an existing positions partition again (a device change, in its transaction). */
export function recomputePositionsSql(table: StoredTableDef, snapshotId: string): string[] {
  const part = positionsPartition(table, snapshotId)
  const cols = columns(table)
  const windows = cols.map((c) => `row_number() OVER (ORDER BY r.${c} ASC NULLS LAST, r.id ASC NULLS LAST) - 1`)
  return [
    `DELETE FROM ${part}`,
    `INSERT INTO ${part} (snapshot_id, id, ${cols.join(', ')}) SELECT '${snapshotId}', r.id, ${windows.join(', ')} FROM ${partitionTable(table, snapshotId)} r`,
  ]
}

export function attachPositionsSql(table: StoredTableDef, snapshotId: string): string {
  return attachCompanionSql(table, 'positions', snapshotId)
}

export function detachPositionsSql(table: StoredTableDef, snapshotId: string): string {
  return detachCompanionSql(table, 'positions', snapshotId)
}

export function dropPositionsSql(table: StoredTableDef, snapshotId: string): string {
  return dropCompanionSql(table, 'positions', snapshotId)
}
