/** A fixed-window in-memory limiter for tests of the authentication service alone. */
import type { Limiter } from '../../../src/gateway/ratelimit/types.js'

export function memoryLimiter(clock: () => number = Date.now): Limiter {
  const windows = new Map<string, { start: number; count: number }>()
  return {
    async consume(key, limit, windowSeconds) {
      const now = clock()
      const ms = windowSeconds * 1000
      let w = windows.get(key)
      if (!w || now - w.start >= ms) windows.set(key, (w = { start: now, count: 0 }))
      w.count++
      return { allowed: w.count <= limit, limit, remaining: Math.max(0, limit - w.count), resetMs: w.start + ms - now }
    },
    async close() {},
  }
}
