/**
 * Comparison of a table between two snapshots, as a relation the planner reads like any table:
 * a FULL OUTER JOIN on the table's natural key of the older and the newer snapshot's rows (each
 * side read from its snapshot's partition), keeping only the rows that differ. Each result row has
 * the table's columns (newer side for added and changed rows, older side for removed ones), plus
 * `change` (added, removed, changed) and `diff` (for changed rows, `{column: {old, new}}` of the
 * compared columns that differ). Filters, sort, pagination, the count and CSV then come from
 * `plan.ts` unchanged, so the database streams the result and never holds both snapshots at once.
 *
 * Compared columns: every column but the key, the row `id` (an identifier within one snapshot)
 * and, unless asked, the table's volatile columns (uptime, counters, timestamps). A list whose
 * order means nothing (`unordered` in the catalog) differs only when its elements do.
 */
import { storageName } from '../catalog/columns.js'
import type { ColumnDef, TableDef } from '../catalog/types.js'
import type { StatementSettings } from '../../shared/db/index.js'
import { invalidInput } from '../../shared/errors.js'
import { sourceSql } from './plan.js'
import { columnExpr, type Params } from './sql-filter.js'

export const CHANGE_KINDS = ['added', 'removed', 'changed'] as const
export type ChangeKind = (typeof CHANGE_KINDS)[number]

/** The two columns a comparison adds to the table's own. */
export const CHANGE_COLUMN: ColumnDef = {
  name: 'change',
  type: 'string',
  description: 'How the row differs between the two snapshots: added (only in the newer), removed (only in the older), changed.',
  values: CHANGE_KINDS,
}
export const DIFF_COLUMN: ColumnDef = {
  name: 'diff',
  type: 'json',
  description: 'For a changed row, {column: {old, new}} of the compared columns that differ; null for added and removed rows.',
}

/**
 * How PostgreSQL runs a comparison's statements (`SET LOCAL`, see `shared/db/settings.ts`):
 * - a hash join rather than a merge join. Both sides are read whole and unsorted, so a merge join
 *   sorts the two snapshots on the key (on disk, past `work_mem`) where a hash join only hashes
 *   them; but the planner prices a hash join on a key of several columns as if all rows sharing
 *   its most common column (an interface's `sn`) fell into one bucket, and picks the sorts. A
 *   natural key is (nearly) unique, so the hash buckets stay small: on the large profile the
 *   hash join takes about half the time of the sorts (docs/comparison.md).
 * - no JIT compilation: the statement reads every row of both snapshots once, so the cost model
 *   asks for JIT, whose compilation of the column-wise comparison and `diff` expressions took
 *   longer (about 1 s) than it saved.
 */
export const COMPARISON_SETTINGS: StatementSettings = { enable_mergejoin: 'off', jit: 'off' }

/** Which snapshots a comparison reads: the newer one is the request's `snapshot`. */
export interface ComparedSnapshots {
  older: string
  newer: string
}

/** Why a table cannot be compared, or undefined when it can. */
export function notComparable(table: TableDef): string | undefined {
  if (!table.snapshotScoped) return `"compare" needs a table of a snapshot; ${table.path} has none`
  if (!table.key || table.key.length === 0) return `"compare" is not available for ${table.path}: the table declares no key`
  return undefined
}

const COMPARISON_TABLES = new Map<TableDef, TableDef>()

/**
 * The table a comparison of `table` answers as: the same columns (read from the comparison's
 * output, so without their own `sql`) plus `change` and `diff`. Not scoped to a snapshot: the
 * comparison relation holds the two snapshots already.
 */
export function comparisonTable(table: TableDef): TableDef {
  const reason = notComparable(table)
  if (reason) throw invalidInput([{ message: reason }])
  let def = COMPARISON_TABLES.get(table)
  if (!def) {
    const columns = table.columns.map(({ sql: _sql, ...column }) => column)
    def = { ...table, snapshotScoped: false, source: { kind: 'derived', sql: '' }, columns: [...columns, CHANGE_COLUMN, DIFF_COLUMN], indexes: [] }
    COMPARISON_TABLES.set(table, def)
  }
  return def
}

/** The columns a comparison looks at for `changed` (the others never make a row changed). */
export function comparedColumns(table: TableDef, volatile: boolean): ColumnDef[] {
  const skip = new Set<string>(['id', ...(table.key ?? []), ...(volatile ? [] : (table.volatile ?? []))])
  return table.columns.filter((c) => !skip.has(c.name))
}

/** A column's storage name, quoted for SQL. */
export function quoted(name: string): string {
  return `"${storageName(name).replace(/"/g, '""')}"`
}

/**
 * One snapshot's rows: a presence mark (`_p`), the key (`_k<i>`: a column as it is, or, when the
 * catalog says it may be null, as text with null as '' so that the join can hash or merge it) and
 * every column.
 */
