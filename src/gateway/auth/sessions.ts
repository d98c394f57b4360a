/**
 * Login and refresh: the token-issuing half of authentication.
 *
 * Which password decides (docs/authentication.md, "Which method works when"):
 * - a local user's name: the password netinv keeps (refused with 403
 *   API_LOCAL_AUTHENTICATION_DISABLED when local authentication is off, and then only after the
 *   right password, so that the answer enumerates nobody); the directory is never asked, so a
 *   directory that is down never blocks a local login;
 * - any other name, with `ldap.enabled`: the directory (ldap/logins.ts), which creates or updates
 *   the user; a directory user is rechecked with the directory at every refresh;
 * - any other name without a directory: the local check, which fails.
 * Every failed check gives the same API_INVALID_CREDENTIALS, and a local password is always hashed,
 * whether the user exists or not (passwords.ts, which also limits failures per username, for the
 * directory's checks too).
 */
import type { Logger } from 'pino'
import type { Config } from '../../shared/config/index.js'
import { ApiError } from '../../shared/errors.js'
import type { Scope } from '../../shared/manifest.js'
import { withReason } from '../audit/index.js'
import type { Clock, IdentityStore, ProviderSession, User } from '../identity/index.js'
import type { AccessTokens } from './jwt.js'
import type { DirectoryLogins } from './ldap/logins.js'
import type { PasswordChecks } from './passwords.js'
import type { SsoLogins } from './sso/logins.js'

export interface LoginResult {
  accessToken: string
  refreshToken: string
  eula: boolean
  scope: Scope[]
  id: string
}

export interface SessionsDeps {
  store: IdentityStore
  tokens: AccessTokens
  config: Readonly<Config>
  passwords: PasswordChecks
  directory: DirectoryLogins
  sso: SsoLogins
  log: Logger
  clock: Clock
}

/** How a login was checked (the audit trail and the log say it). */
export type LoginMethod = 'local' | 'ldap' | 'sso'

const NO_SCOPE = 'Your account holds no directory group that netinv maps to a scope; ask an administrator to map one (ldap.groups)'

export class Sessions {
  constructor(private readonly deps: SessionsDeps) {}

  private get localEnabled(): boolean {
    return this.deps.config.app.enableLocalAuthentication
  }

  /** Checks username and password; the user (EULA not yet checked) or API_INVALID_CREDENTIALS. */
  async checkPassword(username: string, password: string, from: string): Promise<User> {
    return (await this.check(username, password, from)).user
  }

  private async check(username: string, password: string, from: string): Promise<{ user: User; method: LoginMethod }> {
    const { store, directory, passwords } = this.deps
    const known = await store.users.byUsername(username)
    const useDirectory = directory.enabled && (known === null || known.ldapDn !== null)
    if (!useDirectory) {
      if (!this.localEnabled && !directory.enabled) throw new ApiError('API_LOCAL_AUTHENTICATION_DISABLED')
      const found = await passwords.verify(username, password, from)
      if (!found) throw withReason(new ApiError('API_INVALID_CREDENTIALS'), 'unknown user or wrong password')
      if (!found.user.isLocal) throw withReason(new ApiError('API_INVALID_CREDENTIALS'), 'not a local user')
      if (found.user.scopes.length === 0) throw withReason(new ApiError('API_INVALID_CREDENTIALS'), 'the user has no scope')
      if (!this.localEnabled) throw new ApiError('API_LOCAL_AUTHENTICATION_DISABLED')
      return { user: found.user, method: 'local' }
    }
    const outcome = await passwords.guard(username, from, async () => {
      const o = await directory.login(username, password)
      // A refusal after a right password (name taken, no scope) is no guess: not counted.
      return 'refused' in o && o.refused === 'unknown user or wrong password' ? null : o
    })
    if (outcome === null) throw withReason(new ApiError('API_INVALID_CREDENTIALS'), 'directory: unknown user or wrong password')
    if ('refused' in outcome) {
      this.deps.log.info({ username, reason: outcome.refused }, 'directory login refused')
      throw withReason(new ApiError('API_INVALID_CREDENTIALS'), `directory: ${outcome.refused}`)
    }
    if (outcome.user.scopes.length === 0) throw new ApiError('API_INSUFFICIENT_RIGHTS', NO_SCOPE)
    return { user: outcome.user, method: 'ldap' }
  }

  async login(username: string, password: string, from: string): Promise<LoginResult & { familyId: string; method: LoginMethod; username: string }> {
    const { user, method } = await this.check(username, password, from)
    return this.open(user, method)
  }

  /**
   * A new session (refresh-token family and access token) for a user whose login was checked; a
   * login through a provider keeps the provider's session with it, for the re-checks at refresh.
   */
  async open(user: User, method: LoginMethod, provider?: ProviderSession): Promise<LoginResult & { familyId: string; method: LoginMethod; username: string }> {
    if (!user.eulaApproved) throw new ApiError('API_MISSING_EULA_APPROVAL')
    const { refreshToken, familyId } = await this.deps.store.refreshTokens.issue(user.id)
    if (provider) await this.deps.store.providerSessions.put(familyId, refreshToken, provider)
    const { token } = await this.deps.tokens.sign(user, familyId)
    return { accessToken: token, refreshToken, eula: true, scope: user.scopes, id: user.id, familyId, method, username: user.username }
  }

