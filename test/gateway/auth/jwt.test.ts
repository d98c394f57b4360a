import t from 'tap'
import { mkdtemp, readdir, stat, writeFile } from 'node:fs/promises'
import { createHmac, generateKeyPairSync } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SignJWT, decodeProtectedHeader } from 'jose'
import { silentLogger } from '../../../src/shared/log.js'
import { AccessTokens } from '../../../src/gateway/auth/jwt.js'
import { GENERATED_KEY_FILE, loadSigningKey } from '../../../src/gateway/auth/keys.js'

const SETTINGS = { issuer: 'netinv', audience: 'netinv-api', expiresIn: 60 }
const USER = { id: 'u1', username: 'alice', scopes: ['read' as const], isAdmin: false }

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')

t.test('the signing key is generated once into DATA_DIR with mode 0600', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'netinv-key-'))
  const [a, c] = await Promise.all([loadSigningKey({ dataDir: dir, log: silentLogger() }), loadSigningKey({ dataDir: dir, log: silentLogger() })])
  t.equal(a.kid, c.kid, 'replicas starting together end up with one key')
  const b = await loadSigningKey({ dataDir: dir, log: silentLogger() })
  t.equal(a.kid, b.kid, 'the second start reuses the key')
  t.same((await readdir(dir)).sort(), [GENERATED_KEY_FILE], 'no temporary file left behind')
  t.equal((await stat(join(dir, GENERATED_KEY_FILE))).mode & 0o777, 0o600)
  t.ok(a.privateKey.asymmetricKeyDetails!.modulusLength! >= 2048)
  t.match(a.jwks.keys[0], { kty: 'RSA', kid: a.kid, alg: 'RS256', use: 'sig' })
  t.notOk('d' in a.jwks.keys[0]!, 'JWKS holds no private part')
})

t.test('key types: EC P-256 signs ES256; weak RSA and other curves are refused', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'netinv-key-'))
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' })
  await writeFile(join(dir, 'ec.pem'), ec, { mode: 0o600 })
  const es = await loadSigningKey({ file: join(dir, 'ec.pem'), dataDir: dir, log: silentLogger() })
  t.equal(es.alg, 'ES256', 'an EC P-256 key signs ES256')
  const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ type: 'pkcs8', format: 'pem' })
  await writeFile(join(dir, 'p384.pem'), p384, { mode: 0o600 })
  await t.rejects(loadSigningKey({ file: join(dir, 'p384.pem'), dataDir: dir, log: silentLogger() }), /RSA key of at least 2048/)
  const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' })
  await writeFile(join(dir, 'small.pem'), small, { mode: 0o600 })
  await t.rejects(loadSigningKey({ file: join(dir, 'small.pem'), dataDir: dir, log: silentLogger() }), /RSA key of at least 2048/)
})

