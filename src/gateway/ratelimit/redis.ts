/**
 * Redis fixed-window limiter: ONE atomic Lua script per round trip (INCRBY, and PEXPIRE when the
 * window's key was created by it). Hits on one key that arrive in the same turn of the event loop
 * share one call: INCRBY k answers for k hits, and hit i of the batch is counted as if it had
 * been the i-th of k consecutive INCRs (the same decisions, one command instead of k). The key carries a hash tag so a Cluster routes it to one slot, and the
 * window index so every replica counts in the same window; windows are aligned to the clock
 * exactly like the memory limiter's.
 */
import type { RedisClient } from '../redis.js'
import { windowOf } from './memory.js'
import type { Limiter, RateDecision } from './types.js'

const SCRIPT = `
local hits = tonumber(ARGV[2])
local n = redis.call('INCRBY', KEYS[1], hits)
if n == hits then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
`

interface WithRateScript {
  netinvRateHits(key: string, ttlMs: number, hits: number): Promise<number>
}

/** The hits on one Redis key gathered in this turn of the event loop. */
interface Batch {
  hits: number
  total: Promise<number> | undefined
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
  if (!('netinvRateHits' in client)) client.defineCommand('netinvRateHits', { numberOfKeys: 1, lua: SCRIPT })
  const scripted = client as unknown as WithRateScript
  const open = new Map<string, Batch>()

  /** Sends the batch once every hit of this turn has joined it (setImmediate: after I/O callbacks). */
  function send(rkey: string, batch: Batch, ttlMs: number): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      setImmediate(() => {
        open.delete(rkey)
        scripted.netinvRateHits(rkey, ttlMs, batch.hits).then((n) => resolve(Number(n)), reject)
      })
    })
  }

  return {
    async consume(key, limit, windowSeconds): Promise<RateDecision> {
      const t = now()
      const { index, end } = windowOf(t, windowSeconds)
      const rkey = redisKey(prefix, key, windowSeconds, index)
      let batch = open.get(rkey)
      if (!batch) {
        batch = { hits: 0, total: undefined }
        open.set(rkey, batch)
        // The key lives one window past its end, so late replicas still see it.
        batch.total = send(rkey, batch, windowSeconds * 2000)
      }
      const nth = ++batch.hits
      const total = await batch.total!
      // This hit's place among the batch's consecutive increments.
      const count = total - batch.hits + nth
      return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetMs: end - t }
    },
    async close() {},
  }
}
