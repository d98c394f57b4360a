/**
 * The service's side of the embedded database's worker thread (`pglite-worker.ts`): requests and
 * their answers, time limits, and restarts.
 *
 * A request with a time limit that has not started when its limit passes is answered with a
 * timeout (the worker skips it later). One that is still running when its limit passes is stopped
 * the only way a WebAssembly statement can be: the worker is terminated and started again on the
 * same data directory, where PostgreSQL's crash recovery replays its write-ahead log, so what was
 * committed stays and what was not is gone. Requests that were only waiting their turn are sent
 * to the new worker; those that were inside the stopped one (a transaction, a cursor, a COPY)
 * fail with a 503. An in-memory database (tests) cannot be restarted without losing everything:
 * there the caller gets its timeout and the statement runs on.
 */
import { readFile } from 'node:fs/promises'
import { Worker } from 'node:worker_threads'
import type { Logger } from 'pino'
import { DatabaseUnavailableError, asFull, sqlState } from './errors.js'
import { readTemplate, templateFile } from './pglite-template.js'
import {
  STATE_BYTES,
  deserializeError,
  sharedState,
  timeoutError,
  type Setup,
  type SharedState,
  type WorkerReply,
  type WorkerRequest,
} from './pglite-protocol.js'

/**
 * PGlite's WebAssembly modules and file system bundle, compiled and read once per process and
 * handed to every worker (a worker would otherwise compile 9 MB of WebAssembly at each start: a
 * restart, or each database of a test run). Undefined when the package's files are not where
 * this version keeps them: then each worker loads them itself.
 */
let artifacts: Promise<Record<string, unknown>> | undefined
function pgliteArtifacts(): Promise<Record<string, unknown>> {
  return (artifacts ??= (async () => {
    try {
      const dist = new URL('.', import.meta.resolve('@electric-sql/pglite'))
      const [pglite, initdb, data] = await Promise.all(['pglite.wasm', 'initdb.wasm', 'pglite.data'].map((f) => readFile(new URL(f, dist))))
      const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } }).WebAssembly
      const [pgliteWasmModule, initdbWasmModule] = await Promise.all([wasm.compile(pglite!), wasm.compile(initdb!)])
      return { pgliteWasmModule, initdbWasmModule, fsBundle: new Blob([data!]) }
    } catch {
      return {}
    }
  })())
}

let templatePath: string | undefined | null = null
/** Where the empty database of pglite-template.ts is kept (looked up once per process). */
function pgliteTemplateFile(): string | undefined {
  if (templatePath === null) templatePath = templateFile()
  return templatePath
}