function sideSql(table: TableDef, params: Params, snapshotId: string, and = ''): string {
  const nullable = new Set(table.nullableKey ?? [])
  const key = table.key!.map((name, i) => {
    const expr = columnExpr(table.columns.find((c) => c.name === name)!)
    return nullable.has(name) ? `coalesce((${expr})::text, '') AS _k${i}` : `${expr} AS _k${i}`
  })
  const columns = table.columns.map((c) => `${columnExpr(c)} AS ${quoted(c.name)}`)
  return `SELECT true AS _p, ${[...key, ...columns].join(', ')} FROM ${sourceSql(table, { id: snapshotId, params })} WHERE t.snapshot_id = ${params.add(snapshotId, 'text')}${and}`
}

/** A list as a set: its distinct elements in order (null stays null; a JSON value that is no array stays as it is). */
function asSet(c: ColumnDef, value: string): string {
  if (c.type === 'json') {
    const v = `(${value})::jsonb`
    return `CASE WHEN jsonb_typeof(${v}) = 'array' THEN coalesce((SELECT jsonb_agg(DISTINCT e ORDER BY e) FROM jsonb_array_elements(${v}) e), '[]'::jsonb) ELSE ${v} END`
  }
  return `CASE WHEN ${value} IS NULL THEN NULL ELSE ARRAY(SELECT DISTINCT e FROM unnest(${value}) e ORDER BY e) END`
}

/**
 * Whether a compared column differs between the older (`o`) and newer (`n`) row. An unordered
 * list is sorted only when the two lists are not already the same, so equal rows cost nothing more.
 */
function differsSql(c: ColumnDef): string {
  const [o, n] = [`o.${quoted(c.name)}`, `n.${quoted(c.name)}`]
  if (!c.unordered) return `${o} IS DISTINCT FROM ${n}`
  return `(${o} IS DISTINCT FROM ${n} AND ${asSet(c, o)} IS DISTINCT FROM ${asSet(c, n)})`
}

/**
 * `{"<column>": {"old": ..., "new": ...}}` of the compared columns that differ, as `json` text
 * built in column order ("old" before "new": `jsonb` would sort the keys).
 */
function diffSql(compared: readonly ColumnDef[]): string {
  if (compared.length === 0) return `'{}'::json`
  const parts = compared.map((c) => {
    const [o, n] = [`o.${quoted(c.name)}`, `n.${quoted(c.name)}`]
    const name = JSON.stringify(c.name).replace(/'/g, "''")
    return `CASE WHEN ${differsSql(c)} THEN '${name}:' || json_build_object('old', to_json(${o}), 'new', to_json(${n}))::text END`
  })
  return `('{' || concat_ws(',', ${parts.join(', ')}) || '}')::json`
}

/** Whether any compared column differs: one row comparison of the plain columns, the unordered lists each on their own. */
function rowDiffersSql(compared: readonly ColumnDef[]): string {
  const plain = compared.filter((c) => !c.unordered)
  const tests = compared.filter((c) => c.unordered).map(differsSql)
  if (plain.length > 0) tests.unshift(`(${plain.map((c) => `o.${quoted(c.name)}`).join(', ')}) IS DISTINCT FROM (${plain.map((c) => `n.${quoted(c.name)}`).join(', ')})`)
  return tests.length === 0 ? 'false' : `(${tests.join(' OR ')})`
}

/**
 * The comparison relation's SQL (for `planQuery`'s `from`): columns under their storage names,
 * `change` and `diff`; only rows that differ. `only` adds a condition (` AND ...` on the table's
 * `t`) to each snapshot's rows, for a caller that knows no other row can differ
 * (`kept-comparison.ts`, a table that changes with another).
 */
export function comparisonSql(table: TableDef, snapshots: ComparedSnapshots, volatile: boolean, params: Params, only?: { older: string; newer: string }): string {
  const key = table.key!
  const compared = comparedColumns(table, volatile)
  const on = key.map((_, i) => `o._k${i} = n._k${i}`).join(' AND ')
  const columns = table.columns.map((c) => `CASE WHEN n._p IS NULL THEN o.${quoted(c.name)} ELSE n.${quoted(c.name)} END AS ${quoted(c.name)}`)
  const change = `CASE WHEN o._p IS NULL THEN 'added' WHEN n._p IS NULL THEN 'removed' ELSE 'changed' END AS "change"`
  const diff = `CASE WHEN o._p AND n._p THEN ${diffSql(compared)} END AS "diff"`
  return (
    `SELECT ${[...columns, change, diff].join(', ')}` +
    ` FROM (${sideSql(table, params, snapshots.older, only?.older)}) o FULL OUTER JOIN (${sideSql(table, params, snapshots.newer, only?.newer)}) n ON ${on}` +
    ` WHERE o._p IS NULL OR n._p IS NULL OR ${rowDiffersSql(compared)}`
  )
}

/** SQL counting a comparison's rows per kind of change. */
export function changeCountSql(table: TableDef, snapshots: ComparedSnapshots, volatile: boolean, params: Params): string {
  const counts = CHANGE_KINDS.map((kind) => `count(*) FILTER (WHERE t."change" = '${kind}')::int8 AS ${kind}`)
  return `SELECT ${counts.join(', ')} FROM (${comparisonSql(table, snapshots, volatile, params)}) t`
}
