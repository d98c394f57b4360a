import t from 'tap'
import { randomBytes } from 'node:crypto'
import { createLimiter } from '../../src/gateway/ratelimit/index.js'
import { whenReady } from '../../src/gateway/redis.js'
import { createMetrics } from '../../src/gateway/metrics.js'
import { compileConfig } from '../../src/shared/config/index.js'
import { silentLogger } from '../../src/shared/log.js'
import { REDIS_URL } from '../helpers/db.js'
import { testNeeding } from '../helpers/requirements.js'
import { memoryLog, send, startTestGateway, startUpstream, type Teardown } from './helpers.js'
import { HAS_REDIS_SERVER, startRedisServer } from './redis-server.js'

const auth = { 'x-api-token': 'reader-key' }
/** 100 ms into a one-second window, so N requests certainly fall in one window. */
const clock = () => {
  let now = 1_800_000_000_100
  return { now: () => now, advance: (ms: number) => (now += ms) }
}

/**
 * A limiter on the test's Redis. Its round trips may take up to 5 s before the in-process
 * fallback answers (default 50 ms): these tests count what Redis decides, and a loaded machine
 * can hold one round trip past 50 ms, which would answer from the fallback's own count.
 */
async function redisLimiter(t: Teardown, prefix: string, now: () => number) {
  const config = compileConfig({ rateLimit: { redisTimeoutMs: 5000 } })
  // the tests' clock stands still while Redis's runs: a log kept by Redis's clock for a window only
  // would vanish mid-second on a loaded machine (seen: 1,020 of 1,200 let through, RateLimit at 999 again)
  const setup = createLimiter({ redisUrl: REDIS_URL, config: () => config, log: silentLogger(), metrics: createMetrics(), now, prefix, keyTtlMs: 60_000 })
  t.teardown(() => setup.close())
  if (!(await whenReady(setup.redis!, 5000))) throw new Error('Redis not ready')
  return setup.limiter
}

t.test('exactly N requests in one second pass; the next gets 429 with Retry-After and RateLimit headers', async (t) => {
  const c = clock()
  const limiter = await redisLimiter(t, `netinv:t:${randomBytes(6).toString('hex')}:`, c.now)
  const gw = await startTestGateway(t, { config: { rateLimit: { perSecond: 5 } }, limiter, now: c.now })
  for (let i = 1; i <= 5; i++) {
    const r = await send(gw.url, '/api/snapshots', { headers: auth })
    t.equal(r.status, 200, `request ${i}`)
    t.equal(r.headers['ratelimit-policy'], '"ip";q=5;w=1')
    t.equal(r.headers.ratelimit, `"ip";r=${5 - i};t=1`)
  }
  const over = await send(gw.url, '/api/snapshots', { headers: auth })
  t.equal(over.status, 429)
  t.same(over.json(), { code: 'API_TOO_MANY_REQUESTS', message: 'Too many requests: at most 5 per second' })
  t.equal(over.headers['retry-after'], '1')
  t.equal(over.headers.ratelimit, '"ip";r=0;t=1')
  t.equal(over.headers['x-product-version'], 'v7.6', 'version headers on errors too')
  t.equal(over.headers['x-api-version-used'], '1')
  c.advance(1000)
  t.equal((await send(gw.url, '/api/snapshots', { headers: auth })).status, 200, 'next window')
  t.match(await (await fetch(`${gw.adminUrl}/metrics`)).text(), /netinv_gateway_rate_limited_total\{endpoint="snapshots"\} 1/)
})

t.test('two gateway instances on one Redis enforce one shared limit', async (t) => {
  const c = clock()
  const prefix = `netinv:t:${randomBytes(6).toString('hex')}:`
  const up = await startUpstream(t)
  const a = await startTestGateway(t, { config: { rateLimit: { perSecond: 6 } }, limiter: await redisLimiter(t, prefix, c.now), now: c.now, upstreamUrl: up.url })
  const b = await startTestGateway(t, { config: { rateLimit: { perSecond: 6 } }, limiter: await redisLimiter(t, prefix, c.now), now: c.now, upstreamUrl: up.url })
  const statuses: number[] = []
  for (let i = 0; i < 10; i++) statuses.push((await send(i % 2 ? a.url : b.url, '/api/snapshots', { headers: auth })).status)
  t.same(statuses, [200, 200, 200, 200, 200, 200, 429, 429, 429, 429])
})

