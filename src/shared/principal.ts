/**
 * Who is calling, as the gateway established it, and how that identity travels to the inventory:
 * internal headers that the gateway always strips from client input, guarded by a shared secret.
 */
import { timingSafeEqual, hash } from 'node:crypto'
import { SCOPES, type Scope } from './manifest.js'

export interface Principal {
  /** User id. */
  id: string
  username: string
  /** Effective scopes (for an API key: the key's scopes ∩ the owner's current scopes). */
  scopes: Scope[]
  isAdmin: boolean
  method: 'apiKey' | 'basic' | 'bearer' | 'cookie'
  /** Set when authenticated by API key. */
  apiKeyId?: string
}

/** Internal header names (lower case). Clients can never set them: the gateway strips them. */
export const INTERNAL_HEADERS = {
  secret: 'x-netinv-internal-secret',
  principal: 'x-netinv-principal',
  apiVersion: 'x-netinv-api-version',
  generation: 'x-netinv-generation',
} as const

export const INTERNAL_HEADER_NAMES: readonly string[] = Object.values(INTERNAL_HEADERS)

export function encodePrincipal(p: Principal): string {
  return Buffer.from(JSON.stringify(p), 'utf8').toString('base64url')
}

export function decodePrincipal(value: string | undefined): Principal | null {
  if (!value) return null
  try {
    const p = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Partial<Principal>
    if (typeof p.id !== 'string' || typeof p.username !== 'string' || !Array.isArray(p.scopes)) return null
    const scopes = p.scopes.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s))
    return {
      id: p.id,
      username: p.username,
      scopes,
      isAdmin: p.isAdmin === true,
      method: p.method ?? 'apiKey',
      ...(typeof p.apiKeyId === 'string' ? { apiKeyId: p.apiKeyId } : {}),
    }
  } catch {
    return null
  }
}

/** Constant-time string comparison (lengths hidden by hashing both sides first). */
export function safeEqual(a: string, b: string): boolean {
  const ha = hash('sha256', a, 'buffer')
  const hb = hash('sha256', b, 'buffer')
  return timingSafeEqual(ha, hb)
}
