import t from 'tap'
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { VerificationCache } from '../../../src/gateway/auth/cache.js'
import { createRevocationBus } from '../../../src/gateway/auth/revocation.js'
import { silentLogger } from '../../../src/shared/log.js'
import { REDIS_URL } from '../../helpers/db.js'

t.test('entries expire on the clock, at the TTL or their own expiry', async (t) => {
  let now = 0
  const cache = new VerificationCache<{ v: number }>(10, () => 1000, () => now)
  let loads = 0
  const load = (until?: number) => async () => ({ value: { v: ++loads }, ...(until !== undefined ? { until } : {}) })
  t.same(await cache.get('a', load()), { v: 1 })
  now = 999
  t.same(await cache.get('a', load()), { v: 1 }, 'hit within the TTL')
  now = 1000
  t.same(await cache.get('a', load()), { v: 2 }, 'reloaded at the TTL')
  t.same(await cache.get('b', load(1500)), { v: 3 })
  now = 1500
  t.same(await cache.get('b', load()), { v: 4 }, "reloaded at the entry's own expiry")
  t.same(await cache.get('c', load(0)), { v: 5 })
  t.same(await cache.get('c', load()), { v: 6 }, 'until 0: never kept')
})

t.test('parallel misses load once; invalidation drops by user or key and beats an in-flight load', async (t) => {
  const cache = new VerificationCache<{ v: number }>(10, () => 10_000, () => 0)
  let loads = 0
  let release!: () => void
  const gate = new Promise<void>((r) => (release = r))
  const slow = async () => {
    loads++
    await gate
    return { value: { v: loads }, userId: 'u1', apiKeyId: 'k1' }
  }
  const all = Promise.all([cache.get('x', slow), cache.get('x', slow), cache.get('x', slow)])
  release()
  t.same(await all, [{ v: 1 }, { v: 1 }, { v: 1 }])
  t.equal(loads, 1)
  cache.invalidate({ userId: 'u2' })
  t.equal(cache.size, 1, 'other users untouched')
  cache.invalidate({ apiKeyId: 'k1' })
  t.equal(cache.size, 0)

  let release2!: () => void
  const gate2 = new Promise<void>((r) => (release2 = r))
  const pending = cache.get('y', async () => {
    await gate2
    return { value: { v: 9 }, userId: 'u1' }
  })
  cache.invalidate({ userId: 'u1' }) // a change lands while the old state is being loaded
  release2()
  await pending
  t.equal(cache.size, 0, 'the stale load is not cached')
})

t.test('revocation bus: in-process at once; with Redis, TTLs shrink to 1 s while the subscription is down', async (t) => {
  const local = createRevocationBus({ log: silentLogger() })
  const seen: unknown[] = []
  local.onEvent((e) => seen.push(e))
  local.publish({ type: 'apiKey', id: 'k' })
  t.same(seen, [{ type: 'apiKey', id: 'k' }])
  t.equal(local.ttlCap(), Infinity)

  const down = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null })
  const broken = createRevocationBus({ redis: down, log: silentLogger() })
  t.equal(broken.ttlCap(), 1000)
  await broken.close()

  const channel = `netinv:test:${randomBytes(6).toString('hex')}`
  const a = new Redis(REDIS_URL)
  const b = new Redis(REDIS_URL)
  t.teardown(() => {
    a.disconnect()
    b.disconnect()
  })
  const busA = createRevocationBus({ redis: a, channel, log: silentLogger() })
  const busB = createRevocationBus({ redis: b, channel, log: silentLogger() })
  t.teardown(() => Promise.all([busA.close(), busB.close()]))
  const received = new Promise((resolve) => busB.onEvent(resolve))
  // wait until B's subscription is up
  for (let i = 0; i < 200 && busB.ttlCap() !== Infinity; i++) await new Promise((r) => setTimeout(r, 10))
  t.equal(busB.ttlCap(), Infinity)
  busA.publish({ type: 'user', id: 'u9' })
  t.same(await received, { type: 'user', id: 'u9' })
})

t.test('refresh ahead: past 3/4 of its life an entry is answered and verified again in the background', async (t) => {
  let now = 0
  const cache = new VerificationCache<{ v: number } | null>(10, () => 1000, () => now)
  let loads = 0
  let next: { v: number } | null = { v: 1 }
  let fail = false
  const load = async () => {
    loads++
    if (fail) throw new Error('database down')
    return next === null ? { value: null, until: 0 } : { value: { ...next }, userId: 'u' }
  }
  t.same(await cache.get('k', load), { v: 1 })
  now = 749
  t.same(await cache.get('k', load), { v: 1 })
  t.equal(loads, 1, 'no refresh before 3/4 of the TTL')
  next = { v: 2 }
  now = 750
  t.same(await cache.get('k', load), { v: 1 }, 'answered from the cache without waiting')
  await new Promise((r) => setImmediate(r))
  t.equal(loads, 2, 'and refreshed in the background')
  t.same(await cache.get('k', load), { v: 2 })

  now = 1500 // 3/4 into the refreshed entry's life
  fail = true
  t.same(await cache.get('k', load), { v: 2 }, 'a failing refresh keeps the entry until its expiry')
  await new Promise((r) => setImmediate(r))
  fail = false
  next = null // e.g. the password no longer matches
  now = 1600
  t.same(await cache.get('k', load), { v: 2 })
  await new Promise((r) => setImmediate(r))
  t.same(await cache.get('k', load), null, 'a refresh that fails verification drops the entry')
})
