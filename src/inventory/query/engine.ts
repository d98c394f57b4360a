/**
 * The table query pipeline end to end: parse → validate → plan → execute (JSON) or stream (CSV).
 * It knows tables only through their `TableDef`; snapshots and colour rules come in as functions.
 */
import type { ServerResponse } from 'node:http'
import type { TableDef } from '../catalog/types.js'
import { Deadline, type Db } from '../../shared/db/index.js'
import { invalidInput } from '../../shared/errors.js'
import { isSnapshotId } from '../catalog/ddl.js'
import { streamCsv, type CsvWritten } from './csv.js'
import { executePlan, mapDbError } from './execute.js'
import { parseTableRequest } from './parse.js'
import { planQuery, shapeRow, type CountedRowsSql } from './plan.js'
import type { Params } from './sql-filter.js'
import { CHANGE_COLUMN, COMPARISON_SETTINGS, DIFF_COLUMN, comparisonSql, comparisonTable, type ComparedSnapshots } from './compare.js'
import { keptComparison, keptComparisonBranches, keptComparisonSql, type KeptComparison } from './kept-comparison.js'
import { keptChangeCounts, keptValueCounts } from './kept-values.js'
import { keepOnce } from './keeping.js'
import { sqlState } from '../../shared/db/index.js'
import type { ColorRule, ParsedRequest, SqlPlan, ValidRequest } from './types.js'
import { validateRequest } from './validate.js'

export interface QueryLimits {
  maxLimit: number
  defaultLimit: number
  /** The default limit of the original and path generations (routes/tables.ts), when it differs. */
  legacyDefaultLimit?: number
  statementTimeoutMs: number
}

export interface TableQueryDeps {
  db: Db
  limits: QueryLimits
  /** Snapshot reference (id, $last, $prev, $lastLocked) → snapshot id; throws 404/409. */
  resolveSnapshot(ref: string): Promise<string>
  /** Colour rules a request's `reports` selects for a table (validated against it). */
  rulesFor(table: TableDef, reports: string | readonly string[]): Promise<ColorRule[]>
  /**
   * The snapshot before a (resolved) snapshot of the same network, for `"compare": {"snapshot":
   * "$prev"}`; throws 404/409. Without it `$prev` means what it means in `snapshot`.
   */
  previousSnapshot?(id: string): Promise<string>
  /** Where the count of a request without filters is known beforehand (`plan.ts`). */
  countedRows?: CountedRowsSql
  /**
   * Whether comparisons read (and first keep) the rows that differ (`kept-comparison.ts`); by
   * default they do. `false` joins the two snapshots for every statement, as before they were kept.
   */
  keepComparisons?: boolean
}

export interface TableResponse {
  data: Array<Record<string, unknown>>
  /** `truncated: true` when the request named no limit and the default one left matching rows out. */
  _meta: { limit: number | null; start: number; count: number; size: number; truncated?: true }
}

export interface PreparedQuery {
  request: ValidRequest
  plan: SqlPlan
  /**
   * Resolution of a literal snapshot id still under way (PostgreSQL, JSON answers): the plan
   * already uses the id, so the lookup and the query overlap instead of costing two round trips
   * in a row. Its error (404, 409) wins over the query's.
   */
  resolving?: { ref: string; id: Promise<string>; replan(id: string): SqlPlan }
}

/**
 * What an empty snapshot says: most often a shell expanded "$last" inside a double-quoted body
 * to nothing.
 */
export const EMPTY_SNAPSHOT =
  '"snapshot" is empty: give a snapshot id or one of [$last, $prev, $lastLocked] (in a shell, a body in double quotes turns "$last" into nothing: quote it with single quotes, or write \\$last)'

/**
 * Parses, validates and plans a table request body; `csv` forces a CSV export (Accept header).
 * A comparison not kept yet is kept first, before `deadline`.
 */
export async function prepareTableQuery(deps: TableQueryDeps, table: TableDef, body: unknown, csv = false, deadline = Deadline.after(deps.limits.statementTimeoutMs)): Promise<PreparedQuery> {
  const parsed = parseTableRequest(body, deps.limits.maxLimit)
  if (csv) parsed.csv = true
  if (table.snapshotScoped) {
    if (parsed.snapshot === undefined) throw invalidInput([{ message: '"snapshot" is required' }])
    if (parsed.snapshot === '') throw invalidInput([{ message: EMPTY_SNAPSHOT }])
  }
  if (parsed.compare) return prepareComparison(deps, table, parsed, parsed.compare, deadline)
  const rules = parsed.reports === undefined ? [] : await deps.rulesFor(table, parsed.reports)
  const request = validateRequest(table, parsed, { defaultLimit: deps.limits.defaultLimit, rules })
  if (!table.snapshotScoped) return { request, plan: planQuery(table, request, undefined) }
  const ref = parsed.snapshot!
  const plan = (id: string) => planQuery(table, request, id, { countedRows: deps.countedRows })
  if (!parsed.csv && deps.db.kind === 'postgres' && isSnapshotId(ref)) {
    const id = deps.resolveSnapshot(ref)
    id.catch(() => {})
    return { request, plan: plan(ref), resolving: { ref, id, replan: plan } }
  }
  return { request, plan: plan(await deps.resolveSnapshot(ref)) }
}

