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

/**
 * The one internal header (lower case): who is calling, which endpoint version and address
 * generation, and the shared secret that proves the gateway sent it. Clients can never set it,
 * nor any other name starting with INTERNAL_PREFIX: the gateway strips them all. One header
 * rather than four: each forwarded header costs the gateway about a microsecond (validated,
 * copied and serialised by node).
 */
export const INTERNAL_HEADER = 'x-netinv-internal'
export const INTERNAL_PREFIX = 'x-netinv-'

export interface InternalParts {
  secret: string
  /** encodePrincipal() of the caller; empty or absent for an anonymous request. */
  principal?: string | undefined
  apiVersion: number
  generation: string
}

/**
 * `<apiVersion>;<generation>;<principal>;<secret>`: the principal is base64url and the first
 * two are a number and a word, so the secret goes last and may hold any character.
 */
export function encodeInternal(parts: InternalParts): string {
  return `${parts.apiVersion};${parts.generation};${parts.principal ?? ''};${parts.secret}`
}

/** The parts of an internal header value (the principal still encoded); null when malformed. */
export function decodeInternal(value: string | string[] | undefined): Required<InternalParts> | null {
  if (typeof value !== 'string') return null
  const a = value.indexOf(';')
  const b = a < 0 ? -1 : value.indexOf(';', a + 1)
  const c = b < 0 ? -1 : value.indexOf(';', b + 1)
  if (c < 0) return null
  const apiVersion = Number(value.slice(0, a))
  if (!Number.isInteger(apiVersion) || apiVersion < 1) return null
  return { apiVersion, generation: value.slice(a + 1, b), principal: value.slice(b + 1, c), secret: value.slice(c + 1) }
}

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
