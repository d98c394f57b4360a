/** Embedded PostgreSQL (PGlite) in DATA_DIR: the default when no DATABASE_URL is set. */
import { PGlite, type Transaction } from '@electric-sql/pglite'
import { mkdirSync } from 'node:fs'
import { lockDir } from './dir-lock.js'
import type { Db, Queryable, QueryResult } from './types.js'

/** COPY through PGlite's virtual /dev/blob, in slices so memory stays bounded. */
const COPY_SLICE_BYTES = 16 * 1024 * 1024

/**
 * PGlite runs in this thread and a synchronous row source resolves each step as a microtask, so a
 * long COPY would never let the event loop reach I/O: the whole process (gateway included, in
 * `serve`) would stop answering until the load ends. Give I/O a turn between chunks.
 */
const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve))

function wrap(target: PGlite | Transaction, yieldFirst: boolean): Queryable {
  return {
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      // Statements in a row (index builds after a load) would otherwise run back to back.
      if (yieldFirst) await yieldToIo()
      const r = await target.query<T>(sql, params as unknown[])
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length }
    },
  }
}

export interface PgliteOptions {
  /** Directory of the database files; undefined for an in-memory database (tests). */
  dataDir?: string
}

export async function createPgliteDb(options: PgliteOptions = {}): Promise<Db> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true })
  const unlock = options.dataDir ? lockDir(options.dataDir) : () => {}
  let pglite: PGlite
  try {
    pglite = await PGlite.create({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      parsers: { 1700: (v: string) => Number(v) },
    })
  } catch (err) {
    unlock()
    throw err
  }
  const base = wrap(pglite, true)

  const copyInto = async (target: PGlite | Transaction, copySql: string, source: AsyncIterable<string>) => {
    const sql = copySql.replace(/FROM\s+STDIN/i, "FROM '/dev/blob'")
    let parts: string[] = []
    let size = 0
    const flush = async () => {
      if (parts.length === 0) return
      await target.query(sql, [], { blob: new Blob(parts) })
      parts = []
      size = 0
    }
    for await (const chunk of source) {
      parts.push(chunk)
      size += chunk.length
      if (size >= COPY_SLICE_BYTES) await flush()
      await yieldToIo()
    }
    await flush()
  }

  const db: Db = {
    kind: 'pglite',
    query: base.query,
    async exec(sql) {
      await pglite.exec(sql)
    },
    async transaction(fn) {
      return pglite.transaction(async (tx) => {
        const q = wrap(tx, false) as Queryable & { __tx: Transaction }
        q.__tx = tx
        return fn(q)
      })
    },
    async copyFrom(copySql, source, tx) {
      const inner = (tx as { __tx?: Transaction } | undefined)?.__tx
      await copyInto(inner ?? pglite, copySql, source)
    },
    async stream(sql, params, batchSize, onBatch) {
      await pglite.transaction(async (tx) => {
        await tx.query(`DECLARE netinv_cursor NO SCROLL CURSOR FOR ${sql}`, params as unknown[])
        for (;;) {
          const r = await tx.query<Record<string, unknown>>(`FETCH ${Math.max(1, Math.floor(batchSize))} FROM netinv_cursor`)
          if (r.rows.length === 0) break
          await onBatch(r.rows as never[])
          if (r.rows.length < batchSize) break
        }
        await tx.query('CLOSE netinv_cursor')
      })
    },
    withStatementTimeout() {
      return db
    },
    async ping() {
      try {
        await pglite.query('SELECT 1')
        return true
      } catch {
        return false
      }
    },
    async close() {
      if (!pglite.closed) await pglite.close()
      unlock()
    },
  }
  return db
}
