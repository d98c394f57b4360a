/**
 * SNMP credentials: v2c communities and SNMPv3 users (auth SHA or SHA-256, priv AES), tried
 * in order per device. A body is checked against its schema (schemas.ts) first; this module
 * applies it and checks what the schema cannot say (which keys apply to which version, which
 * go together), and masks credentials for the API; secrets never leave the service
 * (`credential-store.ts` keeps them encrypted at rest).
 */
import { invalidInput, type ValidationIssue } from '../../shared/errors.js'
import { inNetwork, ipToInt, isIpv4, parseCidr } from '../../shared/ipv4.js'
import { normaliseNetwork } from './bounds.js'
import type { CredentialBody } from './schemas.js'

export const AUTH_PROTOCOLS = ['SHA', 'SHA-256'] as const
export const PRIV_PROTOCOLS = ['AES'] as const
export const MASK = '********'
/** The most credentials one installation keeps (each is tried on every unanswered address). */
export const MAX_CREDENTIALS = 50

/** What every credential has beside its secrets. */
interface CredentialBase {
  id: string
  name: string
  /** Networks of the devices it belongs to: offered only to addresses inside them; empty for every address. */
  networks: string[]
}

export type SnmpCredential =
  | (CredentialBase & { version: '2c'; community: string })
  | (CredentialBase & {
      version: '3'
      user: string
      authProtocol: (typeof AUTH_PROTOCOLS)[number] | null
      authPassword: string | null
      privProtocol: (typeof PRIV_PROTOCOLS)[number] | null
      privPassword: string | null
    })

/** The secret part of a credential (what is encrypted). */
export interface CredentialSecrets {
  community?: string
  authPassword?: string | null
  privPassword?: string | null
}

const SECRET_KEYS: readonly string[] = ['community', 'authPassword', 'privPassword']
/** The keys of a credential (a body may also give its `position`). */
export const CREDENTIAL_KEYS = ['name', 'version', 'community', 'user', 'authProtocol', 'authPassword', 'privProtocol', 'privPassword', 'networks'] as const

/**
 * Applies a checked create (`base` undefined) or update body; throws 422 listing every problem
 * of the keys together. Setting `authProtocol` to null removes authentication (and privacy).
 */
export function mergeCredential(base: SnmpCredential | undefined, input: Omit<CredentialBody, 'position'>, id: string, defaultName: string): SnmpCredential {
  // a client that sends back what it read keeps the secrets it cannot see
  const body = base ? (Object.fromEntries(Object.entries(input).filter(([k, v]) => !(SECRET_KEYS.includes(k) && v === MASK))) as typeof input) : input
  const issues: ValidationIssue[] = []
  const version = body.version ?? base?.version
  const name = body.name ?? base?.name ?? defaultName
  const networks = body.networks !== undefined ? [...new Set(body.networks.map((n) => normaliseNetwork(n)!))] : (base?.networks ?? [])
  // the schema requires a version of a new credential
  if (version === undefined) throw invalidInput([{ message: '"version" must be one of [2c, 3]', path: 'version' }])
  if (version === '2c') {
    for (const k of ['user', 'authProtocol', 'authPassword', 'privProtocol', 'privPassword']) if (k in body) issues.push({ message: `"${k}" applies to SNMPv3 only`, path: k })
    const community = body.community ?? (base?.version === '2c' ? base.community : undefined)
    if (community === undefined) issues.push({ message: '"community" is required for version 2c', path: 'community' })
    if (issues.length > 0) throw invalidInput(issues)
    return { id, name, networks, version: '2c', community: community! }
  }
  if ('community' in body) issues.push({ message: '"community" applies to version 2c only', path: 'community' })
  const prev = base?.version === '3' ? base : undefined
  const user = body.user ?? prev?.user
  if (user === undefined) issues.push({ message: '"user" is required for version 3', path: 'user' })
  const authProtocol = body.authProtocol !== undefined ? body.authProtocol : (prev?.authProtocol ?? null)
  const privProtocol = authProtocol === null && body.privProtocol === undefined ? null : body.privProtocol !== undefined ? body.privProtocol : (prev?.privProtocol ?? null)
  // RFC 3414: passwords of at least 8 characters (the schema's bound)
  const authPassword = authProtocol === null ? null : (body.authPassword ?? prev?.authPassword ?? null)
  const privPassword = privProtocol === null ? null : (body.privPassword ?? prev?.privPassword ?? null)
  if (authProtocol !== null && authPassword === null) issues.push({ message: '"authPassword" (8 characters or more) is required with "authProtocol"', path: 'authPassword' })
  if (privProtocol !== null && authProtocol === null) issues.push({ message: '"privProtocol" needs "authProtocol" (privacy without authentication is not allowed)', path: 'privProtocol' })
  if (privProtocol !== null && privPassword === null) issues.push({ message: '"privPassword" (8 characters or more) is required with "privProtocol"', path: 'privPassword' })
  if (issues.length > 0) throw invalidInput(issues)
  return { id, name, networks, version: '3', user: user!, authProtocol, authPassword, privProtocol, privPassword }
}

/** The API view of a credential: secrets replaced by a mask. */
export function maskCredential(c: SnmpCredential, position: number): Record<string, unknown> {
  if (c.version === '2c') return { id: c.id, name: c.name, position, networks: c.networks, version: '2c', community: MASK }
  return {
    id: c.id,
    name: c.name,
    position,
    networks: c.networks,
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

/** Whether a credential may be offered to an address: inside its networks, or it has none. */
export function offeredTo(c: { networks: readonly string[] }, address: string): boolean {
  if (c.networks.length === 0) return true
  if (!isIpv4(address)) return false
  const ip = ipToInt(address)
  return c.networks.some((n) => inNetwork(ip, parseCidr(n)))
}
