/**
 * The rate limiter's contract: decisions are data (allowed, limit, remaining, reset) computed
 * first; headers are written from them afterwards. Implementations: in-process memory, Redis
 * (standalone or Cluster, one atomic script per request), and a Redis limiter that falls back to
 * memory when Redis fails. All keep a sliding log of the hits let through (see memory.ts).
 */
import type { Maybe } from '../../shared/maybe.js'

export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Milliseconds until a place frees (a refused hit may retry then). */
  resetMs: number
}

export interface Limiter {
  /**
   * Decides one hit for `key`: it passes when fewer than `limit` passed in the `windowSeconds`
   * that end with it (a sliding window), and is then counted. At once when the limiter holds the
   * counts (in process), as a promise when it must ask (Redis). `at`: the hit's time in ms, when
   * not now.
   */
  consume(key: string, limit: number, windowSeconds: number, at?: number): Maybe<RateDecision>
  close(): Promise<void>
}
