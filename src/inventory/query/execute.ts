/**
 * Stage 4: runs a plan. The only stage that touches the database. Each statement runs under the
 * configured statement timeout, on connections that carry it from their start (see
 * `Db.withStatementTimeout`), so the timeout costs no round trip and a statement needs no
 * transaction around it (but for a plan with `settings`, a comparison, which runs each of its
 * statements in a transaction of its own on PostgreSQL to set them); database errors caused by the request's values (bad regular
 * expression, bad address, too complex) become 422, a timeout 503 `API_QUERY_TIMEOUT`.
 */
import { dataErrorReason, queryWithSettings, sqlState, type Db } from '../../shared/db/index.js'
import { ApiError, invalidInput } from '../../shared/errors.js'
import type { SqlPlan } from './types.js'

export interface ExecuteOptions {
  statementTimeoutMs: number
  /** Page limit of the plan; a short page lets the count be derived without a second query. */
  start: number
  limit: number | undefined
  /**
   * Count while the page runs (PostgreSQL only). Worth it when the page is almost surely full,
   * i.e. the request has no filter; with filters a short page often implies the count.
   */
  parallelCount: boolean
}

export interface QueryResultPage {
  rows: Array<Record<string, unknown>>
  count: number
}

/**
 * Maps an error of the database to our error codes, in our words (the database's own text may
 * name internals and is only logged); unknown errors pass through (500).
 */
export function mapDbError(err: unknown): unknown {
  const state = sqlState(err)
  if (state === '57014') return new ApiError('API_QUERY_TIMEOUT')
  if (state === '54001' || state === '54000') return invalidInput([{ message: '"filters" is too complex' }])
  const reason = dataErrorReason(err)
  if (reason !== undefined) return invalidInput([{ message: `"filters" cannot be applied: ${reason}` }])
  return err
}

async function runPage(db: Db, plan: SqlPlan): Promise<Array<Record<string, unknown>>> {
  return (await queryWithSettings<Record<string, unknown>>(db, plan.settings, plan.select.sql, plan.select.params)).rows
}

async function runCount(db: Db, plan: SqlPlan): Promise<number> {
  return Number((await queryWithSettings<{ n: number }>(db, plan.settings, plan.count.sql, plan.count.params)).rows[0]?.n ?? 0)
}

/** Count implied by a short page, when there is one. */
function countFromPage(rows: number, options: ExecuteOptions): number | undefined {
  if (options.limit === undefined) return options.start === 0 || rows > 0 ? options.start + rows : undefined
  if (rows < options.limit && (rows > 0 || options.start === 0)) return options.start + rows
  return undefined
}

/**
 * Runs the page and the count. Without a filter both run at once (on PostgreSQL); otherwise the
 * page first, and the count only when a short page does not imply it, so a typical filtered
 * query costs one statement and no work is done twice.
 */
export async function executePlan(database: Db, plan: SqlPlan, options: ExecuteOptions): Promise<QueryResultPage> {
  const db = database.withStatementTimeout(options.statementTimeoutMs)
  try {
    if (options.parallelCount && db.kind === 'postgres' && options.limit !== 0) {
      const counting = runCount(db, plan)
      counting.catch(() => {})
      const rows = await runPage(db, plan)
      return { rows, count: await counting }
    }
    const rows = options.limit === 0 ? [] : await runPage(db, plan)
    const count = countFromPage(rows.length, options) ?? (await runCount(db, plan))
    return { rows, count }
  } catch (err) {
    throw mapDbError(err)
  }
}
