/**
 * The signing key of access tokens: from JWT_PRIVATE_KEY_FILE (replicas share it through a
 * mounted secret) or generated once (RSA 3072) into DATA_DIR with mode 0600. RSA of at least 2048
 * bits signs RS256, an EC P-256 key ES256. Public keys of earlier signing keys (the `*.pem` files
 * of JWT_PREVIOUS_PUBLIC_KEYS_DIR) still verify during a rotation. Every key is bound to its one
 * algorithm and known by its `kid` (RFC 7638 thumbprint); all public keys are served as JWKS.
 */
import { createPrivateKey, createPublicKey, generateKeyPair, randomBytes, type KeyObject } from 'node:crypto'
import { link, mkdir, readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { calculateJwkThumbprint, exportJWK, type JWK } from 'jose'
import type { Logger } from 'pino'

/** The algorithm allow-list: nothing else is ever accepted. */
export const JWT_ALGORITHMS = ['RS256', 'ES256'] as const
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number]
export const GENERATED_KEY_FILE = 'jwt-private.pem'
const MIN_MODULUS_BITS = 2048

export interface VerificationKey {
  kid: string
  alg: JwtAlgorithm
  key: KeyObject
}

export interface SigningKey {
  kid: string
  alg: JwtAlgorithm
  privateKey: KeyObject
  publicKey: KeyObject
  /** Current and previous public keys by kid. */
  verification: ReadonlyMap<string, VerificationKey>
  jwks: { keys: JWK[] }
}

/** The one algorithm a key may be used with, or an error naming the file. */
function algorithmOf(key: KeyObject, file: string): JwtAlgorithm {
  if (key.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= MIN_MODULUS_BITS) return 'RS256'
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256'
  throw new Error(`the JWT key in ${file} must be an RSA key of at least ${MIN_MODULUS_BITS} bits or an EC P-256 key`)
}

async function publicEntry(key: KeyObject, alg: JwtAlgorithm): Promise<{ kid: string; jwk: JWK }> {
  const jwk = await exportJWK(key)
  const kid = await calculateJwkThumbprint(jwk)
  return { kid, jwk: { ...jwk, kid, alg, use: 'sig' } }
}

function generatePem(): Promise<string> {
  return new Promise((resolve, reject) => {
    generateKeyPair(
      'rsa',
      { modulusLength: 3072, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } },
      (err, _publicKey, privateKey) => (err ? reject(err) : resolve(privateKey)),
    )
  })
}

async function readOrCreate(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  const pem = await generatePem()
  // Written aside, then linked into place: atomic, and a replica sharing DATA_DIR that won the
  // race keeps its key (we then read that one, never a half-written file).
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  await writeFile(tmp, pem, { mode: 0o600, flag: 'wx' })
  try {
    await link(tmp, file)
    return pem
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFile(file, 'utf8')
    throw err
  } finally {
    await unlink(tmp)
  }
}

async function previousKeys(dir: string): Promise<Array<{ file: string; key: KeyObject }>> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.pem')).sort()
  return Promise.all(names.map(async (n) => ({ file: join(dir, n), key: createPublicKey(await readFile(join(dir, n), 'utf8')) })))
}

export async function loadSigningKey(options: {
  file?: string | undefined
  dataDir: string
  log: Logger
  previousPublicKeysDir?: string | undefined
}): Promise<SigningKey> {
  let file = options.file
  let pem: string
  if (file) pem = await readFile(file, 'utf8')
  else {
    await mkdir(options.dataDir, { recursive: true })
    file = join(options.dataDir, GENERATED_KEY_FILE)
    pem = await readOrCreate(file)
  }
  const mode = (await stat(file)).mode & 0o777
  // Group read is how Kubernetes mounts secrets (0440 with fsGroup); warn on world access or any write but the owner's.
  if (mode & 0o027) options.log.warn({ file, mode: mode.toString(8) }, 'the JWT signing key file is accessible to others; use mode 0600 (or 0440 for a mounted secret)')
  const privateKey = createPrivateKey(pem)
  const alg = algorithmOf(privateKey, file)
  const publicKey = createPublicKey(privateKey)
  const current = await publicEntry(publicKey, alg)
  const verification = new Map<string, VerificationKey>([[current.kid, { kid: current.kid, alg, key: publicKey }]])
  const jwks: JWK[] = [current.jwk]
  for (const prev of options.previousPublicKeysDir ? await previousKeys(options.previousPublicKeysDir) : []) {
    const prevAlg = algorithmOf(prev.key, prev.file)
    const entry = await publicEntry(prev.key, prevAlg)
    if (verification.has(entry.kid)) continue
    verification.set(entry.kid, { kid: entry.kid, alg: prevAlg, key: prev.key })
    jwks.push(entry.jwk)
  }
  return { kid: current.kid, alg, privateKey, publicKey, verification, jwks: { keys: jwks } }
}
