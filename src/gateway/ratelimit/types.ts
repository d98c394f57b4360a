/**
 * The rate limiter's contract: decisions are data (allowed, limit, remaining, reset) computed
 * first; headers are written from them afterwards. Implementations: in-process memory, Redis
 * (standalone or Cluster, one atomic script per request), and a Redis limiter that falls back to
 * memory when Redis fails.
 */
export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Milliseconds until the current window resets. */
  resetMs: number
}

export interface Limiter {
  /** Counts one hit for `key` in a fixed window of `windowSeconds` and decides. */
  consume(key: string, limit: number, windowSeconds: number): Promise<RateDecision>
  close(): Promise<void>
}
