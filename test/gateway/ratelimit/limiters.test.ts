import t from 'tap'
import type { Test } from 'tap'
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { createMemoryLimiter, createRedisLimiter, createLimiter, RedisLimiterTimeout, type Limiter, type ResilientLimiter } from '../../../src/gateway/ratelimit/index.js'
import { LEASE_FROM, MAX_LEASE, leaseSize } from '../../../src/gateway/ratelimit/redis.js'
import { connectRedis, whenReady, type RedisClient } from '../../../src/gateway/redis.js'
import { createMetrics } from '../../../src/gateway/metrics.js'
import { compileConfig } from '../../../src/shared/config/index.js'
import { silentLogger } from '../../../src/shared/log.js'
import { REDIS_URL } from '../../helpers/db.js'
import { testNeeding } from '../../helpers/requirements.js'
import { HAS_REDIS_CLI, HAS_REDIS_SERVER, startRedisCluster, startRedisServer } from '../redis-server.js'
import type { Teardown } from '../helpers.js'

const prefix = () => `netinv:test:${randomBytes(6).toString('hex')}:`
/** A clock standing 100 ms into a one-second window. */
const fixedClock = (ms = 1_700_000_000_100) => {
  let now = ms
  return { now: () => now, set: (v: number) => (now = v) }
}

async function exactlyN(t: Test, limiter: Limiter, clock: ReturnType<typeof fixedClock>, n: number): Promise<void> {
  for (let i = 1; i <= n; i++) {
    const d = await limiter.consume('1.2.3.4', n, 1)
    t.equal(d.allowed, true, `request ${i} of ${n} passes`)
    t.equal(d.remaining, n - i)
  }
  const over = await limiter.consume('1.2.3.4', n, 1)
  t.equal(over.allowed, false, `request ${n + 1} is refused`)
  t.equal(over.resetMs, 1000, 'a place frees when the first hit is a second old')
  t.equal((await limiter.consume('5.6.7.8', n, 1)).allowed, true, 'another client has its own count')
  clock.set(clock.now() + 900)
  t.equal((await limiter.consume('1.2.3.4', n, 1)).allowed, false, 'past the clock second, but within a second of the hits: still refused')
  clock.set(clock.now() + 100)
  t.equal((await limiter.consume('1.2.3.4', n, 1)).allowed, true, 'a second after them')
}

/**
 * A burst straddling a second boundary: `limit` hits just before it, `limit` just after. A window
 * aligned to the clock let all 2 × limit through; no span of one second may hold more than limit.
 */
async function straddle(t: Test, limiter: Limiter, clock: ReturnType<typeof fixedClock>, limit: number): Promise<void> {
  clock.set(1_700_000_000_930)
  let passed = 0
  for (let i = 0; i < 2 * limit; i++) {
    if (i === limit) clock.set(1_700_000_001_070) // 140 ms later, across the boundary
    if ((await limiter.consume('9.8.7.6', limit, 1)).allowed) passed++
  }
  t.equal(passed, limit, `${limit} of ${2 * limit} pass across the boundary`)
}

async function redisClient(t: Teardown, url = REDIS_URL) {
  const c = connectRedis(url, { commandTimeoutMs: 1000 })
  t.teardown(() => c.disconnect())
  if (!(await whenReady(c, 5000))) throw new Error(`Redis at ${url} is not ready`)
  return c
}

t.test('memory: exactly N per window, then refused', async (t) => {
  const clock = fixedClock()
  await exactlyN(t, createMemoryLimiter({ now: clock.now }), clock, 7)
})

t.test('memory: a burst straddling a second boundary cannot pass twice the limit', async (t) => {
  const clock = fixedClock()
  await straddle(t, createMemoryLimiter({ now: clock.now }), clock, 100)
})

t.test('redis: a burst straddling a second boundary cannot pass twice the limit', async (t) => {
  const clock = fixedClock()
  await straddle(t, createRedisLimiter({ client: await redisClient(t), prefix: prefix(), now: clock.now }), clock, 100)
})

t.test('redis: exactly N per window, then refused', async (t) => {
  const clock = fixedClock()
  const client = await redisClient(t)
  await exactlyN(t, createRedisLimiter({ client, prefix: prefix(), now: clock.now }), clock, 7)
})

