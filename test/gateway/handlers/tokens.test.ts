/** The spec's state tables of the refresh and access tokens, and its client flow, end to end. */
import t from 'tap'
import { basic, createUser, login, startGateway, ADMIN_PASSWORD, TEST_CONFIG, type TestGateway } from './helper.js'

async function refresh(gw: TestGateway, refreshToken: string, path = '/api/auth/token', headers: Record<string, string> = {}) {
  const res = await gw.fetch(path, { method: 'POST', headers, json: { refreshToken } })
  return { res, body: (await res.json()) as Record<string, unknown> }
}

t.test('refresh token: login → active; original generation keeps it and restarts the idle timer; idle expiry', async (t) => {
  const gw = await startGateway(t)
  const { res, body } = await login(gw, 'admin', ADMIN_PASSWORD, '/api/v1/auth/login')
  t.equal(res.status, 200)
  t.same(Object.keys(body).sort(), ['accessToken', 'refreshToken'], 'original generation: the two tokens only')
  const rt = body.refreshToken as string
  t.equal(rt.length, 64, 'app.refreshToken.length')

  gw.advance(90_000)
  const r1 = await refresh(gw, rt, '/api/v1/auth/token')
  t.equal(r1.res.status, 200)
  t.same(Object.keys(r1.body), ['accessToken'], 'original: {accessToken}')
  gw.advance(90_000)
  const r2 = await refresh(gw, rt, '/api/v1/auth/token')
  t.equal(r2.res.status, 200, 'the same token still works: its idle timer restarted at the last use')
  gw.advance(100_000)
  const r3 = await refresh(gw, rt, '/api/v1/auth/token')
  t.equal(r3.res.status, 401)
  t.same(r3.body, { code: 'API_INVALID_REFRESH_TOKEN', message: 'Invalid Refresh Token' }, 'expired after 100 s unused')
})

t.test('refresh token: 6.1 and later (and the header generation) rotate; the old one is refused', async (t) => {
  const gw = await startGateway(t)
  for (const path of ['/api/auth/token', '/api/v6.1/auth/token', '/api/v7.5/auth/token']) {
    const { body } = await login(gw, 'admin', ADMIN_PASSWORD)
    const r1 = await refresh(gw, body.refreshToken as string, path)
    t.equal(r1.res.status, 200, path)
    t.same(Object.keys(r1.body).sort(), ['accessToken', 'eula', 'id', 'refreshToken', 'scope'], `${path}: login result object`)
    t.not(r1.body.refreshToken, body.refreshToken, `${path}: a new refresh token`)
    gw.advance(6000) // past the reuse grace
    const again = await refresh(gw, body.refreshToken as string, path)
    t.equal(again.res.status, 401, `${path}: the replaced token is refused`)
    t.equal(again.body.code, 'API_INVALID_REFRESH_TOKEN')
    const successor = await refresh(gw, r1.body.refreshToken as string, path)
    t.equal(successor.res.status, 401, `${path}: reuse of a rotated token kills its family`)
  }
  // Path releases before 6.1 behave like the original generation.
  const { body } = await login(gw, 'admin', ADMIN_PASSWORD)
  const old = await refresh(gw, body.refreshToken as string, '/api/v6.0/auth/token')
  t.same(Object.keys(old.body), ['accessToken'])
  t.equal((await refresh(gw, body.refreshToken as string, '/api/v6.0/auth/token')).res.status, 200)
  // Header generation asking for version 1.
  const v1 = await refresh(gw, body.refreshToken as string, '/api/auth/token', { 'x-api-version': '1' })
  t.same(Object.keys(v1.body), ['accessToken'])
})

t.test('refresh token: concurrent refreshes within the grace get the same successor', async (t) => {
  const gw = await startGateway(t)
  const { body } = await login(gw, 'admin', ADMIN_PASSWORD)
  const [a, b] = await Promise.all([refresh(gw, body.refreshToken as string), refresh(gw, body.refreshToken as string)])
  t.equal(a.res.status, 200)
  t.equal(b.res.status, 200)
  t.equal(a.body.refreshToken, b.body.refreshToken)
  t.equal((await refresh(gw, a.body.refreshToken as string)).res.status, 200, 'the successor works')
})

t.test('refresh token: by default a rotated token is never valid again, not even at once', async (t) => {
  const { reuseGraceSeconds: _grace, ...refreshToken } = TEST_CONFIG.app.refreshToken
  const gw = await startGateway(t, { config: { ...TEST_CONFIG, app: { ...TEST_CONFIG.app, refreshToken } } })
  const { body } = await login(gw, 'admin', ADMIN_PASSWORD)
  const r1 = await refresh(gw, body.refreshToken as string)
  t.equal(r1.res.status, 200)
  const again = await refresh(gw, body.refreshToken as string)
  t.equal(again.res.status, 401, 'reused in the same millisecond: refused')
  t.equal(again.body.code, 'API_INVALID_REFRESH_TOKEN')
  t.equal((await refresh(gw, r1.body.refreshToken as string)).res.status, 401, 'and the family is revoked')
})

