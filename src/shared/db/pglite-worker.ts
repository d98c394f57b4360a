/**
 * The worker thread that owns the embedded database (PGlite). PGlite runs PostgreSQL compiled to
 * WebAssembly in the thread that calls it, and a running statement cannot be interrupted there: a
 * costly statement would stop every request of the service. Here it only stops this thread, which
 * the service can terminate (`pglite-thread.ts`).
 *
 * One session, so one user at a time: statements outside a transaction take turns (first come,
 * first served); a transaction or a cursor read holds the database until it ends. Before each
 * statement the worker publishes its request id and start time in the shared state.
 */
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite, type PGliteOptions } from '@electric-sql/pglite'
import { LOCK_FILE } from './dir-lock.js'
import { OwnerOnlyNodeFS } from './owner-only.js'
import { saveTemplate } from './pglite-template.js'
import { serializeError, sharedState, timeoutError, type Setup, type WorkerReply, type WorkerRequest } from './pglite-protocol.js'

interface Init {
  dataDir?: string
  state: SharedArrayBuffer
  /** PGlite's compiled WebAssembly modules and file system bundle (see pglite-thread.ts). */
  preloaded: Pick<PGliteOptions, 'pgliteWasmModule' | 'initdbWasmModule' | 'fsBundle'>
  /** The empty database of pglite-template.ts (when one was kept) and where it is kept. */
  template?: Blob
  templateFile?: string
}

const port = parentPort!
const init = workerData as Init
const state = sharedState(init.state)

/** First come, first served. */
class Lock {
  private tail: Promise<void> = Promise.resolve()
  acquire(): Promise<() => void> {
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const turn = this.tail.then(() => release)
    this.tail = this.tail.then(() => held)
    return turn
  }
}

const lock = new Lock()
/** Open transactions: their statements run one after the other while they hold the lock. */
const transactions = new Map<number, { release: () => void; chain: Promise<unknown> }>()
/** Cursor reads waiting for the service to take a batch: resolve(true) for more, false to stop. */
const readers = new Map<number, (more: boolean) => void>()

function reply(message: WorkerReply): void {
  port.postMessage(message)
}

/** Runs one statement of request `req`, visible in the shared state while it runs. */
async function statement<T>(req: { id: number; timeoutMs?: number; submitted?: number }, run: () => Promise<T>): Promise<T> {
  Atomics.store(state.running, 0, req.id)
  state.startedAt[0] = Date.now()
  try {
    // Checked after publishing the id: the service, seeing another id at the limit, has already
    // given up on this request, and then this check sees the limit passed too.
    if (req.timeoutMs !== undefined && req.submitted !== undefined && Date.now() - req.submitted >= req.timeoutMs) throw timeoutError()
    return await run()
  } finally {
    Atomics.store(state.running, 0, 0)
  }
}

/** Runs `run` in the transaction `tx` when given, else alone with the lock. */
async function inTurn<T>(tx: number | undefined, run: () => Promise<T>): Promise<T> {
  if (tx !== undefined) {
    const t = transactions.get(tx)
    if (!t) throw new Error('the transaction is no longer open')
    const next = t.chain.then(run)
    t.chain = next.catch(() => {})
    return next
  }
  const release = await lock.acquire()
  try {
    return await run()
  } finally {
    release()
  }
}

async function stream(db: PGlite, req: Extract<WorkerRequest, { op: 'stream' }>): Promise<void> {
  const release = await lock.acquire()
  try {
    await statement(req, () => db.exec('BEGIN READ ONLY'))
    try {
      await statement(req, () => db.query(`DECLARE netinv_cursor NO SCROLL CURSOR FOR ${req.sql}`, req.params))
      const fetch = `FETCH ${Math.max(1, Math.floor(req.batchSize))} FROM netinv_cursor`
      for (;;) {
        const r = await statement(req, () => db.query<Record<string, unknown>>(fetch))
        if (r.rows.length === 0) break
        const more = new Promise<boolean>((resolve) => readers.set(req.id, resolve))
        reply({ id: req.id, batch: r.rows })
        if (!(await more) || r.rows.length < req.batchSize) break
      }
      await statement(req, () => db.exec('COMMIT'))
    } catch (err) {
      await db.exec('ROLLBACK').catch(() => {})
      throw err
    }
  } finally {
    readers.delete(req.id)
    release()
  }
}

