/** The database interface both services use: PostgreSQL (pool) or embedded PGlite, same dialect. */
import type { StatementSettings } from './settings.js'

export interface QueryResult<T> {
  rows: T[]
  rowCount: number
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>
}

export interface Db extends Queryable {
  readonly kind: 'postgres' | 'pglite'
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>
  /** Runs `fn` in one transaction on one connection; rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  /**
   * Bulk load: `copySql` is `COPY <table> (<columns>) FROM STDIN WITH (FORMAT csv)`;
   * `source` yields CSV text made of whole lines.
   */
  copyFrom(copySql: string, source: AsyncIterable<string>, tx?: Queryable): Promise<void>
  /**
   * Streams the rows of a query in batches through a server-side cursor, so a large result never
   * sits in memory. `onBatch` may apply back-pressure by awaiting. `settings` (PostgreSQL) are set
   * for the cursor's transaction (see `settings.ts`).
   */
  stream<T = Record<string, unknown>>(
    sql: string,
    params: readonly unknown[],
    batchSize: number,
    onBatch: (rows: T[]) => Promise<void>,
    settings?: StatementSettings,
  ): Promise<void>
  /**
   * The same database for short, bounded statements: each statement it runs stops after
   * `timeoutMs` (PostgreSQL error 57014). On PostgreSQL this is a pool of its own (same size,
   * opened lazily, closed with this one) whose connections carry the timeout from their start, so
   * it costs no round trip per statement, and long work (bulk loads, index builds, exports) on this
   * database stays unbounded. On PGlite the limit also covers the wait for the database (one
   * session), and a statement past it is stopped by restarting the database's worker thread.
   */
  withStatementTimeout(timeoutMs: number): Db
  /** Whether the database answers (readiness). */
  ping(): Promise<boolean>
  close(): Promise<void>
}