t.test('a per-endpoint limit tightens the general one for its endpoint; other endpoints keep the general one', async (t) => {
  const c = clock()
  const gw = await startTestGateway(t, { config: { rateLimit: { perSecond: 100, endpoints: { snapshots: 2 } } }, now: c.now })
  const s = [] as number[]
  for (let i = 0; i < 3; i++) s.push((await send(gw.url, '/api/snapshots', { headers: auth })).status)
  t.same(s, [200, 200, 429])
  const other = await send(gw.url, '/api/reports', { headers: auth })
  t.equal(other.status, 200)
  t.equal(other.headers['ratelimit-policy'], '"ip";q=100;w=1')
  t.equal(other.headers.ratelimit, '"ip";r=96;t=1', 'the requests to the endpoint with its own limit counted in the general one too')
  c.advance(1000)
  const fresh = await send(gw.url, '/api/snapshots', { headers: auth })
  t.equal(fresh.headers['ratelimit-policy'], '"ip";q=100;w=1, "ip:snapshots";q=2;w=1', 'both policies')
  t.equal(fresh.headers.ratelimit, '"ip";r=99;t=1, "ip:snapshots";r=1;t=1')
})

for (const store of ['memory', 'Redis']) {
  t.test(`requests to endpoints with limits of their own cannot take a client past the general limit (${store})`, async (t) => {
    const c = clock()
    const limiter = store === 'Redis' ? await redisLimiter(t, `netinv:t:${randomBytes(6).toString('hex')}:`, c.now) : undefined
    const gw = await startTestGateway(t, { config: { rateLimit: { perSecond: 5, endpoints: { snapshots: 4, reports: 4 } } }, now: c.now, ...(limiter ? { limiter } : {}) })
    const s = [] as number[]
    for (const path of ['/api/snapshots', '/api/reports', '/api/snapshots', '/api/reports', '/api/snapshots', '/api/reports']) {
      s.push((await send(gw.url, path, { headers: auth })).status)
    }
    t.same(s, [200, 200, 200, 200, 200, 429], 'five in the second, whatever their endpoints')
    const over = await send(gw.url, '/api/version')
    t.equal(over.status, 429)
    t.equal((over.json() as { message: string }).message, 'Too many requests: at most 5 per second', 'the general limit is the one that refused')
  })
}

t.test('a spoofed X-Forwarded-For from an untrusted peer does not change the key', async (t) => {
  // With no trusted proxies, and with some that the peer (127.0.0.1) is not one of.
  for (const trustedProxies of [[], ['10.0.0.0/8', '192.0.2.1', '::1']]) {
    const c = clock()
    const gw = await startTestGateway(t, { config: { rateLimit: { perSecond: 3 }, server: { trustedProxies } }, now: c.now })
    const s = [] as number[]
    for (let i = 0; i < 5; i++) s.push((await send(gw.url, '/api/snapshots', { headers: { ...auth, 'x-forwarded-for': `203.0.113.${i}` } })).status)
    t.same(s, [200, 200, 200, 429, 429], `trusted proxies: ${JSON.stringify(trustedProxies)}`)
  }
})

t.test('bad requests count too: 404, 405 and 410 answers use up the per-IP limit', async (t) => {
  const c = clock()
  const gw = await startTestGateway(t, { config: { rateLimit: { perSecond: 3 } }, now: c.now })
  const nf = await send(gw.url, '/api/nope')
  t.equal(nf.status, 404)
  t.equal(nf.headers.ratelimit, '"ip";r=2;t=1', 'a rejected request carries the rate-limit headers of its decision')
  t.equal((await send(gw.url, '/api/snapshots', { method: 'PUT', headers: auth })).status, 405)
  t.equal((await send(gw.url, '/api/snapshots', { headers: { ...auth, 'x-api-version': '99' } })).status, 410)
  const over = await send(gw.url, '/api/nope')
  t.equal(over.status, 429, 'the fourth request of the second is refused, whatever it asks for')
  t.equal((over.json() as { code: string }).code, 'API_TOO_MANY_REQUESTS')
  t.equal((await send(gw.url, '/api/snapshots', { headers: auth })).status, 429, 'and so is a good one from the same address')
  t.match(await (await fetch(`${gw.adminUrl}/metrics`)).text(), /netinv_gateway_rate_limited_total\{endpoint="unmatched"\} 1/)
  c.advance(1000)
  t.equal((await send(gw.url, '/api/snapshots', { headers: auth })).status, 200, 'next window')
})

