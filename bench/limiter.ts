/**
 * The per-IP limiter: the sliding log (src/gateway/ratelimit) against the fixed window it replaced
 * (bench/baseline), in one run, in process and on Redis (REDIS_URL, default 127.0.0.1:6379).
 *
 *   npx tsx bench/limiter.ts [decisions=200000] [clients=1000]
 *
 * 1. What a burst straddling a second boundary gets through at a limit of 100: 100 hits 70 ms
 *    before the boundary and 100 hits 71 ms after it (141 ms in all).
 * 2. What a decision costs: in process, ns per decision over `clients` keys at the limit of
 *    100/s (a steady stream: each key passes and is refused in turn); on Redis, decisions per
 *    second with 256 in flight (the pipeline's batching at work) and the Redis memory per key.
 */
import { Redis } from 'ioredis'
import { randomBytes } from 'node:crypto'
import type { Limiter } from '../src/gateway/ratelimit/types.js'
import { createMemoryLimiter, createRedisLimiter } from '../src/gateway/ratelimit/index.js'
import { connectRedis, whenReady } from '../src/gateway/redis.js'
import { createMemoryLimiter as fixedMemory } from './baseline/fixed-window-memory.js'
import { createRedisLimiter as fixedRedis } from './baseline/fixed-window-redis.js'

const [decisions = 200_000, clients = 1000] = process.argv.slice(2).map(Number)
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

type Make = (now: () => number, prefix: string) => Limiter

async function straddle(make: Make, prefix: string): Promise<number> {
  let now = 1_800_000_000_930
  const limiter = make(() => now, prefix)
  let passed = 0
  for (let i = 0; i < 200; i++) {
    if (i === 100) now += 141
    if ((await limiter.consume('ip:203.0.113.9', 100, 1)).allowed) passed++
  }
  await limiter.close()
  return passed
}

function inProcess(make: Make): number {
  let now = 1_800_000_000_000
  const limiter = make(() => now, '')
  const keys = Array.from({ length: clients }, (_, i) => `ip:10.0.${i >> 8}.${i & 255}`)
  const t0 = process.hrtime.bigint()
  for (let i = 0; i < decisions; i++) {
    now += 0.01 // 100,000 decisions per second of clock, over all clients
    limiter.consume(keys[i % clients]!, 100, 1)
  }
  return Number(process.hrtime.bigint() - t0) / decisions
}

async function onRedis(make: Make, prefix: string): Promise<{ perSecond: number; bytesPerKey: number }> {
  const limiter = make(Date.now, prefix)
  const keys = Array.from({ length: clients }, (_, i) => `ip:10.1.${i >> 8}.${i & 255}`)
  const n = Math.min(decisions, 100_000)
  let next = 0
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: 256 }, async () => {
      while (next < n) await limiter.consume(keys[next++ % clients]!, 100, 1)
    }),
  )
  const perSecond = n / ((performance.now() - t0) / 1000)
  const raw = new Redis(REDIS_URL)
  const sample = (await raw.keys(`${prefix}*`)).slice(0, 50)
  let bytes = 0
  for (const k of sample) bytes += Number(await raw.call('MEMORY', 'USAGE', k))
  raw.disconnect()
  return { perSecond, bytesPerKey: bytes / Math.max(1, sample.length) }
}

async function main(): Promise<void> {
  const client = connectRedis(REDIS_URL, { commandTimeoutMs: 5000 })
  const redis = await whenReady(client, 3000)
  const variants: Array<{ name: string; memory: Make; redis: Make }> = [
    { name: 'fixed window (before)', memory: (now) => fixedMemory({ now }), redis: (now, prefix) => fixedRedis({ client, prefix, now, timeoutMs: () => 5000 }) },
    { name: 'sliding log', memory: (now) => createMemoryLimiter({ now }), redis: (now, prefix) => createRedisLimiter({ client, prefix, now, timeoutMs: () => 5000 }) },
  ]
  const prefix = () => `netinv:bench:${randomBytes(4).toString('hex')}:`
  console.log(`burst of 200 across a second boundary (141 ms) at a limit of 100/s; ${decisions} decisions over ${clients} clients`)
  for (const v of variants) {
    const passedMemory = await straddle(v.memory, '')
    const passedRedis = redis ? await straddle(v.redis, prefix()) : NaN
    // Warm-up, then the measured pass.
    inProcess(v.memory)
    const ns = inProcess(v.memory)
    const r = redis ? await onRedis(v.redis, prefix()) : { perSecond: NaN, bytesPerKey: NaN }
    console.log(
      `  ${v.name.padEnd(22)} burst passed: memory ${passedMemory}, redis ${passedRedis}; in process ${ns.toFixed(0)} ns/decision; redis ${r.perSecond.toFixed(0)} decisions/s, ${r.bytesPerKey.toFixed(0)} bytes/key`,
    )
  }
  client.disconnect()
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