t.test('refresh token: a missing refreshToken is invalid input', async (t) => {
  const gw = await startGateway(t)
  for (const json of [{}, { refreshToken: null }, { refreshToken: '' }, { refreshToken: 5 }]) {
    const res = await gw.fetch('/api/auth/token', { method: 'POST', json })
    t.equal(res.status, 422, JSON.stringify(json))
    t.match(await res.json(), { code: 'API_INVALID_INPUT', errors: [{ message: /"refreshToken"/ }] })
  }
  const { res: loggedIn } = await login(gw, 'admin', ADMIN_PASSWORD)
  const cookie = loggedIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
  const forged = await gw.fetch('/api/auth/token', { method: 'POST', headers: { cookie }, json: {} })
  t.equal(forged.status, 403, 'the refresh cookie alone, without X-Requested-With, may have come from another site')
  t.match(await forged.json(), { code: 'API_INSUFFICIENT_RIGHTS', message: /X-Requested-With/ })
  t.equal((await gw.fetch('/api/auth/token', { method: 'POST', headers: { cookie, 'x-requested-with': 'netinv-web' }, json: {} })).status, 200, 'the refreshToken cookie stands in for the body')
})

t.test('refresh token: revocation needs scope team; its errors are text/plain Unauthorized', async (t) => {
  const gw = await startGateway(t)
  await createUser(gw, { username: 'reader', password: 'reader-password', scope: ['read'] })
  const { body } = await login(gw, 'admin', ADMIN_PASSWORD)
  const rt = body.refreshToken as string

  const attempts: Array<Record<string, string>> = [{}, { authorization: basic('reader', 'reader-password') }, { authorization: 'Bearer nonsense' }]
  for (const headers of attempts) {
    const res = await gw.fetch('/api/auth/token', { method: 'DELETE', headers, json: { refreshToken: rt } })
    t.ok(res.status === 401 || res.status === 403, `status ${res.status}`)
    t.match(res.headers.get('content-type'), /^text\/plain/)
    t.equal(await res.text(), 'Unauthorized')
  }
  t.equal((await refresh(gw, rt, '/api/v1/auth/token')).res.status, 200, 'still active')

  const res = await gw.fetch('/api/auth/token', { method: 'DELETE', headers: { authorization: `Bearer ${body.accessToken as string}` }, json: { refreshToken: rt } })
  t.equal(res.status, 200)
  t.same(await res.json(), { success: true })
  const after = await refresh(gw, rt)
  t.equal(after.res.status, 401)
  t.equal(after.body.code, 'API_INVALID_REFRESH_TOKEN', 'revoked')
  const unknown = await gw.fetch('/api/auth/token', { method: 'DELETE', headers: { authorization: basic('admin', ADMIN_PASSWORD) }, json: { refreshToken: 'nope' } })
  t.equal(await unknown.text(), 'Unauthorized')
})

t.test('access token: valid → expired (API_EXPIRED_ACCESS_TOKEN) → refresh → works: the spec client flow', async (t) => {
  const gw = await startGateway(t)
  await createUser(gw, { username: 'client', password: 'client-password', scope: ['read'] })
  // log in; store the refresh token
  const { body } = await login(gw, 'client', 'client-password')
  let access = body.accessToken as string
  let stored = body.refreshToken as string
  let renewals = 0
  for (let minute = 0; minute < 6; minute++) {
    // use the access token
    let res = await gw.fetch('/api/snapshots', { headers: { authorization: `Bearer ${access}` } })
    if (res.status === 401) {
      const err = (await res.json()) as { code: string }
      t.equal(err.code, 'API_EXPIRED_ACCESS_TOKEN')
      // on API_EXPIRED_ACCESS_TOKEN call POST /auth/token with the stored refresh token
      const r = await refresh(gw, stored)
      t.equal(r.res.status, 200)
      access = r.body.accessToken as string
      stored = r.body.refreshToken as string
      renewals++
      res = await gw.fetch('/api/snapshots', { headers: { authorization: `Bearer ${access}` } })
    }
    t.equal(res.status, 200, `minute ${minute}`)
    t.match(await res.json(), { upstream: true, principal: { username: 'client', scopes: ['read'], method: 'bearer' } })
    gw.advance(40_000)
  }
  t.ok(renewals >= 2, `renewed ${renewals} times`)
  // repeat until the refresh token is no longer valid, then log in again
  gw.advance(200_000)
  t.equal((await gw.fetch('/api/snapshots', { headers: { authorization: `Bearer ${access}` } })).status, 401)
  t.equal((await refresh(gw, stored)).res.status, 401)
  t.equal((await login(gw, 'client', 'client-password')).res.status, 200)
})

