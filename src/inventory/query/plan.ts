/**
 * Stage 3: a validated request → SQL text and parameters, for the page (or the whole CSV export)
 * and for the count of matching rows. Pure: no database access. Ordering is total: the sort column,
 * then the table's `id` in the same direction, so pages never overlap or skip.
 */
import type { ColumnDef, TableDef } from '../catalog/types.js'
import { isSnapshotId } from '../catalog/ddl.js'
import { isStored } from '../catalog/tables.js'
import { storageName } from '../catalog/columns.js'
import { hasPositions, positionColumn, positionsParent, positionsPartitionName } from '../catalog/positions.js'
import { valueCountSql, valuesPartitionName } from '../catalog/value-counts.js'
import { isMaterialised, materialisedBranchesSql, materialisedCountSql, materialisedPartitionName, type MaterialisedTableDef } from '../catalog/materialised.js'
import { attributeFilterExpr } from './attribute-filter.js'
import { Params, columnExpr, filterExpr, severityExpr } from './sql-filter.js'
import type { SqlPlan, ValidFilter, ValidRequest } from './types.js'
import type { StatementSettings } from '../../shared/db/settings.js'

/**
 * The relation a table reads, aliased `t`. Table names and SQL come only from the catalog. With
 * the snapshot a query reads (whose parameters it adds to), a materialised table reads its kept
 * rows where they are ready.
 */
export function sourceSql(table: TableDef, snapshot?: { id: string; params: Params }): string {
  if (table.source.kind === 'stored') return `${table.source.table} t`
  if (snapshot && isMaterialised(table)) return `(${materialisedRead(table, snapshot.id).from(snapshot.params)}) t`
  return `(${table.source.sql}) t`
}

/**
 * How a materialised table is read in one snapshot (`catalog/materialised.ts`): its kept rows or
 * its SQL, whichever is ready, as two branches (each page sorted and cut on its own: the kept
 * rows' first page is read from their index) and the count of the kept rows.
 */
function materialisedRead(table: MaterialisedTableDef, snapshotId: string): Required<Pick<PlanOptions, 'from' | 'branches' | 'fromCount'>> {
  // (an id that names no snapshot, as in the shape of a kept comparison's relation, has nothing kept)
  const partition = isSnapshotId(snapshotId) ? materialisedPartitionName(table, snapshotId) : ''
  const ready = (params: Params) => attachedSql(partition, params)
  const branches = (params: Params) => materialisedBranchesSql(table, ready(params), params.add(snapshotId, 'text'))
  return {
    from: (params) => branches(params).join(' UNION ALL '),
    branches,
    fromCount: (params) => materialisedCountSql(table, ready(params), params.add(snapshotId, 'text')),
  }
}

/** Whether a partition of the inventory schema is attached: a condition read once per statement. */
function attachedSql(partition: string, params: Params): string {
  return `EXISTS (SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'inventory' AND c.relname = ${params.add(partition, 'name')} AND c.relispartition)`
}

/** WHERE clause: the snapshot (for snapshot-scoped tables) and the filter. */
function whereSql(table: TableDef, request: ValidRequest, snapshotId: string | undefined, params: Params): string {
  const parts: string[] = []
  if (table.snapshotScoped) {
    if (snapshotId === undefined) throw new Error(`table ${table.path} needs a snapshot id`)
    parts.push(`t.snapshot_id = ${params.add(snapshotId, 'text')}`)
  }
  if (request.filter) parts.push(filterExpr(request.filter, params, { colors: request.colors }))
  if (request.attributes) parts.push(attributeFilterExpr(request.attributes, params))
  return parts.length > 0 ? ` WHERE ${parts.join(' AND ')}` : ''
}

/** The expressions a page is ordered by: the sort column, `id`, then the tiebreak columns. */
function orderKeys(table: TableDef, request: ValidRequest, tiebreak: readonly ColumnDef[]): string[] {
  const keys = [columnExpr(request.sort.column)]
  const id = table.columns.find((c) => c.name === 'id')
  if (id && request.sort.column.name !== 'id') keys.push(columnExpr(id))
  for (const column of tiebreak) if (request.sort.column.name !== column.name) keys.push(columnExpr(column))
  return keys
}

function orderDir(request: ValidRequest): string {
  return request.sort.order === 'desc' ? 'DESC NULLS FIRST' : 'ASC NULLS LAST'
}

