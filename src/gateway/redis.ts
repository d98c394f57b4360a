/**
 * One Redis connection for the gateway (standalone or Cluster), tuned to fail fast: no offline
 * queue (a command while disconnected fails at once), a command timeout, and endless background
 * reconnection. `REDIS_URL` = `redis://host:port[/db]` (or `rediss://`) for standalone, or
 * `redis+cluster://host:port,host:port,...` for a Cluster (any reachable nodes seed it).
 */
import { Redis, Cluster } from 'ioredis'

export type RedisClient = Redis | Cluster

export interface RedisConnectOptions {
  /** Per-command timeout in ms. */
  commandTimeoutMs: number
  /** Called on connection errors (already rate-limited to state changes by the caller's log). */
  onError?: (err: Error) => void
}

const retryStrategy = (times: number): number => Math.min(50 * times, 1000)

export function isClusterUrl(url: string): boolean {
  return url.startsWith('redis+cluster://')
}

export function clusterNodes(url: string): Array<{ host: string; port: number }> {
  return url
    .slice('redis+cluster://'.length)
    .split(',')
    .map((hp) => hp.trim())
    .filter(Boolean)
    .map((hp) => {
      const i = hp.lastIndexOf(':')
      return i < 0 ? { host: hp, port: 6379 } : { host: hp.slice(0, i).replace(/^\[|\]$/g, ''), port: Number(hp.slice(i + 1)) }
    })
}

export function connectRedis(url: string, options: RedisConnectOptions): RedisClient {
  const common = {
    enableOfflineQueue: false,
    // The rate limiter batches and pipelines its own calls per turn of the event loop;
    // ioredis' auto-pipelining would add a pipeline object and a tick per call on top.
    enableAutoPipelining: false,
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: Math.max(options.commandTimeoutMs * 4, 500),
    maxRetriesPerRequest: 0,
    retryStrategy,
  }
  const client: RedisClient = isClusterUrl(url)
    ? new Cluster(clusterNodes(url), {
        enableOfflineQueue: false,
        enableAutoPipelining: false,
        clusterRetryStrategy: retryStrategy,
        slotsRefreshTimeout: Math.max(options.commandTimeoutMs * 10, 1000),
        redisOptions: common,
      })
    : new Redis(url, common)
  client.on('error', (err: Error) => options.onError?.(err))
  return client
}

/** true when the client can take commands right now. */
export function redisUsable(client: RedisClient): boolean {
  return client.status === 'ready'
}

export async function redisPing(client: RedisClient, timeoutMs = 500): Promise<boolean> {
  if (!redisUsable(client)) return false
  let timer: NodeJS.Timeout | undefined
  try {
    const pong = await Promise.race([
      client.ping(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs)
      }),
    ])
    return pong === 'PONG'
  } catch {
    return false
  } finally {
    clearTimeout(timer)
  }
}

/** Resolves true once the client is ready, false after `timeoutMs` (never rejects). */
export function whenReady(client: RedisClient, timeoutMs: number): Promise<boolean> {
  if (client.status === 'ready') return Promise.resolve(true)
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      client.off('ready', onReady)
      resolve(false)
    }, timeoutMs)
    const onReady = () => {
      clearTimeout(timer)
      resolve(true)
    }
    client.once('ready', onReady)
  })
}
