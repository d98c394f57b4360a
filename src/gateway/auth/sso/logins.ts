/**
 * Single sign-on with OpenID Connect (authorization code flow with PKCE S256, state and nonce),
 * by openid-client: the provider's discovery document gives its endpoints and JWKS, and the
 * library checks the ID token (signature by the JWKS, `iss`, `aud`, `exp`/`iat` within the clock
 * tolerance, `nonce`) and the answer's `state`. Users are created at their first login
 * (`isLocal` false, `ssoProvider`) and their scopes, administrator status and e-mail come from the
 * provider's claims at every login. A name that belongs to a local, directory or other provider's
 * user is refused, never merged.
 */
import { readFile } from 'node:fs/promises'
import * as oidc from 'openid-client'
import type { Logger } from 'pino'
import type { Config, SsoProviderConfig } from '../../../shared/config/index.js'
import { ApiError } from '../../../shared/errors.js'
import { withReason } from '../../audit/index.js'
import type { Clock, IdentityStore, User } from '../../identity/index.js'
import type { Cluster, Redis } from 'ioredis'
import { PendingLogins, RedisPendingLogins, type PendingLogin, type PendingStore } from './pending.js'
import { rightsOfClaim } from './rights.js'

/** Where the provider sends the browser back: `<redirectBaseUrl>/api/auth/sso/<name>/callback`. */
export function callbackUrl(provider: SsoProviderConfig, name: string): string {
  return `${provider.redirectBaseUrl.replace(/\/+$/, '')}/api/auth/sso/${name}/callback`
}

/** A refused single sign-on: the answer's error, with the reason the audit trail records. */
function refused(reason: string, message = 'The single sign-on did not complete; start again from the login page'): ApiError {
  return withReason(new ApiError('API_INVALID_CREDENTIALS', message), reason)
}

export class SsoLogins {
  private readonly pending: PendingStore
  private readonly discovered = new Map<string, Promise<oidc.Configuration>>()

  constructor(private readonly deps: { store: IdentityStore; config: Readonly<Config>; log: Logger; clock: Clock; redis?: Redis | Cluster | undefined }) {
    this.pending = deps.redis ? new RedisPendingLogins(deps.redis, deps.clock) : new PendingLogins(deps.clock)
  }

