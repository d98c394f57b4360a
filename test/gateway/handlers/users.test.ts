/** users/me (both versions) and users CRUD with scope team. */
import t from 'tap'
import { basic, createUser, startGateway, ADMIN_PASSWORD } from './helper.js'

const ADMIN = { authorization: basic('admin', ADMIN_PASSWORD) }

t.test('users/me: v1 shape for 5.x/6.x SDKs plus scope; v2 without roles', async (t) => {
  const gw = await startGateway(t)
  const v1 = (await (await gw.fetch('/api/users/me', { headers: ADMIN })).json()) as Record<string, unknown>
  t.match(v1, { id: String, username: 'admin', email: null, isLocal: true, roleIds: ['admin'], roleNames: ['Admin'], timezone: 'UTC', scope: ['read', 'settings', 'team', 'write'] })
  t.ok('ssoProvider' in v1 && 'domainSuffixes' in v1 && 'ldapId' in v1)
  const v2 = (await (await gw.fetch('/api/users/me', { headers: { ...ADMIN, 'x-api-version': '2' } })).json()) as Record<string, unknown>
  t.notOk('roleIds' in v2 || 'roleNames' in v2)
  t.match(v2, { username: 'admin', scope: ['read', 'settings', 'team', 'write'], isAdmin: true })
  t.equal((await gw.fetch('/api/users/me')).status, 401)
  // A 6.0-era SDK: GET /api/v6.0/users/me with an API key.
  const created = await gw.fetch('/api/api-tokens', { method: 'POST', headers: ADMIN, json: { scope: ['read'] } })
  const { token } = (await created.json()) as { token: string }
  const sdk = await gw.fetch('/api/v6.0/users/me', { headers: { 'x-api-token': token } })
  t.equal(sdk.status, 200)
  t.match(await sdk.json(), { username: 'admin', roleIds: ['user'], scope: ['read'], isAdmin: false }, "the key's effective rights: a read key is no administrator")
})

t.test('users CRUD needs team; grants never exceed the granter', async (t) => {
  const gw = await startGateway(t)
  const lead = await createUser(gw, { username: 'lead', password: 'lead-password', scope: ['read', 'team'] })
  const LEAD = { authorization: basic('lead', 'lead-password') }
  t.match(lead, { username: 'lead', scope: ['read', 'team'], isAdmin: false, eulaApproved: true })
  t.notOk('password' in lead || 'passwordHash' in lead)

  const reader = await createUser(gw, { username: 'reader', password: 'reader-password', scope: ['read'] })
  const READER = { authorization: basic('reader', 'reader-password') }
  t.equal((await gw.fetch('/api/users', { headers: READER })).status, 403)

  t.equal((await gw.fetch('/api/users', { method: 'POST', headers: LEAD, json: { username: 'x', password: 'x-password', scope: ['write'] } })).status, 403, 'write not held by the granter')
  t.equal((await gw.fetch('/api/users', { method: 'POST', headers: LEAD, json: { username: 'x', password: 'x-password', isAdmin: true } })).status, 403, 'only admins make admins')
  const dup = await gw.fetch('/api/users', { method: 'POST', headers: LEAD, json: { username: 'READER', password: 'x-password' } })
  t.equal(dup.status, 409)
  const colon = await gw.fetch('/api/users', { method: 'POST', headers: LEAD, json: { username: 'a:b', password: 'x-password' } })
  t.equal(colon.status, 422)

  const list = (await (await gw.fetch('/api/users', { headers: LEAD })).json()) as Array<{ username: string }>
  t.same(list.map((u) => u.username), ['admin', 'lead', 'reader'])
  t.equal((await gw.fetch(`/api/users/${reader.id as string}`, { headers: LEAD })).status, 200)
  t.equal((await gw.fetch('/api/users/nope', { headers: LEAD })).status, 404)

  const pw = await gw.fetch(`/api/users/${reader.id as string}`, { method: 'PATCH', headers: LEAD, json: { password: 'new-reader-password' } })
  t.equal(pw.status, 200)
  t.equal((await gw.fetch('/api/snapshots', { headers: READER })).status, 401, 'the old password stops at once (cache dropped)')
  t.equal((await gw.fetch('/api/snapshots', { headers: { authorization: basic('reader', 'new-reader-password') } })).status, 200)
  t.equal((await gw.fetch(`/api/users/${reader.id as string}`, { method: 'PATCH', headers: LEAD, json: { bogus: 1 } })).status, 422)

  const admin = ((await (await gw.fetch('/api/users/me', { headers: ADMIN })).json()) as { id: string }).id
  t.equal((await gw.fetch(`/api/users/${admin}`, { method: 'DELETE', headers: LEAD })).status, 403, 'admins are changed by admins')
  t.equal((await gw.fetch(`/api/users/${lead.id as string}`, { method: 'DELETE', headers: LEAD })).status, 409, 'not yourself')
  t.equal((await gw.fetch(`/api/users/${reader.id as string}`, { method: 'DELETE', headers: LEAD })).status, 204)
  t.equal((await gw.fetch('/api/snapshots', { headers: { authorization: basic('reader', 'new-reader-password') } })).status, 401, 'deleted')
})

t.test('the last administrator with scope team cannot be demoted', async (t) => {
  const gw = await startGateway(t)
  const admin = ((await (await gw.fetch('/api/users/me', { headers: ADMIN })).json()) as { id: string }).id
  const demote = await gw.fetch(`/api/users/${admin}`, { method: 'PATCH', headers: ADMIN, json: { isAdmin: false } })
  t.equal(demote.status, 409)
  t.match(await demote.json(), { code: 'API_CONFLICT', message: /administrator/ })
  t.equal((await gw.fetch(`/api/users/${admin}`, { method: 'PATCH', headers: ADMIN, json: { scope: ['read'] } })).status, 409, 'dropping team')
  t.equal((await gw.fetch(`/api/users/${admin}`, { method: 'PATCH', headers: ADMIN, json: { timezone: 'Europe/Berlin' } })).status, 200, 'other changes pass')
  await createUser(gw, { username: 'second', password: 'second-password', scope: ['read', 'team'], isAdmin: true })
  t.equal((await gw.fetch(`/api/users/${admin}`, { method: 'PATCH', headers: ADMIN, json: { isAdmin: false } })).status, 200, 'another one remains')
})
