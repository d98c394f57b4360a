/**
 * Stage 3: a validated request → SQL text and parameters, for the page (or the whole CSV export)
 * and for the count of matching rows. Pure: no database access. Ordering is total: the sort column,
 * then the table's `id` in the same direction, so pages never overlap or skip.
 */
import type { TableDef } from '../catalog/types.js'
import { attributeFilterExpr } from './attribute-filter.js'
import { Params, columnExpr, filterExpr, severityExpr } from './sql-filter.js'
import type { SqlPlan, ValidRequest } from './types.js'

/** The relation a table reads, aliased `t`. Table names and SQL come only from the catalog. */
export function sourceSql(table: TableDef): string {
  return table.source.kind === 'stored' ? `${table.source.table} t` : `(${table.source.sql}) t`
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

function orderSql(table: TableDef, request: ValidRequest): string {
  const dir = request.sort.order === 'desc' ? 'DESC NULLS FIRST' : 'ASC NULLS LAST'
  const keys = [`${columnExpr(request.sort.column)} ${dir}`]
  const id = table.columns.find((c) => c.name === 'id')
  if (id && request.sort.column.name !== 'id') keys.push(`${columnExpr(id)} ${dir}`)
  return ` ORDER BY ${keys.join(', ')}`
}

/** SQL of a table's rows in a snapshot counted beforehand, NULL where they were not counted. */
export type CountedRowsSql = (table: TableDef, snapshotId: string, params: Params) => string | undefined

export interface PlanOptions {
  /**
   * The relation to read instead of the table's source (a comparison of two snapshots:
   * `compare.ts`), adding its parameters to the plan's.
   */
  from?: (params: Params) => string
  /**
   * Where a request without filters finds its count without a scan. The count is `coalesce` of
   * that and the scan: PostgreSQL runs an uncorrelated subquery only when its value is needed, so
   * the scan never runs when the count is known, and both read the same version of the rows.
   */
  countedRows?: CountedRowsSql | undefined
}

/** Plans a validated table request over one snapshot (undefined for tables without snapshots). */
export function planQuery(table: TableDef, request: ValidRequest, snapshotId: string | undefined, options: PlanOptions = {}): SqlPlan {
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
  const where = whereSql(table, request, snapshotId, params)
  let sql = `SELECT ${outputs.join(', ')} FROM ${source(params)}${where}${orderSql(table, request)}`
  if (request.start > 0) sql += ` OFFSET ${params.add(request.start, 'int8')}`
  if (request.limit !== undefined) sql += ` LIMIT ${params.add(request.limit, 'int8')}`

  const countParams = new Params()
  const countWhere = whereSql(table, request, snapshotId, countParams)
  let count = `SELECT count(*)::int8 AS n FROM ${source(countParams)}${countWhere}`
  const counted = !from && snapshotId !== undefined && request.filter === undefined && request.attributes === undefined ? options.countedRows?.(table, snapshotId, countParams) : undefined
  if (counted !== undefined) count = `SELECT coalesce((${counted}), (${count}))::int8 AS n`
  return {
    select: { sql, params: params.values },
    count: { sql: count, params: countParams.values },
    columnNames: request.columns.map((c) => c.name),
    severityIndex,
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
