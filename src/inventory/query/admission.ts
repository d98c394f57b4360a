/**
 * How many table queries (and report computations, which scan tables the same way) one user runs
 * at once on this process. Without a bound, one caller with a handful of costly requests holds
 * every database connection and everyone else's cheap queries wait or fail; with it, the caller
 * is answered 429 and the others keep their share.
 */
import { ApiError } from '../../shared/errors.js'
import type { Principal } from '../../shared/principal.js'
import { Tally } from '../../shared/tally.js'

/** Seconds a client told to slow down waits before retrying. */
export const BUSY_RETRY_AFTER_S = 1

export class QueryAdmission {
  private readonly running = new Tally<string>()

  constructor(private readonly maxPerPrincipal: number) {}

  /** Takes a slot of the caller's (their user: every API key and session of a user shares it). */
  enter(principal: Principal | null): () => void {
    const key = principal?.id ?? ''
    if (this.running.count(key) >= this.maxPerPrincipal) {
      throw new ApiError('API_TOO_MANY_REQUESTS', `At most ${this.maxPerPrincipal} table queries of one user run at once; retry when one has finished`, {
        headers: { 'retry-after': String(BUSY_RETRY_AFTER_S) },
      })
    }
    return this.running.enter(key)
  }

  /** Runs `work` in a slot of the caller's. */
  async run<T>(principal: Principal | null, work: () => Promise<T>): Promise<T> {
    const leave = this.enter(principal)
    try {
      return await work()
    } finally {
      leave()
    }
  }
}
