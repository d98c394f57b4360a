/**
 * PostgreSQL settings that one statement runs under, e.g. `{jit: 'off'}`: set with `SET LOCAL`
 * (`set_config(..., true)`) in a transaction of the statement's own, so they end with it and never
 * stay on a pooled connection. They tune how PostgreSQL plans and runs a statement, never what it
 * answers; PGlite (one embedded session, built without JIT) runs the statement as it is.
 */
import type { Db, Queryable, QueryResult } from './types.js'

export type StatementSettings = Readonly<Record<string, string>>

/** The statement applying `settings` inside the current transaction, or undefined when empty. */
export function localSettingsSql(settings: StatementSettings | undefined): { sql: string; params: string[] } | undefined {
  const entries = Object.entries(settings ?? {})
  if (entries.length === 0) return undefined
  return {
    sql: `SELECT ${entries.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ')}`,
    params: entries.flat(),
  }
}

/** Applies `settings` to the transaction `tx` is in (nothing when there are none). */
export async function applyLocalSettings(tx: Queryable, settings: StatementSettings | undefined): Promise<void> {
  const set = localSettingsSql(settings)
  if (set) await tx.query(set.sql, set.params)
}

/**
 * Runs one statement under `settings` on PostgreSQL (a transaction around it: BEGIN, the
 * settings, the statement, COMMIT); without settings, or on PGlite, the statement alone.
 */
export async function queryWithSettings<T = Record<string, unknown>>(
  db: Db,
  settings: StatementSettings | undefined,
  sql: string,
  params: readonly unknown[] = [],
): Promise<QueryResult<T>> {
  const set = db.kind === 'postgres' ? localSettingsSql(settings) : undefined
  if (set === undefined) return db.query<T>(sql, params)
  return db.transaction(async (tx) => {
    await tx.query(set.sql, set.params)
    return tx.query<T>(sql, params)
  })
}
