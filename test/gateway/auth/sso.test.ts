/**
 * Single sign-on with OpenID Connect against a real provider: oidc-provider (the npm package) in
 * this process on a loopback port, with netinv's client registered and accounts whose `groups`
 * claim the gateway maps to scopes. The flow is driven with plain HTTP through the provider's own
 * interaction pages (login and consent forms): start → provider → callback → netinv's session.
 * Hostile answers (replayed, unknown or another browser's state, the provider's error, a user
 * without a mapped group, a name of a local user) get the documented error body and an audit event.
 */
import t from 'tap'
import { createServer, type Server } from 'node:http'
import { mkdtemp, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose'
import Provider from 'oidc-provider'
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { freshPostgres, REDIS_URL } from '../../helpers/db.js'
import { basic, startGateway, ADMIN_PASSWORD, TEST_CONFIG, type TestGateway } from '../handlers/helper.js'

const ACCOUNTS: Record<string, string[]> = {
  alice: ['netinv-admins', 'staff'],
  bob: ['netinv-readers'],
  carol: ['staff'],
  admin: ['netinv-readers'],
  impostor: ['netinv-admins'],
}
/** Accounts whose username claim is not their account id: another account named like alice. */
const NAMES: Record<string, string> = { impostor: 'alice' }
/**
 * The address users reach netinv at, as behind a reverse proxy: the provider sends the browser
 * there, and the test's browser takes it to the gateway's own address.
 */
const PUBLIC_BASE = 'https://netinv.example.test'
const CLIENT_SECRET = 'a-client-secret-of-the-test-provider-0123456789'

/** Cookies of one user agent (by name; the test's hosts are all loopback). */
class Jar {
  readonly cookies = new Map<string, string>()
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const eq = pair?.indexOf('=') ?? -1
      if (!pair || eq < 0) continue
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }
}

async function get(url: string, jar: Jar): Promise<Response> {
  const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } })
  jar.take(res)
  return res
}

interface Flow {
  jar: Jar
  /** The provider's redirect to netinv's callback (with code and state). */
  callback: string
}

/**
 * A browser's way from `start` to the provider's redirect back to netinv: the provider's login
 * form (any password: the provider's development interactions) and its consent form submitted.
 */
async function throughProvider(gw: TestGateway, username: string, extraAuthParams: Record<string, string> = {}): Promise<Flow> {
  const jar = new Jar()
  const started = await get(`${gw.url}/api/auth/sso/corp/start`, jar)
  if (started.status !== 302) throw new Error(`start: ${started.status} ${await started.text()}`)
  const auth = new URL(started.headers.get('location') ?? '')
  for (const [k, v] of Object.entries(extraAuthParams)) auth.searchParams.set(k, v)
  let url = auth.href
  for (let step = 0; step < 20; step++) {
    if (url.startsWith(`${PUBLIC_BASE}/`)) return { jar, callback: gw.url + url.slice(PUBLIC_BASE.length) }
    const res = await get(url, jar)
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location') ?? '', url).href
      continue
    }
    const html = await res.text()
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]
    if (res.status !== 200 || !action) throw new Error(`provider page ${url}: ${res.status} ${html.slice(0, 300)}`)
    const form = new URLSearchParams(/name="prompt" value="login"/.test(html) ? { prompt: 'login', login: username, password: 'any' } : { prompt: 'consent' })
    const posted = await fetch(new URL(action.replace(/&amp;/g, '&'), url), { method: 'POST', redirect: 'manual', headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' }, body: form })
    jar.take(posted)
    if (posted.status < 300 || posted.status >= 400) throw new Error(`form at ${url}: ${posted.status} ${(await posted.text()).slice(0, 300)}`)
    url = new URL(posted.headers.get('location') ?? '', url).href
  }
  throw new Error('the provider never sent the browser back')
}

async function callback(url: string, jar: Jar): Promise<{ res: Response; body: Record<string, unknown> | null }> {
  const res = await get(url, jar)
  const text = await res.text()
  return { res, body: text ? (JSON.parse(text) as Record<string, unknown>) : null }
}

