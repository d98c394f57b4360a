/** PostgreSQL through a pg Pool; COPY through pg-copy-streams. */
import pg from 'pg'
import { from as copyFromStream } from 'pg-copy-streams'
import { pipeline } from 'node:stream/promises'
import { Readable } from 'node:stream'
import { rethrowDbError } from './errors.js'
import { watchPool } from '../metrics/db.js'
import { applyLocalSettings } from './settings.js'
import type { Db, Queryable, QueryResult } from './types.js'

// Numbers as numbers: int8 (ids, ms timestamps, byte counts) and numeric fit a double here.
pg.types.setTypeParser(20, (v) => Number(v))
pg.types.setTypeParser(1700, (v) => Number(v))

type Wrapped = Queryable & { __client?: pg.PoolClient }

function wrap(client: pg.PoolClient | pg.Pool): Wrapped {
  return {
    ...(client instanceof pg.Pool ? {} : { __client: client as pg.PoolClient }),
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const r = await client.query(sql, params as unknown[]).catch(rethrowDbError)
      return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 }
    },
  }
}

export interface PostgresOptions {
  url: string
  max?: number
  applicationName?: string
  /** Per-connection statement timeout (ms), sent in the connection's start-up parameters. */
  statementTimeoutMs?: number
}

export function createPostgresDb(options: PostgresOptions): Db {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'netinv',
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30000,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
  })
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => {})
  const unwatch = watchPool(pool)
  // The connections checked out now (by pool.query too): close() ends their statements.
  const checkedOut = new Set<pg.PoolClient>()
  pool.on('acquire', (client) => checkedOut.add(client))
  pool.on('release', (_err, client) => checkedOut.delete(client))
  pool.on('remove', (client) => checkedOut.delete(client as pg.PoolClient))
  const base = wrap(pool)
  /** Bounded views of this database by timeout (see Db.withStatementTimeout), closed with it. */
  const bounded = new Map<number, Db>()

  /**
   * A connection for `fn`; an unreachable or exhausted database is a 503 (DatabaseUnavailableError).
   * A connection that breaks while checked out emits 'error' on its client (the pool listens only
   * to idle ones): without a listener the process would crash when the database restarts during
   * a COPY. The running statement fails by itself; the broken connection is destroyed on release.
   */
  async function withClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect().catch(rethrowDbError)
    let broken: Error | undefined
    const onError = (err: Error) => (broken = err)
    client.on('error', onError)
    try {
      return await fn(client).catch(rethrowDbError)
    } finally {
      client.off('error', onError)
      client.release(broken)
    }
  }

  const db: Db = {
    kind: 'postgres',
    query: base.query,
    async exec(sql) {
      await pool.query(sql).catch(rethrowDbError)
    },
    async transaction(fn) {
      return withClient(async (client) => {
        await client.query('BEGIN')
        try {
          const result = await fn(wrap(client))
          await client.query('COMMIT')
          return result
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {})
          throw err
        }
      })
    },
    async copyFrom(copySql, source, tx) {
      const run = async (client: pg.PoolClient) => {
        const sink = client.query(copyFromStream(copySql))
        await pipeline(Readable.from(source), sink)
      }
      const inTx = (tx as Wrapped | undefined)?.__client
      return inTx ? run(inTx).catch(rethrowDbError) : withClient(run)
    },
    async stream(sql, params, batchSize, onBatch, settings) {
      await withClient(async (client) => {
        await client.query('BEGIN READ ONLY')
        try {
          await applyLocalSettings(wrap(client), settings)
          await client.query(`DECLARE netinv_cursor NO SCROLL CURSOR FOR ${sql}`, params as unknown[])
          for (;;) {
            const r = await client.query(`FETCH ${Math.max(1, Math.floor(batchSize))} FROM netinv_cursor`)
            if (r.rows.length === 0) break
            await onBatch(r.rows)
            if (r.rows.length < batchSize) break
          }
          await client.query('COMMIT')
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {})
          throw err
        }
      })
    },
    withStatementTimeout(timeoutMs) {
      const ms = Math.max(1, Math.floor(timeoutMs))
      if (ms === options.statementTimeoutMs) return db
      let view = bounded.get(ms)
      if (!view) {
        view = createPostgresDb({ ...options, statementTimeoutMs: ms })
        bounded.set(ms, view)
      }
      return view
    },
    async ping() {
      try {
        await pool.query('SELECT 1')
        return true
      } catch {
        return false
      }
    },
    /**
     * Ends the pool without waiting for statements still running: they were started for requests
     * the drain has already answered or cut, so nobody waits for their answer, and one waiting
     * for a lock or a large scan would hold the exit past the grace for up to its statement
     * timeout. pg's end() of a client in the middle of a query destroys its connection (the
     * statement fails, its transaction rolls back, the pool drops the client).
     */
    async close() {
      unwatch()
      const views = [...bounded.values()]
      bounded.clear()
      const ended = pool.end()
      for (const client of checkedOut) void client.end().catch(() => {})
      await Promise.all([ended, ...views.map((v) => v.close())])
    },
  }
  return db
}
