/**
 * The RS256 signing key: from JWT_PRIVATE_KEY_FILE (replicas share it through a mounted secret)
 * or generated once (RSA 3072) into DATA_DIR with mode 0600. Its public half is served as JWKS.
 */
import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto'
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { calculateJwkThumbprint, exportJWK, type JWK } from 'jose'
import type { Logger } from 'pino'

export const JWT_ALGORITHM = 'RS256'
export const GENERATED_KEY_FILE = 'jwt-private.pem'
const MIN_MODULUS_BITS = 2048

export interface SigningKey {
  kid: string
  privateKey: KeyObject
  publicKey: KeyObject
  jwks: { keys: JWK[] }
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
  try {
    await writeFile(file, pem, { mode: 0o600, flag: 'wx' })
    return pem
  } catch (err) {
    // Another replica sharing DATA_DIR won the race: use its key.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFile(file, 'utf8')
    throw err
  }
}

export async function loadSigningKey(options: { file?: string | undefined; dataDir: string; log: Logger }): Promise<SigningKey> {
  let file = options.file
  let pem: string
  if (file) pem = await readFile(file, 'utf8')
  else {
    await mkdir(options.dataDir, { recursive: true })
    file = join(options.dataDir, GENERATED_KEY_FILE)
    pem = await readOrCreate(file)
  }
  const mode = (await stat(file)).mode & 0o777
  if (mode & 0o077) options.log.warn({ file, mode: mode.toString(8) }, 'the JWT signing key file is readable by others; use mode 0600')
  const privateKey = createPrivateKey(pem)
  const bits = privateKey.asymmetricKeyDetails?.modulusLength ?? 0
  if (privateKey.asymmetricKeyType !== 'rsa' || bits < MIN_MODULUS_BITS) {
    throw new Error(`the JWT signing key in ${file} must be an RSA key of at least ${MIN_MODULUS_BITS} bits`)
  }
  const publicKey = createPublicKey(privateKey)
  const jwk = await exportJWK(publicKey)
  const kid = await calculateJwkThumbprint(jwk)
  return { kid, privateKey, publicKey, jwks: { keys: [{ ...jwk, kid, alg: JWT_ALGORITHM, use: 'sig' }] } }
}
