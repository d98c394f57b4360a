/** Directory groups → netinv scopes and administrator status, by the `ldap.groups` mapping. */
import type { LdapGroupMapping } from '../../../shared/config/ldap.js'
import { SCOPES, type Scope } from '../../../shared/manifest.js'
import { firstRdnValue, normalizeDn } from './filters.js'

export interface DirectoryRights {
  scopes: Scope[]
  isAdmin: boolean
}

/** The union of what the groups are mapped to; a mapping key is a group DN or its `cn`, without case. */
export function rightsOfGroups(groups: readonly string[], mapping: Readonly<Record<string, LdapGroupMapping>>): DirectoryRights {
  const names = new Set<string>()
  for (const dn of groups) {
    names.add(normalizeDn(dn))
    names.add(firstRdnValue(dn).toLowerCase())
  }
  const scopes = new Set<string>()
  let isAdmin = false
  for (const [key, m] of Object.entries(mapping)) {
    const k = key.includes('=') ? normalizeDn(key) : key.trim().toLowerCase()
    if (!names.has(k)) continue
    for (const s of m.scopes) scopes.add(s)
    isAdmin ||= m.isAdmin
  }
  return { scopes: SCOPES.filter((s) => scopes.has(s)), isAdmin }
}
