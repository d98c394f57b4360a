/**
 * In-process sliding-log limiter: the limiter when no REDIS_URL is set, and the per-replica
 * fallback (and shadow) of the Redis limiter. Each key keeps the times of the hits it let through
 * in the last window, oldest first: a hit passes when fewer than `limit` passed in the window
 * that ends with it, so no span of `windowSeconds` ever holds more than `limit` passes, wherever
 * it starts (a burst straddling a second boundary cannot pass twice the limit, as a window
 * aligned to the clock would let it). Refused hits are not logged: a client over its limit gets
 * exactly `limit` per window. Memory: one number per hit let through in the last window.
 */
import type { Limiter, RateDecision } from './types.js'

/** Hits let through, oldest first, from `head` on (the front is dropped lazily). */
interface Log {
  times: number[]
  head: number
}

export interface MemoryLimiterOptions {
  now?: () => number
  /** Most keys kept; the oldest are dropped beyond it (an address spray cannot exhaust memory). */
  maxKeys?: number
}

/** Drops the hits of `log` at or before `since`; compacts once the dropped part dominates. */
function prune(log: Log, since: number): void {
  const { times } = log
  let head = log.head
  while (head < times.length && times[head]! <= since) head++
  if (head > 32 && head * 2 > times.length) {
    log.times = times.slice(head)
    log.head = 0
  } else log.head = head
}

/**
 * The decision for a hit at `t` on a log already pruned to the window: passes when fewer than
 * `limit` hits are logged. `resetMs` is when the hit that frees a place leaves the window.
 */
export function decide(log: Log, limit: number, windowMs: number, t: number): RateDecision {
  const count = log.times.length - log.head
  const allowed = count < limit
  if (allowed) log.times.push(t)
  const used = count + (allowed ? 1 : 0)
  // Passing: the oldest leaving frees a place; refused: enough must leave to go below the limit.
  const freeing = log.times[log.head + Math.max(0, used - limit)] ?? t
  return { allowed, limit, remaining: Math.max(0, limit - used), resetMs: Math.max(1, freeing + windowMs - t) }
}

export function createMemoryLimiter(options: MemoryLimiterOptions = {}): Limiter {
  const now = options.now ?? Date.now
  const maxKeys = options.maxKeys ?? 100_000
  const logs = new Map<string, Log & { windowMs: number }>()
  let lastSweep = 0

  function sweep(t: number): void {
    if (t - lastSweep < 1000 && logs.size < maxKeys) return
    lastSweep = t
    for (const [key, log] of logs) if ((log.times[log.times.length - 1] ?? -Infinity) <= t - log.windowMs) logs.delete(key)
    // Still too many live keys: drop the oldest inserted.
    for (const key of logs.keys()) {
      if (logs.size < maxKeys) break
      logs.delete(key)
    }
  }

  return {
    consume(key, limit, windowSeconds, at): RateDecision {
      const t = at ?? now()
      sweep(t)
      const windowMs = windowSeconds * 1000
      const id = `${windowSeconds}|${key}`
      let log = logs.get(id)
      if (log === undefined) logs.set(id, (log = { times: [], head: 0, windowMs }))
      else prune(log, t - windowMs)
      return decide(log, limit, windowMs, t)
    },
    async close() {
      logs.clear()
    },
  }
}
