/**
 * The rate limiter's contract: decisions are data (allowed, limit, remaining, reset) computed
 * first; headers are written from them afterwards. Implementations: in-process memory, Redis
 * (standalone or Cluster, one atomic script per request), and a Redis limiter that falls back to
 * memory when Redis fails.
 */
import type { Maybe } from '../../shared/maybe.js'

export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Milliseconds until the current window resets. */
  resetMs: number
}

export interface Limiter {
  /**
   * Counts one hit for `key` in a fixed window of `windowSeconds` and decides: at once when the
   * limiter holds the counts (in process), as a promise when it must ask (Redis).
   */
  consume(key: string, limit: number, windowSeconds: number): Maybe<RateDecision>
  close(): Promise<void>
}
