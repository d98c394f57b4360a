/** A provider's groups (or roles) claim → netinv scopes and administrator status, by `sso.providers.<name>.groups`. */
import type { SsoGroupMapping } from '../../../shared/config/sso.js'
import { SCOPES, type Scope } from '../../../shared/manifest.js'

export interface SsoRights {
  scopes: Scope[]
  isAdmin: boolean
}

/** The claim's values: a list of strings, or one string; anything else holds none. */
export function claimValues(claim: unknown): string[] {
  if (typeof claim === 'string') return [claim]
  if (Array.isArray(claim)) return claim.filter((v): v is string => typeof v === 'string')
  return []
}

/** The union of what the values are mapped to (exact comparison). */
export function rightsOfClaim(claim: unknown, mapping: Readonly<Record<string, SsoGroupMapping>>): SsoRights {
  const values = new Set(claimValues(claim))
  const scopes = new Set<string>()
  let isAdmin = false
  for (const [value, m] of Object.entries(mapping)) {
    if (!values.has(value)) continue
    for (const s of m.scopes) scopes.add(s)
    isAdmin ||= m.isAdmin
  }
  return { scopes: SCOPES.filter((s) => scopes.has(s)), isAdmin }
}
