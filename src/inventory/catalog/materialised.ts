/**
 * Derived tables kept computed per snapshot (`source.materialised`). Such a table is a view whose
 * every page would aggregate or join a whole snapshot's large tables (a device's counters summed,
 * the two ends of every link); as a snapshot's rows never change once they are in, its rows are
 * computed once, when the snapshot's rows are attached, into a partition of their own of a table
 * shaped by the view's SQL (`mv_<hash>`, one partition per snapshot, like the rows), in the same
 * transaction (`storage/materialised.ts`), computed again in the transaction of a device change,
 * detached with the snapshot's rows and dropped with them.
 *
 * Ready means attached. A snapshot whose rows were attached before its table's rows were kept
 * (taken by an earlier release, computed at the next start) is read by the view's SQL: the
 * relation a query reads is both, each under a one-time condition on the partition's state, read
 * in the same snapshot of the database as the rows, so an answer is never wrong, only slower.
 *
 * The parent's name is a hash of the table's path and SQL: a release that changes a view's SQL
 * reads a new parent (shaped by the new SQL), and the start retires the parents no table names
 * (`storage/materialised.ts`).
 */
import { createHash } from 'node:crypto'
import { INVENTORY_SCHEMA, sqlLiteral, storageName } from './columns.js'
import { isSnapshotId } from './ddl.js'
import { TABLES } from './tables.js'
import type { TableDef } from './types.js'

/** A snapshot-scoped derived table whose rows are kept computed per snapshot. */
export type MaterialisedTableDef = TableDef & { source: { kind: 'derived'; sql: string; materialised: true } }

export function isMaterialised(table: TableDef): table is MaterialisedTableDef {
  return table.source.kind === 'derived' && table.source.materialised === true && table.snapshotScoped
}

/** The materialised tables, in catalog order. */
export function materialisedTables(): MaterialisedTableDef[] {
  return TABLES.filter(isMaterialised)
}

/** Prefix of every parent (and so of every partition) of a materialised table. */
export const MATERIALISED_PREFIX = 'mv_'

/** Unqualified name of a table's parent: "mv_" and 12 hex digits of its path and SQL. */
export function materialisedParentName(table: MaterialisedTableDef): string {
  return MATERIALISED_PREFIX + createHash('sha256').update(`${table.path}\n${table.source.sql}`).digest('hex').slice(0, 12)
}

export function materialisedParent(table: MaterialisedTableDef): string {
  return `${INVENTORY_SCHEMA}.${materialisedParentName(table)}`
}

/** Unqualified name of a snapshot's partition: "mv_<hash>_s_<uuid hex>". */
export function materialisedPartitionName(table: MaterialisedTableDef, snapshotId: string): string {
  if (!isSnapshotId(snapshotId)) throw new Error(`not a snapshot id: ${JSON.stringify(snapshotId)}`)
  return `${materialisedParentName(table)}_s_${snapshotId.replace(/-/g, '')}`
}

export function materialisedPartition(table: MaterialisedTableDef, snapshotId: string): string {
  return `${INVENTORY_SCHEMA}.${materialisedPartitionName(table, snapshotId)}`
}

/**
 * Statements creating a table's parent, in a transaction: its columns are those the view's SQL
 * yields (a table made from the SQL with no rows, dropped at commit), partitioned by snapshot.
 */
export function materialisedParentSql(table: MaterialisedTableDef): string[] {
  const shape = `${materialisedParentName(table)}_shape`
  return [
    `CREATE TEMP TABLE ${shape} ON COMMIT DROP AS SELECT * FROM (${table.source.sql}) v WITH NO DATA`,
    `CREATE TABLE ${materialisedParent(table)} (LIKE pg_temp.${shape}) PARTITION BY LIST (snapshot_id)`,
    `ALTER TABLE ${materialisedParent(table)} ALTER COLUMN snapshot_id SET NOT NULL`,
    `COMMENT ON TABLE ${materialisedParent(table)} IS ${sqlLiteral(`rows of ${table.path} computed per snapshot`)}`,
  ]
}

