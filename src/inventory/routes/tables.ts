/**
 * `POST tables/<path>` (also v4 camelCase paths) answers a table request as JSON or CSV;
 * `GET tables/<path>/description` describes the table; `GET tables` lists every table.
 */
import type { IncomingMessage } from 'node:http'
import type { Router } from '../../shared/http/index.js'
import { negotiate, readJson, sendJson } from '../../shared/http/index.js'
import { ApiError, notFound } from '../../shared/errors.js'
import { Deadline, type Db } from '../../shared/db/index.js'
import { TABLES, findTable, type TableDef } from '../catalog/index.js'
import type { InventoryDeps, InventoryRequest } from '../context.js'
import { type QueryAdmission, describeTable, queryAdmission, formatAsksCsv, prepareTableQuery, runTableQuery, streamTableCsv, summarizeTable, type TableQueryDeps } from '../query/index.js'
import { ReportService, type FindTable } from '../reports/index.js'
import { countedRowsSql, previousSnapshot, resolveSnapshot } from '../snapshots/index.js'
import { tableWildcards } from '../paths.js'
import { csvBytes, outcomeOf, tableQueryDuration, tableRows } from '../metrics.js'

export interface TableRouteOptions {
  findTable: FindTable
  resolveSnapshot(db: Db, ref: string): Promise<string>
  /** `$prev` of a comparison: the snapshot before one of the same network. */
  previousSnapshot?(db: Db, id: string): Promise<string>
  /** What `GET tables` lists (the catalog unless a test passes its own). */
  tables?: readonly TableDef[]
}

/** The catalog's tables and the snapshot store's resolution (tests may pass their own). */
export const DEFAULT_TABLE_ROUTE_OPTIONS: TableRouteOptions = { findTable, resolveSnapshot, previousSnapshot, tables: TABLES }

/** The table routes' options for a catalog of `tables` (by path and v4 camelCase path). */
export function tableRouteOptions(tables: readonly TableDef[] | undefined): TableRouteOptions {
  if (tables === undefined || tables === TABLES) return DEFAULT_TABLE_ROUTE_OPTIONS
  const byPath = new Map<string, TableDef>()
  for (const table of tables) for (const p of [table.path, ...(table.legacyPaths ?? [])]) byPath.set(p, table)
  return { ...DEFAULT_TABLE_ROUTE_OPTIONS, tables, findTable: (path) => byPath.get(path.replace(/^\/+|\/+$/g, '')) }
}

const JSON_TYPE = 'application/json'
const CSV_TYPE = 'text/csv'

/** Whether the answer is CSV: the body's `format` asks for it, or Accept prefers it; 406 when unsatisfiable. */
function wantsCsv(req: IncomingMessage, body: unknown): boolean {
  const accept = req.headers.accept
  if (formatAsksCsv(body)) {
    if (negotiate(accept, [CSV_TYPE]) === null) throw new ApiError('API_NOT_ACCEPTABLE')
    return true
  }
  const chosen = negotiate(accept, [JSON_TYPE, CSV_TYPE])
  if (chosen === null) throw new ApiError('API_NOT_ACCEPTABLE')
  return chosen === CSV_TYPE
}

function observeQuery(table: TableDef, csv: boolean, comparison: boolean, started: number, err: unknown): void {
  tableQueryDuration.observe({ table: table.path, format: csv ? 'csv' : 'json', comparison: String(comparison), outcome: outcomeOf(err) }, (performance.now() - started) / 1000)
}

function tableOf(options: TableRouteOptions, path: string | undefined): TableDef {
  const table = path === undefined ? undefined : options.findTable(path)
  if (!table) throw notFound(`No table ${JSON.stringify(path ?? '').slice(0, 120)}`)
  return table
}

/**
 * The rows a request without `pagination.limit` gets, by address generation: the original and
 * path generations' clients expect every row (`query.legacyDefaultLimit`), the header
 * generation's get a first page (`query.defaultLimit`). `_meta.truncated` tells either when rows
 * were left out.
 */
function withDefaultLimit(deps: TableQueryDeps, generation: string): TableQueryDeps {
  const { limits } = deps
  if (generation === 'header' || limits.legacyDefaultLimit === undefined) return deps
  return { ...deps, limits: { ...limits, defaultLimit: limits.legacyDefaultLimit } }
}

export function registerTableRoutes(
  router: Router<InventoryRequest>,
  deps: InventoryDeps,
  options: TableRouteOptions = DEFAULT_TABLE_ROUTE_OPTIONS,
  admission: QueryAdmission = queryAdmission(deps),
): void {
  const reports = new ReportService({ db: deps.db, findTable: options.findTable, statementTimeoutMs: deps.config.query.statementTimeoutMs })
  const queryDeps: TableQueryDeps = {
    db: deps.db,
    limits: deps.config.query,
    resolveSnapshot: (ref) => options.resolveSnapshot(deps.db, ref),
    rulesFor: (table, spec) => reports.rulesFor(table, spec),
    countedRows: countedRowsSql,
    ...(options.previousSnapshot ? { previousSnapshot: (id: string) => options.previousSnapshot!(deps.db, id) } : {}),
  }

  // A path that names no table is no endpoint: 404 for every method, not 405.
  for (const [pattern, exists] of Object.entries(tableWildcards(options.findTable))) router.known(pattern, exists)

  const listing = (options.tables ?? []).map(summarizeTable)
  router.add('GET', 'tables', (_ctx, _match, _req, res) => {
    sendJson(res, 200, listing)
  })

  router.add('GET', 'tables/*/description', (_ctx, match, _req, res) => {
    sendJson(res, 200, describeTable(tableOf(options, match.rest)))
  })

  router.add('POST', 'tables/*', async (ctx, match, req, res) => {
    const table = tableOf(options, match.rest)
    const started = performance.now()
    let csv = false
    let comparison = false
    try {
      const body = await readJson(req, deps.config.server.bodyLimitBytes)
      csv = wantsCsv(req, body)
      comparison = typeof body === 'object' && body !== null && (body as { compare?: unknown }).compare != null
      // one limit for the whole request from here: the wait for a turn, the page, the count
      const deadline = Deadline.after(deps.config.query.statementTimeoutMs)
      await admission.run(ctx.principal, async () => {
        const prepared = await prepareTableQuery(withDefaultLimit(queryDeps, ctx.generation), table, body ?? {}, csv, deadline)
        if (csv) {
          const exportToFile = (body as { format?: { exportToFile?: unknown } }).format?.exportToFile === true
          const written = await streamTableCsv(queryDeps, prepared, res, exportToFile ? `${table.path.replace(/\//g, '-')}.csv` : undefined)
          tableRows.inc({ table: table.path }, written.rows)
          csvBytes.inc({ table: table.path }, written.bytes)
          return
        }
        const answer = await runTableQuery(queryDeps, prepared, deadline)
        tableRows.inc({ table: table.path }, answer.data.length)
        sendJson(res, 200, answer)
      }, deadline)
      observeQuery(table, csv, comparison, started, undefined)
    } catch (err) {
      observeQuery(table, csv, comparison, started, err)
      throw err
    }
  })
}
