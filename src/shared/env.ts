/**
 * The environment the product honours, read once at start-up (request code never reads
 * process.env). Secrets and addresses live here; tunables live in api.json.
 */
import { resolve } from 'node:path'
import { customKeyProblem } from './secret-strength.js'

export interface Env {
  port: number
  /** Address the public listener binds (gateway, serve). */
  host: string
  adminPort: number | undefined
  /** Address the admin listener (/metrics) binds: loopback unless set. */
  adminHost: string
  /** Address the standalone inventory binds. */
  inventoryHost: string
  dataDir: string
  configDir: string
  databaseUrl: string | undefined
  redisUrl: string | undefined
  inventoryUrl: string | undefined
  inventoryPort: number
  /** The standalone inventory's admin listener (/metrics, /healthz) on ADMIN_HOST. */
  inventoryAdminPort: number
  internalSecret: string | undefined
  jwtPrivateKeyFile: string | undefined
  /** Directory of `*.pem` public keys of earlier signing keys that still verify (key rotation). */
  jwtPreviousPublicKeysDir: string | undefined
  adminPassword: string | undefined
  /** Key that seals SNMP credentials (32 bytes, hex or base64), or a file holding it. */
  credentialsKey: string | undefined
  credentialsKeyFile: string | undefined
  logLevel: string
  /** Folder of the built web interface (default: dist/web of the package). */
  webDir: string | undefined
}

function port(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} must be a port number (0-65535), got "${value}"`)
  return n
}

function optional(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value
}

/** Shortest INTERNAL_SECRET accepted: whoever knows it can act as any user towards the inventory. */
export const MIN_INTERNAL_SECRET_LENGTH = 32

function internalSecret(value: string | undefined): string | undefined {
  const secret = optional(value)
  if (secret !== undefined && secret.length < MIN_INTERNAL_SECRET_LENGTH) {
    throw new Error(`INTERNAL_SECRET must be at least ${MIN_INTERNAL_SECRET_LENGTH} characters (random ones: e.g. \`openssl rand -base64 36\`), got ${secret.length}`)
  }
  // Length alone admits 36 × "a": the secret must be as hard to guess as a chosen API key.
  const weak = secret === undefined ? null : customKeyProblem(secret)
  if (weak !== null) throw new Error(`INTERNAL_SECRET ${weak}`)
  return secret
}

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const adminPort = optional(source.ADMIN_PORT)
  return {
    port: port('PORT', source.PORT, 8080),
    host: optional(source.HOST) ?? '0.0.0.0',
    adminHost: optional(source.ADMIN_HOST) ?? '127.0.0.1',
    inventoryHost: optional(source.INVENTORY_HOST) ?? '0.0.0.0',
    adminPort: adminPort === undefined ? undefined : port('ADMIN_PORT', adminPort, 0),
    dataDir: resolve(source.DATA_DIR || './data'),
    configDir: resolve(source.CONFIG_DIR || './config'),
    databaseUrl: optional(source.DATABASE_URL),
    redisUrl: optional(source.REDIS_URL),
    inventoryUrl: optional(source.INVENTORY_URL),
    inventoryPort: port('INVENTORY_PORT', source.INVENTORY_PORT, 8081),
    inventoryAdminPort: port('INVENTORY_ADMIN_PORT', source.INVENTORY_ADMIN_PORT, 9091),
    internalSecret: internalSecret(source.INTERNAL_SECRET),
    jwtPrivateKeyFile: optional(source.JWT_PRIVATE_KEY_FILE),
    jwtPreviousPublicKeysDir: optional(source.JWT_PREVIOUS_PUBLIC_KEYS_DIR),
    adminPassword: optional(source.ADMIN_PASSWORD),
    credentialsKey: optional(source.CREDENTIALS_KEY),
    credentialsKeyFile: optional(source.CREDENTIALS_KEY_FILE),
    logLevel: source.LOG_LEVEL || 'info',
    webDir: optional(source.WEB_DIR) === undefined ? undefined : resolve(source.WEB_DIR!),
  }
}
