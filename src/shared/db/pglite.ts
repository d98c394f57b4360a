/**
 * Embedded PostgreSQL (PGlite) in DATA_DIR: the default when no DATABASE_URL is set. The database
 * lives in a worker thread of its own (`pglite-thread.ts`), so no statement can stop the service's
 * thread, and a statement past its time limit is really stopped.
 */
import { mkdirSync } from 'node:fs'
import type { Logger } from 'pino'
import { nextTurn } from '../pace.js'
import { lockDir } from './dir-lock.js'
import { DatabaseUnavailableError } from './errors.js'
import { closeTree } from './owner-only.js'
import { PgliteThread } from './pglite-thread.js'
import { RowSpool } from './spool.js'
import type { Db, Queryable, QueryResult } from './types.js'

/** COPY data is handed to the worker in slices of this size: memory stays bounded. */
const COPY_SLICE_BYTES = 8 * 1024 * 1024

export interface PgliteOptions {
  /** Directory of the database files; undefined for an in-memory database (tests). */
  dataDir?: string
  /** The directory a disk-full error names (the DATA_DIR the operator set); dataDir by default. */
  shownDir?: string
  log?: Logger
}

type TxHandle = Queryable & { __tx: number; __generation: number }

function txOf(thread: PgliteThread, tx: Queryable | undefined): number | undefined {
  const handle = tx as Partial<TxHandle> | undefined
  if (handle?.__tx === undefined) return undefined
  if (handle.__generation !== thread.generation) throw new DatabaseUnavailableError('unavailable')
  return handle.__tx
}

/** The database's operations with statements limited to `timeoutMs` (none when undefined). */
function view(thread: PgliteThread, timeoutMs: number | undefined, close: () => Promise<void>): Db {
  const limit = () => ({ submitted: Date.now(), ...(timeoutMs === undefined ? {} : { timeoutMs }) })
  const queryIn = (tx?: { id: number; generation: number }) =>
    async function query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      if (tx && tx.generation !== thread.generation) throw new DatabaseUnavailableError('unavailable')
      return thread.request<QueryResult<T>>({ op: 'query', sql, params: [...params], ...limit(), ...(tx ? { tx: tx.id } : {}) })
    }

  async function sendCopy(sql: string, parts: string[], tx: number | undefined): Promise<void> {
    const data = new TextEncoder().encode(parts.join(''))
    await thread.request({ op: 'copy', sql, data, ...(tx === undefined ? {} : { tx }) }, { transfer: [data.buffer as ArrayBuffer] })
  }

  const db: Db = {
    kind: 'pglite',
    query: queryIn(),
    async exec(sql) {
      await thread.request({ op: 'exec', sql, ...limit() })
    },
    async transaction(fn) {
      let id = 0
      await thread.request({ op: 'begin', ...limit() }, { onId: (n) => (id = n) })
      const generation = thread.generation
      const tx: TxHandle = { query: queryIn({ id, generation }), __tx: id, __generation: generation }
      let result
      try {
        result = await fn(tx)
      } catch (err) {
        if (thread.generation === generation) await thread.request({ op: 'end', tx: id, commit: false }).catch(() => {})
        throw err
      }
      if (thread.generation !== generation) throw new DatabaseUnavailableError('unavailable')
      await thread.request({ op: 'end', tx: id, commit: true })
      return result
    },
    async copyFrom(copySql, source, tx) {
      const txId = txOf(thread, tx)
      // one slice is loaded while the next is built: the row source and the database work at once
      let loading: Promise<void> | undefined
      let parts: string[] = []
      let size = 0
      const flush = async () => {
        if (parts.length === 0) return
        const slice = parts
        parts = []
        size = 0
        if (loading) await loading
        loading = sendCopy(copySql, slice, txId)
        loading.catch(() => {})
      }
      for await (const chunk of source) {
        parts.push(chunk)
        size += chunk.length
        if (size >= COPY_SLICE_BYTES) await flush()
        // a source whose steps settle as microtasks would keep the event loop from I/O while a slice
        // is built: a turn between chunks
        await nextTurn()
      }
      await flush()
      await loading
    },
    async stream<T>(sql: string, params: readonly unknown[], batchSize: number, onBatch: (rows: T[]) => Promise<void>) {
      // The cursor is read as fast as the database gives its rows, into a spool, and `onBatch`
      // reads the spool at its own pace: a consumer that waits (a client that stops reading its
      // export) must not hold the one session every other statement needs.
      const spool = await RowSpool.create<T>()
      let id = 0
      let failed: unknown
      let chain = Promise.resolve()
      try {
        await thread.request(
          { op: 'stream', sql, params: [...params], batchSize },
          {
            onId: (n) => (id = n),
            onBatch: (rows) => {
              chain = chain.then(async () => {
                if (failed !== undefined) return
                try {
                  await spool.write(rows as T[])
                  thread.post({ op: 'next', id })
                } catch (err) {
                  failed = err
                  thread.post({ op: 'cancel', id })
                }
              })
            },
          },
        )
        await chain
        if (failed !== undefined) throw failed
      } catch (err) {
        await spool.remove()
        throw err
      }
      await spool.drain(onBatch)
    },
    withStatementTimeout(ms) {
      // a view is a few closures: one per call, so a request may pass what remains of its limit
      return view(thread, Math.max(1, Math.floor(ms)), close)
    },
    async ping() {
      try {
        await thread.request({ op: 'query', sql: 'SELECT 1', params: [], submitted: Date.now(), timeoutMs: PING_TIMEOUT_MS })
        return true
      } catch {
        return false
      }
    },
    close,
  }
  return db
}

/** How long a readiness probe waits for the embedded database. */
const PING_TIMEOUT_MS = 5000

export async function createPgliteDb(options: PgliteOptions = {}): Promise<Db> {
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 })
    closeTree(options.dataDir)
  }
  const unlock = options.dataDir ? lockDir(options.dataDir) : () => {}
  const shownDir = options.shownDir ?? options.dataDir
  const thread = new PgliteThread({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(shownDir ? { shownDir } : {}),
    ...(options.log ? { log: options.log } : {}),
  })
  try {
    await thread.opened()
  } catch (err) {
    await thread.close()
    unlock()
    throw err
  }
  let closing: Promise<void> | undefined
  const close = () =>
    (closing ??= (async () => {
      await thread.close()
      unlock()
    })())
  return view(thread, undefined, close)
}
