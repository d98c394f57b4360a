/**
 * Started single sign-on logins waiting for the provider's answer, keyed by their `state`: the
 * provider, the nonce and the PKCE verifier stay in the gateway (never in the browser), each entry
 * lives `sso.stateTtlSeconds` at most and is taken once, so a replayed or forged `state` finds
 * nothing. Bounded: past `max` entries the oldest is dropped.
 */
import type { Clock } from '../../identity/index.js'

export interface PendingLogin {
  provider: string
  nonce: string
  codeVerifier: string
  expiresAt: number
}

export class PendingLogins {
  private readonly entries = new Map<string, PendingLogin>()

  constructor(
    private readonly clock: Clock,
    private readonly max = 10_000,
  ) {}

  put(state: string, login: PendingLogin): void {
    this.sweep()
    while (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next().value
      if (oldest === undefined) break
      this.entries.delete(oldest)
    }
    this.entries.set(state, login)
  }

  /** The login started with `state`, removed (single use); null when unknown or expired. */
  take(state: string): PendingLogin | null {
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
