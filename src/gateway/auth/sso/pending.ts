/**
 * Started single sign-on logins waiting for the provider's answer, keyed by their `state`: the
 * provider, the nonce and the PKCE verifier stay in the gateway (never in the browser), each entry
 * lives `sso.stateTtlSeconds` at most and is taken once, so a replayed or forged `state` finds
 * nothing. With Redis they are shared by every replica (the answer may reach another one than the
 * start; taken with GETDEL, so once across replicas), else kept in the process (bounded: past
 * `max` entries the oldest is dropped).
 */
import { createHash } from 'node:crypto'
import type { Cluster, Redis } from 'ioredis'
import type { Clock } from '../../identity/index.js'

export interface PendingLogin {
  provider: string
  nonce: string
  codeVerifier: string
  expiresAt: number
}

export interface PendingStore {
  put(state: string, login: PendingLogin): Promise<void>
  /** The login started with `state`, removed (single use); null when unknown or expired. */
  take(state: string): Promise<PendingLogin | null>
}

export class PendingLogins implements PendingStore {
  private readonly entries = new Map<string, PendingLogin>()

  constructor(
    private readonly clock: Clock,
    private readonly max = 10_000,
  ) {}

  async put(state: string, login: PendingLogin): Promise<void> {
    this.sweep()
    while (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next().value
      if (oldest === undefined) break
      this.entries.delete(oldest)
    }
    this.entries.set(state, login)
  }

  async take(state: string): Promise<PendingLogin | null> {
    const found = this.entries.get(state)
    if (!found) return null
    this.entries.delete(state)
    return found.expiresAt > this.clock() ? found : null
  }

  private sweep(): void {
    const now = this.clock()
    for (const [state, login] of this.entries) {
      if (login.expiresAt > now) break
      this.entries.delete(state)
    }
  }
}

const PREFIX = 'netinv:sso:pending:'

/** The same in Redis: the key is a hash of the state, the entry expires by itself. */
export class RedisPendingLogins implements PendingStore {
  constructor(
    private readonly redis: Redis | Cluster,
    private readonly clock: Clock,
  ) {}

  private key(state: string): string {
    return PREFIX + createHash('sha256').update(state).digest('base64url')
  }

  async put(state: string, login: PendingLogin): Promise<void> {
    const ttl = Math.max(1, login.expiresAt - this.clock())
    await this.redis.set(this.key(state), JSON.stringify(login), 'PX', ttl)
  }

  async take(state: string): Promise<PendingLogin | null> {
    const raw = await this.redis.getdel(this.key(state))
    if (raw === null) return null
    const found = JSON.parse(raw) as PendingLogin
    return found.expiresAt > this.clock() ? found : null
  }
}
