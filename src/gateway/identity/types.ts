/** Records of the identity store as the rest of the gateway sees them (never a hash). */
import type { Scope } from '../../shared/manifest.js'

export interface User {
  id: string
  username: string
  scopes: Scope[]
  isAdmin: boolean
  eulaApproved: boolean
  email: string | null
  timezone: string
  isLocal: boolean
  /** The directory entry of a user of the LDAP directory (`isLocal` false), else null. */
  ldapDn: string | null
  /** The single sign-on provider of a user signed in through one (`isLocal` false), else null. */
  ssoProvider: string | null
  /** The provider's `sub` (stable account id) of a single sign-on user, else null. */
  ssoSubject: string | null
  createdAt: number
  updatedAt: number
}

export interface ApiKey {
  id: string
  userId: string
  username: string
  description: string
  /** Scopes granted to the key (the effective ones are these ∩ the owner's current scopes). */
  scopes: Scope[]
  expiresAt: number | null
  lastUsedAt: number | null
  usageCount: number
  createdAt: number
}

/** What changed, so that verification caches on every replica drop what depends on it. */
export type IdentityEvent = { type: 'user'; id: string } | { type: 'apiKey'; id: string }

/** Milliseconds since the epoch; injected so that tests drive expiry without sleeping. */
export type Clock = () => number
