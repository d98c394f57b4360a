/**
 * Secret material: random tokens, their lookup hashes, password hashing with scrypt (memory-hard,
 * node's built-in) and sealing a successor refresh token under the token it replaces.
 */
import { createCipheriv, createDecipheriv, hash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

/**
 * Lookup hash of a high-entropy secret (API key, refresh token): SHA-256 of its UTF-8 bytes, hex.
 * One-shot (a quarter of the cost of a Hash object): it runs on every request with an API key.
 */
export function secretHash(secret: string): string {
  return hash('sha256', secret, 'hex')
}

/** A URL-safe random string of exactly `length` characters (6 bits of entropy each). */
export function randomToken(length: number): string {
  return randomBytes(Math.ceil((length * 3) / 4) + 3)
    .toString('base64url')
    .slice(0, length)
}

/** A random identifier for rows (128 bits). */
export function newId(): string {
  return randomBytes(16).toString('hex')
}

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 }

function derive(password: string, salt: Buffer, opts: ScryptOptions & { keylen: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, opts.keylen, { N: opts.N, r: opts.r, p: opts.p, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    )
  })
}

/** `scrypt$N$r$p$salt$hash` (salt and hash base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, SCRYPT)
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

/** A hash no password matches, verified when the user does not exist so timing says nothing. */
let dummyHash: Promise<string> | undefined
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'))
  return dummyHash
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored ?? (await dummyPasswordHash())).split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string]
  const expected = Buffer.from(hash, 'base64url')
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p), keylen: expected.length })
  return stored != null && key.length === expected.length && timingSafeEqual(key, expected)
}

/**
 * Seals `plain` with a key derived from `under` (AES-256-GCM). Used to keep a rotated refresh
 * token's successor recoverable only by whoever holds the rotated token, for the reuse grace.
 */
export function seal(plain: string, under: string): string {
  const key = hash('sha256', `netinv-seal:${under}`, 'buffer')
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.')
}

export function unseal(sealed: string, under: string): string | null {
  try {
    const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'))
    if (!iv || !tag || !body) return null
    const key = hash('sha256', `netinv-seal:${under}`, 'buffer')
    const decipher = createDecipheriv('aes-256-gcm', key, iv)
    decipher.setAuthTag(tag)
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')
  } catch {
    return null
  }
}
