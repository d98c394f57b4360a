/**
 * Login and refresh: the token-issuing half of authentication. Every failed login gives the same
 * API_INVALID_CREDENTIALS (unknown user, wrong password, no scope, not local), and a password is
 * always hashed, whether the user exists or not, so neither answer nor timing enumerates users
 * (passwords.ts, which also limits failures per username and bounds the hashing).
 */
import type { Config } from '../../shared/config/index.js'
import { ApiError } from '../../shared/errors.js'
import type { Scope } from '../../shared/manifest.js'
import type { IdentityStore, User } from '../identity/index.js'
import type { AccessTokens } from './jwt.js'
import type { PasswordChecks } from './passwords.js'

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
}

export class Sessions {
  constructor(private readonly deps: SessionsDeps) {}

  private requireLocal(): void {
    if (!this.deps.config.app.enableLocalAuthentication) throw new ApiError('API_LOCAL_AUTHENTICATION_DISABLED')
  }

  /** Checks username and password; the user (EULA not yet checked) or API_INVALID_CREDENTIALS. */
  async checkPassword(username: string, password: string, from: string): Promise<User> {
    this.requireLocal()
    const found = await this.deps.passwords.verify(username, password, from)
    if (!found || !found.user.isLocal || found.user.scopes.length === 0) throw new ApiError('API_INVALID_CREDENTIALS')
    return found.user
  }

  async login(username: string, password: string, from: string): Promise<LoginResult & { familyId: string }> {
    const user = await this.checkPassword(username, password, from)
    if (!user.eulaApproved) throw new ApiError('API_MISSING_EULA_APPROVAL')
    const { refreshToken, familyId } = await this.deps.store.refreshTokens.issue(user.id)
    const { token } = await this.deps.tokens.sign(user, familyId)
    return { accessToken: token, refreshToken, eula: true, scope: user.scopes, id: user.id, familyId }
  }

  /** POST auth/token: keeps (original generation) or rotates (6.1 and later) the refresh token. */
  async refresh(refreshToken: string, rotate: boolean): Promise<LoginResult> {
    this.requireLocal()
    const outcome = await this.deps.store.refreshTokens.refresh(refreshToken, rotate)
    if (!outcome.ok) throw new ApiError('API_INVALID_REFRESH_TOKEN')
    const user = await this.deps.store.users.byId(outcome.userId)
    if (!user || user.scopes.length === 0 || !user.eulaApproved) {
      await this.deps.store.refreshTokens.revokeFamily(outcome.familyId)
      throw new ApiError('API_INVALID_REFRESH_TOKEN')
    }
    const { token } = await this.deps.tokens.sign(user, outcome.familyId)
    return { accessToken: token, refreshToken: outcome.refreshToken, eula: true, scope: user.scopes, id: user.id }
  }
}
