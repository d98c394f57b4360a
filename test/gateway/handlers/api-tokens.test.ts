/** api-tokens: create (shown once), effective scopes, expiry, revocation, ownership, usage. */
import t from 'tap'
import { basic, createUser, startGateway, ADMIN_PASSWORD } from './helper.js'

const ADMIN = { authorization: basic('admin', ADMIN_PASSWORD) }
const ALICE = { authorization: basic('alice', 'alice-password') }

t.test('API keys through the gateway', async (t) => {
  const gw = await startGateway(t)
  const alice = await createUser(gw, { username: 'alice', password: 'alice-password', scope: ['read', 'write'] })

  const tooMuch = await gw.fetch('/api/api-tokens', { method: 'POST', headers: ALICE, json: { scope: ['read', 'team'] } })
  t.equal(tooMuch.status, 403, 'no scopes beyond the caller')
  const badScope = await gw.fetch('/api/api-tokens', { method: 'POST', headers: ALICE, json: { scope: ['root'] } })
  t.equal(badScope.status, 422)
  t.match(await badScope.json(), { errors: [{ message: '"scope[0]" must be one of [read, settings, team, write]' }] })
  const past = await gw.fetch('/api/api-tokens', { method: 'POST', headers: ALICE, json: { scope: ['read'], expires: gw.clock.now - 1 } })
  t.equal(past.status, 422)
  for (const expires of [8.64e15 + 1, 9007199254740992, 1e20]) {
    const far = await gw.fetch('/api/api-tokens', { method: 'POST', headers: ALICE, json: { scope: ['read'], expires } })
    t.equal(far.status, 422, `expires ${expires}: beyond the latest date`)
    t.match(await far.json(), { errors: [{ message: '"expires" must be a timestamp in milliseconds or null', path: 'expires' }] })
  }
  const latest = await gw.fetch('/api/api-tokens', { method: 'POST', headers: ALICE, json: { scope: ['read'], expires: 8.64e15 } })
  t.equal(latest.status, 201, 'the latest date is a date')
  const listed = await gw.fetch('/api/api-tokens', { headers: ALICE })
  t.equal(listed.status, 200, 'and the keys are listed with it')
  t.match(await listed.json(), [{ expires: 8.64e15 }])
  t.equal((await gw.fetch(`/api/api-tokens/${((await latest.json()) as { id: string }).id}`, { method: 'DELETE', headers: ALICE })).status, 204)

  const res = await gw.fetch('/api/api-tokens', { method: 'POST', headers: ALICE, json: { scope: ['read', 'write'], description: 'ci job' } })
  t.equal(res.status, 201)
  const created = (await res.json()) as Record<string, unknown>
  t.match(created, { id: String, token: /^nik_/, scope: ['read', 'write'], description: 'ci job', userId: alice.id, username: 'alice', expires: null, usageCount: 0 })
  const key = created.token as string
  const useKey = () => gw.fetch('/api/snapshots', { headers: { 'x-api-token': key } })

  const used = await useKey()
  t.equal(used.status, 200)
  t.match(await used.json(), { principal: { username: 'alice', scopes: ['read', 'write'], method: 'apiKey', apiKeyId: created.id } })
  await useKey()

  const list = (await (await gw.fetch('/api/api-tokens', { headers: ALICE })).json()) as Array<Record<string, unknown>>
  t.equal(list.length, 1)
  t.notOk('token' in list[0]!, 'the key is never shown again')
  t.equal(list[0]!.usageCount, 2, 'usage counted (batched, flushed before listing)')
  t.equal(list[0]!.lastUsed, gw.clock.now)

  // Owner loses a scope: the key's effective scopes follow at once.
  const patched = await gw.fetch(`/api/users/${alice.id as string}`, { method: 'PATCH', headers: ADMIN, json: { scope: ['read'] } })
  t.equal(patched.status, 200)
  t.match(await (await useKey()).json(), { principal: { scopes: ['read'] } })
  t.equal((await gw.fetch('/api/snapshots', { method: 'POST', headers: { 'x-api-token': key } })).status, 403, 'write is gone')

  // Scope change of the key (owner or team); never beyond the owner's.
  const widen = await gw.fetch(`/api/api-tokens/${created.id as string}`, { method: 'PATCH', headers: ADMIN, json: { scope: ['read', 'team'] } })
  t.equal(widen.status, 403)
  const narrow = await gw.fetch(`/api/api-tokens/${created.id as string}`, { method: 'PATCH', headers: ALICE, json: { scope: [] } })
  t.equal(narrow.status, 200)
  t.equal((await useKey()).status, 403, 'a key without scopes reaches nothing scoped')
  t.match(await (await gw.fetch('/api/users/me', { headers: { 'x-api-token': key } })).json(), { username: 'alice', scope: [] })

  // Others' keys: listed and removable only with team.
  await createUser(gw, { username: 'mallory', password: 'mallory-password', scope: ['read'] })
  const MALLORY = { authorization: basic('mallory', 'mallory-password') }
  t.same(await (await gw.fetch('/api/api-tokens', { headers: MALLORY })).json(), [], 'own keys only')
  t.equal((await gw.fetch(`/api/api-tokens/${created.id as string}`, { method: 'DELETE', headers: MALLORY })).status, 403)
  const all = (await (await gw.fetch('/api/api-tokens', { headers: ADMIN })).json()) as unknown[]
  t.equal(all.length, 1, 'team sees every key')

  // Removal takes effect at once.
  t.equal((await gw.fetch(`/api/api-tokens/${created.id as string}`, { method: 'DELETE', headers: ADMIN })).status, 204)
  const gone = await useKey()
  t.equal(gone.status, 401)
  t.same(await gone.json(), { code: 'API_INVALID_API_TOKEN', message: 'Invalid API Token' })
  t.equal((await gw.fetch('/api/snapshots', { headers: { 'x-api-token': 'nik_never-existed' } })).status, 401)
})

t.test('expiry, and a key chosen at creation', async (t) => {
  const gw = await startGateway(t)
  const custom = 'my-chosen-key-0123456789-abcdefghijkl'
  const short = await gw.fetch('/api/api-tokens', { method: 'POST', headers: ADMIN, json: { token: 'short' } })
  t.equal(short.status, 422)
  const res = await gw.fetch('/api/api-tokens', { method: 'POST', headers: ADMIN, json: { scope: ['read'], expires: gw.clock.now + 60_000, token: custom } })
  t.equal(res.status, 201)
  t.equal(((await res.json()) as { token: string }).token, custom)
  t.equal((await gw.fetch('/api/snapshots', { headers: { 'x-api-token': custom } })).status, 200)
  gw.advance(60_000)
  const expired = await gw.fetch('/api/snapshots', { headers: { 'x-api-token': custom } })
  t.equal(expired.status, 401)
  t.same(await expired.json(), { code: 'API_EXPIRED_API_TOKEN', message: 'Expired API Token' })
})