/** Loads the worker's module; from TypeScript sources (tests, `npm run netinv`) through tsx. */
function spawn(state: SharedArrayBuffer, dataDir: string | undefined, preloaded: Record<string, unknown>): Worker {
  const fromSources = import.meta.url.endsWith('.ts')
  const file = new URL(`./pglite-worker.${fromSources ? 'ts' : 'js'}`, import.meta.url)
  const templateFile = pgliteTemplateFile()
  const template = readTemplate(templateFile)
  const workerData = { state, preloaded, ...(dataDir ? { dataDir } : {}), ...(templateFile ? { templateFile } : {}), ...(template ? { template: new Blob([template]) } : {}) }
  if (!fromSources) return new Worker(file, { workerData })
  const tsx = import.meta.resolve('tsx/esm/api')
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(file.href)}) })`
  return new Worker(boot, { eval: true, workerData })
}

/** How long after a failed attempt to open the database a request tries again. */
const REOPEN_AFTER_MS = 5000

type Message = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never

interface Pending {
  id: number
  message: WorkerRequest
  resolve(value: unknown): void
  reject(err: unknown): void
  /** Safe to send again to a new worker when it had not started (no transaction, no transferred data). */
  resendable: boolean
  onBatch?: (rows: Array<Record<string, unknown>>) => void
  timer?: NodeJS.Timeout
}

export interface ThreadOptions {
  dataDir?: string
  /** The directory a disk-full error names (the DATA_DIR the operator set); dataDir by default. */
  shownDir?: string
  log?: Logger
}

export class PgliteThread {
  private worker: Worker | undefined
  private ready: Promise<void>
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  private state: SharedState
  private readonly buffer = new SharedArrayBuffer(STATE_BYTES)
  /** Bumped at each restart: transactions of an earlier worker are gone. */
  generation = 0
  restarts = 0
  /** How the last worker came by its database (pglite-protocol.ts `Setup`). */
  setup: Setup | undefined
  private closed = false
  /** When the last attempt to open the database failed (a later request tries again). */
  private failedAt: number | undefined

  constructor(private readonly options: ThreadOptions) {
    this.state = sharedState(this.buffer)
    this.ready = this.start()
  }

  /** Resolves once the first worker has opened the database (rejects when it cannot). */
  opened(): Promise<void> {
    return this.ready
  }

  private async start(): Promise<void> {
    const began = Date.now()
    const preloaded = await pgliteArtifacts()
    Atomics.store(this.state.running, 0, 0)
    const worker = spawn(this.buffer, this.options.dataDir, preloaded)
    this.worker = worker
    worker.unref()
    let opened = false
    // a worker that dies after it opened the database is replaced; one that could not open it is not
    const died = (reason: string) => {
      if (opened && this.worker === worker && !this.closed) this.restart(reason)
    }
    const ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (reply: WorkerReply) => {
        if (!('ready' in reply)) return this.answer(reply)
        if (!reply.ready) return reject(deserializeError(reply.error))
        opened = true
        this.setup = reply.setup
        if (reply.setup !== 'existing') {
          const how = reply.setup === 'template' ? 'unpacked from the template of an empty database' : 'initialised (initdb)'
          this.options.log?.info({ setup: reply.setup, ms: Date.now() - began }, `new embedded database ${how}`)
        }
        resolve()
      })
      worker.once('error', (err) => {
        reject(err)
        died(`the embedded database's thread failed: ${err.message}`)
      })
      worker.once('exit', (code) => {
        reject(new Error(`the embedded database's thread exited (${code})`))
        died(`the embedded database's thread exited (${code})`)
      })
    })
    ready.catch(() => {
      this.failedAt = Date.now()
      void worker.terminate()
    })
    return ready
  }

  private answer(reply: Exclude<WorkerReply, { ready: boolean }>): void {
    const p = this.pending.get(reply.id)
    if (!p) return // given up on (time limit) or from a worker since replaced
    if ('batch' in reply) return p.onBatch?.(reply.batch)
    this.settle(p)
    if (reply.ok) p.resolve(reply.result)
    else p.reject(this.failure(deserializeError(reply.error)))
  }

  /**
   * What a failed request is answered with: a full disk in the operator's words (the data
   * directory), the database's own words (a file of its internal layout) in the log only.
   */
  private failure(err: Error): Error {
    const full = asFull(err, `the data directory ${this.options.shownDir ?? this.options.dataDir ?? '(in memory)'}`)
    if (!full) return err
    this.options.log?.error({ detail: err.message, code: sqlState(err) }, 'the embedded database found no space left on its disk')
    return full
  }

  private settle(p: Pending): void {
    clearTimeout(p.timer)
    this.pending.delete(p.id)
    if (this.pending.size === 0) this.worker?.unref()
  }

  /** Sends a request; `transfer` hands buffers over without copying (then it is never resent). */
  request<T>(message: Message, options: { transfer?: ArrayBuffer[]; onBatch?: Pending['onBatch']; onId?: (id: number) => void } = {}): Promise<T> {
    if (this.closed) return Promise.reject(new DatabaseUnavailableError('unavailable'))
    if (this.failedAt !== undefined && Date.now() - this.failedAt > REOPEN_AFTER_MS) {
      this.failedAt = undefined
      this.generation += 1
      this.ready = this.start()
    }
    const id = this.nextId
    this.nextId = this.nextId >= 0x7fffffff ? 1 : this.nextId + 1
    const full = { ...message, id } as WorkerRequest
    options.onId?.(id)
    return new Promise<T>((resolve, reject) => {
      const p: Pending = {
        id,
        message: full,
        resolve: resolve as (v: unknown) => void,
        reject,
        resendable: !('tx' in full && full.tx !== undefined) && (full.op === 'query' || full.op === 'exec' || full.op === 'begin'),
        ...(options.onBatch ? { onBatch: options.onBatch } : {}),
      }
      this.pending.set(id, p)
      this.worker?.ref()
      const timeoutMs = 'timeoutMs' in full ? full.timeoutMs : undefined
      if (timeoutMs !== undefined) p.timer = setTimeout(() => this.limitReached(p, timeoutMs), timeoutMs)
      this.send(p, options.transfer)
    })
  }

  private send(p: Pending, transfer?: ArrayBuffer[]): void {
    const generation = this.generation
    this.ready.then(
      () => {
        if (generation === this.generation && this.pending.has(p.id)) this.worker!.postMessage(p.message, transfer ?? [])
      },
      (err: unknown) => {
        if (generation !== this.generation || !this.pending.has(p.id)) return
        this.settle(p)
        p.reject(new DatabaseUnavailableError('unavailable', { cause: err }))
      },
    )
  }

  /** Tells a cursor read to go on (`more`) or stop. */
  post(message: Extract<WorkerRequest, { op: 'next' | 'cancel' }>): void {
    this.worker?.postMessage(message)
  }

  private limitReached(p: Pending, timeoutMs: number): void {
    if (!this.pending.has(p.id)) return
    if (Atomics.load(this.state.running, 0) !== p.id) {
      // still waiting its turn: give up; the worker sees the limit passed and skips it
      this.settle(p)
      p.reject(timeoutError())
      return
    }
    const left = this.state.startedAt[0]! + timeoutMs - Date.now()
    if (left > 0) {
      p.timer = setTimeout(() => this.limitReached(p, timeoutMs), left)
      return
    }
    this.settle(p)
    p.reject(timeoutError())
    if (!this.options.dataDir) {
      this.options.log?.warn({ timeoutMs }, 'a statement of the in-memory embedded database passed its time limit and runs on')
      return
    }
    this.restart(`a statement ran longer than its time limit (${timeoutMs} ms)`)
  }

  /** Replaces the worker: waiting requests go to the new one, those it was running fail. */
  private restart(reason: string): void {
    if (this.closed) return
    const old = this.worker
    this.worker = undefined
    this.generation += 1
    this.restarts += 1
    const running = Atomics.load(this.state.running, 0)
    void old?.terminate()
    const started = Date.now()
    const resend: Pending[] = []
    for (const p of [...this.pending.values()]) {
      if (p.resendable && p.id !== running) resend.push(p)
      else {
        this.settle(p)
        p.reject(new DatabaseUnavailableError('unavailable', { cause: new Error(reason) }))
      }
    }
    if (!this.options.dataDir) {
      this.options.log?.error({ reason }, 'the in-memory embedded database was lost')
      this.closed = true
      this.ready = Promise.reject(new Error(reason))
      this.ready.catch(() => {})
      for (const p of resend) {
        this.settle(p)
        p.reject(new DatabaseUnavailableError('unavailable'))
      }
      return
    }
    this.options.log?.warn({ reason }, 'restarting the embedded database')
    this.ready = this.start()
    this.ready.then(
      () => this.options.log?.warn({ ms: Date.now() - started, resent: resend.length }, 'the embedded database is back'),
      (err: unknown) => this.options.log?.error({ err }, 'the embedded database could not be reopened'),
    )
    for (const p of resend) this.send(p)
  }

  async close(): Promise<void> {
    if (this.closed) return
    try {
      await this.ready
      await this.request({ op: 'close' })
    } catch {
      // a worker that cannot close cleanly is terminated below; the data directory recovers
    } finally {
      this.closed = true
      await this.worker?.terminate()
    }
  }
}
