/**
 * Runs background work (discovery jobs) and keeps track of it, so the service can stop it on
 * shutdown: `close()` aborts every running task and waits until each has recorded its end.
 */
import type { Logger } from 'pino'
import type { Config } from '../../shared/config/index.js'
import type { Db } from '../../shared/db/index.js'

export type Task = (signal: AbortSignal) => Promise<void>

export class JobRunner {
  private readonly running = new Set<Promise<void>>()
  private readonly controller = new AbortController()

  constructor(private readonly log: Logger) {}

  /** Starts a task in the background; its failures are logged, never thrown. */
  run(name: string, task: Task): void {
    if (this.controller.signal.aborted) throw new Error('the job runner is closed')
    const p: Promise<void> = task(this.controller.signal)
      .catch((err: unknown) => this.log.error({ err, task: name }, 'background task failed'))
      .finally(() => this.running.delete(p))
    this.running.add(p)
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
  /** Current time in ms since the epoch (injectable for tests). */
  now: () => number
}