t.test('cookies: login sets them, auth/token reads the refresh cookie, the access cookie authenticates, logout clears', async (t) => {
  const gw = await startGateway(t)
  const res = await gw.fetch('/api/auth/login', { method: 'POST', headers: { 'x-forwarded-proto': 'https' }, json: { username: 'admin', password: ADMIN_PASSWORD } })
  const cookies = res.headers.getSetCookie()
  t.equal(cookies.length, 2)
  t.match(cookies[0], /^accessToken=[^;]+; Path=\/; Max-Age=60; HttpOnly; SameSite=Strict; Secure$/)
  t.match(cookies[1], /^refreshToken=[^;]+; Path=\/api\/auth\/token; Max-Age=100; HttpOnly; SameSite=Strict; Secure$/)
  const plain = await gw.fetch('/api/auth/login', { method: 'POST', json: { username: 'admin', password: ADMIN_PASSWORD } })
  t.notMatch(plain.headers.getSetCookie()[0], /Secure/, 'no Secure over plain HTTP')
  const access = /^accessToken=([^;]+)/.exec(cookies[0]!)![1]!
  const refreshCookie = /^refreshToken=([^;]+)/.exec(cookies[1]!)![1]!

  const me = await gw.fetch('/api/users/me', { headers: { cookie: `accessToken=${access}` } })
  t.equal(me.status, 200)
  const r = await gw.fetch('/api/auth/token', { method: 'POST', headers: { cookie: `refreshToken=${refreshCookie}`, 'x-requested-with': 'netinv-web' } })
  t.equal(r.status, 200)
  const next = ((await r.json()) as { refreshToken: string }).refreshToken

  gw.advance(61_000)
  const expired = await gw.fetch('/api/auth/logout', { method: 'POST', headers: { authorization: `Bearer ${access}` } })
  t.equal(expired.status, 401)
  t.same(await expired.json(), { code: 'API_EXPIRED_ACCESS_TOKEN', message: 'Expired JWT Access Token' }, 'logout with an expired token: the spec error')
  gw.advance(-61_000)
  const out = await gw.fetch('/api/auth/logout', { method: 'POST', headers: { authorization: `Bearer ${access}` } })
  t.equal(out.status, 200)
  t.same(await out.json(), { success: true })
  t.match(out.headers.getSetCookie(), [/^accessToken=; Path=\/; Max-Age=0/, /^refreshToken=; Path=\/api\/auth\/token; Max-Age=0/])
  const dead = await gw.fetch('/api/auth/token', { method: 'POST', json: { refreshToken: next } })
  t.equal(dead.status, 401, "logout revoked the session's refresh-token family")
  const stale = await gw.fetch('/api/auth/token', { method: 'POST', headers: { authorization: 'Bearer expired.or.bad', cookie: 'accessToken=junk' }, json: { refreshToken: 'x' } })
  t.equal(((await stale.json()) as { code: string }).code, 'API_INVALID_REFRESH_TOKEN', 'stale credentials do not block a public endpoint')
})

t.test('CSRF: a change authenticated by the access cookie alone needs X-Requested-With; API keys, Bearer and reads do not', async (t) => {
  const gw = await startGateway(t)
  const res = await gw.fetch('/api/auth/login', { method: 'POST', json: { username: 'admin', password: ADMIN_PASSWORD } })
  const { accessToken } = (await res.json()) as { accessToken: string }
  const cookie = `accessToken=${accessToken}`
  const create = (headers: Record<string, string>) => gw.fetch('/api/api-tokens', { method: 'POST', headers, json: { description: 'csrf', scope: ['read'] } })

  const forged = await create({ cookie })
  t.equal(forged.status, 403, 'a cross-site form could send this: refused')
  t.match(await forged.json(), { code: 'API_INSUFFICIENT_RIGHTS', message: /X-Requested-With/ })
  t.equal((await create({ cookie, 'x-requested-with': '' })).status, 403, 'an empty header is no proof')
  const fromPage = await create({ cookie, 'x-requested-with': 'netinv-web' })
  t.equal(fromPage.status, 201, 'the page of this site sends the header')
  const key = ((await fromPage.json()) as { token: string }).token
  t.equal((await create({ authorization: `Bearer ${accessToken}` })).status, 201, 'Bearer: no header needed')
  t.equal((await create({ authorization: `Bearer ${accessToken}`, cookie })).status, 201, 'Bearer with a stray cookie: the Bearer token authenticates')
  t.equal((await gw.fetch('/api/users/me', { headers: { cookie } })).status, 200, 'a read with the cookie needs nothing more')
  const byKey = await gw.fetch('/api/api-tokens', { method: 'GET', headers: { 'x-api-token': key } })
  t.equal(byKey.status, 200, 'API key clients are unaffected')
  const logout = await gw.fetch('/api/auth/logout', { method: 'POST', headers: { cookie } })
  t.equal(logout.status, 403, 'logging a user out from another site is refused too')
  t.equal((await gw.fetch('/api/auth/logout', { method: 'POST', headers: { cookie, 'x-requested-with': 'netinv-web' } })).status, 200)
})
