/**
 * The one rule of user and API-key management: an actor never acts beyond its own rights.
 *
 * Rights are scopes plus administrator status. The actor's rights are those of the credential it
 * used (an API key's scopes, never its owner's). An actor may create, change, reset the password
 * of or delete a user only when it holds every right that user holds (and, for a change, every
 * right the user would hold after it); it grants only scopes it holds, and only an administrator
 * grants administrator status. An API key acts as an administrator only when it holds every scope
 * of its administrator owner (see authenticate.ts): a key limited to `[team]` manages users as a
 * non-administrator with scope team. API keys are created with a user session (password or
 * access token) only: a key minted by a key would outlive the revocation of the key that made it.
 * A credential reads, changes or deletes an API key only when it holds every scope that key acts
 * with (its scopes within its owner's): a key limited to `[read]` cannot touch its owner's
 * full-scope keys, while a user session, which holds every scope of the user, manages all of them.
 */
import { ApiError } from '../../shared/errors.js'
import type { Principal } from '../../shared/principal.js'

export interface Rights {
  scopes: readonly string[]
  isAdmin: boolean
}

export function isSubset(a: readonly string[], b: readonly string[]): boolean {
  return a.every((x) => b.includes(x))
}

/** Whether `actor` holds every right of `subject`. */
export function covers(actor: Rights, subject: Rights): boolean {
  return isSubset(subject.scopes, actor.scopes) && (!subject.isAdmin || actor.isAdmin)
}

function forbidden(message: string): ApiError {
  return new ApiError('API_INSUFFICIENT_RIGHTS', message)
}

/** Refuses, naming the first right `actor` lacks, unless it holds every right of `subject`. */
export function requireCovers(actor: Rights, subject: Rights, what: string): void {
  if (subject.isAdmin && !actor.isAdmin) throw forbidden(`Only an administrator may ${what} an administrator`)
  const missing = subject.scopes.filter((s) => !actor.scopes.includes(s))
  if (missing.length > 0) throw forbidden(`You cannot ${what} a user holding scope ${missing.join(', ')}, which your credential lacks`)
}

/** The scopes an API key acts with: its own within its owner's current ones (authenticate.ts). */
function keyScopes(key: { scopes: readonly string[] }, owner: Rights | null): readonly string[] {
  return owner ? key.scopes.filter((s) => owner.scopes.includes(s)) : key.scopes
}

/** Whether `actor` holds every scope the API key `key` of `owner` acts with. */
export function keyWithin(actor: Rights, key: { scopes: readonly string[] }, owner: Rights | null): boolean {
  return isSubset(keyScopes(key, owner), actor.scopes)
}

/** Refuses, naming the scopes `actor` lacks, unless it holds every scope the key acts with. */
export function requireKeyWithin(actor: Rights, key: { scopes: readonly string[] }, owner: Rights | null): void {
  const missing = keyScopes(key, owner).filter((s) => !actor.scopes.includes(s))
  if (missing.length > 0) throw forbidden(`You cannot act on an API key holding scope ${missing.join(', ')}, which your credential lacks`)
}

/** Granting `scopes` (and, when given, administrator status): never beyond the actor's own. */
export function requireGrant(actor: Rights, scopes: readonly string[] | undefined, isAdmin: boolean | undefined): void {
  if (isAdmin !== undefined && !actor.isAdmin) throw forbidden('Only an administrator may grant or remove administrator rights')
  if (scopes && !isSubset(scopes, actor.scopes)) throw forbidden('Scopes beyond your own cannot be granted')
}

/** The operations (`METHOD path`) that need a user session: the OpenAPI document omits API keys from them. */
export const SESSION_ONLY_OPERATIONS: ReadonlySet<string> = new Set(['POST api-tokens'])

/** Creating API keys needs a user session. */
export function requireSession(p: Principal): void {
  if (p.method === 'apiKey') throw forbidden('API keys are created with a user session (password or access token), not with another API key')
}
