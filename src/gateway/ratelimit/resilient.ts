/**
 * Redis first, in-process when Redis fails: a decision Redis cannot give (down, slow past the
 * Redis limiter's deadline, erroring) comes from a per-replica memory limiter instead — logged
 * on each change of state, counted per decision, never an error or a hang for the request.
 * After `tripAfter` consecutive failures Redis is skipped for `coolDownMs`, then one probe goes
 * back to it; the first success returns every decision to Redis.
 *
 * The window carries over both ways. Every hit Redis lets through is also logged in the memory
 * limiter at its time, so at a switch to memory this replica's hits of the last window are
 * already counted (its limit does not start at zero). And a hit passes only when the memory log
 * lets it through too: in steady state that changes nothing (this replica's hits are a part of
 * all the hits Redis logged), but when Redis comes back empty (restarted, or its keys expired
 * while it was away) the hits passed in process during the window still count.
 */
import type { Logger } from 'pino'
import { then, type Maybe } from '../../shared/maybe.js'
import type { Limiter, RateDecision } from './types.js'

export interface ResilientLimiterOptions {
  /** A limiter that settles every decision in bounded time (the Redis limiter has a deadline). */
  primary: Limiter
  fallback: Limiter
  /** Whether the primary can take a command right now (e.g. the Redis connection is ready). */
  usable(): boolean
  log: Logger
  onFallback(): void
  tripAfter?: number
  coolDownMs?: number
  now?: () => number
}

export interface ResilientLimiter extends Limiter {
  /** 'primary' when the last decision came from Redis, 'fallback' otherwise. */
  mode(): 'primary' | 'fallback'
}

export function createResilientLimiter(options: ResilientLimiterOptions): ResilientLimiter {
  const { primary, fallback, log } = options
  const tripAfter = options.tripAfter ?? 3
  const coolDownMs = options.coolDownMs ?? 1000
  const clock = options.now ?? Date.now
  let mode: 'primary' | 'fallback' = 'primary'
  let failures = 0
  let openUntil = 0
  let probing = false

  function degrade(reason: string): void {
    if (mode === 'primary') log.error({ reason }, 'rate limiter: Redis unavailable, using the in-process limit of this replica')
    mode = 'fallback'
  }

  function fromFallback(key: string, limit: number, windowSeconds: number, t: number): Maybe<RateDecision> {
    options.onFallback()
    return fallback.consume(key, limit, windowSeconds, t)
  }

  /** A hit Redis let through is logged in memory too; the memory log may still refuse it (see above). */
  function shadowed(decision: RateDecision, key: string, limit: number, windowSeconds: number, t: number): Maybe<RateDecision> {
    if (!decision.allowed) return decision
    return then(fallback.consume(key, limit, windowSeconds, t), (local) => (local.allowed ? decision : local))
  }

  return {
    mode: () => mode,
    consume(key, limit, windowSeconds, at) {
      const t = at ?? clock()
      const circuitOpen = failures >= tripAfter && t < openUntil
      if (!options.usable() || circuitOpen || (failures >= tripAfter && probing)) {
        degrade(options.usable() ? 'circuit open after repeated failures' : 'not connected')
        return fromFallback(key, limit, windowSeconds, t)
      }
      const isProbe = failures >= tripAfter
      if (isProbe) probing = true
      const succeeded = (decision: RateDecision): Maybe<RateDecision> => {
        if (isProbe) probing = false
        if (mode === 'fallback') log.warn('rate limiter: Redis is back, shared limits restored')
        mode = 'primary'
        failures = 0
        return shadowed(decision, key, limit, windowSeconds, t)
      }
      let decided: Maybe<RateDecision>
      try {
        decided = primary.consume(key, limit, windowSeconds, t)
      } catch (err) {
        decided = Promise.reject(err)
      }
      if (!(decided instanceof Promise)) return succeeded(decided)
      return decided.then(succeeded, (err: unknown) => {
        if (isProbe) probing = false
        failures++
        if (failures >= tripAfter) openUntil = clock() + coolDownMs
        degrade(err instanceof Error ? err.message : String(err))
        return fromFallback(key, limit, windowSeconds, t)
      })
    },
    async close() {
      await Promise.all([primary.close(), fallback.close()])
    },
  }
}
