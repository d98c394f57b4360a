/**
 * Redis fixed-window limiter: ONE atomic Lua script per decision (INCR, and PEXPIRE on the
 * window's first hit). The key carries a hash tag so a Cluster routes it to one slot, and the
 * window index so every replica counts in the same window; windows are aligned to the clock
 * exactly like the memory limiter's.
 */
import type { RedisClient } from '../redis.js'
import { windowOf } from './memory.js'
import type { Limiter, RateDecision } from './types.js'

const SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
`

interface WithRateScript {
  netinvRateHit(key: string, ttlMs: number): Promise<number>
}

export interface RedisLimiterOptions {
  client: RedisClient
  /** Key prefix (tests use a random one). */
  prefix?: string
  now?: () => number
}

/** The Redis key of a window: `<prefix>{<key>}:<windowSeconds>:<index>`. */
export function redisKey(prefix: string, key: string, windowSeconds: number, index: number): string {
  return `${prefix}{${key}}:${windowSeconds}:${index}`
}

export function createRedisLimiter(options: RedisLimiterOptions): Limiter {
  const { client } = options
  const prefix = options.prefix ?? 'netinv:rl:'
  const now = options.now ?? Date.now
  if (!('netinvRateHit' in client)) client.defineCommand('netinvRateHit', { numberOfKeys: 1, lua: SCRIPT })
  const scripted = client as unknown as WithRateScript

  return {
    async consume(key, limit, windowSeconds): Promise<RateDecision> {
      const t = now()
      const { index, end } = windowOf(t, windowSeconds)
      // The key lives one window past its end, so late replicas still see it.
      const count = Number(await scripted.netinvRateHit(redisKey(prefix, key, windowSeconds, index), windowSeconds * 2000))
      return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetMs: end - t }
    },
    async close() {},
  }
}