/** The view's rows of one snapshot. */
function rowsSql(table: MaterialisedTableDef, snapshotId: string): string {
  return `SELECT * FROM (${table.source.sql}) v WHERE v.snapshot_id = '${snapshotId}'`
}

/**
 * Statements computing a snapshot's (detached) partition from its attached rows. `CREATE TABLE AS`
 * rather than an INSERT into a table made `LIKE` the parent: PostgreSQL plans no parallel workers
 * for an INSERT, and the spanning-tree link views, which join the neighbours and the ports of both
 * ends, took 14.7–15.0 s with them against 22.1–27.4 s without at 10 M (the rates per device the
 * same either way; docs/architecture.md). The columns are the parent's, made from the same SQL;
 * the key column NOT NULL and the CHECK constraint are what an attach needs (the CHECK spares its
 * validation scan).
 */
export function buildMaterialisedSql(table: MaterialisedTableDef, snapshotId: string): string[] {
  const part = materialisedPartition(table, snapshotId)
  return [
    `CREATE TABLE ${part} AS ${rowsSql(table, snapshotId)}`,
    `ALTER TABLE ${part} ALTER COLUMN snapshot_id SET NOT NULL, ADD CONSTRAINT ${materialisedPartitionName(table, snapshotId)}_snap CHECK (snapshot_id = '${snapshotId}')`,
    ...sortIndexSql(table, part),
    `ANALYZE ${part}`,
  ]
}

/** An index of a partition for the table's default order (the sort column, then `id`), where that column is stored as it is. */
function sortIndexSql(table: MaterialisedTableDef, part: string): string[] {
  const sort = table.columns.find((c) => c.name === table.defaultSort.column)
  if (!sort || sort.sql !== undefined || !table.columns.some((c) => c.name === 'id')) return []
  return [`CREATE INDEX ON ${part} ("${storageName(sort.name)}", id)`]
}

/** Statements computing an attached partition again from the snapshot's rows as they are now. */
export function recomputeMaterialisedSql(table: MaterialisedTableDef, snapshotId: string): string[] {
  const part = materialisedPartition(table, snapshotId)
  return [`DELETE FROM ${part}`, `INSERT INTO ${part} ${rowsSql(table, snapshotId)}`]
}

export function attachMaterialisedSql(table: MaterialisedTableDef, snapshotId: string): string {
  return `ALTER TABLE ${materialisedParent(table)} ATTACH PARTITION ${materialisedPartition(table, snapshotId)} FOR VALUES IN ('${snapshotId}')`
}

export function detachMaterialisedSql(table: MaterialisedTableDef, snapshotId: string): string {
  return `ALTER TABLE ${materialisedParent(table)} DETACH PARTITION ${materialisedPartition(table, snapshotId)}`
}

/**
 * The two relations a query of one snapshot reads, of which one holds rows when a statement runs:
 * the kept rows where the snapshot's partition is attached, the view's SQL where it is not.
 * `ready` is the SQL of that condition (a one-time test: its value does not depend on the rows),
 * `snapshot` the snapshot id's parameter. The SQL's rows are read behind a fence (OFFSET 0) with
 * the snapshot's condition inside it, so that the one-time test stays above the plan of the SQL:
 * pushed into it, it sat below the Gather of a parallel plan, which then started its workers
 * (6 ms) for a branch that reads nothing.
 */
export function materialisedBranchesSql(table: MaterialisedTableDef, ready: string, snapshot: string): [string, string] {
  const view = `SELECT * FROM (${table.source.sql}) v WHERE v.snapshot_id = ${snapshot} OFFSET 0`
  return [`SELECT * FROM ${materialisedParent(table)} WHERE ${ready}`, `SELECT * FROM (${view}) v WHERE NOT ${ready}`]
}

/** The rows of the snapshot's kept partition where it is attached, NULL where it is not (then counted by the SQL). */
export function materialisedCountSql(table: MaterialisedTableDef, ready: string, snapshot: string): string {
  return `SELECT CASE WHEN ${ready} THEN (SELECT count(*) FROM ${materialisedParent(table)} k WHERE k.snapshot_id = ${snapshot}) END`
}
