/**
 * Every password check counts toward one per-username failure limit (login, Basic, EULA), and
 * password hashing is bounded: a flood is shed at once with 503 and Retry-After.
 */
import t from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { basic, login, startGateway, ADMIN_PASSWORD, TEST_CONFIG, type TestGateway } from './helper.js'

t.test('Basic failures count toward the per-username limit of auth/login', async (t) => {
  const gw = await startGateway(t, { config: { ...TEST_CONFIG, rateLimit: { enabled: false, loginPerUsernamePerMinute: 3 } } })
  const wrongBasic = () => gw.fetch('/api/snapshots', { headers: { authorization: basic('admin', 'wrong-password') } })
  t.equal((await wrongBasic()).status, 401)
  t.equal((await wrongBasic()).status, 401)
  t.equal((await login(gw, 'admin', 'wrong-password')).res.status, 401, 'a failed login counts in the same limit')
  const limited = await wrongBasic()
  t.equal(limited.status, 429, 'the fourth check is refused')
  t.match(await limited.json(), { code: 'API_TOO_MANY_REQUESTS' })
  t.ok(Number(limited.headers.get('retry-after')) >= 1)
  t.equal((await login(gw, 'admin', ADMIN_PASSWORD)).res.status, 429, 'even with the right password, through login')
  t.equal((await gw.fetch('/api/snapshots', { headers: { authorization: basic('ADMIN', ADMIN_PASSWORD) } })).status, 429, 'and through Basic, in any case')
  t.equal((await gw.fetch('/api/auth/eula', { method: 'POST', json: { username: 'admin', password: ADMIN_PASSWORD, accept: true } })).status, 429, 'and through auth/eula')
  t.equal((await gw.fetch('/api/snapshots', { headers: { authorization: basic('someone', 'wrong-password') } })).status, 401, 'other usernames unaffected')
  gw.advance(60_000)
  t.equal((await gw.fetch('/api/snapshots', { headers: { authorization: basic('admin', ADMIN_PASSWORD) } })).status, 200, 'a minute later')
})

t.test('successes do not count: a client that logs in often is never locked out', async (t) => {
  const gw = await startGateway(t, { config: { ...TEST_CONFIG, rateLimit: { enabled: false, loginPerUsernamePerMinute: 2 } } })
  for (let i = 0; i < 5; i++) t.equal((await login(gw, 'admin', ADMIN_PASSWORD)).res.status, 200)
})

t.test('a login flood is shed at once with 503 and Retry-After; admitted logins succeed', async (t) => {
  const gw = await startGateway(t, { config: { ...TEST_CONFIG, auth: { passwordChecks: { concurrency: 1, queue: 2 } } } })
  const flood = await Promise.all(
    Array.from({ length: 24 }, (_, i) => gw.fetch('/api/auth/login', { method: 'POST', json: { username: `nobody-${i}`, password: 'wrong-password' } })),
  )
  const statuses = flood.map((r) => r.status)
  t.ok(statuses.filter((s) => s === 401).length >= 3, 'one hashing and two waiting are checked (more if the flood arrives slower than it is hashed)')
  t.ok(statuses.filter((s) => s === 503).length >= 12, 'the rest are shed')
  t.same(statuses.filter((s) => s !== 401 && s !== 503), [], 'nothing else')
  const shed = flood.find((r) => r.status === 503)!
  t.equal(shed.headers.get('retry-after'), '1')
  t.match(await shed.json(), { code: 'API_SERVICE_UNAVAILABLE', message: /password checks/ })
  t.equal((await login(gw, 'admin', ADMIN_PASSWORD)).res.status, 200, 'once the flood has passed, logins go through')
})

t.test('under a flood from new addresses, a user signing in from where it did before is not shed', async (t) => {
  const gw = await startGateway(t, { config: { ...TEST_CONFIG, server: { trustedProxies: ['127.0.0.1', '::1'] }, auth: { passwordChecks: { concurrency: 1, queue: 1 } } } })
  const from = (ip: string, username: string, password: string) =>
    gw.fetch('/api/auth/login', { method: 'POST', headers: { 'x-forwarded-for': ip }, json: { username, password } })
  t.equal((await from('192.0.2.7', 'admin', ADMIN_PASSWORD)).status, 200, 'signed in once from 192.0.2.7')
  const flood = Array.from({ length: 16 }, (_, i) => from(`198.51.100.${i + 1}`, `nobody-${i}`, 'wrong-password'))
  const mine = from('192.0.2.7', 'admin', ADMIN_PASSWORD)
  const statuses = (await Promise.all(flood)).map((r) => r.status)
  t.ok(statuses.includes(503), 'the flood is shed')
  t.equal((await mine).status, 200, 'the known address has a queue of its own')
})

