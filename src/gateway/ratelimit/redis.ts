/**
 * Redis sliding-log limiter: ONE atomic Lua script per key and turn of the event loop. A key is a
 * list of the times of the hits let through in the last window, newest first; the script drops
 * the ones that left the window, lets through as many of the turn's hits as places remain, pushes
 * their time and returns the count before them, how many passed and the time whose departure
 * frees the next place. Hits on one key that arrive in the same turn share one call, and hit i of
 * the batch is decided as if it had been the i-th of k consecutive hits (the same decisions, one
 * command instead of k). The calls of one turn leave together after the turn's I/O callbacks: in
 * one pipeline (one write, one round trip) on a standalone Redis, one call per key on a Cluster
 * (keys of different clients live in different slots). One such round trip is out at a time:
 * hits that arrive while it is gather, and leave together when its answer is in (under load, one
 * round trip decides the hits of many turns: a command, a write and a reply less per turn; when
 * nothing is out, a hit leaves at the end of its turn as before). A round trip that Redis does not
 * answer within `timeoutMs()` fails its hits with RedisLimiterTimeout (one timer per round trip,
 * none per request); hits that waited for the one before it wait at most as long again.
 *
 * Leases: for a limit of LEASE_FROM hits per window or more, a round trip also asks for up to a
 * thousandth of the limit (at most MAX_LEASE) places beyond the hits it carries; the script logs
 * them with the hits, and this replica lets that many further hits on the key through at once,
 * without asking Redis, while their places are in the window (the leased places' time is the
 * round trip's). So a client with a high limit costs a round trip per lease instead of per turn.
 * The limit stays a limit across replicas within a bound: a leased place is logged before its hit
 * comes, so it may leave the window up to that much earlier than the hit; the places a replica
 * holds unused at any moment are at most one lease, so any one-second span passes at most the
 * limit plus one lease per replica (0.1% of the limit each), and a lease that goes unused keeps
 * at most as many places from the others until it leaves the window. Below LEASE_FROM every hit is
 * decided by Redis as before.
 *
 * The key carries a hash tag so a Cluster routes it to one slot; times come from the replicas'
 * clocks (the memory limiter decides the same way: see memory.ts for why a sliding log).
 */
import { Cluster } from 'ioredis'
import type { RedisClient } from '../redis.js'
import type { Limiter, RateDecision } from './types.js'
import { tracing, type Tracing } from '../../shared/tracing/index.js'

const SCRIPT = `
local now = tonumber(ARGV[1])
local windowMs = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local hits = tonumber(ARGV[4])
local ttlMs = tonumber(ARGV[5])
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
if passed > 0 then redis.call('PEXPIRE', key, ttlMs) end
local used = n + passed
-- Newest first: when the entry at place min(used, limit) leaves, a place is free again.
local freeing = redis.call('LINDEX', key, math.min(used, limit) - 1)
return {n, passed, tonumber(freeing or now)}
`

type RateHits = (key: string, now: number, windowMs: number, limit: number, hits: number, ttlMs: number) => Promise<unknown>

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

/** Limits from which a round trip asks for a lease (see above), its share of the limit and its largest size. */
export const LEASE_FROM = 1000
const LEASE_SHARE = 1000
export const MAX_LEASE = 100

/** The places of a lease a limit gets (0: none, every hit goes to Redis). */
export function leaseSize(limit: number): number {
  return limit < LEASE_FROM ? 0 : Math.min(MAX_LEASE, Math.floor(limit / LEASE_SHARE))
}

/** Places Redis logged for this replica ahead of its hits on one key and limit. */
class Lease {
  constructor(
    /** The batch id (`<limit>|<redis key>`). */
    readonly id: string,
    /** Places left to hand out. */
    public left: number,
    /** Hits logged in the window once the lease is used up (for `remaining`). */
    readonly usedAtEnd: number,
    /** The time whose departure frees the next place (as the round trip answered it). */
    readonly freeing: number,
    /** The leased places leave the window then: the lease ends. */
    readonly until: number,
  ) {}
}

