/**
 * The key that encrypts SNMP credentials at rest (AES-256-GCM). It comes from CREDENTIALS_KEY
 * or the file CREDENTIALS_KEY_FILE (32 bytes as 64 hex digits or base64); without either, a key
 * is generated once in DATA_DIR (with a warning: every replica needs the same key, and a backup
 * of the database is readable with that file).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Logger } from 'pino'

export const KEY_FILE_NAME = 'credentials.key'

/** 32 key bytes from 64 hex digits or base64; throws naming the source otherwise. */
export function parseKey(text: string, source: string): Buffer {
  const t = text.trim()
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64')
  if (key.length !== 32) throw new Error(`${source} must hold a 32-byte key (64 hex digits or base64)`)
  return key
}

export function resolveCredentialKey(options: { key?: string | undefined; keyFile?: string | undefined; dataDir: string; log: Logger }): Buffer {
  if (options.key) return parseKey(options.key, 'CREDENTIALS_KEY')
  if (options.keyFile) return parseKey(readFileSync(options.keyFile, 'utf8'), `CREDENTIALS_KEY_FILE (${options.keyFile})`)
  const file = join(options.dataDir, KEY_FILE_NAME)
  if (existsSync(file)) {
    options.log.warn({ file }, 'SNMP credentials are encrypted with a key kept in DATA_DIR; set CREDENTIALS_KEY or CREDENTIALS_KEY_FILE')
    return parseKey(readFileSync(file, 'utf8'), file)
  }
  mkdirSync(options.dataDir, { recursive: true })
  const key = randomBytes(32)
  writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' })
  options.log.warn({ file }, 'generated a key for SNMP credentials in DATA_DIR; set CREDENTIALS_KEY or CREDENTIALS_KEY_FILE (the same on every replica)')
  return key
}

const VERSION = 'v1'

/** Encrypts `plain` bound to `context` (the credential id): "v1:" + base64(iv, tag, ciphertext). */
export function seal(key: Buffer, plain: string, context: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(Buffer.from(context))
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`
}

/** Decrypts what `seal` made; throws when the key or the context is not the one it was sealed with. */
export function open(key: Buffer, sealed: string, context: string): string {
  if (!sealed.startsWith(`${VERSION}:`)) throw new Error('unknown credential encryption format')
  const raw = Buffer.from(sealed.slice(VERSION.length + 1), 'base64')
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12))
  decipher.setAAD(Buffer.from(context))
  decipher.setAuthTag(raw.subarray(12, 28))
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
}
