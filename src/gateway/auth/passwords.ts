/**
 * Every password check (auth/login, Basic, auth/eula) goes through here: limits on failures that
 * stop guessing without letting anyone lock a user out, and the hashing bound of hash-gate.ts.
 *
 * Two limits on failures, both per username as the user is found (NFKC, without case: `ADMIN`
 * and `ａｄｍｉｎ` count as `admin`), in the shared limiter (Redis across replicas):
 * - per username and client address, `rateLimit.loginPerUsernamePerMinute` a minute: the address
 *   that guesses is refused (429) for that username, every other address keeps signing in;
 * - per username from all addresses, `rateLimit.loginPerUsernamePerHour` an hour: guessing spread
 *   over many addresses is then refused for that username from every address that has not passed
 *   its password check in the last day, so the user's own addresses keep working. Those
 *   (username, address) pairs are kept, hashed, in the identity store (identity.sign_in_addresses),
 *   so every replica and a restarted one know them; this process caches the ones it has seen for
 *   an hour and writes a pair again once its cache entry is gone.
 * Once a limit is used up, this replica answers the checks it covers with 429 without hashing
 * until the oldest failure leaves the window; a replica that has not seen the refusal yet learns
 * it at its next failure. Successful checks are not counted.
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
/** How long this process trusts a pair it has seen pass without asking or writing the store. */
const TRUSTED_CACHE_MS = 3_600_000

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
  /** Limiter keys (a username, or a username from an address) over their failures, until when (ms). */
  private readonly blocked = new Map<string, number>()
  /** Client addresses (rate-limit keys) that passed a password check lately. */
  private readonly known = new LRUCache<string, true>({ max: 100_000, ttl: KNOWN_ADDRESS_MS, ttlAutopurge: false })
  /**
   * Username-and-address keys this process saw pass (or found in the store) within the hour: the
   * store has them as seen within that hour, so they are trusted for the day. A miss asks the store.
   */
  private readonly trusted = new LRUCache<string, true>({ max: 100_000, ttl: TRUSTED_CACHE_MS, ttlAutopurge: false })

  constructor(private readonly deps: PasswordChecksDeps) {}

  /** The limiter keys of a username, and of it from an address: the same for every spelling of the user. */
  private keysOf(username: string, from: string): { user: string; pair: string } {
    const name = createHash('sha256').update(normalizeUsername(username).toLowerCase()).digest('hex').slice(0, 32)
    const pair = createHash('sha256').update(`${name}\n${from}`).digest('hex').slice(0, 32)
    return { user: `login-user:${name}`, pair: `login-pair:${pair}` }
  }

  /** Whether the username-and-address key `pair` passed a password check in the last day, on any replica. */
  private async isTrusted(pair: string, now: number): Promise<boolean> {
    if (this.trusted.has(pair)) return true
    return this.deps.store.signInAddresses.isTrusted(pair, now - KNOWN_ADDRESS_MS)
  }

  /** 429 when `key` is blocked now. */
  private refuseIfBlocked(key: string, now: number): void {
    const until = this.blocked.get(key)
    if (until === undefined) return
    if (now < until) throw tooMany(until - now)
    this.blocked.delete(key)
  }

  /** Counts a failure under `key`; 429 once the limit is passed, blocking the key to the window's end. */
  private async fail(key: string, limit: number, windowSeconds: number, now: number): Promise<void> {
    const d = await this.deps.limiter.consume(key, limit, windowSeconds)
    if (!d.allowed || d.remaining === 0) this.block(key, now + d.resetMs)
    if (!d.allowed) throw tooMany(d.resetMs)
  }

  /**
   * The user whose password this is, or null; 429 when the username has used its failures, 503
   * when the hashing bound sheds the check. `from` is the client's address key.
   */
  async verify(username: string, password: string, from: string): Promise<{ user: User } | null> {
    return this.guard(username, from, () =>
      // A password is always hashed, whether the user exists or not, so timing enumerates nobody.
      this.deps.gate.run(async () => {
        const user = await this.deps.store.users.credentials(username)
        return (await verifyPassword(password, user?.passwordHash)) ? user : null
      }, this.known.has(from)),
    )
  }

  /**
   * Runs a password check (`check`: the result, or null for a wrong password) under the limits
   * of `username` from `from`: the directory's checks count as the local ones do.
   */
  async guard<T>(username: string, from: string, check: () => Promise<T | null>): Promise<T | null> {
    const keys = this.keysOf(username, from)
    const now = this.deps.clock()
    this.refuseIfBlocked(keys.pair, now)
    // The store is asked only when the username's hourly limit is at stake.
    let trusted: Promise<boolean> | undefined
    const isTrusted = () => (trusted ??= this.isTrusted(keys.pair, now))
    if (this.blocked.has(keys.user) && !(await isTrusted())) this.refuseIfBlocked(keys.user, now)
    const found = await check()
    if (found !== null) {
      this.known.set(from, true)
      if (!this.trusted.has(keys.pair)) {
        await this.deps.store.signInAddresses.remember(keys.pair, now, now - KNOWN_ADDRESS_MS)
        this.trusted.set(keys.pair, true)
      }
      return found
    }
    const limits = this.deps.config.rateLimit
    await this.fail(keys.pair, limits.loginPerUsernamePerMinute, 60, now)
    await this.fail(keys.user, limits.loginPerUsernamePerHour, 3600, now).catch(async (err: unknown) => {
      if (!(await isTrusted())) throw err
    })
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
