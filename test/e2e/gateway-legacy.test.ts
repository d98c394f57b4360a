/**
 * `netinv gateway` alone in front of a legacy backend (test/e2e/legacy-backend.ts: answers only
 * under /api/v6.0/ and /api/v1/, admits callers by a check of its own), configured the way an
 * operator does it: api.json `upstreams.legacy` (path versioning, release 6.0) and
 * CONFIG_DIR/routes/legacy.json. The same suite runs with each way of passing the caller on:
 * `credential` (the backend's static X-API-Token from a file), `jwt` (the backend verifies the
 * gateway's token with its JWKS) and `passthrough` (the client's own token goes through, the
 * routes are public at the gateway and the backend decides).
 */
import t, { type Test } from 'tap'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose'
import { call, type Reply } from './client.js'
import { DEVICES, OWN_SUNSET, SITES, startLegacyBackend, type Admit } from './legacy-backend.js'
import { freePort, start, tempDirs } from './process.js'
import { freshPostgres } from '../helpers/db.js'

const ADMIN_PASSWORD = 'legacy-admin-password-1'
const SERVICE_KEY = 'legacy-service-key-4f1c9a'
const CLIENT_LEGACY_KEY = 'legacy-client-key-77d2'
const basic = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`

type Mode = 'credential' | 'jwt' | 'passthrough'

function writeJson(file: string, value: unknown): void {
  writeFileSync(file, JSON.stringify(value, null, 2), { mode: 0o644 })
}

function apiJson(url: string, identity: Record<string, unknown>, pathSunset: string): Record<string, unknown> {
  return {
    upstreams: { legacy: { url, versioning: 'path', release: '6.0', identity, timeoutMs: 1000, healthPath: '/api/v6.0/health' } },
    versioning: { generations: { path: { deprecated: true, sunset: pathSunset, enforce: true } } },
    rateLimit: { endpoints: { ping: 2 } },
  }
}

/** The operator's route file; at the gateway, passthrough routes are public (the backend decides). */
function routes(mode: Mode): unknown[] {
  const access = (rule: string) => (mode === 'passthrough' ? 'public' : rule)
  const upstream = 'legacy'
  return [
    { path: 'devices', methods: { GET: access('read'), POST: access('write') }, releases: [['6.0', 1]], upstream, description: 'Devices of the legacy inventory.' },
    { path: 'devices/:id', methods: { GET: access('read') }, upstream, description: 'One device.' },
    {
      path: 'sites',
      methods: { GET: access('read') },
      versions: [
        { version: 1, summary: 'The 6.0 shape.' },
        { version: 2, summary: 'A shape no release of the backend has.' },
      ],
      defaultVersion: 2,
      releases: [['6.0', 1]],
      upstream,
      description: 'Sites.',
    },
    { path: 'ping', methods: { GET: access('read') }, upstream, description: 'Liveness of the backend.' },
    { path: 'slow', methods: { GET: access('read') }, upstream, description: 'An endpoint slower than the gateway waits.' },
  ]
}

function expectError(t: Test, r: Reply, status: number, code: string, what: string): void {
  t.equal(r.status, status, what)
  t.match(r.json(), { code, message: String }, `${what}: ${code} in the documented body`)
}

async function suite(t: Test, mode: Mode): Promise<void> {
  const { dataDir, configDir } = tempDirs(t)
  const port = await freePort()
  const gatewayUrl = `http://127.0.0.1:${port}`
  const claims: JWTPayload[] = []
  const admits: Record<Mode, Admit> = {
    credential: (req) => req.headers['x-api-token'] === SERVICE_KEY,
    passthrough: (req) => req.headers['x-api-token'] === CLIENT_LEGACY_KEY,
    jwt: (() => {
      const jwks = createRemoteJWKSet(new URL(`${gatewayUrl}/api/auth/jwks`))
      return async (req) => {
        const auth = req.headers.authorization
        if (!auth?.startsWith('Bearer ')) return false
        try {
          const { payload } = await jwtVerify(auth.slice(7), jwks, { audience: 'legacy', issuer: 'netinv' })
          claims.push(payload)
          return true
        } catch {
          return false
        }
      }
    })(),
  }
  const backend = await startLegacyBackend(t, admits[mode], mode === 'credential' ? SERVICE_KEY : undefined)
  const keyFile = join(dataDir, 'legacy-service-key')
  writeFileSync(keyFile, `${SERVICE_KEY}\n`, { mode: 0o600 })
  const identity = mode === 'credential' ? { mode, header: 'X-API-Token', valueFile: keyFile } : { mode }
  writeJson(join(configDir, 'api.json'), apiJson(backend.url, identity, '2099-01-01T00:00:00Z'))
  mkdirSync(join(configDir, 'routes'))
  writeJson(join(configDir, 'routes', 'legacy.json'), routes(mode))
  // Identity on PostgreSQL: three gateways start here, and the embedded database's start is what
  // would cost most (the gateway on the embedded default runs in the serve tests).
  const { url } = await freshPostgres(t)
  const gw = await start(t, 'gateway', { DATA_DIR: dataDir, CONFIG_DIR: configDir, ADMIN_PASSWORD, LOG_LEVEL: 'info', DATABASE_URL: url }, port)
  t.equal(gw.url, gatewayUrl)

  // Client credentials: netinv's own (API keys, Basic, Bearer), or in passthrough the backend's.
  const newKey = async (scope: string[]) => (await call(gw.url, 'POST', '/api/api-tokens', { headers: { authorization: basic }, body: { description: `legacy ${scope}`, scope } })).json<{ token: string }>().token
  const reader = mode === 'passthrough' ? { 'x-api-token': CLIENT_LEGACY_KEY } : { 'x-api-token': await newKey(['read']) }
  const writer = mode === 'passthrough' ? reader : { 'x-api-token': await newKey(['read', 'write']) }
  const before = () => backend.seen.length
  const last = () => backend.seen[backend.seen.length - 1]!

  t.test('a header-generation client reaches the path-only backend: same payload, the three version headers', async (t) => {
    const r = await call(gw.url, 'GET', '/api/devices', { headers: { ...reader, 'x-api-version': '1' } })
    t.equal(r.status, 200)
    t.same(r.json(), DEVICES, 'the backend’s payload')
    t.equal(last().url, '/api/v6.0/devices', 'translated to the release that used version 1')
    t.equal(r.headers.get('x-api-versions-supported'), '1')
    t.equal(r.headers.get('x-api-version-used'), '1')
    t.match(r.headers.get('x-product-version'), /^v\d+\.\d+/)
    t.equal(r.headers.get('deprecation'), null, 'the current generation is not deprecated')
    t.equal(last().headers['x-api-version'], undefined, 'a path backend is not sent a version header')
  })

  t.test('old clients on /api/v6.0/ and /api/v1/ get the same payload; the path generation announces its sunset', async (t) => {
    const v60 = await call(gw.url, 'GET', '/api/v6.0/devices', { headers: reader })
    t.same(v60.json(), DEVICES)
    t.equal(v60.headers.get('deprecation'), 'true')
    t.equal(v60.headers.get('sunset'), '2099-01-01T00:00:00Z')
    const v52 = await call(gw.url, 'GET', '/api/v5.2/devices', { headers: reader })
    t.same(v52.json(), DEVICES, 'an older release of the same version')
    t.equal(last().url, '/api/v6.0/devices', 'reaches the backend’s own release')
    const v1 = await call(gw.url, 'GET', '/api/v1/devices', { headers: reader })
    t.same(v1.json(), DEVICES)
    t.equal(last().url, '/api/v6.0/devices')
  })

  t.test('the backend’s own Deprecation and Sunset are kept; the gateway’s stricter date wins', async (t) => {
    const own = await call(gw.url, 'GET', '/api/devices/d1', { headers: reader })
    t.same(own.json(), DEVICES[0])
    t.equal(own.headers.get('deprecation'), '@4070908800', 'the backend’s deprecation')
    t.equal(own.headers.get('sunset'), OWN_SUNSET, 'its sunset, the gateway having none')
    t.equal((await call(gw.url, 'GET', '/api/v6.0/devices/d1', { headers: reader })).headers.get('sunset'), OWN_SUNSET, 'the backend’s 2098 is stricter than the gateway’s 2099')
    t.equal((await call(gw.url, 'GET', '/api/v6.0/devices/d2', { headers: reader })).headers.get('sunset'), '2099-01-01T00:00:00Z', 'the gateway’s 2099 is stricter than the backend’s 2100')
  })

  t.test('a version no release of the backend used: 410 before anything is sent', async (t) => {
    const n = before()
    const gone = await call(gw.url, 'GET', '/api/sites', { headers: reader })
    t.equal(gone.status, 410)
    t.match(gone.json(), { message: /no release of upstream legacy/, release_version: String, api_version: '2' })
    t.equal(backend.seen.length, n, 'the backend saw nothing')
    const v1 = await call(gw.url, 'GET', '/api/sites', { headers: { ...reader, 'x-api-version': '1' } })
    t.same(v1.json(), SITES, 'version 1 is served')
  })

  if (mode !== 'passthrough') {
    t.test('netinv API keys, Basic and Bearer authenticate; scopes come from the route file', async (t) => {
      const n = before()
      expectError(t, await call(gw.url, 'GET', '/api/devices'), 401, 'API_UNAUTHORIZED', 'no credentials')
      expectError(t, await call(gw.url, 'GET', '/api/devices', { headers: { 'x-api-token': 'not-a-key' } }), 401, 'API_INVALID_API_TOKEN', 'a bad key')
      t.equal(backend.seen.length, n, 'refused before the backend')
      t.equal((await call(gw.url, 'GET', '/api/devices', { headers: { authorization: basic } })).status, 200, 'Basic')
      const login = (await call(gw.url, 'POST', '/api/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })).json<{ accessToken: string }>()
      t.equal((await call(gw.url, 'GET', '/api/devices', { headers: { authorization: `Bearer ${login.accessToken}` } })).status, 200, 'Bearer')
      expectError(t, await call(gw.url, 'POST', '/api/devices', { headers: reader, body: { hostname: 'new-1' } }), 403, 'API_INSUFFICIENT_RIGHTS', 'scope write required by the route file')
      const created = await call(gw.url, 'POST', '/api/devices', { headers: writer, body: { hostname: 'new-1' } })
      t.equal(created.status, 201, 'with scope write')
      t.same(created.json(), { created: { hostname: 'new-1' } }, 'the body reached the backend')
    })
  }

  if (mode === 'credential') {
    t.test('the backend sees only its service key; a client never sees it', async (t) => {
      const netinvSecrets = [reader['x-api-token']!, writer['x-api-token']!, basic]
      for (const s of backend.seen) {
        if (s.url.endsWith('/health')) continue
        t.equal(s.headers['x-api-token'], SERVICE_KEY, `${s.method} ${s.url}: the service key`)
        t.equal(s.headers.authorization, undefined, 'no client Authorization')
        t.notOk(netinvSecrets.some((secret) => JSON.stringify(s.headers).includes(secret)), 'no client credential of any kind')
      }
      const r = await call(gw.url, 'GET', '/api/devices', { headers: reader })
      t.equal(r.headers.get('x-api-token'), null, 'the key the backend echoed stays behind')
      t.equal(r.headers.get('set-cookie'), null, 'as does its session for the service account')
      t.notOk([...r.headers.values()].some((v) => v.includes(SERVICE_KEY)), 'in no header')
    })
  }

  if (mode === 'jwt') {
    t.test('the backend verified a gateway token per caller, for its audience only', async (t) => {
      t.ok(claims.length > 0, 'tokens verified with the gateway’s JWKS')
      const keyCaller = claims.find((c) => (c.scopes as string[]).length === 1)!
      t.same(keyCaller.scopes, ['read'], 'the caller’s scopes')
      t.equal(keyCaller.scope, 'read')
      t.equal(keyCaller.aud, 'legacy')
      t.type(keyCaller.sub, 'string')
      t.ok((keyCaller.exp as number) - (keyCaller.iat as number) <= 300, 'short-lived')
      const seen = backend.seen.filter((s) => s.headers.authorization !== undefined).map((s) => s.headers.authorization)
      t.ok(new Set(seen).size < seen.length, 'reused for a caller’s next requests, not minted per request')
      t.notOk(backend.seen.some((s) => s.headers['x-api-token'] !== undefined), 'the client’s API key stays at the gateway')
      // A token minted for the backend is no access token of the gateway's.
      const token = seen[0]!.replace('Bearer ', '')
      expectError(t, await call(gw.url, 'GET', '/api/devices', { headers: { authorization: `Bearer ${token}` } }), 401, 'API_INVALID_ACCESS_TOKEN', 'an upstream token presented to the gateway')
    })
  }

  if (mode === 'passthrough') {
    t.test('the client’s own credentials go through and the backend decides', async (t) => {
      const refused = await call(gw.url, 'GET', '/api/devices', { headers: { 'x-api-token': 'wrong' } })
      t.equal(refused.status, 401, 'the backend’s refusal passes through')
      t.same(refused.json(), { message: 'bad token' }, 'in the backend’s own body')
      const r = await call(gw.url, 'GET', '/api/devices', { headers: { ...reader, cookie: 'pref=1' } })
      t.equal(r.status, 200)
      t.equal(last().headers['x-api-token'], CLIENT_LEGACY_KEY, 'untouched')
      t.equal(last().headers.cookie, 'pref=1')
    })
  }

  t.test('per-IP limits apply', async (t) => {
    const statuses: number[] = []
    for (let i = 0; i < 10; i++) statuses.push((await call(gw.url, 'GET', '/api/ping', { headers: reader })).status)
    t.ok(statuses.filter((s) => s === 429).length >= 4, `at most 2 a second pass (${statuses.join(' ')})`)
    const limited = await call(gw.url, 'GET', '/api/ping', { headers: reader })
    if (limited.status === 429) {
      t.match(limited.json(), { code: 'API_TOO_MANY_REQUESTS' })
      t.ok(limited.headers.get('retry-after'))
    }
  })

  t.test('metrics, the access log and /readyz name the upstream', async (t) => {
    const metrics = await (await fetch(`${gw.adminUrl}/metrics`)).text()
    t.match(metrics, /netinv_gateway_requests_total\{upstream="legacy",endpoint="devices",method="GET",status="200"\} \d+/)
    t.match(metrics, /netinv_gateway_upstream_up\{upstream="legacy"\} 1/)
    const access = gw
      .stdout()
      .split('\n')
      .filter((l) => l.includes('"msg":"request"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    t.match(access.find((l) => l.endpoint === 'devices'), { upstream: 'legacy', path: String, status: Number })
    const ready = await call(gw.url, 'GET', '/readyz')
    t.equal(ready.status, 200)
    t.match(ready.json(), { status: 'ready', upstreams: { legacy: { ok: true, status: 200 } } })
  })

  t.test('a slow backend: 504 in the documented body', async (t) => {
    expectError(t, await call(gw.url, 'GET', '/api/slow', { headers: reader }), 504, 'API_UPSTREAM_TIMEOUT', 'slower than upstreams.legacy.timeoutMs')
  })

  t.test('after the configured sunset: 410 on the path generation, the others still served', async (t) => {
    writeJson(join(configDir, 'api.json'), apiJson(backend.url, identity, '2026-01-01T00:00:00Z'))
    gw.child.kill('SIGHUP')
    let gone: Reply | undefined
    for (let i = 0; i < 100 && gone?.status !== 410; i++) {
      gone = await call(gw.url, 'GET', '/api/v6.0/devices', { headers: reader })
      if (gone.status !== 410) await new Promise((resolve) => setTimeout(resolve, 50))
    }
    t.equal(gone?.status, 410, 'gone after its sunset')
    t.match(gone?.json(), { message: /sunset on 2026-01-01T00:00:00Z/, release_version: String, api_version: '1' })
    t.same((await call(gw.url, 'GET', '/api/devices', { headers: reader })).json(), DEVICES, 'the header generation still reaches the backend')
  })

  t.test('a backend that is down: 502 in the documented body, /readyz names it', async (t) => {
    await backend.stop()
    expectError(t, await call(gw.url, 'GET', '/api/devices', { headers: reader }), 502, 'API_UPSTREAM_UNAVAILABLE', 'backend down')
    const ready = await call(gw.url, 'GET', '/readyz')
    t.equal(ready.status, 503)
    t.match(ready.json(), { status: 'not ready', checks: { upstream: false }, upstreams: { legacy: { ok: false, error: 'ECONNREFUSED', required: true } } })
  })
}

for (const mode of ['credential', 'jwt', 'passthrough'] as const) t.test(`netinv gateway in front of a legacy backend, identity "${mode}"`, (t) => suite(t, mode))
