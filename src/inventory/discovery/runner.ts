/**
 * Runs background work (discovery jobs) and keeps track of it, so the service can stop it on
 * shutdown: `close()` aborts every running task and waits until each has recorded its end.
 */
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import type { Config } from '../../shared/config/index.js'
import type { Db } from '../../shared/db/index.js'
import { Tally } from '../../shared/tally.js'
import { tracing, type Tracing } from '../../shared/tracing/index.js'

export type Task = (signal: AbortSignal) => Promise<void>

/** How often a failure that could not be recorded (the database was away) is tried again. */
export const RECORD_RETRY_MS = 2000

/**
 * A background task as a trace of its own (tracing on): named by its kind (the first word of its
 * name: "discovery", "rediscovery", "snapshotLoad"), the whole name as an attribute; its
 * statements are its children.
 */
async function traced(t: Tracing, name: string, work: () => Promise<void>): Promise<void> {
  const span = t.root(`job ${name.split(' ', 1)[0]!}`)
  span.setAttribute('netinv.job', name)
  try {
    await t.within(span, work)
  } catch (err) {
    span.setStatus({ code: 2, message: err instanceof Error ? err.message : String(err) })
    throw err
  } finally {
    span.end()
  }
}

export class JobRunner {
  /** This service instance, owner of the jobs it runs. */
  readonly instance = randomUUID()
  private readonly running = new Set<Promise<void>>()
  private readonly controller = new AbortController()
  /** Abort controllers of tasks started with a key (a job id), so one can be stopped. */
  private readonly keyed = new Map<string, AbortController>()
  /** Jobs this instance is working on right now: only these get heartbeats. */
  private readonly live = new Tally<string>()
  /** Records of an end (a failure) that could not be written yet, retried until they are. */
  private readonly unrecorded = new Map<string, () => Promise<void>>()
  private retryTimer: NodeJS.Timeout | undefined

  constructor(
    private readonly log: Logger,
    private readonly retryMs = RECORD_RETRY_MS,
  ) {}

  /**
   * Starts a task in the background; its failures are logged, never thrown. Its signal aborts
   * when the runner closes, or when `stop(key)` is called for the key it was started with.
   */
  run(name: string, task: Task, key?: string): void {
    if (this.controller.signal.aborted) throw new Error('the job runner is closed')
    const own = new AbortController()
    const onClose = () => own.abort(this.controller.signal.reason)
    this.controller.signal.addEventListener('abort', onClose, { once: true })
    if (key !== undefined) this.keyed.set(key, own)
    const t = tracing()
    const p: Promise<void> = (t === undefined ? task(own.signal) : traced(t, name, () => task(own.signal)))
      .catch((err: unknown) => this.log.error({ err, task: name }, 'background task failed'))
      .finally(() => {
        this.running.delete(p)
        if (key !== undefined && this.keyed.get(key) === own) this.keyed.delete(key)
        this.controller.signal.removeEventListener('abort', onClose)
      })
    this.running.add(p)
  }

  /** Aborts the task started with `key`; false when no such task runs here. */
  stop(key: string, reason: Error): boolean {
    const c = this.keyed.get(key)
    if (!c) return false
    c.abort(reason)
    return true
  }

  /**
   * Marks a job as worked on by this instance until the returned function is called. Call it
   * before the job's row is written, so the job is never seen without its owner alive.
   */
  track(jobId: string): () => void {
    return this.live.enter(jobId)
  }

  /** Ids of the jobs this instance is working on. */
  liveJobs(): string[] {
    return this.live.keys()
  }

  /**
   * Writes the end of a job (`record`, idempotent) now, or, when the database cannot take it
   * (it is restarting, unreachable), every few seconds until it can: a job never stays `running`
   * because its failure happened while the database was away.
   */
  async record(key: string, record: () => Promise<void>): Promise<void> {
    try {
      await record()
    } catch (err) {
      this.log.warn({ err, job: key }, 'could not record the end of a job yet; trying again')
      this.unrecorded.set(key, record)
      this.retryTimer ??= setInterval(() => void this.retry(), this.retryMs).unref()
    }
  }

  /** Tries every unrecorded end again; returns how many are still waiting. */
  async retry(): Promise<number> {
    for (const [key, record] of [...this.unrecorded]) {
      try {
        await record()
        if (this.unrecorded.get(key) === record) this.unrecorded.delete(key)
        this.log.info({ job: key }, 'recorded the end of a job after the database came back')
      } catch {
        // still away: next round
      }
    }
    if (this.unrecorded.size === 0 && this.retryTimer) {
      clearInterval(this.retryTimer)
      this.retryTimer = undefined
    }
    return this.unrecorded.size
  }

  /** Number of tasks in progress. */
  get size(): number {
    return this.running.size
  }

  /** Waits for every task in progress (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running])
  }

  async close(): Promise<void> {
    this.controller.abort(new Error('the service is shutting down'))
    await this.idle()
    await this.retry()
    if (this.retryTimer) clearInterval(this.retryTimer)
    this.retryTimer = undefined
  }
}

/** What the snapshot, discovery and settings code needs from the service. */
export interface InventoryServices {
  db: Db
  log: Logger
  config: Readonly<Config>
  runner: JobRunner
  /** Key that seals SNMP credentials at rest. */
  credentialKey: Buffer
  /** Current time in ms since the epoch (injectable for tests). */
  now: () => number
}