async function handle(db: PGlite, req: WorkerRequest): Promise<unknown> {
  switch (req.op) {
    case 'query':
      return inTurn(req.tx, () =>
        statement(req, async () => {
          const r = await db.query(req.sql, req.params)
          return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length }
        }),
      )
    case 'exec':
      return inTurn(req.tx, () => statement(req, () => db.exec(req.sql)).then(() => undefined))
    case 'copy': {
      const sql = req.sql.replace(/FROM\s+STDIN/i, "FROM '/dev/blob'")
      return inTurn(req.tx, () => statement(req, () => db.query(sql, [], { blob: new Blob([req.data]) })).then(() => undefined))
    }
    case 'begin': {
      const release = await lock.acquire()
      try {
        await statement(req, () => db.exec('BEGIN'))
      } catch (err) {
        release()
        throw err
      }
      transactions.set(req.id, { release, chain: Promise.resolve() })
      return undefined
    }
    case 'end': {
      const t = transactions.get(req.tx)
      if (!t) throw new Error('the transaction is no longer open')
      await t.chain
      transactions.delete(req.tx)
      try {
        await statement(req, () => db.exec(req.commit ? 'COMMIT' : 'ROLLBACK'))
      } catch (err) {
        await db.exec('ROLLBACK').catch(() => {})
        throw err
      } finally {
        t.release()
      }
      return undefined
    }
    case 'stream':
      return stream(db, req)
    case 'next':
    case 'cancel':
      readers.get(req.id)?.(req.op === 'next')
      return undefined
    case 'close': {
      const release = await lock.acquire()
      await db.close()
      release()
      return undefined
    }
  }
}

/** What the data directory holds before PGlite opens it. */
function found(dataDir: string | undefined): 'nothing' | 'database' | 'other' {
  if (!dataDir) return 'nothing'
  let entries: string[]
  try {
    entries = readdirSync(dataDir)
  } catch {
    return 'nothing'
  }
  if (entries.includes('PG_VERSION')) return 'database'
  return entries.every((e) => e === LOCK_FILE) ? 'nothing' : 'other'
}

function open(template: Blob | undefined): Promise<PGlite> {
  // Numbers as numbers, as on PostgreSQL (postgres.ts): int8 beyond 2^53 would otherwise come
  // back as a BigInt, which no JSON answer can carry.
  return PGlite.create({
    ...init.preloaded,
    ...(init.dataDir ? { fs: new OwnerOnlyNodeFS(init.dataDir) } : {}),
    ...(template ? { loadDataDir: template } : {}),
    parsers: { 20: (v: string) => Number(v), 1700: (v: string) => Number(v) },
  })
}

/**
 * Opens the database: an existing one as it is; a new one unpacked from the template when there
 * is one (pglite-template.ts), else made by initdb, which then leaves its result as the template.
 */
async function openDatabase(): Promise<{ db: PGlite; setup: Setup }> {
  const before = found(init.dataDir)
  if (before === 'nothing' && init.template) {
    try {
      return { db: await open(init.template), setup: 'template' }
    } catch {
      // a template this PGlite cannot read: dropped, and the directory it began to fill emptied
      if (init.templateFile) rmSync(init.templateFile, { force: true })
      if (init.dataDir) for (const entry of readdirSync(init.dataDir)) if (entry !== LOCK_FILE) rmSync(join(init.dataDir, entry), { recursive: true, force: true })
    }
  }
  const db = await open(undefined)
  if (before !== 'nothing') return { db, setup: 'existing' }
  if (init.templateFile) {
    await db.exec('CHECKPOINT')
    const dump = await db.dumpDataDir('gzip')
    saveTemplate(init.templateFile, new Uint8Array(await dump.arrayBuffer()))
  }
  return { db, setup: 'initdb' }
}

async function main(): Promise<void> {
  let db: PGlite
  let setup: Setup
  try {
    ;({ db, setup } = await openDatabase())
  } catch (err) {
    reply({ ready: false, error: serializeError(err) })
    return
  }
  port.on('message', (req: WorkerRequest) => {
    handle(db, req).then(
      (result) => {
        if (req.op !== 'next' && req.op !== 'cancel') reply({ id: req.id, ok: true, result })
      },
      (err: unknown) => reply({ id: req.id, ok: false, error: serializeError(err) }),
    )
  })
  reply({ ready: true, setup })
}

void main()