function orderSql(table: TableDef, request: ValidRequest, tiebreak: readonly ColumnDef[]): string {
  const dir = orderDir(request)
  return ` ORDER BY ${orderKeys(table, request, tiebreak)
    .map((key) => `${key} ${dir}`)
    .join(', ')}`
}

/**
 * The page of a request without filters sorted by a column with sort positions
 * (`catalog/positions.ts`): the rows whose positions fall in the page's range, joined by `id`,
 * when the snapshot's positions are attached; otherwise (a snapshot taken before them, not yet
 * computed) the scan with OFFSET. One statement: the readiness is a one-time condition of each
 * branch, read in the same snapshot of the database as the rows. Both branches carry the sort
 * keys (`k0`, `k1`), which order the page (at most `limit` rows) the way the scan orders them.
 */
function positionedPageSql(table: TableDef, request: ValidRequest, snapshotId: string, outputs: string[], params: Params, scan: (params: Params) => string): string | undefined {
  const sortColumn = request.sort.column
  const id = table.columns.find((c) => c.name === 'id')
  if (!isStored(table) || !id || request.limit === undefined || sortColumn.sql !== undefined) return undefined
  if (!hasPositions(table, sortColumn.name)) return undefined
  const parent = positionsParent(table)
  const ready = () => attachedSql(positionsPartitionName(table, snapshotId), params)
  const keys = `${columnExpr(sortColumn)} AS k0, ${columnExpr(id)} AS k1`
  const col = positionColumn(sortColumn.name)
  const snapshot = () => params.add(snapshotId, 'text')
  // the page's ids: a range of the position index from the page's first row, `limit` long (its
  // LIMIT also tells the planner that few rows come, so it joins them to the rows by index);
  // position `last - k` is the k-th row of the descending order
  const bound = request.sort.order === 'asc'
    ? `q.${col} >= ${params.add(request.start, 'int8')} ORDER BY q.${col} ASC`
    : `q.${col} <= (SELECT max(l.${col}) FROM ${parent} l WHERE l.snapshot_id = ${snapshot()}) - ${params.add(request.start, 'int8')} ORDER BY q.${col} DESC`
  const ids = `SELECT q.id FROM ${parent} q WHERE q.snapshot_id = ${snapshot()} AND ${bound} LIMIT ${params.add(request.limit, 'int8')}`
  const positioned = `SELECT ${outputs.join(', ')}, ${keys} FROM (${ids}) p JOIN ${sourceSql(table)} ON t.id = p.id WHERE t.snapshot_id = ${snapshot()} AND ${ready()}`
  const start = request.start
  const dir = request.sort.order === 'desc' ? 'DESC NULLS FIRST' : 'ASC NULLS LAST'
  return `SELECT u.* FROM ((${positioned}) UNION ALL (${scan(params)} AND NOT ${ready()}${orderSql(table, request, [])} OFFSET ${params.add(start, 'int8')} LIMIT ${params.add(request.limit, 'int8')})) u ORDER BY u.k0 ${dir}, u.k1 ${dir}`
}

/** The conditions of a filter tree, undefined where one is not a value condition (a column against a value). */
function valueConditions(filter: ValidFilter): ColumnDef[] | undefined {
  if (filter.kind === 'cond') return filter.cond.kind === 'value' ? [filter.cond.column] : undefined
  const out: ColumnDef[] = []
  for (const child of filter.children) {
    const columns = valueConditions(child)
    if (!columns) return undefined
    out.push(...columns)
  }
  return out
}

/** The filter tree with each condition's column read from the value counts' `v` instead of the rows' `t`. */
function onValues(filter: ValidFilter): ValidFilter {
  if (filter.kind !== 'cond') return { kind: filter.kind, children: filter.children.map(onValues) }
  const { cond } = filter
  return { kind: 'cond', cond: { ...cond, column: { ...cond.column, sql: `v."${storageName(cond.column.name)}"` } } }
}

/**
 * Value counts a count may sum instead of testing rows (`catalog/value-counts.ts`): a snapshot's,
 * or a kept comparison's (`kept-values.ts`).
 */
export interface ValueCounts {
  /** The columns whose values they count, in `g` order (stored columns, under their names). */
  columns: readonly string[]
  /** SQL of the number of rows whose counted column `g` passes `predicate` (over `v`), NULL while they are not ready. */
  sql(g: number, predicate: string, params: Params): string
}

