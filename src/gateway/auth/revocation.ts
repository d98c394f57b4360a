/**
 * Revocation broadcast: when a user or an API key changes, every replica drops the cached
 * verifications that depend on it. In one process the change applies at once; with Redis, a
 * pub/sub message reaches the other replicas within milliseconds (subscriber on a duplicate
 * connection). While the subscriber is not connected, cache TTLs shrink to one second, so a
 * revocation still takes effect within 1 s.
 */
import type { Cluster, Redis } from 'ioredis'
import type { Logger } from 'pino'
import type { IdentityEvent } from '../identity/index.js'

export const REVOCATION_CHANNEL = 'netinv:identity:changes'
const DEGRADED_TTL_MS = 1000

export interface RevocationBus {
  /** Applies locally at once and tells the other replicas. */
  publish(event: IdentityEvent): void
  onEvent(listener: (event: IdentityEvent) => void): void
  /** Upper bound for cache TTLs right now (1 s while the broadcast is down). */
  ttlCap(): number
  close(): Promise<void>
}

function parse(message: string): IdentityEvent | null {
  try {
    const e = JSON.parse(message) as Partial<IdentityEvent>
    if ((e.type === 'user' || e.type === 'apiKey') && typeof e.id === 'string') return { type: e.type, id: e.id }
  } catch {
    // ignored below
  }
  return null
}

export function createRevocationBus(options: { redis?: Redis | Cluster | undefined; channel?: string; log: Logger }): RevocationBus {
  const listeners: Array<(e: IdentityEvent) => void> = []
  const emit = (e: IdentityEvent) => {
    for (const l of listeners) l(e)
  }
  const { redis, log } = options
  const channel = options.channel ?? REVOCATION_CHANNEL
  if (!redis) {
    return { publish: emit, onEvent: (l) => void listeners.push(l), ttlCap: () => Infinity, close: async () => {} }
  }
  const subscriber = redis.duplicate()
  let subscribed = false
  subscriber.on('error', (err: Error) => log.warn({ err: err.message }, 'revocation subscriber error'))
  subscriber.on('message', (ch: string, message: string) => {
    if (ch !== channel) return
    const e = parse(message)
    if (e) emit(e)
  })
  // Connections may refuse commands until ready (no offline queue): subscribe on every ready
  // until it took; ioredis re-subscribes by itself after later reconnects.
  const subscribe = () => {
    if (subscribed) return
    subscriber.subscribe(channel).then(
      () => void (subscribed = true),
      (err: Error) => log.warn({ err: err.message }, 'revocation broadcast unavailable; caches hold entries for 1 s at most'),
    )
  }
  subscriber.on('ready', subscribe)
  if (subscriber.status === 'ready') subscribe()
  return {
    publish(e) {
      emit(e)
      redis.publish(channel, JSON.stringify(e)).catch((err: Error) => log.warn({ err: err.message }, 'revocation broadcast failed'))
    },
    onEvent: (l) => void listeners.push(l),
    ttlCap: () => (subscribed && subscriber.status === 'ready' ? Infinity : DEGRADED_TTL_MS),
    async close() {
      subscriber.disconnect()
    },
  }
}