t.test('behind a trusted proxy the client is the first untrusted hop from the right', async (t) => {
  const c = clock()
  const up = await startUpstream(t)
  const gw = await startTestGateway(t, { config: { rateLimit: { perSecond: 2 }, server: { trustedProxies: ['127.0.0.0/8'] } }, now: c.now, upstreamUrl: up.url })
  const asClient = (ip: string) => send(gw.url, '/api/snapshots', { headers: { ...auth, 'x-forwarded-for': `198.51.100.7, ${ip}, 127.0.0.5` } })
  t.same([(await asClient('192.0.2.1')).status, (await asClient('192.0.2.1')).status, (await asClient('192.0.2.1')).status], [200, 200, 429])
  const other = await asClient('192.0.2.2')
  t.equal(other.status, 200, 'another client behind the same proxy has its own count')
  const echoed = other.json() as { headers: Record<string, string> }
  t.equal(echoed.headers['x-forwarded-for'], '198.51.100.7, 192.0.2.2, 127.0.0.5, 127.0.0.1', 'a trusted chain is extended')
})

t.test('shadow mode counts but lets through', async (t) => {
  const c = clock()
  const gw = await startTestGateway(t, { config: { rateLimit: { perSecond: 1, shadow: true } }, now: c.now })
  t.same([(await send(gw.url, '/api/snapshots', { headers: auth })).status, (await send(gw.url, '/api/snapshots', { headers: auth })).status], [200, 200])
  t.match(await (await fetch(`${gw.adminUrl}/metrics`)).text(), /netinv_gateway_rate_limited_total\{endpoint="snapshots"\} 1/)
})

t.test('optional per-API-key limit across client addresses', async (t) => {
  const c = clock()
  const gw = await startTestGateway(t, { config: { rateLimit: { perSecond: 100, apiKeyPerSecond: 2 } }, now: c.now })
  const s = [] as number[]
  for (let i = 0; i < 3; i++) s.push((await send(gw.url, '/api/snapshots', { headers: auth })).status)
  t.same(s, [200, 200, 429])
  t.equal((await send(gw.url, '/api/snapshots', { headers: { 'x-api-token': 'writer-key' } })).status, 200, 'another key')
})

testNeeding(t, 'Redis stopped mid-run, through the gateway: requests keep their answers under a per-replica limit, /readyz degrades, then all is back', HAS_REDIS_SERVER ? undefined : 'redis-server', async (t) => {
  const server = await startRedisServer(t)
  const c = clock()
  const metrics = createMetrics()
  const { log, lines } = memoryLog()
  const config = compileConfig({ rateLimit: { perSecond: 3, redisTimeoutMs: 100 } })
  const setup = createLimiter({ redisUrl: server.url, config: () => config, log, metrics, now: c.now, prefix: `netinv:t:${randomBytes(6).toString('hex')}:` })
  t.teardown(() => setup.close())
  if (!(await whenReady(setup.redis!, 5000))) throw new Error('the test redis-server is not ready')
  const gw = await startTestGateway(t, { config: { rateLimit: { perSecond: 3, redisTimeoutMs: 100 } }, limiter: setup.limiter, redisReady: setup.redisReady, metrics, log, now: c.now })
  const readiness = async () => (await send(gw.url, '/readyz')).json() as { status: string; degraded?: string[] }
  t.equal((await send(gw.url, '/api/snapshots', { headers: auth })).status, 200)
  t.equal((await readiness()).status, 'ready')

  await server.stop()
  c.advance(1000)
  const during = [] as number[]
  for (let i = 0; i < 4; i++) during.push((await send(gw.url, '/api/snapshots', { headers: auth })).status)
  t.same(during, [200, 200, 200, 429], 'answered at once, under this replica’s own limit')
  t.match(await readiness(), { status: 'degraded', checks: { database: true, upstream: true, accepting: true, redis: false }, degraded: ['redis'] })
  t.ok(lines.some((l) => l.msg === 'rate limiter: Redis unavailable, using the in-process limit of this replica'), 'logged')
  t.match(await (await fetch(`${gw.adminUrl}/metrics`)).text(), /netinv_gateway_ratelimit_redis_fallbacks_total [1-9]/)

  await server.start()
  let back = false
  for (let i = 0; i < 200 && !back; i++) {
    c.advance(1000)
    await send(gw.url, '/api/snapshots', { headers: auth })
    back = lines.some((l) => l.msg === 'rate limiter: Redis is back, shared limits restored')
    if (!back) await new Promise((r) => setTimeout(r, 25))
  }
  t.ok(back, 'decisions come from Redis again')
  t.equal((await readiness()).status, 'ready')
})

