/**
 * The netinv user of a provider's account: created at its first login (`isLocal` false,
 * `ssoProvider`, the account's `sub`), its scopes, administrator status and e-mail taken from the
 * provider's claims at every login and every refresh. A name that belongs to a local, directory or
 * other provider's user, or to another account of the same provider, is refused, never merged.
 */
import type { IDToken, UserInfoResponse } from 'openid-client'
import type { SsoProviderConfig } from '../../../shared/config/index.js'
import { ApiError } from '../../../shared/errors.js'
import { withReason } from '../../audit/index.js'
import type { IdentityStore, User } from '../../identity/index.js'
import { refused } from './providers.js'
import { rightsOfClaim } from './rights.js'

export type Claims = IDToken | UserInfoResponse

function noScope(name: string, p: SsoProviderConfig): ApiError {
  return withReason(
    new ApiError('API_INSUFFICIENT_RIGHTS', `Your account holds no ${p.groupsClaim} value that netinv maps to a scope; ask an administrator to map one (sso.providers.${name}.groups)`),
    `no mapped ${p.groupsClaim}`,
  )
}

/** The user an ID token logs in, created or updated; an ApiError when it may not log in. */
export async function userOfClaims(store: IdentityStore, name: string, p: SsoProviderConfig, claims: IDToken): Promise<User> {
  const raw = claims[p.usernameClaim]
  const username = typeof raw === 'string' ? raw.trim() : ''
  if (!username) throw refused(`the ID token has no ${p.usernameClaim} claim`, `The provider sent no "${p.usernameClaim}" for your account; ask an administrator`)
  const { scopes, isAdmin } = rightsOfClaim(claims[p.groupsClaim], p.groups)
  const email = typeof claims.email === 'string' ? claims.email : null
  const users = store.users
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
    throw noScope(name, p)
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

/**
 * At a refresh: the user's rights from the provider's current claims (of the same account), the
 * user updated when they changed; a reason when the user may no longer act.
 */
export async function rightsAtRefresh(store: IdentityStore, name: string, p: SsoProviderConfig, user: User, claims: Claims): Promise<{ user: User } | { refused: string }> {
  if (user.ssoSubject !== null && claims.sub !== user.ssoSubject) return { refused: `provider ${name} answered for another account (sub differs)` }
  const { scopes, isAdmin } = rightsOfClaim(claims[p.groupsClaim], p.groups)
  const email = typeof claims.email === 'string' ? claims.email : user.email
  if (scopes.length === 0) {
    if (user.scopes.length > 0) await store.users.update(user.id, { scopes: [], isAdmin: false })
    return { refused: `provider ${name}: no mapped ${p.groupsClaim} any more` }
  }
  if (user.isAdmin === isAdmin && user.email === email && user.scopes.join() === scopes.join()) return { user }
  const updated = await store.users.update(user.id, { scopes, isAdmin, email })
  return updated ? { user: updated } : { refused: 'the user was deleted meanwhile' }
}
