/**
 * The rate limiter door: `createLimiter` picks Redis (with the in-process fallback) when a
 * REDIS_URL is given, else the in-process limiter alone.
 */
import type { Logger } from 'pino'
import type { Config } from '../../shared/config/index.js'
import type { GatewayMetrics } from '../metrics.js'
import { connectRedis, redisPing, redisUsable, type RedisClient } from '../redis.js'
import { createMemoryLimiter } from './memory.js'
import { createRedisLimiter } from './redis.js'
import { createResilientLimiter } from './resilient.js'
import type { Limiter } from './types.js'

export type { Limiter, RateDecision } from './types.js'
export { createMemoryLimiter, type MemoryLimiterOptions } from './memory.js'
export { createRedisLimiter, redisKey, RedisLimiterTimeout, type RedisLimiterOptions } from './redis.js'
export { createResilientLimiter, type ResilientLimiter, type ResilientLimiterOptions } from './resilient.js'

export interface LimiterSetup {
  limiter: Limiter
  /** Present when Redis is configured: for /readyz. */
  redisReady?: () => Promise<boolean>
  redis?: RedisClient
  close(): Promise<void>
}

export function createLimiter(options: {
  redisUrl: string | undefined
  config(): Readonly<Config>
  log: Logger
  metrics: GatewayMetrics
  now?: () => number
  prefix?: string
  /** See RedisLimiterOptions.keyTtlMs (tests with a clock of their own). */
  keyTtlMs?: number
}): LimiterSetup {
  const now = options.now ?? Date.now
  const memory = createMemoryLimiter({ now })
  if (!options.redisUrl) return { limiter: memory, close: () => memory.close() }
  let lastError = ''
  const redis = connectRedis(options.redisUrl, {
    commandTimeoutMs: options.config().rateLimit.redisTimeoutMs,
    onError: (err) => {
      if (err.message !== lastError) options.log.warn({ error: err.message }, 'Redis connection error')
      lastError = err.message
    },
  })
  redis.on('ready', () => {
    lastError = ''
  })
  const limiter = createResilientLimiter({
    primary: createRedisLimiter({
      client: redis,
      now,
      timeoutMs: () => options.config().rateLimit.redisTimeoutMs,
      ...(options.prefix ? { prefix: options.prefix } : {}),
      ...(options.keyTtlMs !== undefined ? { keyTtlMs: options.keyTtlMs } : {}),
    }),
    fallback: memory,
    usable: () => redisUsable(redis),
    log: options.log,
    onFallback: () => options.metrics.redisFallback(),
    now,
  })
  return {
    limiter,
    redis,
    redisReady: () => redisPing(redis),
    async close() {
      await limiter.close()
      redis.disconnect()
    },
  }
}