t.test('wrong passwords from one address do not lock the user out elsewhere; guessing stays stopped', async (t) => {
  const gw = await startGateway(t, { config: { ...TEST_CONFIG, server: { trustedProxies: ['127.0.0.1', '::1'] }, rateLimit: { enabled: false, loginPerUsernamePerMinute: 10, loginPerUsernamePerHour: 1000 } } })
  const from = (ip: string, username: string, password: string) =>
    gw.fetch('/api/auth/login', { method: 'POST', headers: { 'x-forwarded-for': ip }, json: { username, password } })
  for (let i = 0; i < 10; i++) t.equal((await from('198.51.100.1', ['admin', 'ADMIN', 'ａｄｍｉｎ'][i % 3]!, 'wrong-password')).status, 401)
  const stopped = await from('198.51.100.1', 'ａｄｍｉｎ', 'another-guess')
  t.equal(stopped.status, 429, 'the guessing address is stopped, under every spelling of the name')
  t.match(await stopped.json(), { code: 'API_TOO_MANY_REQUESTS' })
  t.ok(Number(stopped.headers.get('retry-after')) >= 1)
  t.equal((await from('198.51.100.1', 'admin', ADMIN_PASSWORD)).status, 429, 'even with the right password, from there')
  t.equal((await from('203.0.113.9', 'admin', ADMIN_PASSWORD)).status, 200, 'the administrator signs in from another address')
  t.equal((await gw.fetch('/api/snapshots', { headers: { 'x-forwarded-for': '203.0.113.9', authorization: basic('admin', ADMIN_PASSWORD) } })).status, 200, 'and through Basic')
  gw.advance(60_000)
  t.equal((await from('198.51.100.1', 'admin', ADMIN_PASSWORD)).status, 200, 'a minute later, from the guessing address too')
})

t.test('guessing from many addresses is slowed for new addresses only, per username', async (t) => {
  const gw = await startGateway(t, { config: { ...TEST_CONFIG, server: { trustedProxies: ['127.0.0.1', '::1'] }, rateLimit: { enabled: false, loginPerUsernamePerMinute: 10, loginPerUsernamePerHour: 5 } } })
  const from = (ip: string, username: string, password: string) =>
    gw.fetch('/api/auth/login', { method: 'POST', headers: { 'x-forwarded-for': ip }, json: { username, password } })
  t.equal((await from('192.0.2.7', 'admin', ADMIN_PASSWORD)).status, 200, 'the administrator signed in from 192.0.2.7 before')
  for (let i = 1; i <= 5; i++) t.equal((await from(`198.51.100.${i}`, 'admin', 'wrong-password')).status, 401)
  const slowed = await from('198.51.100.77', 'ADMIN', 'wrong-password')
  t.equal(slowed.status, 429, 'a sixth address is refused: the username has used its failures of the hour')
  t.match(await slowed.json(), { code: 'API_TOO_MANY_REQUESTS', message: /sign-ins/ })
  t.equal((await from('192.0.2.7', 'admin', ADMIN_PASSWORD)).status, 200, 'the address the administrator signed in from is not')
  t.equal((await from('198.51.100.78', 'someone', 'wrong-password')).status, 401, 'other usernames unaffected')
  gw.advance(3_600_000)
  t.equal((await from('198.51.100.77', 'admin', ADMIN_PASSWORD)).status, 200, 'an hour later')
})

for (const engine of ENGINES) {
  t.test(`${engine}: on another replica sharing the identity database, the user keeps signing in from where they did before`, async (t) => {
    const db = await freshDb(t, engine)
    const config = { ...TEST_CONFIG, server: { trustedProxies: ['127.0.0.1', '::1'] }, rateLimit: { enabled: false, loginPerUsernamePerMinute: 10, loginPerUsernamePerHour: 100 } }
    const from = (gw: TestGateway, ip: string, password: string) =>
      gw.fetch('/api/auth/login', { method: 'POST', headers: { 'x-forwarded-for': ip }, json: { username: 'admin', password } })
    const first = await startGateway(t, { config, db })
    t.equal((await from(first, '192.0.2.7', ADMIN_PASSWORD)).status, 200, 'the administrator signed in from 192.0.2.7 on the first replica')
    // A second replica (or the first after a restart): nothing in its process knows 192.0.2.7.
    const second = await startGateway(t, { config, db })
    const statuses = new Set<number>()
    for (let a = 1; a <= 10; a++) for (let i = 0; i < 10; i++) statuses.add((await from(second, `198.51.100.${a}`, 'wrong-password')).status)
    t.same([...statuses], [401], '100 wrong passwords from 10 addresses')
    const slowed = await from(second, '198.51.100.77', ADMIN_PASSWORD)
    t.equal(slowed.status, 429, 'a new address is refused: the username has used its failures of the hour')
    t.match(await slowed.json(), { code: 'API_TOO_MANY_REQUESTS' })
    t.equal((await from(second, '192.0.2.7', ADMIN_PASSWORD)).status, 200, 'the address the administrator signed in from is not, on the other replica')
  })
}