t.test('redis: two replicas share one limit', async (t) => {
  const clock = fixedClock()
  const p = prefix()
  const a = createRedisLimiter({ client: await redisClient(t), prefix: p, now: clock.now })
  const b = createRedisLimiter({ client: await redisClient(t), prefix: p, now: clock.now })
  let allowed = 0
  for (let i = 0; i < 20; i++) if ((await (i % 2 ? a : b).consume('9.9.9.9', 10, 1)).allowed) allowed++
  t.equal(allowed, 10)
})

t.test('redis: hits on one key in the same turn share one call and count as consecutive hits', async (t) => {
  const clock = fixedClock()
  const p = prefix()
  const real = await redisClient(t)
  // The real client, recording each call's hit count.
  const sent: number[] = []
  const client = new Proxy(real, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown
      if (name !== 'netinvRateHits' || typeof value !== 'function') return value
      return (...args: unknown[]) => {
        sent.push(args[4] as number)
        return (value as (...a: unknown[]) => unknown).apply(target, args)
      }
    },
  }) as RedisClient
  createRedisLimiter({ client: real, prefix: p, now: clock.now }) // defines the script on the real client
  const limiter = createRedisLimiter({ client, prefix: p, now: clock.now })
  const decisions = await Promise.all(Array.from({ length: 10 }, () => limiter.consume('ip:1.2.3.4', 7, 1)))
  t.same(
    decisions.map((d) => d.allowed),
    [true, true, true, true, true, true, true, false, false, false],
    'the first 7 pass, in order',
  )
  t.same(
    decisions.map((d) => d.remaining),
    [6, 5, 4, 3, 2, 1, 0, 0, 0, 0],
  )
  const next = await limiter.consume('ip:1.2.3.4', 7, 1)
  t.equal(next.allowed, false, 'the count carries on after the batch')
  t.same(sent, [10, 1], 'one call for the batch of 10, one for the next hit')
})

/** The real client, counting the script's calls and the hits (with leased places) each asked for. */
function countingClient(real: RedisClient, sent: number[]): RedisClient {
  return new Proxy(real, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown
      if (name !== 'netinvRateHits' || typeof value !== 'function') return value
      return (...args: unknown[]) => {
        sent.push(args[4] as number)
        return (value as (...a: unknown[]) => unknown).apply(target, args)
      }
    },
  }) as RedisClient
}

t.test('redis leases: below the lease limit every hit asks Redis; from it, a round trip per lease', async (t) => {
  t.equal(leaseSize(LEASE_FROM - 1), 0, 'no lease below LEASE_FROM')
  t.equal(leaseSize(LEASE_FROM), 1, 'a thousandth of the limit')
  t.equal(leaseSize(10_000_000), MAX_LEASE, 'at most MAX_LEASE')
  const clock = fixedClock()
  const p = prefix()
  const real = await redisClient(t)
  createRedisLimiter({ client: real, prefix: p, now: clock.now }) // defines the script on the real client
  const sent: number[] = []
  const limiter = createRedisLimiter({ client: countingClient(real, sent), prefix: p, now: clock.now })
  const limit = 10_000 // a lease of 10
  const remaining: number[] = []
  let atOnce = 0
  let allowed = 0
  for (let i = 0; i < 55; i++) {
    const d = limiter.consume('ip:7.7.7.7', limit, 1)
    if (!(d instanceof Promise)) atOnce++
    const decided = await d
    if (decided.allowed) allowed++
    remaining.push(decided.remaining)
  }
  t.equal(allowed, 55, 'all 55 pass')
  t.same(remaining, Array.from({ length: 55 }, (_, i) => limit - 1 - i), 'each hit counts as the next one, leased or not')
  t.same(sent, [11, 11, 11, 11, 11], 'one round trip per hit and lease of 10: 5 for 55 hits')
  t.equal(atOnce, 50, 'the leased hits are decided at once, without a promise')
  // The leased places leave the window with the round trip's hits: the lease ends with them.
  clock.set(clock.now() + 1000)
  await limiter.consume('ip:7.7.7.7', limit, 1)
  t.same(sent.slice(5), [11], 'a lease past its window is not used: the next hit asks Redis')
  const small = createRedisLimiter({ client: countingClient(real, sent), prefix: p, now: clock.now })
  for (let i = 0; i < 5; i++) await small.consume('ip:8.8.8.8', LEASE_FROM - 1, 1)
  t.same(sent.slice(6), [1, 1, 1, 1, 1], 'below the lease limit, every hit is a round trip of its own')
})