t.test('429 per IP per one second: a burst straddling a second boundary passes the limit once, not twice', async (t) => {
  for (const store of ['memory', 'redis'] as const) {
    let now = 1_800_000_000_930
    const clockNow = () => now
    const limiter = store === 'redis' ? await redisLimiter(t, `netinv:t:${randomBytes(6).toString('hex')}:`, clockNow) : undefined
    const gw = await startTestGateway(t, { config: { rateLimit: { perSecond: 100 } }, now: clockNow, ...(limiter ? { limiter } : {}) })
    const statuses: number[] = []
    for (let i = 0; i < 200; i++) {
      if (i === 100) now += 141 // the second half of the burst, 141 ms later, in the next clock second
      statuses.push((await send(gw.url, '/api/snapshots', { headers: auth })).status)
    }
    t.equal(statuses.filter((s) => s === 200).length, 100, `${store}: 100 of 200 pass`)
    t.equal(statuses.filter((s) => s === 429).length, 100, `${store}: the rest are refused`)
  }
})

t.test('two gateways on one Redis at a limit with leases: at most the limit and a lease per gateway in a second, RateLimit counting down', async (t) => {
  const c = clock()
  const prefix = `netinv:t:${randomBytes(6).toString('hex')}:`
  const perSecond = 1000 // a lease of one place (a thousandth of the limit)
  const gateways = [
    await startTestGateway(t, { config: { rateLimit: { perSecond } }, limiter: await redisLimiter(t, prefix, c.now), now: c.now }),
    await startTestGateway(t, { config: { rateLimit: { perSecond } }, limiter: await redisLimiter(t, prefix, c.now), now: c.now }),
  ]
  let passed = 0
  let refused = 0
  const remaining: number[] = []
  // 1,200 requests of one client within one second, to either gateway in turn.
  for (let i = 0; i < 1200; i++) {
    const r = await send(gateways[i % 2]!.url, '/api/snapshots', { headers: auth })
    if (r.status === 200) {
      passed++
      remaining.push(Number(/r=(\d+)/.exec(String(r.headers.ratelimit))?.[1]))
    } else if (r.status === 429) refused++
  }
  t.ok(passed >= perSecond - 2 && passed <= perSecond + 2, `the limit within a lease per gateway: ${passed} of 1,200 passed`)
  t.equal(passed + refused, 1200, 'the requests that did not pass are refused with 429')
  t.equal(remaining[0], perSecond - 1, 'the first answer leaves the limit less one')
  // The i-th request let through leaves the limit less i + 1, give or take the other gateway's lease.
  const off = remaining.filter((r, i) => Math.abs(r - (perSecond - 1 - i)) > 2)
  t.same(off, [], 'RateLimit counts the requests let through by both gateways, within a lease of each')
  c.advance(1000)
  t.equal((await send(gateways[0]!.url, '/api/snapshots', { headers: auth })).status, 200, 'a second later, requests pass again')
})
