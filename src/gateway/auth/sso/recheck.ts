/**
 * At every refresh of a session opened through a provider, the provider is asked about the user
 * again, as it allows: with the provider's refresh token when it gave one (a removed or disabled
 * account, or a revoked grant, is refused there), then its ID token's claims or, when they lack the
 * groups claim, its userinfo endpoint; without a refresh token, userinfo while the provider's
 * access token lasts, and a new login through the provider after that. The groups found set the
 * user's scopes again; none mapped, the session ends. A provider that cannot be reached is a 503
 * that leaves the session as it was (the user refreshes again later).
 */
import * as oidc from 'openid-client'
import type { Logger } from 'pino'
import type { Clock, IdentityStore, ProviderSession, ProviderTokens, User } from '../../identity/index.js'
import { rightsAtRefresh, type Claims } from './accounts.js'
import { keptTokens, unavailable, type SsoProviders } from './providers.js'

export type Recheck = { user: User; tokens: ProviderTokens } | { refused: string }

interface RecheckDeps {
  store: IdentityStore
  log: Logger
  clock: Clock
  providers: SsoProviders
}

/** Whether an error of openid-client means the provider refused (else it could not be asked). */
function refusal(err: unknown): string | null {
  if (err instanceof oidc.ResponseBodyError) return err.status < 500 ? `${err.error}${err.error_description ? ` (${err.error_description.slice(0, 120)})` : ''}` : null
  if (err instanceof oidc.WWWAuthenticateChallengeError) return err.status < 500 ? `userinfo answered ${err.status}` : null
  if (err instanceof oidc.ClientError) {
    const cause = err.cause
    if (cause instanceof Response && cause.status >= 500) return null
    return `its answer failed its checks: ${err.message.slice(0, 160)}`
  }
  return null
}

export async function recheck(deps: RecheckDeps, user: User, session: ProviderSession): Promise<Recheck> {
  const name = session.provider
  const p = deps.providers.configured(name)
  if (!p) return { refused: `single sign-on provider ${name} is no longer configured` }
  if (user.ssoProvider !== name) return { refused: `the session's provider ${name} is not the user's` }
  const config = await deps.providers.reach(name, p)
  const now = deps.clock()
  let tokens = session.tokens
  let claims: Claims | undefined
  try {
    if (tokens.refreshToken) {
      const answer = await oidc.refreshTokenGrant(config, tokens.refreshToken)
      tokens = { ...keptTokens(answer, now) }
      tokens.refreshToken ??= session.tokens.refreshToken
      claims = answer.claims()
    } else if (!tokens.accessToken || (tokens.accessExpiresAt !== undefined && tokens.accessExpiresAt <= now)) {
      return { refused: `provider ${name} gave no refresh token and its access token has expired: log in through the provider again` }
    }
    if (!claims || !Object.hasOwn(claims, p.groupsClaim)) {
      if (tokens.accessToken && config.serverMetadata().userinfo_endpoint) {
        const info = await oidc.fetchUserInfo(config, tokens.accessToken, session.subject)
        claims = { ...claims, ...info }
      } else if (!claims) return { refused: `provider ${name} has no userinfo endpoint to ask about the user` }
    }
  } catch (err) {
    const why = refusal(err)
    if (why === null) {
      deps.log.warn({ provider: name, err: err instanceof Error ? err.message : String(err) }, 'single sign-on provider unreachable at a refresh')
      throw unavailable(`The single sign-on provider "${name}" cannot be reached to renew your session; try again later`, `provider ${name} unreachable at refresh`)
    }
    return { refused: `provider ${name} refused: ${why}` }
  }
  const outcome = await rightsAtRefresh(deps.store, name, p, user, claims)
  return 'refused' in outcome ? outcome : { user: outcome.user, tokens }
}
