/**
 * Stage 4: runs a plan. The only stage that touches the database. Its statements (page, count)
 * share one deadline, the request's (`Deadline`: the configured limit from the request's start),
 * and each runs under what remains of it (`queryBefore`): on PostgreSQL the first on connections
 * that carry the whole limit from their start, so it costs no round trip and needs no
 * transaction, a later one in a transaction that sets its `statement_timeout` to what remains (as
 * a plan with `settings`, a comparison, does for each statement); on the embedded database with
 * what remains as its limit, which counts its wait for a turn. Database errors caused by the
 * request's values (bad regular expression, bad address, too complex) become 422, a timeout 503
 * `API_QUERY_TIMEOUT`.
 */
import { dataErrorReason, queryBefore, sqlState, type Db, type Deadline } from '../../shared/db/index.js'
import { ApiError, invalidInput } from '../../shared/errors.js'
import type { SqlPlan } from './types.js'

export interface ExecuteOptions {
  /** The request's deadline; every statement runs under what remains of it. */
  deadline: Deadline
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

async function runPage(db: Db, plan: SqlPlan, deadline: Deadline): Promise<Array<Record<string, unknown>>> {
  return (await queryBefore<Record<string, unknown>>(db, deadline, plan.settings, plan.select.sql, plan.select.params)).rows
}

async function runCount(db: Db, plan: SqlPlan, deadline: Deadline): Promise<number> {
  return Number((await queryBefore<{ n: number }>(db, deadline, plan.count.settings ?? plan.settings, plan.count.sql, plan.count.params)).rows[0]?.n ?? 0)
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
export async function executePlan(db: Db, plan: SqlPlan, options: ExecuteOptions): Promise<QueryResultPage> {
  const { deadline } = options
  try {
    if (options.parallelCount && db.kind === 'postgres' && options.limit !== 0) {
      const counting = runCount(db, plan, deadline)
      counting.catch(() => {})
      const rows = await runPage(db, plan, deadline)
      return { rows, count: await counting }
    }
    const rows = options.limit === 0 ? [] : await runPage(db, plan, deadline)
    const count = countFromPage(rows.length, options) ?? (await runCount(db, plan, deadline))
    return { rows, count }
  } catch (err) {
    throw mapDbError(err)
  }
}