async function auditEvents(gw: TestGateway, filters: Record<string, unknown>, count: number): Promise<Array<Record<string, unknown>>> {
  for (let i = 0; i < 500; i++) {
    const res = await gw.fetch('/api/tables/audit', { method: 'POST', headers: { authorization: basic('admin', ADMIN_PASSWORD) }, json: { columns: ['actorName', 'actorMethod', 'action', 'target', 'outcome', 'reason'], filters } })
    const { data } = (await res.json()) as { data: Array<Record<string, unknown>> }
    if (data.length >= count) return data
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`fewer than ${count} audit events match ${JSON.stringify(filters)}`)
}

t.test('OpenID Connect single sign-on against oidc-provider', async (t) => {
  // The provider's server listens first (its address is the issuer); the provider itself is made
  // once the gateway's address (the redirect URI) is known.
  const made: { provider?: Provider } = {}
  const server: Server = createServer((req, res) => {
    if (!made.provider) return void res.writeHead(503).end()
    void made.provider.callback()(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  )
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const dir = await mkdtemp(join(tmpdir(), 'netinv-sso-'))
  const secretFile = join(dir, 'client-secret')
  await writeFile(secretFile, `${CLIENT_SECRET}\n`, { mode: 0o600 })

  const hostile = await startHostileProvider(t)

  const db = (await freshPostgres(t)).db
  const sso = (redirectBaseUrl: string) => ({
    providers: {
      corp: {
        displayName: 'Corp SSO',
        issuer,
        clientId: 'netinv',
        clientSecretFile: secretFile,
        scopes: ['openid', 'profile', 'email', 'groups'],
        groups: { 'netinv-admins': { scopes: ['read', 'settings', 'team', 'write'], isAdmin: true }, 'netinv-readers': { scopes: ['read'] } },
        redirectBaseUrl,
        reauthenticateAfterSeconds: 600,
        eulaApproved: true,
        allowInsecureHttp: true,
      },
      // A provider that answers forged ID tokens.
      hostile: { issuer: hostile.issuer, clientId: 'netinv', clientSecretFile: secretFile, groups: { 'netinv-admins': { scopes: ['read'] } }, redirectBaseUrl, allowInsecureHttp: true, eulaApproved: true },
      // A second client at the same provider: answers for one must never log in through the other.
      other: { issuer, clientId: 'netinv-other', clientSecretFile: secretFile, groups: { 'netinv-readers': { scopes: ['read'] } }, redirectBaseUrl, allowInsecureHttp: true, eulaApproved: true },
    },
  })
  const ssoGw = await startGateway(t, { db, dataDir: dir, config: { ...TEST_CONFIG, audit: { flushMs: 10 }, sso: sso(PUBLIC_BASE) } })
  made.provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'netinv',
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${PUBLIC_BASE}/api/auth/sso/corp/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
      {
        client_id: 'netinv-other',
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${PUBLIC_BASE}/api/auth/sso/other/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ sub: `sub-${id}`, preferred_username: NAMES[id] ?? id, email: `${id}@corp.test`, groups: ACCOUNTS[id] ?? [] }),
    }),
    claims: { openid: ['sub'], profile: ['preferred_username'], email: ['email'], groups: ['groups'] },
    scopes: ['openid', 'profile', 'email', 'groups'],
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    cookies: { keys: ['cookie-signing-key-of-the-test-provider'] },
    features: { devInteractions: { enabled: true } },
  })

  t.test('GET auth/providers lists the provider', async (t) => {
    const res = await ssoGw.fetch('/api/auth/providers')
    t.same(((await res.json()) as { sso: unknown }).sso, [
      { name: 'corp', displayName: 'Corp SSO', start: '/api/auth/sso/corp/start' },
      { name: 'hostile', displayName: 'hostile', start: '/api/auth/sso/hostile/start' },
      { name: 'other', displayName: 'other', start: '/api/auth/sso/other/start' },
    ])
  })

  t.test('a user logs in through the provider and gets netinv\'s own session', async (t) => {
    const flow = await throughProvider(ssoGw, 'alice')
    const start = new URL(flow.callback)
    t.ok(start.searchParams.get('code'), 'the provider answered with a code')
    const { res } = await callback(flow.callback, flow.jar)
    t.equal(res.status, 302)
    t.equal(res.headers.get('location'), '/', 'to the web interface')
    const access = flow.jar.cookies.get('accessToken')
    const refreshToken = flow.jar.cookies.get('refreshToken')
    t.ok(access && refreshToken, 'the token cookies of a login')
    t.notOk(flow.jar.cookies.has('ssoState'), 'the state cookie is spent')
    const me = (await (await ssoGw.fetch('/api/users/me', { headers: { cookie: `accessToken=${access ?? ''}` } })).json()) as Record<string, unknown>
    t.match(me, { username: 'alice', isLocal: false, ssoProvider: 'corp', isAdmin: true, email: 'alice@corp.test', ldapId: null })
    t.same(me.scope, ['read', 'settings', 'team', 'write'], 'scopes from the mapped groups')
    const refreshed = await ssoGw.fetch('/api/auth/token', { method: 'POST', json: { refreshToken: decodeURIComponent(refreshToken ?? '') } })
    t.equal(refreshed.status, 200, 'the session refreshes like any other')
    const next = (await refreshed.json()) as { refreshToken: string }

    // Replaying the same answer (state and code) logs nobody in.
    const replay = await callback(flow.callback, flow.jar)
    t.equal(replay.res.status, 401)
    t.match(replay.body, { code: 'API_INVALID_CREDENTIALS', message: /start again/ })

    // Past reauthenticateAfterSeconds, the session ends: the user goes through the provider again.
    ssoGw.advance(601_000)
    const late = await ssoGw.fetch('/api/auth/token', { method: 'POST', json: { refreshToken: next.refreshToken } })
    t.equal(late.status, 401)
    t.match(await late.json(), { code: 'API_INVALID_REFRESH_TOKEN' })

    const ok = await auditEvents(ssoGw, { action: ['eq', 'auth.login'], actorMethod: ['eq', 'sso'], outcome: ['eq', 'success'] }, 1)
    t.match(ok[0], { actorName: 'alice', target: 'alice', reason: 'provider corp' })
    const replayed = await auditEvents(ssoGw, { action: ['eq', 'auth.login'], actorMethod: ['eq', 'sso'], reason: ['like', 'already used state'] }, 1)
    t.match(replayed[0], { outcome: 'failure', target: 'corp' })
    const refused = await auditEvents(ssoGw, { action: ['eq', 'auth.refresh'], reason: ['like', 'log in through the provider again'] }, 1)
    t.match(refused[0], { outcome: 'failure' })
  })

  t.test('with local authentication off, single sign-on logins and their sessions work', async (t) => {
    const off = await startGateway(t, { db, dataDir: dir, config: { ...TEST_CONFIG, app: { ...TEST_CONFIG.app, enableLocalAuthentication: false }, sso: sso(PUBLIC_BASE) } })
    const flow = await throughProvider(off, 'bob')
    const { res } = await callback(flow.callback, flow.jar)
    t.equal(res.status, 302)
    const me = await off.fetch('/api/users/me', { headers: { cookie: `accessToken=${flow.jar.cookies.get('accessToken') ?? ''}` } })
    t.equal(me.status, 200)
    t.match(await me.json(), { username: 'bob', scope: ['read'], ssoProvider: 'corp' })
    const refreshed = await off.fetch('/api/auth/token', { method: 'POST', json: { refreshToken: decodeURIComponent(flow.jar.cookies.get('refreshToken') ?? '') } })
    t.equal(refreshed.status, 200)
    const local = await off.fetch('/api/auth/login', { method: 'POST', json: { username: 'admin', password: ADMIN_PASSWORD } })
    t.equal(local.status, 403, 'while local passwords are refused')
  })

  t.test('with Redis, a login started on one replica finishes on another, once', async (t) => {
    const channel = `netinv:test:${randomBytes(6).toString('hex')}`
    const [ra, rb] = [new Redis(REDIS_URL), new Redis(REDIS_URL)]
    t.teardown(() => {
      ra.disconnect()
      rb.disconnect()
    })
    const config = { ...TEST_CONFIG, audit: { flushMs: 10 }, sso: sso(PUBLIC_BASE) }
    const a = await startGateway(t, { db, dataDir: dir, redis: ra, revocationChannel: channel, config })
    const b = await startGateway(t, { db, dataDir: dir, redis: rb, revocationChannel: channel, config })
    const flow = await throughProvider(a, 'bob')
    const onB = await callback(flow.callback.replace(a.url, b.url), flow.jar)
    t.equal(onB.res.status, 302, 'the other replica finishes the login')
    t.ok(flow.jar.cookies.get('accessToken'), 'with the session cookies')
    flow.jar.cookies.set('ssoState', new URL(flow.callback).searchParams.get('state') ?? '')
    const again = await callback(flow.callback, flow.jar)
    t.equal(again.res.status, 401, 'and the state is spent on every replica')
  })

  t.test('forged ID tokens are refused (the client library checks them)', async (t) => {
    const cases: Array<[string, (claims: JWTPayload) => Promise<string>]> = [
      ['signed by another key', (c) => hostile.sign(c, 'other')],
      ['alg none', async (c) => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(c)}.`],
      ['HS256 with the client secret', (c) => new SignJWT(c).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(CLIENT_SECRET))],
      ['wrong audience', (c) => hostile.sign({ ...c, aud: 'someone-else' })],
      ['wrong issuer', (c) => hostile.sign({ ...c, iss: 'https://elsewhere.example.test' })],
      ['expired', (c) => hostile.sign({ ...c, iat: now() - 7200, exp: now() - 3600 })],
      ['another nonce', (c) => hostile.sign({ ...c, nonce: 'not-the-nonce-of-this-login' })],
    ]
    for (const [what, forge] of cases) {
      const attempt = await hostileLogin(ssoGw, hostile, forge)
      t.equal(attempt.res.status, 401, what)
      t.match(attempt.body, { code: 'API_INVALID_CREDENTIALS' }, what)
    }
    // The same harness with an honest token logs in: the refusals above are the checks' doing.
    const honest = await hostileLogin(ssoGw, hostile, (c) => hostile.sign(c))
    t.equal(honest.res.status, 302, 'a correctly signed token passes')
    const refused = await auditEvents(ssoGw, { action: ['eq', 'auth.login'], target: ['eq', 'hostile'], outcome: ['eq', 'failure'] }, cases.length)
    t.ok(refused.every((e) => /provider hostile: API_INVALID_CREDENTIALS: the provider's answer failed its checks/.test(String(e.reason))), 'each recorded with the reason')
  })

  t.test('hostile and refused answers', async (t) => {
    // Another browser's state: the answer reaches netinv without the state cookie of its start.
    const stolen = await throughProvider(ssoGw, 'bob')
    const elsewhere = await callback(stolen.callback, new Jar())
    t.equal(elsewhere.res.status, 401)
    t.match(elsewhere.body, { code: 'API_INVALID_CREDENTIALS' })

    // Mixed-up providers: an answer meant for one provider's callback brought to another's.
    const mixed = await throughProvider(ssoGw, 'bob')
    const swapped = await callback(mixed.callback.replace('/sso/corp/', '/sso/other/'), mixed.jar)
    t.equal(swapped.res.status, 401)
    t.match(swapped.body, { code: 'API_INVALID_CREDENTIALS' })

    // A state netinv never issued.
    const forged = await callback(`${ssoGw.url}/api/auth/sso/corp/callback?code=abc&state=forged-state`, new Jar())
    t.equal(forged.res.status, 401)
    t.match(forged.body, { code: 'API_INVALID_CREDENTIALS' })

    // The provider's error (the user refused, or the provider did): a clear message.
    const jar = new Jar()
    const started = await get(`${ssoGw.url}/api/auth/sso/corp/start`, jar)
    const state = new URL(started.headers.get('location') ?? '').searchParams.get('state') ?? ''
    const denied = await callback(`${ssoGw.url}/api/auth/sso/corp/callback?error=access_denied&error_description=nope&state=${state}`, jar)
    t.equal(denied.res.status, 401)
    t.match(denied.body, { code: 'API_INVALID_CREDENTIALS', message: /refused the login \(access_denied\)/ })

    // A user holding no mapped group.
    const carol = await throughProvider(ssoGw, 'carol')
    const noScope = await callback(carol.callback, carol.jar)
    t.equal(noScope.res.status, 403)
    t.match(noScope.body, { code: 'API_INSUFFICIENT_RIGHTS', message: /no groups value that netinv maps to a scope/ })
    t.notOk(carol.jar.cookies.has('accessToken'), 'no session')
    t.notOk(carol.jar.cookies.has('ssoState'), 'the state cookie is spent by a refusal too')

    // Another account of the provider given alice's name later is not alice.
    const impostor = await throughProvider(ssoGw, 'impostor')
    const renamed = await callback(impostor.callback, impostor.jar)
    t.equal(renamed.res.status, 401)
    t.match(renamed.body, { code: 'API_INVALID_CREDENTIALS' })

    // A provider's account named like a local user never takes it over.
    const admin = await throughProvider(ssoGw, 'admin')
    const takeover = await callback(admin.callback, admin.jar)
    t.equal(takeover.res.status, 401)
    t.match(takeover.body, { code: 'API_INVALID_CREDENTIALS' })

    const unknown = await ssoGw.fetch('/api/auth/sso/nowhere/start', { redirect: 'manual' })
    t.equal(unknown.status, 404)
    t.match(await unknown.json(), { code: 'API_NOT_FOUND' })

    for (const expected of ['another browser', 'state of provider corp answered at other', 'unknown, expired or already used state', 'provider error: access_denied (nope)', 'API_INSUFFICIENT_RIGHTS: no mapped groups', 'belongs to a local user', 'belongs to another account of provider corp (sub differs)']) {
      const found = await auditEvents(ssoGw, { action: ['eq', 'auth.login'], actorMethod: ['eq', 'sso'], outcome: ['eq', 'failure'], reason: ['like', expected] }, 1)
      t.match(found[0], { target: /^(corp|other)$/, actorName: /^sso:/ }, `audited: ${expected}`)
    }
    const users = (await (await ssoGw.fetch('/api/users', { headers: { authorization: basic('admin', ADMIN_PASSWORD) } })).json()) as Array<{ username: string }>
    t.notOk(users.some((u) => u.username === 'carol'), 'a user without a mapped group is not created')
    t.notOk(ssoGw.logs.some((l) => l.includes(CLIENT_SECRET)), 'the client secret is never logged')
  })
})

const now = () => Math.floor(Date.now() / 1000)
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')

interface Hostile {
  issuer: string
  sign(claims: JWTPayload, key?: 'own' | 'other'): Promise<string>
  /** What the token endpoint answers as id_token for the next code. */
  next: ((nonce: string) => Promise<string>) | null
  nonce: string
}

/**
 * A provider that publishes a discovery document and its JWKS like any other, and whose token
 * endpoint answers whatever ID token the test forged.
 */
async function startHostileProvider(t: Parameters<typeof startGateway>[0]): Promise<Hostile> {
  const own = await generateKeyPair('RS256')
  const other = await generateKeyPair('RS256')
  const jwk = { ...(await exportJWK(own.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }
  const h: Hostile = {
    issuer: '',
    next: null,
    nonce: '',
    sign: (claims, key = 'own') => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(key === 'own' ? own.privateKey : other.privateKey),
  }
  const server = createServer((req, res) => {
    const send = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    if (req.url === '/.well-known/openid-configuration') {
      return send({
        issuer: h.issuer,
        authorization_endpoint: `${h.issuer}/auth`,
        token_endpoint: `${h.issuer}/token`,
        jwks_uri: `${h.issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      })
    }
    if (req.url === '/jwks') return send({ keys: [jwk] })
    if (req.url === '/token' && req.method === 'POST') {
      req.resume()
      req.on('end', () => {
        const make = h.next
        if (!make) return void res.writeHead(400).end()
        void make(h.nonce).then((idToken) => send({ access_token: 'at', token_type: 'Bearer', expires_in: 60, id_token: idToken }))
      })
      return
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  )
  h.issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return h
}

/** Starts a login at the hostile provider and brings back a code whose ID token `forge` makes. */
async function hostileLogin(gw: TestGateway, h: Hostile, forge: (claims: JWTPayload) => Promise<string>): Promise<{ res: Response; body: Record<string, unknown> | null }> {
  const jar = new Jar()
  const started = await get(`${gw.url}/api/auth/sso/hostile/start`, jar)
  const auth = new URL(started.headers.get('location') ?? '')
  const nonce = auth.searchParams.get('nonce') ?? ''
  const state = auth.searchParams.get('state') ?? ''
  h.nonce = nonce
  h.next = () => forge({ iss: h.issuer, aud: 'netinv', sub: 'sub-mallory', preferred_username: 'mallory', groups: ['netinv-admins'], nonce, iat: now(), exp: now() + 300 })
  return callback(`${gw.url}/api/auth/sso/hostile/callback?code=any-code&state=${encodeURIComponent(state)}`, jar)
}