/** A snapshot's value counts, ready once its partition is attached. */
function snapshotValueCounts(table: TableDef, snapshotId: string): ValueCounts[] {
  if (!isStored(table) || !table.valueCounts?.length) return []
  return [
    {
      columns: table.valueCounts,
      sql: (g, predicate, params) => valueCountSql(table, g, params.add(snapshotId, 'text'), predicate, attachedSql(valuesPartitionName(table, snapshotId), params)),
    },
  ]
}

/**
 * The count of a request whose filters all test one column against values, where one of `counts`
 * holds that column's values: the sum of the counts of the values that pass the filters, each
 * value tested once instead of every row. Undefined otherwise.
 */
function valueCount(request: ValidRequest, counts: readonly ValueCounts[], params: Params): string | undefined {
  if (request.filter === undefined || request.attributes !== undefined) return undefined
  const columns = valueConditions(request.filter)
  const column = columns?.[0]
  if (!column || columns.some((c) => c.name !== column.name) || column.sql !== undefined || column.atLoad !== undefined) return undefined
  const counted = counts.find((c) => c.columns.includes(column.name))
  if (!counted) return undefined
  const predicate = filterExpr(onValues(request.filter), params)
  return counted.sql(counted.columns.indexOf(column.name), predicate, params)
}

/** SQL of a table's rows in a snapshot counted beforehand, NULL where they were not counted. */
export type CountedRowsSql = (table: TableDef, snapshotId: string, params: Params) => string | undefined

export interface PlanOptions {
  /**
   * The relation to read instead of the table's source (a comparison of two snapshots:
   * `compare.ts`), adding its parameters to the plan's.
   */
  from?: (params: Params) => string
  /** Read pages through sort positions where the table has them (default); false: always the scan. */
  positions?: boolean
  /**
   * Where a request without filters finds its count without a scan. The count is `coalesce` of
   * that and the scan: PostgreSQL runs an uncorrelated subquery only when its value is needed, so
   * the scan never runs when the count is known, and both read the same version of the rows.
   */
  countedRows?: CountedRowsSql | undefined
  /**
   * With `from`, for a page (a request with a limit): relations of which at most one holds rows
   * when a statement runs, whose union is `from` (a kept comparison and the join that stands in for
   * it once the kept rows are gone). Each is filtered, sorted and cut to the page on its own, so
   * the kept rows are read in order from an index that matches the sort, up to the page's end,
   * where the sort of their union would read them all (PostgreSQL prefers a top-N sort of the
   * union to merging the branches in order, as that merge would sort the join whole).
   */
  branches?: ((params: Params) => string[]) | undefined
  /** With `from`: the count of its rows when known beforehand (as `countedRows`, for requests without filters). */
  fromCount?: ((params: Params) => string) | undefined
  /** With `from`: its value counts, for a count filtered on one counted column. */
  fromValueCounts?: readonly ValueCounts[] | undefined
  /**
   * Columns ordering rows after the sort column and `id`, where `id` alone is not unique (a
   * comparison: a removed row and an added one may carry the same `id`, one per snapshot).
   */
  tiebreak?: readonly ColumnDef[]
}

const POSITIONED_SETTINGS = { jit: 'off', max_parallel_workers_per_gather: '0' } as const
/**
 * A materialised table's read: the branch of its SQL, never run once the rows are kept, is costed
 * as the SQL over a whole snapshot, which on "huge" made PostgreSQL compile the statement (1.2 s
 * for a page of 100 kept rows) before it found the branch had nothing to do.
 */
const MATERIALISED_SETTINGS = { jit: 'off' } as const

/**
 * A count from value counts: the scan it stands in for, never run once they are attached, is
 * costed over the whole partition, which at 10 M made PostgreSQL compile the statement (29 ms of
 * JIT for a sum that took 1.2 ms).
 */
const VALUE_COUNT_SETTINGS = { jit: 'off' } as const

