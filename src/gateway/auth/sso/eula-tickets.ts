/**
 * A login through a provider by a user who has not approved the EULA yet ends in a ticket instead
 * of a session: a random string (a secret of the browser that finished the login) naming the user
 * and the provider's session, kept by the gateway for `sso.stateTtlSeconds` and used once. The web
 * interface shows the EULA and posts the ticket back with `POST auth/eula {ticket, accept: true}`,
 * which records the approval and opens the session the login would have opened. The provider's
 * tokens in the entry are sealed under the ticket, so the store alone (Redis) opens none of them.
 */
import { randomToken, seal, unseal, type ProviderSession } from '../../identity/index.js'
import { pendingDo, pendingStore, type Expiring, type PendingStore } from './pending.js'
import type { SsoDeps, SsoLogin } from './types.js'

interface PendingEula extends Expiring {
  userId: string
  sealed: string
}

export class EulaTickets {
  private readonly pending: PendingStore<PendingEula>

  constructor(private readonly deps: SsoDeps) {
    this.pending = pendingStore<PendingEula>('eula', deps.clock, deps.redis)
  }

  /** A new ticket for a completed login whose user has not approved the EULA. */
  async issue(login: SsoLogin): Promise<string> {
    const ticket = randomToken(43)
    const entry: PendingEula = { userId: login.user.id, sealed: seal(JSON.stringify(login.session), ticket), expiresAt: this.deps.clock() + this.deps.config.sso.stateTtlSeconds * 1000 }
    await pendingDo(this.deps.log, this.pending, (s) => s.put(ticket, entry))
    return ticket
  }

  /** The user id and provider session of a ticket, which is spent; null when unknown or expired. */
  async take(ticket: string): Promise<{ userId: string; session: ProviderSession } | null> {
    const entry = await pendingDo(this.deps.log, this.pending, (s) => s.take(ticket))
    if (!entry) return null
    const plain = unseal(entry.sealed, ticket)
    return plain === null ? null : { userId: entry.userId, session: JSON.parse(plain) as ProviderSession }
  }
}
