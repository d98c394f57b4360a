/**
 * BASELINE for bench/limiter.ts: the fixed-window limiter netinv used before the sliding log, kept
 * as it was so that the bench compares both in one run. Not used by the product.
 *
 * In-process fixed-window limiter: the limiter when no REDIS_URL is set, and the per-replica
 * fallback when Redis fails. Windows are aligned to the clock (window n covers
 * [n·w, (n+1)·w)), the same rule the Redis limiter uses, so both agree on when a window resets.
 */
import type { Limiter, RateDecision } from '../../src/gateway/ratelimit/types.js'

interface Slot {
  windowEnd: number
  count: number
}

export interface MemoryLimiterOptions {
  now?: () => number
  /** Most keys kept; the oldest are dropped beyond it (an address spray cannot exhaust memory). */
  maxKeys?: number
}

export function windowOf(now: number, windowSeconds: number): { index: number; end: number } {
  const ms = windowSeconds * 1000
  const index = Math.floor(now / ms)
  return { index, end: (index + 1) * ms }
}

export function createMemoryLimiter(options: MemoryLimiterOptions = {}): Limiter {
  const now = options.now ?? Date.now
  const maxKeys = options.maxKeys ?? 100_000
  const slots = new Map<string, Slot>()
  let lastSweep = 0

  function sweep(t: number): void {
    if (t - lastSweep < 1000 && slots.size < maxKeys) return
    lastSweep = t
    for (const [key, slot] of slots) if (slot.windowEnd <= t) slots.delete(key)
    // Still too many live keys: drop the oldest inserted.
    for (const key of slots.keys()) {
      if (slots.size < maxKeys) break
      slots.delete(key)
    }
  }

  return {
    consume(key, limit, windowSeconds): RateDecision {
      const t = now()
      sweep(t)
      const { end } = windowOf(t, windowSeconds)
      const id = `${windowSeconds}|${key}`
      let slot = slots.get(id)
      if (!slot || slot.windowEnd !== end) {
        slot = { windowEnd: end, count: 0 }
        slots.delete(id)
        slots.set(id, slot)
      }
      slot.count++
      return { allowed: slot.count <= limit, limit, remaining: Math.max(0, limit - slot.count), resetMs: end - t }
    },
    async close() {
      slots.clear()
    },
  }
}
