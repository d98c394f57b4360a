/**
 * Bounded verification caches (lru-cache) whose entries expire on the injected clock, with
 * in-flight de-duplication (many parallel requests with one new credential derive it once),
 * refresh ahead of expiry (past 3/4 of its life an entry is still answered while it is verified
 * again in the background, so a busy credential never waits for a key derivation), and
 * invalidation by the user or API key an entry depends on (that one is immediate: nothing stale
 * is answered after it).
 */
import { LRUCache } from 'lru-cache'
import type { Maybe } from '../../shared/maybe.js'
import type { Clock } from '../identity/index.js'

interface Entry<V> {
  value: V
  until: number
  /** From here on, a hit also starts a background refresh. */
  refreshAt: number
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

  /**
   * `load` is given the key, so that a caller's loader can be one function made once instead of
   * a closure per lookup (lookups are per request).
   */
  async get(key: string, load: (key: string) => Promise<Cached<V>>): Promise<V> {
    return this.current(key, load)
  }

  /**
   * The value at once when a fresh entry holds it (no promise: the hot path), else the promise of
   * get(). Past 3/4 of its life an entry is still answered while it is loaded again behind.
   */
  current(key: string, load: (key: string) => Promise<Cached<V>>): Maybe<V> {
    const now = this.clock()
    const hit = this.lru.get(key)
    if (hit && now < hit.until) {
      if (now >= hit.refreshAt && !this.inflight.has(key)) this.load(key, load).catch(() => {}) // keeps the entry until `until`
      return hit.value
    }
    if (hit) this.lru.delete(key)
    return this.load(key, load).then((loaded) => loaded.value)
  }

  private load(key: string, load: (key: string) => Promise<Cached<V>>): Promise<Cached<V>> {
    let pending = this.inflight.get(key)
    if (pending) return pending
    const epoch = this.epoch
    const startedAt = this.clock()
    pending = load(key).then((loaded) => {
      const now = this.clock()
      const until = Math.min(loaded.until ?? Infinity, now + this.ttlMs())
      if (epoch !== this.epoch) return loaded
      if (until > now) {
        const refreshAt = startedAt + (until - startedAt) * 0.75
        this.lru.set(key, { value: loaded.value, until, refreshAt, userId: loaded.userId, apiKeyId: loaded.apiKeyId })
      } else this.lru.delete(key)
      return loaded
    })
    this.inflight.set(key, pending)
    const clear = () => {
      if (this.inflight.get(key) === pending) this.inflight.delete(key)
    }
    pending.then(clear, clear)
    return pending
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