t.test('redis leases: three replicas sharing a limit pass at most the limit and a lease each in any one-second span', async (t) => {
  const clock = fixedClock(1_700_000_000_000)
  const p = prefix()
  const limit = 2_000 // a lease of 2
  const lease = leaseSize(limit)
  // the clock moves a millisecond per turn while Redis's runs: logs kept a minute by Redis's clock,
  // or a slow run would see the log vanish in the seconds' gaps (seen: 2,129 let through in a span)
  const replicas = [
    createRedisLimiter({ client: await redisClient(t), prefix: p, now: clock.now, keyTtlMs: 60_000 }),
    createRedisLimiter({ client: await redisClient(t), prefix: p, now: clock.now, keyTtlMs: 60_000 }),
    createRedisLimiter({ client: await redisClient(t), prefix: p, now: clock.now, keyTtlMs: 60_000 }),
  ]
  // 3 s of one client asking each replica once a millisecond: 3,000 hits a second against 2,000.
  const passedAt: number[] = []
  const start = clock.now()
  for (let ms = 0; ms < 3000; ms++) {
    clock.set(start + ms)
    for (const r of replicas) if ((await r.consume('ip:6.6.6.6', limit, 1)).allowed) passedAt.push(ms)
  }
  let most = 0
  let fewest = Infinity
  for (let from = 0, i = 0, j = 0; from <= 2000; from++) {
    while (i < passedAt.length && passedAt[i]! < from) i++
    while (j < passedAt.length && passedAt[j]! < from + 1000) j++
    most = Math.max(most, j - i)
    if (from >= 1000) fewest = Math.min(fewest, j - i)
  }
  t.comment(`most passed in a one-second span: ${most}; fewest once the window is full: ${fewest}`)
  t.ok(most <= limit + replicas.length * lease, `at most the limit and a lease per replica (${limit} + ${replicas.length} × ${lease}): ${most}`)
  t.ok(fewest >= limit - replicas.length * lease, `at least the limit less a lease per replica: ${fewest}`)
})

t.test('redis: the keys of one turn leave together in one pipeline, each with its own count', async (t) => {
  const clock = fixedClock()
  const p = prefix()
  const real = await redisClient(t)
  let pipelines = 0
  const client = new Proxy(real, {
    get(target, name, receiver) {
      if (name === 'pipeline') {
        return () => {
          pipelines++
          return target.pipeline()
        }
      }
      return Reflect.get(target, name, receiver) as unknown
    },
  }) as RedisClient
  const limiter = createRedisLimiter({ client, prefix: p, now: clock.now })
  const keys = ['ip:10.0.0.1', 'ip:10.0.0.2', 'ip:10.0.0.3', 'ip:10.0.0.1', 'ip:10.0.0.1']
  const decisions = await Promise.all(keys.map((k) => limiter.consume(k, 2, 1)))
  t.same(
    decisions.map((d) => d.allowed),
    [true, true, true, true, false],
    'the third hit of 10.0.0.1 is refused, the other clients pass',
  )
  t.same(
    decisions.map((d) => d.remaining),
    [1, 1, 1, 0, 0],
  )
  t.equal(pipelines, 1, 'three keys, one pipeline')
  t.equal((await limiter.consume('ip:10.0.0.2', 2, 1)).remaining, 0, 'the counts are kept in Redis')
})

t.test('redis: a turn Redis does not answer in time fails with a timeout, not a hang', async (t) => {
  const clock = fixedClock()
  const client = {
    defineCommand() {},
    netinvRateHits: () => new Promise(() => {}),
  } as unknown as RedisClient
  const limiter = createRedisLimiter({ client, prefix: prefix(), now: clock.now, timeoutMs: () => 50 })
  const started = Date.now()
  const outcomes = await Promise.allSettled([limiter.consume('ip:1.1.1.1', 5, 1), limiter.consume('ip:1.1.1.1', 5, 1)])
  t.same(
    outcomes.map((o) => o.status),
    ['rejected', 'rejected'],
  )
  t.ok(outcomes.every((o) => o.status === 'rejected' && o.reason instanceof RedisLimiterTimeout), 'both hits get the timeout')
  t.ok(Date.now() - started >= 45, 'after the configured time')
})

