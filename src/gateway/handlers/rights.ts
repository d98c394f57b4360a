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

/** Granting `scopes` (and, when given, administrator status): never beyond the actor's own. */
export function requireGrant(actor: Rights, scopes: readonly string[] | undefined, isAdmin: boolean | undefined): void {
  if (isAdmin !== undefined && !actor.isAdmin) throw forbidden('Only an administrator may grant or remove administrator rights')
  if (scopes && !isSubset(scopes, actor.scopes)) throw forbidden('Scopes beyond your own cannot be granted')
}

/** Creating API keys needs a user session. */
export function requireSession(p: Principal): void {
  if (p.method === 'apiKey') throw forbidden('API keys are created with a user session (password or access token), not with another API key')
}