  /** The pending-login store; Redis down is a 503 (a login cannot be started or finished). */
  private async pendingDo<T>(what: (store: PendingStore) => Promise<T>): Promise<T> {
    try {
      return await what(this.pending)
    } catch (err) {
      this.deps.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'single sign-on: the pending logins cannot be reached')
      throw withReason(new ApiError('API_SERVICE_UNAVAILABLE', 'Single sign-on is unavailable for a moment; try again later'), 'pending logins unreachable (Redis)')
    }
  }

  /** The configured provider of this name, else 404. */
  provider(name: string): SsoProviderConfig {
    const p = Object.hasOwn(this.deps.config.sso.providers, name) ? this.deps.config.sso.providers[name] : undefined
    if (!p || !p.issuer || !p.clientId || !p.redirectBaseUrl) throw new ApiError('API_NOT_FOUND', `No single sign-on provider "${name}" is configured`)
    return p
  }

  /** Names, display names and start addresses, for GET auth/providers. */
  list(): { name: string; displayName: string; start: string }[] {
    return Object.entries(this.deps.config.sso.providers)
      .filter(([, p]) => p.issuer && p.clientId && p.redirectBaseUrl)
      .map(([name, p]) => ({ name, displayName: p.displayName || name, start: `/api/auth/sso/${name}/start` }))
  }

  /** The provider's configuration from its discovery document (cached; a failure is tried again next time). */
  private configuration(name: string, p: SsoProviderConfig): Promise<oidc.Configuration> {
    const key = `${name}\n${p.issuer}\n${p.clientId}\n${p.clientSecretFile}`
    let found = this.discovered.get(key)
    if (!found) {
      found = (async () => {
        const secret = p.clientSecretFile ? ((await readFile(p.clientSecretFile, 'utf8')).split(/\r?\n/)[0] ?? '') : undefined
        const metadata: Partial<oidc.ClientMetadata> = { [oidc.clockTolerance]: p.clockToleranceSeconds }
        if (secret) metadata.client_secret = secret
        // The ID token's signature is checked by the provider's JWKS even though it comes straight
        // from the token endpoint (openid-client skips that unless told).
        const execute = p.allowInsecureHttp ? [oidc.enableNonRepudiationChecks, oidc.allowInsecureRequests] : [oidc.enableNonRepudiationChecks]
        return oidc.discovery(new URL(p.issuer), p.clientId, metadata, secret ? undefined : oidc.None(), { execute })
      })()
      found.catch(() => this.discovered.delete(key))
      this.discovered.set(key, found)
    }
    return found
  }

  private async reach(name: string, p: SsoProviderConfig): Promise<oidc.Configuration> {
    try {
      return await this.configuration(name, p)
    } catch (err) {
      this.deps.log.warn({ provider: name, err: err instanceof Error ? err.message : String(err) }, 'the single sign-on provider is unavailable')
      throw withReason(new ApiError('API_SERVICE_UNAVAILABLE', `The single sign-on provider "${name}" cannot be reached; try again later`), `provider ${name} unreachable`)
    }
  }

  /** The provider's authorization address for a new login, and the state that identifies it. */
  async start(name: string): Promise<{ url: string; state: string }> {
    const p = this.provider(name)
    const config = await this.reach(name, p)
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
    await this.pendingDo((p) => p.put(state, login))
    return { url: url.href, state }
  }

  /**
   * The provider's answer (`query` of the callback, `browserState` the state cookie of the browser
   * that started the login): the user it logs in, created or updated, or an ApiError.
   */
  async finish(name: string, query: URLSearchParams, browserState: string | null): Promise<User> {
    const p = this.provider(name)
    const state = query.get('state')
    if (!state) throw refused('no state in the answer')
    const login = await this.pendingDo((p) => p.take(state))
    if (!login) throw refused('unknown, expired or already used state')
    if (login.provider !== name) throw refused(`state of provider ${login.provider} answered at ${name}`)
    if (browserState !== state) throw refused('the state belongs to another browser')
    const error = query.get('error')
    if (error) {
      const description = (query.get('error_description') ?? '').slice(0, 200)
      throw refused(`provider error: ${error}${description ? ` (${description})` : ''}`, `The single sign-on provider refused the login (${error.slice(0, 64)})`)
    }
    const config = await this.reach(name, p)
    const current = new URL(callbackUrl(p, name))
    for (const [k, v] of query) current.searchParams.append(k, v)
    let claims: oidc.IDToken
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, { pkceCodeVerifier: login.codeVerifier, expectedState: state, expectedNonce: login.nonce, idTokenExpected: true })
      const c = tokens.claims()
      if (!c) throw new Error('no ID token')
      claims = c
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      this.deps.log.info({ provider: name, reason: message }, 'single sign-on refused')
      throw refused(`the provider's answer failed its checks: ${message.slice(0, 200)}`)
    }
    return this.store(name, p, claims)
  }

  private async store(name: string, p: SsoProviderConfig, claims: oidc.IDToken): Promise<User> {
    const raw = claims[p.usernameClaim]
    const username = typeof raw === 'string' ? raw.trim() : ''
    if (!username) throw refused(`the ID token has no ${p.usernameClaim} claim`, `The provider sent no "${p.usernameClaim}" for your account; ask an administrator`)
    const { scopes, isAdmin } = rightsOfClaim(claims[p.groupsClaim], p.groups)
    const email = typeof claims.email === 'string' ? claims.email : null
    const users = this.deps.store.users
    const existing = await users.byUsername(username)
    if (existing && existing.ssoProvider !== name) {
      const kind = existing.isLocal ? 'local' : existing.ldapDn !== null ? 'directory' : `single sign-on (${existing.ssoProvider ?? '?'})`
      throw refused(`the name "${username}" belongs to a ${kind} user`, 'This account cannot log in through this provider; ask an administrator')
    }
    // The provider's stable account id: a name the provider gives to another account later is
    // not the same user.
    const subject = claims.sub
    if (existing && existing.ssoSubject !== null && existing.ssoSubject !== subject) {
      throw refused(`the name "${username}" belongs to another account of provider ${name} (sub differs)`, 'This account cannot log in through this provider; ask an administrator')
    }
    if (scopes.length === 0) {
      if (existing && existing.scopes.length > 0) await users.update(existing.id, { scopes: [], isAdmin: false })
      throw withReason(
        new ApiError('API_INSUFFICIENT_RIGHTS', `Your account holds no ${p.groupsClaim} value that netinv maps to a scope; ask an administrator to map one (sso.providers.${name}.groups)`),
        `no mapped ${p.groupsClaim}`,
      )
    }
    if (!existing) {
      try {
        return await users.create({ username, password: null, scopes, isAdmin, email, isLocal: false, ssoProvider: name, ssoSubject: subject, eulaApproved: p.eulaApproved })
      } catch (err) {
        if (err instanceof ApiError && err.status < 500) throw refused(`the name cannot be a netinv user: ${err.message}`, 'This account cannot log in; ask an administrator')
        throw err
      }
    }
    const same = existing.isAdmin === isAdmin && existing.email === email && existing.scopes.join() === scopes.join() && existing.ssoSubject === subject
    if (same) return existing
    const user = await users.update(existing.id, { scopes, isAdmin, email, ssoSubject: subject })
    if (!user) throw refused('the user was deleted meanwhile')
    return user
  }
}