t.test('access tokens: payload, and every forgery is refused', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'netinv-key-'))
  const key = await loadSigningKey({ dataDir: dir, log: silentLogger() })
  let now = 1_700_000_000_000
  const clock = () => now
  const tokens = new AccessTokens(key, SETTINGS, clock, { max: 100, ttlMs: () => 10_000 })
  const { token, exp } = await tokens.sign(USER, 'fam1')
  t.same(decodeProtectedHeader(token), { alg: 'RS256', typ: 'JWT', kid: key.kid })
  const claims = await tokens.verify(token)
  t.match(claims, { id: 'u1', username: 'alice', scope: ['read'], eula: true, isAdmin: false, aud: 'netinv-api', iss: 'netinv', sid: 'fam1', exp })
  t.equal(claims.exp - claims.iat, 60)

  const fresh = () => new AccessTokens(key, SETTINGS, clock, { max: 100, ttlMs: () => 10_000 })
  const [h, p, s] = token.split('.') as [string, string, string]
  const payload = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>

  const none = `${b64({ alg: 'none', typ: 'JWT', kid: key.kid })}.${p}.`
  await t.rejects(fresh().verify(none), { code: 'API_INVALID_ACCESS_TOKEN' }, 'alg none')

  const spki = key.publicKey.export({ type: 'spki', format: 'pem' })
  const hsInput = `${b64({ alg: 'HS256', typ: 'JWT', kid: key.kid })}.${p}`
  const hs = `${hsInput}.${createHmac('sha256', spki).update(hsInput).digest('base64url')}`
  await t.rejects(fresh().verify(hs), { code: 'API_INVALID_ACCESS_TOKEN' }, 'HS256 keyed with the public key')

  const tampered = `${h}.${b64({ ...payload, scope: ['read', 'team'], isAdmin: true })}.${s}`
  await t.rejects(fresh().verify(tampered), { code: 'API_INVALID_ACCESS_TOKEN' }, 'tampered payload')
  await t.rejects(fresh().verify(`${h}.${p}.${s.slice(0, -4)}AAAA`), { code: 'API_INVALID_ACCESS_TOKEN' }, 'tampered signature')
  await t.rejects(fresh().verify('not.a.jwt'), { code: 'API_INVALID_ACCESS_TOKEN' })

  const other = async (claims: Record<string, unknown>, kid = key.kid) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).sign(key.privateKey)
  const base = { id: 'u1', username: 'alice', scope: ['read'], eula: true, isAdmin: false, iat: payload.iat as number, exp: payload.exp as number }
  await t.rejects(fresh().verify(await other({ ...base, aud: 'someone-else', iss: 'netinv' })), { code: 'API_INVALID_ACCESS_TOKEN' }, 'wrong aud')
  await t.rejects(fresh().verify(await other({ ...base, aud: 'netinv-api', iss: 'evil' })), { code: 'API_INVALID_ACCESS_TOKEN' }, 'wrong iss')
  await t.rejects(fresh().verify(await other({ ...base, aud: 'netinv-api', iss: 'netinv' }, 'other-kid')), { code: 'API_INVALID_ACCESS_TOKEN' }, 'unknown kid')
  await t.rejects(fresh().verify(await other({ ...base, scope: ['root'], aud: 'netinv-api', iss: 'netinv' })), { code: 'API_INVALID_ACCESS_TOKEN' }, 'unknown scope')
  const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
  const forged = await new SignJWT({ ...base, aud: 'netinv-api', iss: 'netinv' }).setProtectedHeader({ alg: 'RS256', kid: key.kid }).sign(foreign)
  await t.rejects(fresh().verify(forged), { code: 'API_INVALID_ACCESS_TOKEN' }, 'signed by another key')
  const at = Math.floor(now / 1000)
  const future = { ...base, aud: 'netinv-api', iss: 'netinv', iat: at + 3600, exp: at + 3660 }
  await t.rejects(fresh().verify(await other(future)), { code: 'API_INVALID_ACCESS_TOKEN' }, 'issued in the future')
  t.match(await fresh().verify(await other({ ...future, iat: at + 30 })), { iat: at + 30 }, 'within a minute of clock skew: accepted')

  now += 61_000
  await t.rejects(tokens.verify(token), { code: 'API_EXPIRED_ACCESS_TOKEN' }, 'expired, although cached')
  await t.rejects(fresh().verify(token), { code: 'API_EXPIRED_ACCESS_TOKEN' }, 'expired, uncached')
  const expiredTampered = `${h}.${b64({ ...payload, isAdmin: true })}.${s}`
  await t.rejects(fresh().verify(expiredTampered), { code: 'API_INVALID_ACCESS_TOKEN' }, 'a forged token is invalid, not merely expired')
})

t.test('rotation: tokens of a previous key verify through JWT_PREVIOUS_PUBLIC_KEYS_DIR; each kid only with its own algorithm', async (t) => {
  const oldDir = await mkdtemp(join(tmpdir(), 'netinv-key-'))
  const old = await loadSigningKey({ dataDir: oldDir, log: silentLogger() })
  const clock = () => 1_700_000_000_000
  const { token } = await new AccessTokens(old, SETTINGS, clock, { max: 10, ttlMs: () => 1000 }).sign(USER)

  const dir = await mkdtemp(join(tmpdir(), 'netinv-key-'))
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey
  await writeFile(join(dir, 'current.pem'), ec.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 })
  const prevDir = join(dir, 'previous')
  await (await import('node:fs/promises')).mkdir(prevDir)
  await writeFile(join(prevDir, 'old.pem'), old.publicKey.export({ type: 'spki', format: 'pem' }))
  const withoutPrev = new AccessTokens(await loadSigningKey({ file: join(dir, 'current.pem'), dataDir: dir, log: silentLogger() }), SETTINGS, clock, { max: 10, ttlMs: () => 1000 })
  await t.rejects(withoutPrev.verify(token), { code: 'API_INVALID_ACCESS_TOKEN' }, 'unknown kid without the previous key')
  const key = await loadSigningKey({ file: join(dir, 'current.pem'), dataDir: dir, log: silentLogger(), previousPublicKeysDir: prevDir })
  t.same(key.jwks.keys.map((k) => k.alg), ['ES256', 'RS256'], 'JWKS lists current and previous keys')
  const tokens = new AccessTokens(key, SETTINGS, clock, { max: 10, ttlMs: () => 1000 })
  t.match(await tokens.verify(token), { username: 'alice' }, 'old token still verifies')
  const fresh = await tokens.sign(USER)
  t.equal(decodeProtectedHeader(fresh.token).alg, 'ES256')
  t.match(await tokens.verify(fresh.token), { username: 'alice' })

  // The RSA kid presented with ES256 (or the EC kid with RS256) is refused before any check.
  const [, p, sig] = token.split('.') as [string, string, string]
  const swapped = `${b64({ alg: 'ES256', typ: 'JWT', kid: old.kid })}.${p}.${sig}`
  await t.rejects(tokens.verify(swapped), { code: 'API_INVALID_ACCESS_TOKEN' })
})