/** Plans a validated table request over one snapshot (undefined for tables without snapshots). */
export function planQuery(table: TableDef, request: ValidRequest, snapshotId: string | undefined, planOptions: PlanOptions = {}): SqlPlan {
  const materialised = !planOptions.from && snapshotId !== undefined && isMaterialised(table)
  const options = materialised ? { ...planOptions, ...materialisedRead(table, snapshotId) } : planOptions
  const { from } = options
  const source = (params: Params) => (from ? `(${from(params)}) t` : sourceSql(table))
  const params = new Params()
  const outputs = request.columns.map((column, i) => `${columnExpr(column)} AS c${i}`)
  const severityIndex = new Map<string, number>()
  for (const column of request.columns) {
    const rules = request.colors.get(column.name)
    if (!rules) continue
    const index = severityIndex.size
    severityIndex.set(column.name, index)
    outputs.push(`${severityExpr(rules, params)} AS s${index}`)
  }
  const unfiltered = request.filter === undefined && request.attributes === undefined
  // A page of one snapshot's rows without filters: a range of the kept sort positions, where the table has them.
  const positioned = unfiltered && !from && snapshotId !== undefined && options.positions !== false
    ? positionedPageSql(table, request, snapshotId, outputs, params, (p) => `SELECT ${outputs.join(', ')}, ${columnExpr(request.sort.column)} AS k0, t.id AS k1 FROM ${sourceSql(table)}${whereSql(table, request, snapshotId, p)}`)
    : undefined
  let sql: string
  if (positioned !== undefined) sql = positioned
  else if (from && options.branches && request.limit !== undefined) {
    const keys = orderKeys(table, request, options.tiebreak ?? [])
    const limit = request.limit
    const pages = options.branches(params).map((branch) => {
      let page = `SELECT ${[...outputs, ...keys.map((key, i) => `${key} AS k${i}`)].join(', ')} FROM (${branch}) t${whereSql(table, request, snapshotId, params)}${orderSql(table, request, options.tiebreak ?? [])}`
      if (request.start > 0) page += ` OFFSET ${params.add(request.start, 'int8')}`
      return `(${page} LIMIT ${params.add(limit, 'int8')})`
    })
    sql = `SELECT u.* FROM (${pages.join(' UNION ALL ')}) u ORDER BY ${keys.map((_, i) => `u.k${i} ${orderDir(request)}`).join(', ')}`
  } else {
    const where = whereSql(table, request, snapshotId, params)
    sql = `SELECT ${outputs.join(', ')} FROM ${source(params)}${where}${orderSql(table, request, options.tiebreak ?? [])}`
    if (request.start > 0) sql += ` OFFSET ${params.add(request.start, 'int8')}`
    if (request.limit !== undefined) sql += ` LIMIT ${params.add(request.limit, 'int8')}`
  }

  const countParams = new Params()
  const countWhere = whereSql(table, request, snapshotId, countParams)
  let count = `SELECT count(*)::int8 AS n FROM ${source(countParams)}${countWhere}`
  let counted: string | undefined
  let countSettings: StatementSettings | undefined
  // (a comparison's statements run with JIT off already: `COMPARISON_SETTINGS`)
  if (from) counted = unfiltered ? options.fromCount?.(countParams) : valueCount(request, options.fromValueCounts ?? [], countParams)
  else if (snapshotId !== undefined && unfiltered) counted = options.countedRows?.(table, snapshotId, countParams)
  else if (snapshotId !== undefined) {
    counted = valueCount(request, snapshotValueCounts(table, snapshotId), countParams)
    if (counted !== undefined) countSettings = VALUE_COUNT_SETTINGS
  }
  if (counted !== undefined) count = `SELECT coalesce((${counted}), (${count}))::int8 AS n`
  return {
    select: { sql, params: params.values },
    count: { sql: count, params: countParams.values, ...(countSettings ? { settings: countSettings } : {}) },
    columnNames: request.columns.map((c) => c.name),
    severityIndex,
    // the scan branch, never run once positions are in, is costed as a walk: without these,
    // PostgreSQL compiles the statement (about 250 ms of JIT on "large") or starts workers for
    // it (300-500 ms on a loaded machine) to read 100 rows
    ...(positioned !== undefined ? { settings: POSITIONED_SETTINGS } : materialised ? { settings: MATERIALISED_SETTINGS } : {}),
  }
}

/** Turns a result row of the page query into the response row: keys are the requested columns. */
export function shapeRow(plan: SqlPlan, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  plan.columnNames.forEach((name, i) => {
    const value = row[`c${i}`] ?? null
    const s = plan.severityIndex.get(name)
    out[name] = s === undefined ? value : { data: value, severity: row[`s${s}`] }
  })
  return out
}
