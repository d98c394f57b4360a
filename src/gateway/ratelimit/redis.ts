/**
 * Redis sliding-log limiter: ONE atomic Lua script per key and turn of the event loop. A key is a
 * list of the times of the hits let through in the last window, newest first; the script drops
 * the ones that left the window, lets through as many of the turn's hits as places remain, pushes
 * their time and returns the count before them, how many passed and the time whose departure
 * frees the next place. Hits on one key that arrive in the same turn share one call, and hit i of
 * the batch is decided as if it had been the i-th of k consecutive hits (the same decisions, one
 * command instead of k). The calls of one turn leave together after the turn's I/O callbacks: in
 * one pipeline (one write, one round trip) on a standalone Redis, one call per key on a Cluster
 * (keys of different clients live in different slots). A turn's calls that Redis does not answer
 * within `timeoutMs()` fail with RedisLimiterTimeout (one timer per turn, none per request).
 *
 * The key carries a hash tag so a Cluster routes it to one slot; times come from the replicas'
 * clocks (the memory limiter decides the same way: see memory.ts for why a sliding log).
 */
import { Cluster } from 'ioredis'
import type { RedisClient } from '../redis.js'
import type { Limiter, RateDecision } from './types.js'

const SCRIPT = `
local now = tonumber(ARGV[1])
local windowMs = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local hits = tonumber(ARGV[4])
local key = KEYS[1]
while true do
  local oldest = redis.call('LINDEX', key, -1)
  if not oldest or tonumber(oldest) > now - windowMs then break end
  redis.call('RPOP', key)
end
local n = redis.call('LLEN', key)
local passed = math.max(0, math.min(hits, limit - n))
local left = passed
while left > 0 do
  local chunk = {}
  for i = 1, math.min(left, 1000) do chunk[i] = now end
  redis.call('LPUSH', key, unpack(chunk))
  left = left - #chunk
end
if passed > 0 then redis.call('PEXPIRE', key, windowMs) end
local used = n + passed
-- Newest first: when the entry at place min(used, limit) leaves, a place is free again.
local freeing = redis.call('LINDEX', key, math.min(used, limit) - 1)
return {n, passed, tonumber(freeing or now)}
`

type RateHits = (key: string, now: number, windowMs: number, limit: number, hits: number) => Promise<unknown>

interface WithRateScript {
  netinvRateHits: RateHits
}

export class RedisLimiterTimeout extends Error {
  constructor(ms: number) {
    super(`Redis did not answer within ${ms} ms`)
  }
}

/** The script's answer: hits logged before the batch, how many of it passed, the freeing time. */
interface Outcome {
  before: number
  passed: number
  freeing: number
}

/** The hits on one Redis key gathered in this turn of the event loop, and their one answer. */
class Batch {
  hits = 0
  /** Handed to Redis: later hits start a new batch. */
  sent = false
  settled = false
  readonly outcome: Promise<Outcome>
  resolve!: (o: Outcome) => void
  reject!: (err: unknown) => void

  constructor(
    readonly key: string,
    readonly windowMs: number,
    readonly limit: number,
  ) {
    this.outcome = new Promise<Outcome>((resolve, reject) => {
      this.resolve = resolve
      this.reject = reject
    })
  }

  settle(err: unknown, reply: unknown): void {
    if (this.settled) return
    this.settled = true
    if (err) return this.reject(err)
    const [before, passed, freeing] = (reply as unknown[]).map(Number) as [number, number, number]
    this.resolve({ before, passed, freeing })
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

/** The Redis key of a log: `<prefix>{<key>}:<windowSeconds>`. */
export function redisKey(prefix: string, key: string, windowSeconds: number): string {
  return `${prefix}{${key}}:${windowSeconds}`
}

export function createRedisLimiter(options: RedisLimiterOptions): Limiter {
  const { client } = options
  const prefix = options.prefix ?? 'netinv:rl:'
  const now = options.now ?? Date.now
  const timeoutMs = options.timeoutMs ?? (() => 1000)
  if (!('netinvRateHits' in client)) client.defineCommand('netinvRateHits', { numberOfKeys: 1, lua: SCRIPT })
  const scripted = client as unknown as WithRateScript
  const pipelined = !(client instanceof Cluster)
  /** This turn's batches by limit and Redis key; sent by flush() once the turn's hits have joined. */
  let open = new Map<string, Batch>()

  function flush(): void {
    const batches = [...open.values()]
    open = new Map()
    for (const b of batches) b.sent = true
    const t = now()
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
      for (const b of batches) void pipeline.netinvRateHits(b.key, t, b.windowMs, b.limit, b.hits)
      pipeline.exec().then(
        (results) => batches.forEach((b, i) => done(b, results?.[i]?.[0] ?? (results ? null : new Error('pipeline discarded')), results?.[i]?.[1])),
        (err: unknown) => batches.forEach((b) => done(b, err, undefined)),
      )
      return
    }
    for (const b of batches) {
      scripted.netinvRateHits(b.key, t, b.windowMs, b.limit, b.hits).then(
        (n) => done(b, null, n),
        (err: unknown) => done(b, err, undefined),
      )
    }
  }

  /** The batch the last hit joined, and its key: hits in a row from one client skip building the Redis key and looking it up. */
  let last: { key: string; windowSeconds: number; limit: number; batch: Batch } | undefined

  return {
    consume(key, limit, windowSeconds, at): Promise<RateDecision> {
      const t = at ?? now()
      let batch: Batch | undefined
      if (last !== undefined && last.windowSeconds === windowSeconds && last.limit === limit && last.key === key && !last.batch.sent) batch = last.batch
      else {
        const rkey = redisKey(prefix, key, windowSeconds)
        // A batch per key and limit (a config reload may change the limit within a turn).
        const id = `${limit}|${rkey}`
        batch = open.get(id)
        if (!batch) {
          // setImmediate: after this turn's I/O callbacks, so that their hits join the batch.
          if (open.size === 0) setImmediate(flush)
          batch = new Batch(rkey, windowSeconds * 1000, limit)
          open.set(id, batch)
        }
        last = { key, windowSeconds, limit, batch }
      }
      const nth = ++batch.hits
      const { windowMs } = batch
      return batch.outcome.then(({ before, passed, freeing }) => {
        // This hit's place among the batch's consecutive hits.
        const allowed = nth <= passed
        const used = before + Math.min(nth, passed)
        return { allowed, limit, remaining: Math.max(0, limit - used), resetMs: Math.max(1, freeing + windowMs - t) }
      })
    },
    async close() {},
  }
}
