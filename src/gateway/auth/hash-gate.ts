/**
 * The bound on password hashing: at most `concurrency` password checks hash at once (scrypt runs
 * on libuv's thread pool, about 30 ms of a core each) and at most `queue` wait for a turn, in
 * arrival order. A check beyond both is shed at once with 503 and Retry-After instead of
 * waiting behind a flood: a successful login then waits at most about queue × hash time /
 * concurrency for its turn, however many checks arrive.
 *
 * Checks from addresses that signed in successfully before wait in a queue of their own (of the
 * same bound) and take the next free slot first: a flood of logins from ever new addresses fills
 * the other queue only, and cannot shed the users who sign in from where they always do.
 */
import { availableParallelism } from 'node:os'
import { ApiError } from '../../shared/errors.js'

export interface HashLimits {
  /** Checks hashing at once; 0 picks one per core but one, between 1 and 3. */
  concurrency: number
  queue: number
}

/** One hash per core but one (the event loop's), within libuv's default pool of 4 threads less one. */
export function defaultHashConcurrency(): number {
  return Math.max(1, Math.min(availableParallelism() - 1, 3))
}

export class HashGate {
  private active = 0
  private readonly waiting: Array<() => void> = []
  private readonly preferred: Array<() => void> = []
  private shedCount = 0

  constructor(private readonly limits: () => HashLimits) {}

  /** Runs `hash` within the bound, or throws 503 at once when its queue is full. */
  async run<T>(hash: () => Promise<T>, preferred = false): Promise<T> {
    const { concurrency, queue } = this.limits()
    const waiting = preferred ? this.preferred : this.waiting
    if (this.active < (concurrency || defaultHashConcurrency())) this.active++
    else if (waiting.length < queue) await new Promise<void>((resolve) => waiting.push(resolve))
    else {
      this.shedCount++
      throw new ApiError('API_SERVICE_UNAVAILABLE', 'Too many password checks at once; try again shortly', { headers: { 'retry-after': '1' } })
    }
    try {
      return await hash()
    } finally {
      // The slot goes to the next waiter as it is, or is freed.
      const next = this.preferred.shift() ?? this.waiting.shift()
      if (next) next()
      else this.active--
    }
  }

  /** Checks refused so far (for metrics and tests). */
  shed(): number {
    return this.shedCount
  }
}
