/**
 * BASELINE for bench/limiter.ts: the fixed-window limiter netinv used before the sliding log, kept
 * as it was so that the bench compares both in one run. Not used by the product.
 *
 * Redis fixed-window limiter: ONE atomic Lua script per key and turn of the event loop (INCRBY,
 * and PEXPIRE when the window's key was created by it). Hits on one key that arrive in the same
 * turn share one call: INCRBY k answers for k hits, and hit i of the batch is counted as if it
 * had been the i-th of k consecutive INCRs (the same decisions, one command instead of k). The
 * calls of one turn leave together after the turn's I/O callbacks: in one pipeline (one write,
 * one round trip) on a standalone Redis, one call per key on a Cluster (keys of different
 * clients live in different slots). A turn's calls that Redis does not answer within
 * `timeoutMs()` fail with RedisLimiterTimeout (one timer per turn, none per request).
 *
 * The key carries a hash tag so a Cluster routes it to one slot, and the window index so every
 * replica counts in the same window; windows are aligned to the clock exactly like the memory
 * limiter's.
 */
import { Cluster } from 'ioredis'
import type { RedisClient } from '../../src/gateway/redis.js'
import { windowOf } from './fixed-window-memory.js'
import type { Limiter, RateDecision } from '../../src/gateway/ratelimit/types.js'

const SCRIPT = `
local hits = tonumber(ARGV[2])
local n = redis.call('INCRBY', KEYS[1], hits)
if n == hits then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
`

type RateHits = (key: string, ttlMs: number, hits: number) => Promise<unknown>

interface WithRateScript {
  netinvFixedWindowHits: RateHits
}

export class RedisLimiterTimeout extends Error {
  constructor(ms: number) {
    super(`Redis did not answer within ${ms} ms`)
  }
}

/** The hits on one Redis key gathered in this turn of the event loop, and their one answer. */
class Batch {
  hits = 0
  /** Handed to Redis: later hits start a new batch. */
  sent = false
  settled = false
  readonly total: Promise<number>
  resolve!: (n: number) => void
  reject!: (err: unknown) => void

  constructor(
    readonly key: string,
    readonly ttlMs: number,
  ) {
    this.total = new Promise<number>((resolve, reject) => {
      this.resolve = resolve
      this.reject = reject
    })
  }

  settle(err: unknown, n: unknown): void {
    if (this.settled) return
    this.settled = true
    if (err) this.reject(err)
    else this.resolve(Number(n))
  }
}

export interface RedisLimiterOptions {
  client: RedisClient
  /** Key prefix (tests use a random one). */
  prefix?: string
  now?: () => number
  /** How long a turn's calls may wait for Redis (default 1000 ms). */
  timeoutMs?: () => number
}

/** The Redis key of a window: `<prefix>{<key>}:<windowSeconds>:<index>`. */
export function redisKey(prefix: string, key: string, windowSeconds: number, index: number): string {
  return `${prefix}{${key}}:${windowSeconds}:${index}`
}

export function createRedisLimiter(options: RedisLimiterOptions): Limiter {
  const { client } = options
  const prefix = options.prefix ?? 'netinv:rl:'
  const now = options.now ?? Date.now
  const timeoutMs = options.timeoutMs ?? (() => 1000)
  if (!('netinvFixedWindowHits' in client)) client.defineCommand('netinvFixedWindowHits', { numberOfKeys: 1, lua: SCRIPT })
  const scripted = client as unknown as WithRateScript
  const pipelined = !(client instanceof Cluster)
  /** This turn's batches by Redis key; sent by flush() once the turn's hits have joined. */
  let open = new Map<string, Batch>()

  function flush(): void {
    const batches = [...open.values()]
    open = new Map()
    for (const b of batches) b.sent = true
    const ms = timeoutMs()
    let pending = batches.length
    const timer = setTimeout(() => {
      const err = new RedisLimiterTimeout(ms)
      for (const b of batches) b.settle(err, undefined)
    }, ms)
    const done = (b: Batch, err: unknown, n: unknown) => {
      b.settle(err, n)
      if (--pending === 0) clearTimeout(timer)
    }
    if (pipelined && batches.length > 1) {
      const pipeline = client.pipeline() as unknown as WithRateScript & { exec(): Promise<Array<[Error | null, unknown]> | null> }
      for (const b of batches) void pipeline.netinvFixedWindowHits(b.key, b.ttlMs, b.hits)
      pipeline.exec().then(
        (results) => batches.forEach((b, i) => done(b, results?.[i]?.[0] ?? (results ? null : new Error('pipeline discarded')), results?.[i]?.[1])),
        (err: unknown) => batches.forEach((b) => done(b, err, undefined)),
      )
      return
    }
    for (const b of batches) {
      scripted.netinvFixedWindowHits(b.key, b.ttlMs, b.hits).then(
        (n) => done(b, null, n),
        (err: unknown) => done(b, err, undefined),
      )
    }
  }

  /** The batch the last hit joined, and its key and window: hits in a row from one client skip building the Redis key and looking it up. */
  let last: { key: string; windowSeconds: number; index: number; batch: Batch } | undefined

  return {
    consume(key, limit, windowSeconds): Promise<RateDecision> {
      const t = now()
      const { index, end } = windowOf(t, windowSeconds)
      let batch: Batch | undefined
      if (last !== undefined && last.index === index && last.windowSeconds === windowSeconds && last.key === key && !last.batch.sent) batch = last.batch
      else {
        const rkey = redisKey(prefix, key, windowSeconds, index)
        batch = open.get(rkey)
        if (!batch) {
          // setImmediate: after this turn's I/O callbacks, so that their hits join the batch.
          if (open.size === 0) setImmediate(flush)
          // The key lives one window past its end, so late replicas still see it.
          batch = new Batch(rkey, windowSeconds * 2000)
          open.set(rkey, batch)
        }
        last = { key, windowSeconds, index, batch }
      }
      const nth = ++batch.hits
      const counted = batch
      return counted.total.then((total) => {
        // This hit's place among the batch's consecutive increments.
        const count = total - counted.hits + nth
        return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetMs: end - t }
      })
    },
    async close() {},
  }
}