/** The hits on one Redis key gathered for the next round trip, and their one answer. */
class Batch {
  hits = 0
  /** Places asked for beyond the hits (a lease), set when the batch is sent. */
  lease = 0
  /** Handed to Redis: later hits start a new batch. */
  sent = false
  settled = false
  readonly outcome: Promise<Outcome>
  resolve!: (o: Outcome) => void
  reject!: (err: unknown) => void

  constructor(
    readonly id: string,
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
    const r = reply as unknown[]
    this.resolve({ before: Number(r[0]), passed: Number(r[1]), freeing: Number(r[2]) })
  }
}

/**
 * With tracing on, a hit's wait for Redis as a client span under the active one (the request's
 * rate-limit stage): the script's call it joined, how many hits of the turn that call carried.
 */
function tracedDecision(t: Tracing, batch: Batch, decision: Promise<RateDecision>): Promise<RateDecision> {
  const span = t.child('redis EVALSHA', 'client')
  span.setAttribute('db.system.name', 'redis')
  span.setAttribute('db.operation.name', 'EVALSHA')
  return decision.then(
    (d) => {
      span.setAttribute('netinv.ratelimit.batch_hits', batch.hits)
      span.setAttribute('netinv.ratelimit.allowed', d.allowed)
      span.end()
      return d
    },
    (err: unknown) => {
      span.setStatus({ code: 2, message: err instanceof Error ? err.message : String(err) })
      span.end()
      throw err
    },
  )
}

export interface RedisLimiterOptions {
  client: RedisClient
  /** Key prefix (tests use a random one). */
  prefix?: string
  now?: () => number
  /** How long a turn's calls may wait for Redis (default 1000 ms). */
  timeoutMs?: () => number
  /**
   * How long Redis keeps a client's log after the last request it let through, by Redis's own
   * clock (default: the window, when every entry has left it). Tests whose `now` stands still
   * while Redis's clock runs keep logs longer, or a slow run would see a log vanish mid-second.
   */
  keyTtlMs?: number
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
  const ttl = (windowMs: number) => options.keyTtlMs ?? windowMs
  if (!('netinvRateHits' in client)) client.defineCommand('netinvRateHits', { numberOfKeys: 1, lua: SCRIPT })
  const scripted = client as unknown as WithRateScript
  const pipelined = !(client instanceof Cluster)
  /** The batches of the next round trip by limit and Redis key; sent by flush(). */
  let open = new Map<string, Batch>()
  /** Leases by batch id (limit and Redis key): at most one per key and limit. */
  const leases = new Map<string, Lease>()
  /** When the leases of clients that did not come back are next looked for (and dropped once past). */
  let sweepAt = 0
  /** A round trip is out: the open batches wait for its answer (or its timeout). */
  let inFlight = false

  /** The round trip is over: what gathered meanwhile leaves after this turn's I/O callbacks. */
  function landed(): void {
    inFlight = false
    if (open.size > 0) setImmediate(flush)
  }

  function flush(): void {
    if (inFlight || open.size === 0) return
    inFlight = true
    const batches = [...open.values()]
    open = new Map()
    const t = now()
    if (leases.size > 0 && t >= sweepAt) {
      for (const [id, lease] of leases) if (t >= lease.until) leases.delete(id)
      sweepAt = t + 1000
    }
    for (const b of batches) {
      b.sent = true
      // A lease while the key holds none with places left (one per key: the bound above).
      const held = leases.get(b.id)
      b.lease = held !== undefined && held.left > 0 && t < held.until ? 0 : leaseSize(b.limit)
    }
    const ms = timeoutMs()
    let pending = batches.length
    const timer = setTimeout(() => {
      const err = new RedisLimiterTimeout(ms)
      for (const b of batches) b.settle(err, undefined)
      if (pending > 0) {
        pending = 0
        landed()
      }
    }, ms)
    const done = (b: Batch, err: unknown, n: unknown) => {
      b.settle(err, n)
      if (!err && b.lease > 0) leased(b, n, t)
      if (pending > 0 && --pending === 0) {
        clearTimeout(timer)
        landed()
      }
    }
    if (pipelined && batches.length > 1) {
      const pipeline = client.pipeline() as unknown as WithRateScript & { exec(): Promise<Array<[Error | null, unknown]> | null> }
      for (const b of batches) void pipeline.netinvRateHits(b.key, t, b.windowMs, b.limit, b.hits + b.lease, ttl(b.windowMs))
      pipeline.exec().then(
        (results) => batches.forEach((b, i) => done(b, results?.[i]?.[0] ?? (results ? null : new Error('pipeline discarded')), results?.[i]?.[1])),
        (err: unknown) => batches.forEach((b) => done(b, err, undefined)),
      )
      return
    }
    for (const b of batches) {
      scripted.netinvRateHits(b.key, t, b.windowMs, b.limit, b.hits + b.lease, ttl(b.windowMs)).then(
        (n) => done(b, null, n),
        (err: unknown) => done(b, err, undefined),
      )
    }
  }

