/**
 * Single sign-on with OpenID Connect (authorization code flow with PKCE S256, state and nonce),
 * by openid-client: the provider's discovery document gives its endpoints and JWKS, and the
 * library checks the ID token (signature by the JWKS, `iss`, `aud`, `exp`/`iat` within the clock
 * tolerance, `nonce`) and the answer's `state`. The user is made or updated by accounts.ts; the
 * provider's tokens come back with it, for the session's re-checks at refresh (recheck.ts). The
 * command line's device login is device.ts; a login that waits for the EULA, eula-tickets.ts.
 */
import * as oidc from 'openid-client'
import type { ProviderSession, User } from '../../identity/index.js'
import { userOfClaims } from './accounts.js'
import { DeviceLogins } from './device.js'
import { EulaTickets } from './eula-tickets.js'
import { pendingDo, pendingStore, type PendingLogin, type PendingStore } from './pending.js'
import { callbackUrl, keptTokens, refused, SsoProviders } from './providers.js'
import { recheck, type Recheck } from './recheck.js'
import type { SsoDeps, SsoLogin } from './types.js'

export type { SsoDeps, SsoLogin } from './types.js'

export class SsoLogins {
  readonly providers: SsoProviders
  readonly device: DeviceLogins
  readonly eulaTickets: EulaTickets
  private readonly pending: PendingStore<PendingLogin>

  constructor(private readonly deps: SsoDeps) {
    this.providers = new SsoProviders(deps)
    this.pending = pendingStore<PendingLogin>('pending', deps.clock, deps.redis)
    this.device = new DeviceLogins(deps, this.providers)
    this.eulaTickets = new EulaTickets(deps)
  }

  /** Names, display names and start addresses, for GET auth/providers. */
  list(): { name: string; displayName: string; start: string }[] {
    return this.providers.list()
  }

  /** The provider's authorization address for a new login, and the state that identifies it. */
  async start(name: string): Promise<{ url: string; state: string }> {
    const p = this.providers.provider(name)
    const config = await this.providers.reach(name, p)
    const codeVerifier = oidc.randomPKCECodeVerifier()
    const state = oidc.randomState()
    const nonce = oidc.randomNonce()
    const scope = [...new Set(['openid', ...p.scopes])].join(' ')
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: callbackUrl(p, name),
      scope,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    })
    const login: PendingLogin = { provider: name, nonce, codeVerifier, expiresAt: this.deps.clock() + this.deps.config.sso.stateTtlSeconds * 1000 }
    await pendingDo(this.deps.log, this.pending, (s) => s.put(state, login))
    return { url: url.href, state }
  }

  /**
   * The provider's answer (`query` of the callback, `browserState` the state cookie of the browser
   * that started the login): the user it logs in, created or updated, or an ApiError.
   */
  async finish(name: string, query: URLSearchParams, browserState: string | null): Promise<SsoLogin> {
    const p = this.providers.provider(name)
    const state = query.get('state')
    if (!state) throw refused('no state in the answer')
    const login = await pendingDo(this.deps.log, this.pending, (s) => s.take(state))
    if (!login) throw refused('unknown, expired or already used state')
    if (login.provider !== name) throw refused(`state of provider ${login.provider} answered at ${name}`)
    if (browserState !== state) throw refused('the state belongs to another browser')
    const error = query.get('error')
    if (error) {
      const description = (query.get('error_description') ?? '').slice(0, 200)
      throw refused(`provider error: ${error}${description ? ` (${description})` : ''}`, `The single sign-on provider refused the login (${error.slice(0, 64)})`)
    }
    const config = await this.providers.reach(name, p)
    const current = new URL(callbackUrl(p, name))
    for (const [k, v] of query) current.searchParams.append(k, v)
    let answer: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>
    let claims: oidc.IDToken
    try {
      answer = await oidc.authorizationCodeGrant(config, current, { pkceCodeVerifier: login.codeVerifier, expectedState: state, expectedNonce: login.nonce, idTokenExpected: true })
      const c = answer.claims()
      if (!c) throw new Error('no ID token')
      claims = c
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      this.deps.log.info({ provider: name, reason: message }, 'single sign-on refused')
      throw refused(`the provider's answer failed its checks: ${message.slice(0, 200)}`)
    }
    const user = await userOfClaims(this.deps.store, name, p, claims)
    return { user, session: { provider: name, subject: claims.sub, tokens: keptTokens(answer, this.deps.clock()) } }
  }

  /** At a refresh: asks the provider about the user again (recheck.ts). */
  recheck(user: User, session: ProviderSession): Promise<Recheck> {
    return recheck({ ...this.deps, providers: this.providers }, user, session)
  }
}

