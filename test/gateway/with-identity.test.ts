/**
 * The pipeline with the real identity module: login, a forwarded call carrying the principal,
 * scope checks, the text/plain exception of DELETE auth/token, per-username login limits.
 */
import t from 'tap'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createAuthService } from '../../src/gateway/auth/index.js'
import { createMemoryLimiter } from '../../src/gateway/ratelimit/index.js'
import { decodeInternal, decodePrincipal } from '../../src/shared/principal.js'
import { silentLogger } from '../../src/shared/log.js'
import { compileConfig } from '../../src/shared/config/index.js'
import { freshPglite } from '../helpers/db.js'
import { send, startTestGateway } from './helpers.js'

const ADMIN_PASSWORD = 'pipeline-admin-password'

t.test('login, forward with identity, scopes, DELETE auth/token in text/plain', async (t) => {
  const db = await freshPglite(t)
  const limiter = createMemoryLimiter()
  const auth = await createAuthService({
    db,
    config: compileConfig({}),
    log: silentLogger(),
    dataDir: mkdtempSync(join(tmpdir(), 'netinv-id-')),
    adminPassword: ADMIN_PASSWORD,
    limiter,
    print: () => {},
  })
  t.teardown(() => auth.close())
  const gw = await startTestGateway(t, { auth, limiter })
  const json = { 'content-type': 'application/json' }

  const login = await send(gw.url, '/api/auth/login', { method: 'POST', headers: json, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) })
  t.equal(login.status, 200)
  t.equal(login.headers['x-api-version-used'], '1')
  const { accessToken } = login.json() as { accessToken: string }
  t.type(accessToken, 'string')

  const snap = await send(gw.url, '/api/snapshots', { headers: { authorization: `Bearer ${accessToken}` } })
  t.equal(snap.status, 200)
  const echoed = snap.json() as { headers: Record<string, string> }
  t.equal(decodePrincipal(decodeInternal(echoed.headers['x-netinv-internal'])?.principal)?.username, 'admin', 'the inventory learns who is calling')
  t.equal(echoed.headers.authorization, undefined, 'but never sees the credentials')

  const expired = await send(gw.url, '/api/snapshots', { headers: { authorization: 'Bearer not.a.jwt' } })
  t.equal(expired.status, 401)
  t.equal((expired.json() as { code: string }).code, 'API_INVALID_ACCESS_TOKEN')

  const anonDelete = await send(gw.url, '/api/auth/token', { method: 'DELETE', headers: json, body: '{"refreshToken":"x"}' })
  t.equal(anonDelete.status, 401)
  t.match(anonDelete.headers['content-type'], /^text\/plain/)
  t.equal(anonDelete.text, 'Unauthorized')
  t.equal(anonDelete.headers['x-product-version'], 'v7.6', 'still decorated')

  const me = await send(gw.url, '/api/users/me', { headers: { authorization: `Bearer ${accessToken}` } })
  t.equal(me.status, 200)
  t.equal((me.json() as { username: string }).username, 'admin')
})