  /** What a round trip's places beyond its hits became: the key's lease (replacing any it had). */
  function leased(b: Batch, reply: unknown, t: number): void {
    const r = reply as unknown[]
    const before = Number(r[0])
    const passed = Number(r[1])
    const places = passed - b.hits
    if (places <= 0) return
    const lease = new Lease(b.id, places, before + passed, Number(r[2]), t + b.windowMs)
    leases.set(b.id, lease)
    if (lastLease?.id === b.id) lastLease = lease
  }

  /** The lease the last hit was let through on (hits in a row from one client skip the lookup). */
  let lastLease: Lease | undefined
  /** The batch the last hit joined, and its key: hits in a row from one client skip building the Redis key and looking it up. */
  let last: { key: string; windowSeconds: number; limit: number; id: string; batch: Batch } | undefined

  return {
    consume(key, limit, windowSeconds, at): RateDecision | Promise<RateDecision> {
      const t = at ?? now()
      let id: string
      if (last !== undefined && last.windowSeconds === windowSeconds && last.limit === limit && last.key === key) id = last.id
      else id = `${limit}|${redisKey(prefix, key, windowSeconds)}`
      if (limit >= LEASE_FROM) {
        // A place of the key's lease: decided here, at once.
        const lease = lastLease?.id === id ? lastLease : leases.get(id)
        if (lease !== undefined) {
          if (lease.left > 0 && t < lease.until) {
            lastLease = lease
            const used = lease.usedAtEnd - --lease.left
            return { allowed: true, limit, remaining: Math.max(0, limit - used), resetMs: Math.max(1, lease.freeing + windowSeconds * 1000 - t) }
          }
          leases.delete(id)
          if (lastLease === lease) lastLease = undefined
        }
      }
      let batch: Batch | undefined
      if (last !== undefined && last.id === id && !last.batch.sent) batch = last.batch
      else {
        // A batch per key and limit (a config reload may change the limit within a turn).
        batch = open.get(id)
        if (!batch) {
          // setImmediate: after this turn's I/O callbacks, so that their hits join the batch;
          // while a round trip is out, its answer sends the batches (landed).
          if (open.size === 0 && !inFlight) setImmediate(flush)
          batch = new Batch(id, redisKey(prefix, key, windowSeconds), windowSeconds * 1000, limit)
          open.set(id, batch)
        }
        last = { key, windowSeconds, limit, id, batch }
      }
      const nth = ++batch.hits
      const { windowMs } = batch
      const decision = batch.outcome.then(({ before, passed, freeing }) => {
        // This hit's place among the batch's consecutive hits (the lease's places come after them).
        const allowed = nth <= passed
        const used = before + Math.min(nth, passed)
        return { allowed, limit, remaining: Math.max(0, limit - used), resetMs: Math.max(1, freeing + windowMs - t) }
      })
      const traces = tracing()
      return traces === undefined || !traces.inSpan() ? decision : tracedDecision(traces, batch, decision)
    },
    async close() {},
  }
}
