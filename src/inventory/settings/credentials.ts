/**
 * SNMP credentials: v2c communities and SNMPv3 users (auth SHA or SHA-256, priv AES), tried
 * in order per device. This module validates them and masks them for the API; secrets never
 * leave the service (`credential-store.ts` keeps them encrypted at rest).
 */
import { invalidInput, type ValidationIssue } from '../../shared/errors.js'

export const AUTH_PROTOCOLS = ['SHA', 'SHA-256'] as const
export const PRIV_PROTOCOLS = ['AES'] as const
export const MASK = '********'

export type SnmpCredential =
  | { id: string; name: string; version: '2c'; community: string }
  | {
      id: string
      name: string
      version: '3'
      user: string
      authProtocol: (typeof AUTH_PROTOCOLS)[number] | null
      authPassword: string | null
      privProtocol: (typeof PRIV_PROTOCOLS)[number] | null
      privPassword: string | null
    }

/** The secret part of a credential (what is encrypted). */
export interface CredentialSecrets {
  community?: string
  authPassword?: string | null
  privPassword?: string | null
}

const SECRET_KEYS: readonly string[] = ['community', 'authPassword', 'privPassword']
const KEYS = ['name', 'version', 'community', 'user', 'authProtocol', 'authPassword', 'privProtocol', 'privPassword'] as const

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function textField(body: Record<string, unknown>, key: string, min: number, max: number, issues: ValidationIssue[]): string | undefined {
  if (!(key in body)) return undefined
  const v = body[key]
  if (typeof v === 'string' && v.length >= min && v.length <= max && !/[\0\r\n]/.test(v)) return v
  issues.push({ message: `"${key}" must be a string of ${min} to ${max} characters without line breaks`, path: key })
  return undefined
}

/**
 * Applies a create (`base` undefined) or update body and validates the result; throws 422
 * listing every problem. Setting `authProtocol` to null removes authentication (and privacy).
 */
export function mergeCredential(base: SnmpCredential | undefined, input: unknown, id: string, defaultName: string): SnmpCredential {
  let body = input
  if (!isRecord(body)) throw invalidInput('the body must be a JSON object')
  if (base) {
    // a client that sends back what it read keeps the secrets it cannot see
    body = Object.fromEntries(Object.entries(body).filter(([k, v]) => !(SECRET_KEYS.includes(k) && v === MASK)))
    if (!isRecord(body)) throw invalidInput('the body must be a JSON object')
  }
  const issues: ValidationIssue[] = []
  for (const key of Object.keys(body)) {
    if (!(KEYS as readonly string[]).includes(key)) issues.push({ message: `"${key}" is not allowed; allowed keys are [${KEYS.join(', ')}]`, path: key })
  }
  const version = 'version' in body ? body.version : (base?.version ?? undefined)
  if (version !== '2c' && version !== '3') issues.push({ message: '"version" must be one of [2c, 3]', path: 'version' })
  const name = textField(body, 'name', 1, 100, issues) ?? base?.name ?? defaultName
  // without a version nothing else can be judged
  if (version !== '2c' && version !== '3') throw invalidInput(issues)
  if (version === '2c') {
    for (const k of ['user', 'authProtocol', 'authPassword', 'privProtocol', 'privPassword']) if (k in body) issues.push({ message: `"${k}" applies to SNMPv3 only`, path: k })
    const community = textField(body, 'community', 1, 255, issues) ?? (base?.version === '2c' ? base.community : undefined)
    if (community === undefined && !issues.some((i) => i.path === 'community')) issues.push({ message: '"community" is required for version 2c', path: 'community' })
    if (issues.length > 0) throw invalidInput(issues)
    return { id, name, version: '2c', community: community! }
  }
  if ('community' in body) issues.push({ message: '"community" applies to version 2c only', path: 'community' })
  const prev = base?.version === '3' ? base : undefined
  const user = textField(body, 'user', 1, 32, issues) ?? prev?.user
  if (user === undefined && !issues.some((i) => i.path === 'user')) issues.push({ message: '"user" is required for version 3', path: 'user' })
  const choice = <T extends string>(key: string, allowed: readonly T[], fallback: T | null): T | null => {
    if (!(key in body)) return fallback
    const v = body[key]
    if (v === null || (typeof v === 'string' && (allowed as readonly string[]).includes(v))) return v as T | null
    issues.push({ message: `"${key}" must be one of [${allowed.join(', ')}], or null`, path: key })
    return fallback
  }
  const authProtocol = choice('authProtocol', AUTH_PROTOCOLS, prev?.authProtocol ?? null)
  const privProtocol = authProtocol === null && !('privProtocol' in body) ? null : choice('privProtocol', PRIV_PROTOCOLS, prev?.privProtocol ?? null)
  // RFC 3414: passwords of at least 8 characters
  const authPassword = authProtocol === null ? null : (textField(body, 'authPassword', 8, 255, issues) ?? prev?.authPassword ?? null)
  const privPassword = privProtocol === null ? null : (textField(body, 'privPassword', 8, 255, issues) ?? prev?.privPassword ?? null)
  if (authProtocol !== null && authPassword === null && !issues.some((i) => i.path === 'authPassword')) issues.push({ message: '"authPassword" (8 characters or more) is required with "authProtocol"', path: 'authPassword' })
  if (privProtocol !== null && authProtocol === null) issues.push({ message: '"privProtocol" needs "authProtocol" (privacy without authentication is not allowed)', path: 'privProtocol' })
  if (privProtocol !== null && privPassword === null && !issues.some((i) => i.path === 'privPassword')) issues.push({ message: '"privPassword" (8 characters or more) is required with "privProtocol"', path: 'privPassword' })
  if (issues.length > 0) throw invalidInput(issues)
  return { id, name, version: '3', user: user!, authProtocol, authPassword, privProtocol, privPassword }
}

/** The API view of a credential: secrets replaced by a mask. */
export function maskCredential(c: SnmpCredential, position: number): Record<string, unknown> {
  if (c.version === '2c') return { id: c.id, name: c.name, position, version: '2c', community: MASK }
  return {
    id: c.id,
    name: c.name,
    position,
    version: '3',
    user: c.user,
    authProtocol: c.authProtocol,
    authPassword: c.authPassword === null ? null : MASK,
    privProtocol: c.privProtocol,
    privPassword: c.privPassword === null ? null : MASK,
  }
}

export function secretsOf(c: SnmpCredential): CredentialSecrets {
  return c.version === '2c' ? { community: c.community } : { authPassword: c.authPassword, privPassword: c.privPassword }
}
