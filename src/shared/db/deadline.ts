/**
 * One time limit for everything a request runs on the database: its statements share it, each
 * runs under what remains of it, and time spent waiting (for a connection, for the embedded
 * database's turn, for a slot of the request's user) counts against it. Past it a statement is
 * not started and fails as a statement past its timeout does (SQLSTATE 57014).
 */
import { timeoutError } from './pglite-protocol.js'
import { queryWithSettings, type StatementSettings } from './settings.js'
import type { Db, QueryResult } from './types.js'

/**
 * On PostgreSQL a statement runs on the connections that carry the whole limit (no round trip)
 * while what remains is within this slack of it; below, it sets its own `statement_timeout`
 * in its transaction. So a request may overrun its limit by at most this much.
 */
export const DEADLINE_SLACK_MS = 50

export class Deadline {
  private constructor(
    /** The whole limit (ms), e.g. `query.statementTimeoutMs`. */
    readonly limitMs: number,
    /** Date.now() at which it passes. */
    readonly at: number,
  ) {}

  static after(limitMs: number, now = Date.now()): Deadline {
    return new Deadline(limitMs, now + limitMs)
  }

  /** Ms left (0 when passed). */
  remaining(now = Date.now()): number {
    return Math.max(0, this.at - now)
  }
}

/**
 * Runs one statement under what remains of `deadline` (settings as `queryWithSettings`);
 * fails with a statement timeout at once when nothing remains.
 */
export async function queryBefore<T = Record<string, unknown>>(
  db: Db,
  deadline: Deadline,
  settings: StatementSettings | undefined,
  sql: string,
  params: readonly unknown[] = [],
): Promise<QueryResult<T>> {
  const remaining = Math.floor(deadline.remaining())
  if (remaining < 1) throw timeoutError()
  if (db.kind !== 'postgres') return db.withStatementTimeout(remaining).query<T>(sql, params)
  const bounded = db.withStatementTimeout(deadline.limitMs)
  if (remaining >= deadline.limitMs - DEADLINE_SLACK_MS) return queryWithSettings<T>(bounded, settings, sql, params)
  return queryWithSettings<T>(bounded, { ...settings, statement_timeout: `${remaining}ms` }, sql, params)
}
