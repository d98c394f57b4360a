/**
 * How many table queries (and report computations, which scan tables the same way) one user runs
 * at once on this process, and, on the embedded database, in what order they get it.
 *
 * Without a bound, one caller with a handful of costly requests holds every database connection
 * and everyone else's cheap queries wait or fail; with it, the caller is answered 429 and the
 * others keep their share.
 *
 * The embedded database has one session: its statements take turns, first come first served, so
 * four costly queries of one user sent at once put everyone else's behind all four. There each
 * user's queries run one at a time (the user's "lane": the others wait here, in order, before
 * they reach the database), so another user's query waits behind at most one query of each
 * other user — its share is one query in turn with every other user who is waiting, whatever
 * they sent. A query that waits in its lane waits against its own deadline: past it it is
 * answered 503 `API_QUERY_TIMEOUT` with Retry-After, and never started.
 */
import type { Db, Deadline } from '../../shared/db/index.js'
import { ApiError } from '../../shared/errors.js'
import type { Principal } from '../../shared/principal.js'
import { Tally } from '../../shared/tally.js'

/** Seconds a client told to slow down waits before retrying. */
export const BUSY_RETRY_AFTER_S = 1

export interface AdmissionOptions {
  /** Queries one user may have running at once (on the embedded database: in progress, running or waiting in their lane). */
  maxPerPrincipal: number
  /**
   * Queries of one user that wait, in order, for one of theirs to finish, beyond `maxPerPrincipal`
   * (each against its own deadline: 503 with Retry-After past it); 429 with Retry-After above.
   * Clients that fetch every page at once (aio-ipfabric sends them all
   * together, up to httpx's 100 connections, and retries a 429 only after 4 to 10 s) get their pages in turn instead. Default 0.
   */
  maxQueuedPerPrincipal?: number
  /** Each user's queries run one at a time (the embedded database). */
  serial?: boolean
}

interface Waiter {
  start(): void
  timer?: NodeJS.Timeout
}

/** One user's queries in order: the running ones, and those waiting for a turn. */
class Lane {
  running = 0
  readonly waiting: Waiter[] = []
}

/** What the admission decided for a query (tests and logs read it). */
export type Admitted = 'running' | 'waiting'

export class QueryAdmission {
  private readonly inProgress = new Tally<string>()
  private readonly lanes = new Map<string, Lane>()
  private readonly options: AdmissionOptions

  constructor(options: AdmissionOptions | number) {
    this.options = typeof options === 'number' ? { maxPerPrincipal: options } : options
  }

  /** Queries of a user in progress (running or waiting). */
  count(principal: Principal | null): number {
    return this.inProgress.count(keyOf(principal))
  }

  /** Queries of a user waiting for their turn (embedded database). */
  waiting(principal: Principal | null): number {
    return this.lanes.get(keyOf(principal))?.waiting.length ?? 0
  }

  /**
   * Runs `work` in a slot of the caller's (their user: every API key and session of a user shares
   * it), after the user's earlier queries on the embedded database, before `deadline`.
   * `onAdmitted` learns whether it ran at once or waited.
   */
  async run<T>(principal: Principal | null, work: () => Promise<T>, deadline?: Deadline, onAdmitted?: (how: Admitted) => void): Promise<T> {
    const key = keyOf(principal)
    const max = this.options.maxPerPrincipal
    const queued = this.options.maxQueuedPerPrincipal ?? 0
    if (this.inProgress.count(key) >= max + queued) {
      const what = queued > 0 ? `${max} table queries of one user run at once and ${queued} wait for their turn` : `${max} table queries of one user run at once`
      throw new ApiError('API_TOO_MANY_REQUESTS', `At most ${what}; retry when one has finished`, {
        headers: { 'retry-after': String(BUSY_RETRY_AFTER_S) },
      })
    }
    const leave = this.inProgress.enter(key)
    try {
      // the embedded database: one at a time per user; otherwise up to `max` at once
      const capacity = this.options.serial ? 1 : max
      if (!this.options.serial && queued === 0) {
        onAdmitted?.('running')
        return await work()
      }
      const lane = this.lanes.get(key) ?? new Lane()
      this.lanes.set(key, lane)
      if (lane.running >= capacity) {
        onAdmitted?.('waiting')
        await this.wait(lane, deadline)
      } else {
        lane.running++
        onAdmitted?.('running')
      }
      try {
        return await work()
      } finally {
        this.next(key, lane)
      }
    } finally {
      leave()
    }
  }

  /** Waits for the lane's turn, until `deadline` at most (then a 503, and the query never starts). */
  private wait(lane: Lane, deadline: Deadline | undefined): Promise<void> {
    if (deadline && deadline.remaining() <= 0) return Promise.reject(timedOut())
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { start: resolve }
      if (deadline) {
        waiter.timer = setTimeout(() => {
          const i = lane.waiting.indexOf(waiter)
          if (i >= 0) lane.waiting.splice(i, 1)
          reject(timedOut())
        }, deadline.remaining())
      }
      lane.waiting.push(waiter)
    })
  }

  /** Hands a finished query's turn to the next waiting one, or frees it. */
  private next(key: string, lane: Lane): void {
    const waiter = lane.waiting.shift()
    if (!waiter) {
      lane.running--
      if (lane.running === 0) this.lanes.delete(key)
      return
    }
    clearTimeout(waiter.timer)
    waiter.start()
  }
}

/** The admission of a service on `db`: lanes on the embedded database. */
export function queryAdmission(deps: { db: Db; config: { query: { maxConcurrentPerPrincipal: number; maxQueuedPerPrincipal?: number } } }): QueryAdmission {
  const { maxConcurrentPerPrincipal, maxQueuedPerPrincipal } = deps.config.query
  return new QueryAdmission({ maxPerPrincipal: maxConcurrentPerPrincipal, ...(maxQueuedPerPrincipal === undefined ? {} : { maxQueuedPerPrincipal }), serial: deps.db.kind === 'pglite' })
}

function keyOf(principal: Principal | null): string {
  return principal?.id ?? ''
}

function timedOut(): ApiError {
  return new ApiError('API_QUERY_TIMEOUT', undefined, { headers: { 'retry-after': String(BUSY_RETRY_AFTER_S) } })
}
