/** auth/login, auth/eula, Basic and the local-authentication switch. */
import t from 'tap'
import { basic, createUser, login, startGateway, ADMIN_PASSWORD, TEST_CONFIG } from './helper.js'

const INVALID = { code: 'API_INVALID_CREDENTIALS', message: 'Invalid Credentials' }

t.test('login: result object, and one generic answer for every failure', async (t) => {
  const gw = await startGateway(t)
  await createUser(gw, { username: 'inactive', password: 'inactive-password', scope: [] })
  const ok = await login(gw, 'admin', ADMIN_PASSWORD)
  t.equal(ok.res.status, 200)
  t.match(ok.body, { accessToken: String, refreshToken: String, eula: true, scope: ['read', 'settings', 'team', 'write'], id: String })
  for (const [u, p, what] of [
    ['admin', 'wrong-password', 'wrong password'],
    ['nobody', 'whatever-password', 'unknown user'],
    ['inactive', 'inactive-password', 'user without scope'],
  ] as const) {
    const r = await login(gw, u, p)
    t.equal(r.res.status, 401, what)
    t.same(r.body, INVALID, what)
    const b = await gw.fetch('/api/snapshots', { headers: { authorization: basic(u, p) } })
    t.equal(b.status, 401, `Basic: ${what}`)
    t.same(await b.json(), INVALID)
  }
  const missing = await gw.fetch('/api/auth/login', { method: 'POST', json: { username: 'admin' } })
  t.equal(missing.status, 422)
  t.match(await missing.json(), { code: 'API_INVALID_INPUT', errors: [{ message: '"password" is required' }] })
  const bad = await gw.fetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":' })
  t.equal(bad.status, 400)
})

t.test('EULA: login refused until approved with credentials and accept: true', async (t) => {
  const gw = await startGateway(t)
  await createUser(gw, { username: 'newbie', password: 'newbie-password', scope: ['read'], eulaApproved: false })
  const r = await login(gw, 'newbie', 'newbie-password')
  t.equal(r.res.status, 403)
  t.equal(r.body.code, 'API_MISSING_EULA_APPROVAL')
  t.equal((await gw.fetch('/api/snapshots', { headers: { authorization: basic('newbie', 'newbie-password') } })).status, 403, 'Basic too')
  const wrong = await login(gw, 'newbie', 'not-the-password')
  t.same(wrong.body, INVALID, 'a wrong password never reveals the EULA state')

  const noAccept = await gw.fetch('/api/auth/eula', { method: 'POST', json: { username: 'newbie', password: 'newbie-password' } })
  t.equal(noAccept.status, 422)
  const badPw = await gw.fetch('/api/auth/eula', { method: 'POST', json: { username: 'newbie', password: 'nope-nope', accept: true } })
  t.equal(badPw.status, 401)
  const yes = await gw.fetch('/api/auth/eula', { method: 'POST', json: { username: 'newbie', password: 'newbie-password', accept: true } })
  t.equal(yes.status, 200)
  t.same(await yes.json(), { success: true })
  t.equal((await login(gw, 'newbie', 'newbie-password')).res.status, 200)
})

t.test('login: per-username limit, whatever the client', async (t) => {
  const gw = await startGateway(t, { config: { ...TEST_CONFIG, rateLimit: { enabled: false, loginPerUsernamePerMinute: 3 } } })
  for (let i = 0; i < 3; i++) t.equal((await login(gw, 'admin', 'wrong-password')).res.status, 401)
  const limited = await gw.fetch('/api/auth/login', { method: 'POST', json: { username: 'ADMIN', password: ADMIN_PASSWORD } })
  t.equal(limited.status, 429)
  t.ok(Number(limited.headers.get('retry-after')) >= 1)
  t.equal((await login(gw, 'other', 'x-password')).res.status, 401, 'other usernames unaffected')
  gw.advance(60_000)
  t.equal((await login(gw, 'admin', ADMIN_PASSWORD)).res.status, 200, 'a new window')
})

t.test('Basic: RFC 7617 with UTF-8 and colons in the password; failures are 401', async (t) => {
  const gw = await startGateway(t)
  await createUser(gw, { username: 'jürgen', password: 'pa:ss:wörd!', scope: ['read'] })
  const res = await gw.fetch('/api/snapshots', { headers: { authorization: basic('jürgen', 'pa:ss:wörd!') } })
  t.equal(res.status, 200)
  t.match(await res.json(), { principal: { username: 'jürgen', scopes: ['read'], method: 'basic' } })
  const again = await gw.fetch('/api/snapshots', { headers: { authorization: basic('jürgen', 'pa:ss:wörd!') } })
  t.equal(again.status, 200, 'cached')
  const wrong = await gw.fetch('/api/snapshots', { headers: { authorization: basic('jürgen', 'pa:ss:wörd') } })
  t.equal(wrong.status, 401)
  t.same(await wrong.json(), INVALID)
  t.equal((await gw.fetch('/api/settings', { headers: { authorization: basic('jürgen', 'pa:ss:wörd!') } })).status, 403, 'scope checked')
  t.equal((await gw.fetch('/api/snapshots', { headers: { authorization: 'Digest x' } })).status, 401)
  t.equal((await gw.fetch('/api/snapshots')).status, 401, 'no credentials')
})

t.test('app.enableLocalAuthentication false: login, Basic and tokens stop, API keys keep working', async (t) => {
  const dataDir = (await import('node:fs/promises')).mkdtemp(`${(await import('node:os')).tmpdir()}/netinv-auth-`)
  const on = await startGateway(t, { dataDir: await dataDir })
  const created = await on.fetch('/api/api-tokens', { method: 'POST', headers: { authorization: basic('admin', ADMIN_PASSWORD) }, json: { scope: ['read'] } })
  const { token } = (await created.json()) as { token: string }
  const { body } = await login(on, 'admin', ADMIN_PASSWORD)
  const off = await startGateway(t, { db: on.db, dataDir: await dataDir, config: { ...TEST_CONFIG, app: { ...TEST_CONFIG.app, enableLocalAuthentication: false } } })
  off.clock.now = on.clock.now
  const disabled = { code: 'API_LOCAL_AUTHENTICATION_DISABLED' }
  const l = await login(off, 'admin', ADMIN_PASSWORD)
  t.equal(l.res.status, 403)
  t.match(l.body, disabled)
  const b = await off.fetch('/api/snapshots', { headers: { authorization: basic('admin', ADMIN_PASSWORD) } })
  t.match(await b.json(), disabled)
  const bearer = await off.fetch('/api/snapshots', { headers: { authorization: `Bearer ${body.accessToken as string}` } })
  t.match(await bearer.json(), disabled)
  const refreshed = await off.fetch('/api/auth/token', { method: 'POST', json: { refreshToken: body.refreshToken } })
  t.match(await refreshed.json(), disabled)
  const key = await off.fetch('/api/snapshots', { headers: { 'x-api-token': token } })
  t.equal(key.status, 200, 'API key still works')
})