  /** Ends a session that may no longer be refreshed, with the reason the audit trail records. */
  private async endFamily(family: string, reason: string): Promise<never> {
    await this.deps.store.refreshTokens.revokeFamily(family)
    throw withReason(new ApiError('API_INVALID_REFRESH_TOKEN'), reason)
  }

  /**
   * A single sign-on user's session is refreshed while the provider, asked again (sso/recheck.ts),
   * still knows the user and maps them to a scope, and for `reauthenticateAfterSeconds` after its
   * login at most; otherwise the session ends. The provider's session is opened with `openWith`
   * (the refresh token it is sealed under). Answers the provider's session as it is now, to seal
   * again under the token handed out; null when `openWith` does not open it (a rotated token: the
   * refresh-token store decides on it).
   */
  private async recheckSso(owner: User, family: string, openWith: string): Promise<ProviderSession | null> {
    const { refreshTokens, providerSessions } = this.deps.store
    const name = owner.ssoProvider ?? ''
    const provider = Object.hasOwn(this.deps.config.sso.providers, name) ? this.deps.config.sso.providers[name] : undefined
    if (!provider) return this.endFamily(family, `single sign-on provider ${name} is no longer configured`)
    const started = await refreshTokens.familyStartedAt(family)
    if (started !== null && this.deps.clock() - started > provider.reauthenticateAfterSeconds * 1000) {
      return this.endFamily(family, `single sign-on session older than ${provider.reauthenticateAfterSeconds} s: log in through the provider again`)
    }
    const session = await providerSessions.get(family, openWith)
    if (session === 'sealed') return null
    if (session === null) return this.endFamily(family, 'no provider session to ask about the user: log in through the provider again')
    const outcome = await this.deps.sso.recheck(owner, session)
    if ('refused' in outcome) {
      this.deps.log.info({ username: owner.username, reason: outcome.refused }, 'single sign-on user refused at refresh')
      return this.endFamily(family, outcome.refused)
    }
    return { ...session, tokens: outcome.tokens }
  }

  /**
   * POST auth/token: keeps (original generation) or rotates (6.1 and later) the refresh token.
   * A directory user is first looked up in the directory again: removed or disabled there, its
   * session ends; the directory down, 503 and the token stays as it was.
   */
  async refresh(refreshToken: string, rotate: boolean): Promise<LoginResult> {
    const ownerId = await this.deps.store.refreshTokens.ownerOf(refreshToken)
    let owner = ownerId === null ? null : await this.deps.store.users.byId(ownerId)
    let refused = 'the directory is not enabled'
    if (owner?.isLocal && !this.localEnabled) throw new ApiError('API_LOCAL_AUTHENTICATION_DISABLED')
    const ssoFamily = owner?.ssoProvider != null ? await this.deps.store.refreshTokens.familyOf(refreshToken) : null
    let provider: ProviderSession | null = null
    if (owner && ssoFamily !== null) provider = await this.recheckSso(owner, ssoFamily, refreshToken)
    if (owner?.ldapDn != null) {
      if (!this.deps.directory.enabled) owner = null
      else {
        const outcome = await this.deps.directory.recheck(owner)
        if ('refused' in outcome) {
          this.deps.log.info({ username: owner.username, reason: outcome.refused }, 'directory user refused at refresh')
          refused = `directory: ${outcome.refused}`
          owner = null
        }
      }
      if (owner === null) {
        const family = await this.deps.store.refreshTokens.familyOf(refreshToken)
        if (family) await this.deps.store.refreshTokens.revokeFamily(family)
        throw withReason(new ApiError('API_INVALID_REFRESH_TOKEN'), refused)
      }
    }
    const outcome = await this.deps.store.refreshTokens.refresh(refreshToken, rotate)
    // A reused token revoked its whole family: the audit trail says so (`reused`).
    if (!outcome.ok) throw withReason(new ApiError('API_INVALID_REFRESH_TOKEN'), outcome.reason === 'reused' ? 'reused: the session was revoked' : outcome.reason)
    if (owner && ssoFamily !== null) {
      // A token the provider's session was not sealed under that still refreshed (the reuse
      // grace answered its successor): the provider is asked now, with the successor.
      provider ??= await this.recheckSso(owner, ssoFamily, outcome.refreshToken)
      if (provider === null) await this.endFamily(ssoFamily, 'the provider session does not open with this session\'s token')
      else await this.deps.store.providerSessions.put(ssoFamily, outcome.refreshToken, provider)
    }
    const user = await this.deps.store.users.byId(outcome.userId)
    if (!user || user.scopes.length === 0 || !user.eulaApproved) {
      await this.deps.store.refreshTokens.revokeFamily(outcome.familyId)
      throw withReason(new ApiError('API_INVALID_REFRESH_TOKEN'), 'the user may no longer act (deleted, no scope or no EULA)')
    }
    const { token } = await this.deps.tokens.sign(user, outcome.familyId)
    return { accessToken: token, refreshToken: outcome.refreshToken, eula: true, scope: user.scopes, id: user.id }
  }
}
