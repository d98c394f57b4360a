/**
 * Every password check (auth/login, Basic, auth/eula) goes through here: one per-username limit on
 * failures, whatever the client IP and the method, and the hashing bound of hash-gate.ts.
 *
 * Failures count in `rateLimit.loginPerUsernamePerMinute` (the shared limiter: Redis across
 * replicas). Once a username has used its failures of the minute, this replica answers every
 * check of it with 429 without hashing until the oldest failure leaves the window; a replica that
 * has not seen the refusal yet learns it at its next failure. Successful checks are not counted,
 * so a client that logs in often is never locked out by its own successes.
 *
 * The client addresses of successful checks are remembered for a day (at most 100,000): their
 * checks are preferred by the hashing bound (see hash-gate.ts).
 */
import { createHash } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import type { Config } from '../../shared/config/index.js'
import { ApiError } from '../../shared/errors.js'
import type { Limiter } from '../ratelimit/types.js'
import type { IdentityStore, User } from '../identity/index.js'
import { normalizeUsername, verifyPassword } from '../identity/index.js'
import type { HashGate } from './hash-gate.js'

const MAX_BLOCKED = 100_000
const KNOWN_ADDRESS_MS = 86_400_000

export interface PasswordChecksDeps {
  store: IdentityStore
  limiter: Limiter
  config: Readonly<Config>
  gate: HashGate
  clock: () => number
}

function tooMany(ms: number): ApiError {
  return new ApiError('API_TOO_MANY_REQUESTS', 'Too many failed sign-ins for this user; try again later', {
    headers: { 'retry-after': String(Math.max(1, Math.ceil(ms / 1000))) },
  })
}

export class PasswordChecks {
  /** Usernames over their failures, until when (ms). */
  private readonly blocked = new Map<string, number>()
  /** Client addresses (rate-limit keys) that passed a password check lately. */
  private readonly known = new LRUCache<string, true>({ max: 100_000, ttl: KNOWN_ADDRESS_MS, ttlAutopurge: false })

  constructor(private readonly deps: PasswordChecksDeps) {}

  /** The limiter key of a username: the same for every spelling that names the same user. */
  private keyOf(username: string): string {
    return `login-user:${createHash('sha256').update(normalizeUsername(username).toLowerCase()).digest('hex').slice(0, 32)}`
  }

  /**
   * The user whose password this is, or null; 429 when the username has used its failures, 503
   * when the hashing bound sheds the check. `from` is the client's address key.
   */
  async verify(username: string, password: string, from: string): Promise<{ user: User } | null> {
    const key = this.keyOf(username)
    const now = this.deps.clock()
    const until = this.blocked.get(key)
    if (until !== undefined) {
      if (now < until) throw tooMany(until - now)
      this.blocked.delete(key)
    }
    // A password is always hashed, whether the user exists or not, so timing enumerates nobody.
    const found = await this.deps.gate.run(async () => {
      const user = await this.deps.store.users.credentials(username)
      return (await verifyPassword(password, user?.passwordHash)) ? user : null
    }, this.known.has(from))
    if (found) {
      this.known.set(from, true)
      return found
    }
    const d = await this.deps.limiter.consume(key, this.deps.config.rateLimit.loginPerUsernamePerMinute, 60)
    if (!d.allowed || d.remaining === 0) this.block(key, now + d.resetMs)
    if (!d.allowed) throw tooMany(d.resetMs)
    return null
  }

  private block(key: string, until: number): void {
    if (this.blocked.size >= MAX_BLOCKED) {
      const now = this.deps.clock()
      for (const [k, u] of this.blocked) if (u <= now) this.blocked.delete(k)
      // Still full: the oldest go.
      for (const k of this.blocked.keys()) {
        if (this.blocked.size < MAX_BLOCKED) break
        this.blocked.delete(k)
      }
    }
    this.blocked.set(key, until)
  }
}
