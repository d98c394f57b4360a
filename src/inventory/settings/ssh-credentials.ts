/**
 * SSH credentials: a user with a password or a private key (PEM or OpenSSH text, with its
 * passphrase when it has one), offered per device as SNMP credentials are (its networks, in
 * order). Network discovery logs in with them to read each device's running configuration.
 * Secrets (password, private key, passphrase) are write-only: every answer masks them and a
 * client that sends the mask back keeps the stored value.
 */
import ssh2 from 'ssh2'
import { invalidInput, type ValidationIssue } from '../../shared/errors.js'
import { normaliseNetwork } from './bounds.js'
import { MASK } from './credentials.js'
import type { SshCredentialBody } from './schemas.js'

export interface SshCredential {
  id: string
  name: string
  /** Networks of the devices it belongs to; empty for every address. */
  networks: string[]
  user: string
  port: number
  password: string | null
  privateKey: string | null
  passphrase: string | null
}

export interface SshSecrets {
  password: string | null
  privateKey: string | null
  passphrase: string | null
}

export const SSH_SECRET_KEYS = ['password', 'privateKey', 'passphrase'] as const
export const SSH_CREDENTIAL_KEYS = ['name', 'user', 'port', 'password', 'privateKey', 'passphrase', 'networks'] as const
export const DEFAULT_SSH_PORT = 22

/** Why a private key cannot be used (ssh2 parses it as the connection will), or null. */
export function privateKeyProblem(key: string, passphrase: string | null): string | null {
  const parsed = ssh2.utils.parseKey(key, passphrase ?? undefined)
  const first = Array.isArray(parsed) ? parsed[0] : parsed
  if (first instanceof Error) return `is not a private key ssh2 can use: ${first.message.replace(/\s+/g, ' ').slice(0, 200)}`
  if (first === undefined) return 'holds no private key'
  return null
}

/** Applies a checked create (`base` undefined) or update body; throws 422 listing every problem. */
export function mergeSshCredential(base: SshCredential | undefined, input: Omit<SshCredentialBody, 'position'>, id: string, defaultName: string): SshCredential {
  const body = base ? (Object.fromEntries(Object.entries(input).filter(([k, v]) => !((SSH_SECRET_KEYS as readonly string[]).includes(k) && v === MASK))) as typeof input) : input
  const issues: ValidationIssue[] = []
  const user = body.user ?? base?.user
  if (user === undefined) issues.push({ message: '"user" is required', path: 'user' })
  const password = body.password !== undefined ? body.password : (base?.password ?? null)
  const privateKey = body.privateKey !== undefined ? body.privateKey : (base?.privateKey ?? null)
  const passphrase = privateKey === null ? null : body.passphrase !== undefined ? body.passphrase : (base?.passphrase ?? null)
  if (password === null && privateKey === null) issues.push({ message: '"password" or "privateKey" is required', path: 'password' })
  if (privateKey === null && body.passphrase !== undefined && body.passphrase !== null) issues.push({ message: '"passphrase" needs "privateKey"', path: 'passphrase' })
  if (privateKey !== null) {
    const problem = privateKeyProblem(privateKey, passphrase)
    if (problem) issues.push({ message: `"privateKey" ${problem}`, path: 'privateKey' })
  }
  if (issues.length > 0) throw invalidInput(issues)
  return {
    id,
    name: body.name ?? base?.name ?? defaultName,
    networks: body.networks !== undefined ? [...new Set(body.networks.map((n) => normaliseNetwork(n)!))] : (base?.networks ?? []),
    user: user!,
    port: body.port ?? base?.port ?? DEFAULT_SSH_PORT,
    password,
    privateKey,
    passphrase,
  }
}

/** The API view: secrets replaced by the mask (null when not set). */
export function maskSshCredential(c: SshCredential, position: number): Record<string, unknown> {
  const masked = (v: string | null) => (v === null ? null : MASK)
  return { id: c.id, name: c.name, position, networks: c.networks, user: c.user, port: c.port, password: masked(c.password), privateKey: masked(c.privateKey), passphrase: masked(c.passphrase) }
}

export function sshSecretsOf(c: SshCredential): SshSecrets {
  return { password: c.password, privateKey: c.privateKey, passphrase: c.passphrase }
}