/**
 * A table request with `compare`: the rows of the request's snapshot that differ from those of
 * the compared one (`compare.ts`), every answer row carrying `change` and `diff`. They are read
 * from the pair's kept comparison, kept now when it is not yet (a CSV export whose keeping runs
 * past the time limit, or a pair whose snapshot changes meanwhile, reads the join instead).
 */
async function prepareComparison(deps: TableQueryDeps, table: TableDef, parsed: ParsedRequest, compare: NonNullable<ParsedRequest['compare']>, deadline: Deadline): Promise<PreparedQuery> {
  const def = comparisonTable(table)
  if (parsed.reports !== undefined) throw invalidInput([{ message: '"reports" cannot be combined with "compare"' }])
  const request = validateRequest(def, parsed, { defaultLimit: deps.limits.defaultLimit, rules: [] })
  for (const column of [CHANGE_COLUMN, DIFF_COLUMN]) if (!request.columns.some((c) => c.name === column.name)) request.columns.push(column)
  const newer = await deps.resolveSnapshot(parsed.snapshot!)
  const older = compare.snapshot === '$prev' && deps.previousSnapshot ? await deps.previousSnapshot(newer) : await deps.resolveSnapshot(compare.snapshot)
  const pair = { older, newer }
  const kept = deps.keepComparisons === false ? undefined : await keptOrKeep(deps, table, pair, compare.volatile, deadline, parsed.csv === true)
  const from = kept ? (params: Params) => keptComparisonSql(table, kept, pair, compare.volatile, params) : (params: Params) => comparisonSql(table, pair, compare.volatile, params)
  const plan = planQuery(def, request, undefined, {
    from,
    branches: kept && ((params: Params) => keptComparisonBranches(table, kept, pair, compare.volatile, params)),
    fromCount: kept && ((params) => keptCountSql(kept, params)),
    fromValueCounts: kept && [...(kept.values ? [keptValueCounts(kept.values, kept.id)] : []), keptChangeCounts(kept.id)],
    tiebreak: [CHANGE_COLUMN],
  })
  return { request, plan: { ...plan, settings: COMPARISON_SETTINGS } }
}

/** The pair's kept comparison of `table`, kept now if it is not yet (or when it is being kept, once that ends: `keeping.ts`). */
async function keptOrKeep(deps: TableQueryDeps, table: TableDef, pair: ComparedSnapshots, volatile: boolean, deadline: Deadline, csv: boolean): Promise<KeptComparison | undefined> {
  const kept = await keptComparison(deps.db, pair, volatile, table)
  if (kept) return kept
  try {
    await keepOnce(deps.db, pair, volatile, table, deadline)
  } catch (err) {
    // an export is not bound by the time limit: it streams the join
    if (csv && sqlState(err) === '57014') return undefined
    throw mapDbError(err)
  }
  return keptComparison(deps.db, pair, volatile, table)
}

/** The count of a kept comparison's rows, known from its pair's counts. */
function keptCountSql(kept: KeptComparison, params: Params): string {
  return `SELECT added + removed + changed FROM inventory.snapshot_changes WHERE id = ${params.add(kept.id, 'int8')}`
}

/**
 * Runs a prepared query for a JSON answer: `{data, _meta}`, every statement before `deadline`
 * (the request's, from its start; by default the configured limit from now).
 */
export async function runTableQuery(deps: TableQueryDeps, prepared: PreparedQuery, deadline = Deadline.after(deps.limits.statementTimeoutMs)): Promise<TableResponse> {
  const { request } = prepared
  let { plan } = prepared
  const execute = (p: SqlPlan) =>
    executePlan(deps.db, p, {
      deadline,
      start: request.start,
      limit: request.limit,
      parallelCount: request.filter === undefined,
    })
  let executing = execute(plan)
  if (prepared.resolving) {
    executing.catch(() => {})
    const id = await prepared.resolving.id
    // a resolver that maps a literal id to another snapshot: run the query of that one
    if (id !== prepared.resolving.ref) executing = execute((plan = prepared.resolving.replan(id)))
  }
  const { rows, count } = await executing
  const data = rows.map((row) => shapeRow(plan, row))
  const _meta: TableResponse['_meta'] = { limit: request.limit ?? null, start: request.start, count, size: data.length }
  // never silently: a client that asked for no page is told when it did not get every row
  if (request.limitDefaulted === true && request.start + data.length < count) _meta.truncated = true
  return { data, _meta }
}

/** Streams a prepared query as CSV into `res`. */
export async function streamTableCsv(deps: TableQueryDeps, prepared: PreparedQuery, res: ServerResponse, filename?: string): Promise<CsvWritten> {
  let { plan } = prepared
  if (prepared.resolving) {
    const id = await prepared.resolving.id
    if (id !== prepared.resolving.ref) plan = prepared.resolving.replan(id)
  }
  return streamCsv(deps.db, plan, res, filename === undefined ? {} : { filename })
}

/** JSON answer of a table request body (parse → validate → plan → execute). */
export async function queryTable(deps: TableQueryDeps, table: TableDef, body: unknown): Promise<TableResponse> {
  return runTableQuery(deps, await prepareTableQuery(deps, table, body))
}
