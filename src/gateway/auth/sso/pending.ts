/**
 * Short-lived single sign-on entries the gateway keeps for one use, keyed by a random handle the
 * client holds: started browser logins by their `state` (the provider, the nonce and the PKCE
 * verifier stay in the gateway, never in the browser), started device logins by the handle the
 * command line polls with, and EULA tickets. Each entry lives until its `expiresAt` at most and is
 * taken once, so a replayed or forged handle finds nothing. With Redis they are shared by every
 * replica (the answer may reach another one than the start; taken with GETDEL, so once across
 * replicas), else kept in the process (bounded: past `max` entries the oldest is dropped).
 */
import { createHash } from 'node:crypto'
import type { Cluster, Redis } from 'ioredis'
import type { Logger } from 'pino'
import type { Clock } from '../../identity/index.js'
import { unavailable } from './providers.js'

export interface Expiring {
  /** Clock time (ms) after which the entry is gone. */
  expiresAt: number
}

export interface PendingStore<T extends Expiring> {
  put(handle: string, entry: T): Promise<void>
  /** The entry kept under `handle`, removed (single use); null when unknown or expired. */
  take(handle: string): Promise<T | null>
}

/** A started browser login, by its state. */
export interface PendingLogin extends Expiring {
  provider: string
  nonce: string
  codeVerifier: string
}

export class MemoryPending<T extends Expiring> implements PendingStore<T> {
  private readonly entries = new Map<string, T>()

  constructor(
    private readonly clock: Clock,
    private readonly max = 10_000,
  ) {}

  async put(handle: string, entry: T): Promise<void> {
    this.sweep()
    this.entries.delete(handle)
    while (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next().value
      if (oldest === undefined) break
      this.entries.delete(oldest)
    }
    this.entries.set(handle, entry)
  }

  async take(handle: string): Promise<T | null> {
    const found = this.entries.get(handle)
    if (!found) return null
    this.entries.delete(handle)
    return found.expiresAt > this.clock() ? found : null
  }

  private sweep(): void {
    const now = this.clock()
    for (const [handle, entry] of this.entries) {
      if (entry.expiresAt > now) continue
      this.entries.delete(handle)
    }
  }
}

/** The same in Redis: the key is a hash of the handle, the entry expires by itself. */
export class RedisPending<T extends Expiring> implements PendingStore<T> {
  constructor(
    private readonly redis: Redis | Cluster,
    private readonly clock: Clock,
    /** Keys of one kind of entry: `netinv:sso:<kind>:<hash>`. */
    private readonly kind: string,
  ) {}

  private key(handle: string): string {
    return `netinv:sso:${this.kind}:${createHash('sha256').update(handle).digest('base64url')}`
  }

  async put(handle: string, entry: T): Promise<void> {
    const ttl = Math.max(1, entry.expiresAt - this.clock())
    await this.redis.set(this.key(handle), JSON.stringify(entry), 'PX', ttl)
  }

  async take(handle: string): Promise<T | null> {
    const raw = await this.redis.getdel(this.key(handle))
    if (raw === null) return null
    const found = JSON.parse(raw) as T
    return found.expiresAt > this.clock() ? found : null
  }
}

/** A store of one kind of entry: in Redis when the gateway has it, else in the process. */
export function pendingStore<T extends Expiring>(kind: string, clock: Clock, redis: Redis | Cluster | undefined): PendingStore<T> {
  return redis ? new RedisPending<T>(redis, clock, kind) : new MemoryPending<T>(clock)
}

/** Runs `what` on a pending store; Redis down is a 503 (a login cannot be started or finished). */
export async function pendingDo<T, E extends Expiring>(log: Logger, store: PendingStore<E>, what: (store: PendingStore<E>) => Promise<T>): Promise<T> {
  try {
    return await what(store)
  } catch (err) {
    log.warn({ err: err instanceof Error ? err.message : String(err) }, 'single sign-on: the pending logins cannot be reached')
    throw unavailable('Single sign-on is unavailable for a moment; try again later', 'pending logins unreachable (Redis)')
  }
}
