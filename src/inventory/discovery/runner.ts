/**
 * Runs background work (discovery jobs) and keeps track of it, so the service can stop it on
 * shutdown: `close()` aborts every running task and waits until each has recorded its end.
 */
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import type { Config } from '../../shared/config/index.js'
import type { Db } from '../../shared/db/index.js'

export type Task = (signal: AbortSignal) => Promise<void>

export class JobRunner {
  /** This service instance, owner of the jobs it runs. */
  readonly instance = randomUUID()
  private readonly running = new Set<Promise<void>>()
  private readonly controller = new AbortController()
  /** Abort controllers of tasks started with a key (a job id), so one can be stopped. */
  private readonly keyed = new Map<string, AbortController>()

  constructor(private readonly log: Logger) {}

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
    const p: Promise<void> = task(own.signal)
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