t.test('redis: one key per client, hash-tagged, expiring', async (t) => {
  const clock = fixedClock()
  const p = prefix()
  const client = await redisClient(t)
  await createRedisLimiter({ client, prefix: p, now: clock.now }).consume('ip:1.2.3.4', 5, 1)
  const raw = new Redis(REDIS_URL)
  t.teardown(() => raw.disconnect())
  const keys = await raw.keys(`${p}*`)
  t.same(keys, [`${p}{ip:1.2.3.4}:1`])
  const ttl = await raw.pttl(keys[0]!)
  t.ok(ttl > 0 && ttl <= 1000, `ttl ${ttl}`)
})

testNeeding(t, 'Redis stopped mid-run: per-replica fallback, counted; shared limits again once it is back', HAS_REDIS_SERVER ? undefined : 'redis-server', async (t) => {
  const server = await startRedisServer(t)
  const clock = fixedClock()
  const metrics = createMetrics()
  const config = compileConfig({ rateLimit: { redisTimeoutMs: 100 } })
  const setup = createLimiter({ redisUrl: server.url, config: () => config, log: silentLogger(), metrics, now: clock.now, prefix: prefix() })
  t.teardown(() => setup.close())
  const limiter = setup.limiter as ResilientLimiter
  for (let i = 0; i < 50 && !(await setup.redisReady!()); i++) await new Promise((r) => setTimeout(r, 20))
  let passed = 0
  for (let i = 0; i < 60; i++) if ((await limiter.consume('a', 100, 1)).allowed) passed++
  t.equal(passed, 60)
  t.equal(limiter.mode(), 'primary')

  await server.stop()
  // Each decision resolves (a hang would time the test out) and comes from this replica, whose
  // log already holds the 60 hits Redis let through: the window carries over.
  passed = 0
  for (let i = 0; i < 100; i++) if ((await limiter.consume('a', 100, 1)).allowed) passed++
  t.equal(limiter.mode(), 'fallback')
  t.equal(passed, 40, '60 through Redis + 40 in process = the limit of 100 in that second, not 160')
  t.match(metrics.render(), /netinv_gateway_ratelimit_redis_fallbacks_total 100\n/)

  // Redis comes back empty (a restart): the hits passed in process in the window still count.
  await server.start()
  for (let i = 0; i < 200 && limiter.mode() !== 'primary'; i++) {
    await limiter.consume('probe', 1000, 1)
    if (limiter.mode() !== 'primary') await new Promise((r) => setTimeout(r, 25))
  }
  t.equal(limiter.mode(), 'primary', 'Redis is back (the clock has not moved)')
  t.equal((await limiter.consume('a', 100, 1)).allowed, false, 'the client still has no place in this second')
  clock.set(clock.now() + 1000)
  t.equal((await limiter.consume('a', 100, 1)).allowed, true, 'a second later')
})

testNeeding(t, 'Redis Cluster: one atomic script per decision across three masters', HAS_REDIS_SERVER && HAS_REDIS_CLI ? undefined : 'redis-server and redis-cli', async (t) => {
  const cluster = await startRedisCluster(t)
  const clock = fixedClock()
  const a = await redisClient(t, cluster.url)
  const b = await redisClient(t, cluster.url)
  const p = prefix()
  const la = createRedisLimiter({ client: a, prefix: p, now: clock.now })
  const lb = createRedisLimiter({ client: b, prefix: p, now: clock.now })
  // Many client keys land on different slots (and masters); each still gets exactly its limit.
  for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3', '2001:db8::/64', 'key:k1']) {
    let allowed = 0
    for (let i = 0; i < 8; i++) if ((await (i % 2 ? la : lb).consume(ip, 5, 1)).allowed) allowed++
    t.equal(allowed, 5, ip)
  }
})
