/**
 * A way of finding a comparison's rows in two passes, measured by `bench/keeping.ts` against the
 * product's (`comparisonSql`) and left out of it (it did not pay on "large": docs/architecture.md).
 */
import type { ColumnDef, TableDef } from '../src/inventory/catalog/types.js'
import { comparedColumns, comparisonSql, type ComparedSnapshots } from '../src/inventory/query/compare.js'
import { sourceSql } from '../src/inventory/query/plan.js'
import { columnExpr, type Params } from '../src/inventory/query/sql-filter.js'

/**
 * One snapshot's rows for the narrow first pass of `narrowComparisonSql`: the key, where the row
 * is (`ctid`) and a 64-bit hash of its compared columns (`hash_record_extended`: the types' own
 * hash functions, equal values hash alike).
 */
function narrowSideSql(table: TableDef, compared: readonly ColumnDef[], params: Params, snapshotId: string): string {
  const nullable = new Set(table.nullableKey ?? [])
  const key = table.key!.map((name, i) => {
    const expr = columnExpr(table.columns.find((c) => c.name === name)!)
    return nullable.has(name) ? `coalesce((${expr})::text, '') AS _k${i}` : `${expr} AS _k${i}`
  })
  const hash = `hash_record_extended(ROW(${compared.map((c) => columnExpr(c)).join(', ')}), 0) AS _h`
  return `SELECT ${[...key, 't.ctid AS _r', hash].join(', ')} FROM ${sourceSql(table)} WHERE t.snapshot_id = ${params.add(snapshotId, 'text')}`
}

/**
 * `comparisonSql`'s rows found in two passes, for keeping them (`kept-comparison.ts`): first a
 * join of narrow rows (key, place, hash of the compared columns) names the rows that may differ
 * (unmatched, or matched with another hash); then only those rows are read again by place and
 * compared as `comparisonSql` compares them. A row whose hash equals its match's is taken as
 * unchanged, which is sound for equal values (they hash alike) and misses a change only when two
 * different rows' 64-bit hashes collide. Stored tables only (a row read by place).
 */
export function narrowComparisonSql(table: TableDef, snapshots: ComparedSnapshots, volatile: boolean, params: Params, only?: { older: string; newer: string }): string {
  if (table.source.kind !== 'stored' || only) return comparisonSql(table, snapshots, volatile, params, only)
  const compared = comparedColumns(table, volatile)
  const on = table.key!.map((_, i) => `o._k${i} = n._k${i}`).join(' AND ')
  const candidates =
    `SELECT o._r AS o_r, n._r AS n_r FROM (${narrowSideSql(table, compared, params, snapshots.older)}) o` +
    ` FULL OUTER JOIN (${narrowSideSql(table, compared, params, snapshots.newer)}) n ON ${on}` +
    ` WHERE o._r IS NULL OR n._r IS NULL${compared.length > 0 ? ' OR o._h <> n._h' : ''}`
  const place = (side: 'o_r' | 'n_r') => ` AND t.ctid = ANY (ARRAY(SELECT ${side} FROM _candidates WHERE ${side} IS NOT NULL))`
  return `WITH _candidates AS MATERIALIZED (${candidates}) ${comparisonSql(table, snapshots, volatile, params, { older: place('o_r'), newer: place('n_r') })}`
}

