/**
 * Value counts of a snapshot's rows. For a table that declares `valueCounts` (columns users filter
 * by: names, descriptions, states), `<table>_values` holds, per snapshot (a partition of its own,
 * like the rows), each distinct value of each such column with the number of rows that carry it,
 * one grouping set per column (`g`, the column's index in the list). A network repeats its
 * interface names, states and descriptions across devices (on "large", 1.1 M interfaces carry 1,218
 * names and 32,142 descriptions), so the count of rows matching a filter on one such column is the
 * sum of the counts of the matching values: the filter is tested on each distinct value once
 * instead of on every row (`query/plan.ts`).
 *
 * Ready means attached, as for the sort positions (`positions.ts`): computed with the rows in the
 * transaction that attaches them or before it, recomputed in the transaction of a device change,
 * detached and dropped with them; a snapshot without them (taken before, computed at the next
 * start) counts by the scan. The count reads them only when the snapshot's partition is attached
 * (a condition of the statement, read in the same snapshot of the database as the rows), so an
 * answer is never wrong, only slower.
 */
import { storageName } from './columns.js'
import { attachCompanionSql, companionParent, companionPartition, companionPartitionName, createCompanionSql, detachCompanionSql, dropCompanionSql, partitionTable } from './ddl.js'
import { STORAGE_TYPES } from './storage-types.js'
import { STORED_TABLES } from './tables.js'
import type { StoredTableDef, TableDef } from './types.js'

/** The stored tables with value counts, in catalog order. */
export function countedTables(): StoredTableDef[] {
  return STORED_TABLES.filter((t) => (t.valueCounts?.length ?? 0) > 0)
}

/** Qualified parent table of a table's value counts: "inventory.interfaces_values". */
export function valuesParent(table: StoredTableDef): string {
  return companionParent(table, 'values')
}

/** Unqualified name of a snapshot's value counts partition. */
export function valuesPartitionName(table: StoredTableDef, snapshotId: string): string {
  return companionPartitionName(table, 'values', snapshotId)
}

export function valuesPartition(table: StoredTableDef, snapshotId: string): string {
  return companionPartition(table, 'values', snapshotId)
}

/** CREATE TABLE of the parent (migrations; `value-counts.test.ts` holds the migration to it). */
export function valuesParentSql(table: StoredTableDef): string {
  const cols = (table.valueCounts ?? []).map((name) => {
    const column = table.columns.find((c) => c.name === name)
    if (!column || column.sql !== undefined || column.atLoad !== undefined) throw new Error(`${table.path}: ${name} is not a stored column`)
    return `"${storageName(name)}" ${STORAGE_TYPES[column.type]}`
  })
  return `CREATE TABLE IF NOT EXISTS ${valuesParent(table)} (snapshot_id text NOT NULL, g smallint NOT NULL, n bigint NOT NULL, ${cols.join(', ')}) PARTITION BY LIST (snapshot_id)`
}

/** A table's counted columns under their storage names, quoted, in `g` order. */
export function countedColumnsSql(table: TableDef): string[] {
  return (table.valueCounts ?? []).map((name) => `"${storageName(name)}"`)
}

/**
 * The grouping of value counts over rows aliased `r`: `g` (the column's index; -1 for the grouping
 * set of all rows, with `total`), the counted columns and the GROUP BY of one grouping set per
 * column (`count(*)` of a group is its `n`).
 */
export function valueGroupsSql(table: TableDef, total = false): { g: string; columns: string; groupBy: string } {
  const cols = countedColumnsSql(table)
  const sets = cols.map((c) => `(r.${c})`)
  return {
    g: `CASE ${cols.map((c, i) => `WHEN GROUPING(r.${c}) = 0 THEN ${i}`).join(' ')}${total ? ' ELSE -1' : ''} END`,
    columns: cols.map((c) => `r.${c}`).join(', '),
    groupBy: `GROUP BY GROUPING SETS (${[...sets, ...(total ? ['()'] : [])].join(', ')})`,
  }
}

/** The rows of the snapshot's value counts: one grouping set per column, `g` its index. */
function countsSql(table: StoredTableDef, snapshotId: string): string {
  const groups = valueGroupsSql(table)
  return `INSERT INTO ${valuesPartition(table, snapshotId)} (snapshot_id, g, n, ${countedColumnsSql(table).join(', ')})
    SELECT '${snapshotId}', ${groups.g}, count(*), ${groups.columns} FROM ${partitionTable(table, snapshotId)} r
    ${groups.groupBy}`
}

/**
 * The statements that make a snapshot's value counts partition, detached, from its row partition:
 * the table, its rows, the index on `g` that a count reads one column's values by, its statistics.
 */
export function buildValuesSql(table: StoredTableDef, snapshotId: string): string[] {
  const part = valuesPartition(table, snapshotId)
  const name = valuesPartitionName(table, snapshotId)
  return [
    createCompanionSql(table, 'values', snapshotId),
    countsSql(table, snapshotId),
    `CREATE INDEX ${name}_g ON ${part} (g)`,
    `ANALYZE ${part}`,
  ]
}

/** Computes an existing value counts partition again (a device change, in its transaction). */
export function recomputeValuesSql(table: StoredTableDef, snapshotId: string): string[] {
  return [`DELETE FROM ${valuesPartition(table, snapshotId)}`, countsSql(table, snapshotId)]
}

export function attachValuesSql(table: StoredTableDef, snapshotId: string): string {
  return attachCompanionSql(table, 'values', snapshotId)
}

export function detachValuesSql(table: StoredTableDef, snapshotId: string): string {
  return detachCompanionSql(table, 'values', snapshotId)
}

export function dropValuesSql(table: StoredTableDef, snapshotId: string): string {
  return dropCompanionSql(table, 'values', snapshotId)
}

/**
 * SQL of the number of rows whose value of the counted column `g` satisfies `predicate` (an
 * expression over `v.<column>`), summed from the value counts in `relation` that `scope` selects
 * (one snapshot's, one kept comparison's), NULL unless `ready`: the scan then counts.
 */
export function valueSumSql(relation: string, scope: string, g: number, predicate: string, ready: string): string {
  return `SELECT CASE WHEN ${ready} THEN (SELECT coalesce(sum(v.n), 0) FROM ${relation} v WHERE ${scope} AND v.g = ${g} AND ${predicate}) END`
}

/** `valueSumSql` over a snapshot's value counts, ready when its partition is attached. */
export function valueCountSql(table: StoredTableDef, g: number, snapshot: string, predicate: string, ready: string): string {
  return valueSumSql(valuesParent(table), `v.snapshot_id = ${snapshot}`, g, predicate, ready)
}
