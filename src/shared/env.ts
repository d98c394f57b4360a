/**
 * The environment the product honours, read once at start-up (request code never reads
 * process.env). Secrets and addresses live here; tunables live in api.json.
 */
import { resolve } from 'node:path'

export interface Env {
  port: number
  adminPort: number | undefined
  dataDir: string
  configDir: string
  databaseUrl: string | undefined
  redisUrl: string | undefined
  inventoryUrl: string | undefined
  inventoryPort: number
  internalSecret: string | undefined
  jwtPrivateKeyFile: string | undefined
  /** Directory of `*.pem` public keys of earlier signing keys that still verify (key rotation). */
  jwtPreviousPublicKeysDir: string | undefined
  adminPassword: string | undefined
  logLevel: string
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

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const adminPort = optional(source.ADMIN_PORT)
  return {
    port: port('PORT', source.PORT, 8080),
    adminPort: adminPort === undefined ? undefined : port('ADMIN_PORT', adminPort, 0),
    dataDir: resolve(source.DATA_DIR || './data'),
    configDir: resolve(source.CONFIG_DIR || './config'),
    databaseUrl: optional(source.DATABASE_URL),
    redisUrl: optional(source.REDIS_URL),
    inventoryUrl: optional(source.INVENTORY_URL),
    inventoryPort: port('INVENTORY_PORT', source.INVENTORY_PORT, 8081),
    internalSecret: optional(source.INTERNAL_SECRET),
    jwtPrivateKeyFile: optional(source.JWT_PRIVATE_KEY_FILE),
    jwtPreviousPublicKeysDir: optional(source.JWT_PREVIOUS_PUBLIC_KEYS_DIR),
    adminPassword: optional(source.ADMIN_PASSWORD),
    logLevel: source.LOG_LEVEL || 'info',
  }
}
