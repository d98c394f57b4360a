/**
 * Bounded verification caches (lru-cache) whose entries expire on the injected clock, with
 * in-flight de-duplication (many parallel requests with one new credential derive it once) and
 * invalidation by the user or API key an entry depends on.
 */
import { LRUCache } from 'lru-cache'
import type { Clock } from '../identity/index.js'

interface Entry<V> {
  value: V
  until: number
  userId: string | undefined
  apiKeyId: string | undefined
}

export interface Cached<V> {
  value: V
  /** Absolute expiry (ms, on the clock); the TTL caps it. */
  until?: number
  userId?: string
  apiKeyId?: string
}

export class VerificationCache<V extends object | null> {
  private readonly lru: LRUCache<string, Entry<V>>
  private readonly inflight = new Map<string, Promise<Cached<V>>>()
  /** Bumped by invalidation, so that a load which started before it is not cached after it. */
  private epoch = 0

  constructor(
    max: number,
    private readonly ttlMs: () => number,
    private readonly clock: Clock,
  ) {
    this.lru = new LRUCache({ max })
  }

  async get(key: string, load: () => Promise<Cached<V>>): Promise<V> {
    const now = this.clock()
    const hit = this.lru.get(key)
    if (hit && now < hit.until) return hit.value
    if (hit) this.lru.delete(key)
    let pending = this.inflight.get(key)
    if (!pending) {
      const epoch = this.epoch
      pending = load().then((loaded) => {
        const until = Math.min(loaded.until ?? Infinity, this.clock() + this.ttlMs())
        if (epoch === this.epoch && until > this.clock()) {
          this.lru.set(key, { value: loaded.value, until, userId: loaded.userId, apiKeyId: loaded.apiKeyId })
        }
        return loaded
      })
      this.inflight.set(key, pending)
      const clear = () => this.inflight.delete(key)
      pending.then(clear, clear)
    }
    return (await pending).value
  }

  /** Drops every entry that depends on this user or API key. */
  invalidate(what: { userId?: string; apiKeyId?: string }): void {
    this.epoch++
    this.inflight.clear()
    for (const [key, entry] of this.lru.entries()) {
      if ((what.userId && entry.userId === what.userId) || (what.apiKeyId && entry.apiKeyId === what.apiKeyId)) this.lru.delete(key)
    }
  }

  clear(): void {
    this.epoch++
    this.inflight.clear()
    this.lru.clear()
  }

  get size(): number {
    return this.lru.size
  }
}
