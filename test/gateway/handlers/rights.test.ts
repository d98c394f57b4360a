/**
 * Privilege attacks through the gateway on real identity storage: an actor never changes, resets,
 * deletes or grants beyond its own rights, a key never acts beyond its scopes, and a key cannot
 * mint keys that would outlive it.
 */
import t from 'tap'
import { basic, createUser, login, startGateway, ADMIN_PASSWORD, type TestGateway } from './helper.js'

const ADMIN = { authorization: basic('admin', ADMIN_PASSWORD) }

async function newKey(gw: TestGateway, headers: Record<string, string>, body: Record<string, unknown>): Promise<{ id: string; token: string }> {
  const res = await gw.fetch('/api/api-tokens', { method: 'POST', headers, json: body })
  if (res.status !== 201) throw new Error(`create key: ${res.status} ${await res.text()}`)
  return (await res.json()) as { id: string; token: string }
}

t.test('a team-only user cannot take over, reset or delete a more privileged user', async (t) => {
  const gw = await startGateway(t)
  await createUser(gw, { username: 'lead', password: 'lead-password', scope: ['team'] })
  const ops = await createUser(gw, { username: 'ops', password: 'ops-password', scope: ['read', 'write', 'team'] })
  const peer = await createUser(gw, { username: 'peer', password: 'peer-password', scope: ['team'] })
  const LEAD = { authorization: basic('lead', 'lead-password') }

  const takeover = await gw.fetch(`/api/users/${ops.id as string}`, { method: 'PATCH', headers: LEAD, json: { password: 'attacker-password' } })
  t.equal(takeover.status, 403, 'the password of a user with more rights is not the actor’s to set')
  t.match(await takeover.json(), { code: 'API_INSUFFICIENT_RIGHTS', message: /read, write/ })
  t.equal((await login(gw, 'ops', 'attacker-password')).res.status, 401, 'and the attacker cannot log in as them')
  t.equal((await login(gw, 'ops', 'ops-password')).res.status, 200, 'their own password still works')
  t.equal((await gw.fetch(`/api/users/${ops.id as string}`, { method: 'PATCH', headers: LEAD, json: { email: 'x@example.com' } })).status, 403, 'nor any other change')
  t.equal((await gw.fetch(`/api/users/${ops.id as string}`, { method: 'DELETE', headers: LEAD })).status, 403, 'nor deletion')
  t.equal((await gw.fetch(`/api/users/${peer.id as string}`, { method: 'PATCH', headers: LEAD, json: { scope: ['team', 'read'] } })).status, 403, 'no scope beyond its own')
  t.equal((await gw.fetch(`/api/users/${peer.id as string}`, { method: 'PATCH', headers: LEAD, json: { password: 'new-peer-password' } })).status, 200, 'a peer within its rights: allowed')
  t.equal((await gw.fetch(`/api/users/${peer.id as string}`, { method: 'DELETE', headers: LEAD })).status, 204)
})

t.test('an administrator key limited to [team] acts as a non-administrator with scope team', async (t) => {
  const gw = await startGateway(t)
  const { token } = await newKey(gw, ADMIN, { scope: ['team'] })
  const KEY = { 'x-api-token': token }
  const me = (await (await gw.fetch('/api/users/me', { headers: KEY })).json()) as Record<string, unknown>
  t.match(me, { scope: ['team'], isAdmin: false })

  const escalate = await gw.fetch('/api/users', { method: 'POST', headers: KEY, json: { username: 'evil', password: 'evil-password', scope: ['read', 'settings', 'team', 'write'], isAdmin: true, eulaApproved: true } })
  t.equal(escalate.status, 403, 'no full administrator through a [team] key')
  t.equal((await gw.fetch('/api/users', { method: 'POST', headers: KEY, json: { username: 'evil', password: 'evil-password', isAdmin: true } })).status, 403)
  t.equal((await gw.fetch('/api/users', { method: 'POST', headers: KEY, json: { username: 'evil', password: 'evil-password', scope: ['write'] } })).status, 403)
  t.equal((await login(gw, 'evil', 'evil-password')).res.status, 401, 'nobody was created')
  const admin = me.id as string
  t.equal((await gw.fetch(`/api/users/${admin}`, { method: 'PATCH', headers: KEY, json: { password: 'attacker-password' } })).status, 403, 'nor its own owner reset')
  t.equal((await gw.fetch('/api/users', { method: 'POST', headers: KEY, json: { username: 'helper', password: 'helper-password', scope: ['team'] } })).status, 201, 'within the key’s rights: allowed')

  const full = await newKey(gw, ADMIN, { scope: ['read', 'settings', 'team', 'write'] })
  t.match(await (await gw.fetch('/api/users/me', { headers: { 'x-api-token': full.token } })).json(), { isAdmin: true }, 'a key with every scope of its administrator owner is an administrator')
})

t.test('keys are minted with a user session only; a leaked key cannot outlive its revocation', async (t) => {
  const gw = await startGateway(t)
  await createUser(gw, { username: 'alice', password: 'alice-password', scope: ['read', 'write'] })
  const ALICE = { authorization: basic('alice', 'alice-password') }
  const leaked = await newKey(gw, ALICE, { scope: ['read'] })
  const mint = await gw.fetch('/api/api-tokens', { method: 'POST', headers: { 'x-api-token': leaked.token }, json: { scope: ['read'] } })
  t.equal(mint.status, 403)
  t.match(await mint.json(), { code: 'API_INSUFFICIENT_RIGHTS', message: /user session/ })
  t.equal((await gw.fetch(`/api/api-tokens/${leaked.id}`, { method: 'DELETE', headers: ALICE })).status, 204, 'revoked')
  t.same(await (await gw.fetch('/api/api-tokens', { headers: ALICE })).json(), [], 'nothing outlives it')

  const { body } = await login(gw, 'alice', 'alice-password')
  const bySession = await gw.fetch('/api/api-tokens', { method: 'POST', headers: { authorization: `Bearer ${body.accessToken as string}` }, json: {} })
  t.equal(bySession.status, 201, 'an access token is a user session')
  t.match(await bySession.json(), { scope: ['read'] }, 'without scope: the least, read')
  const noRead = await createUser(gw, { username: 'writer', password: 'writer-password', scope: ['write'] })
  t.ok(noRead)
  const least = await gw.fetch('/api/api-tokens', { method: 'POST', headers: { authorization: basic('writer', 'writer-password') }, json: {} })
  t.match(await least.json(), { scope: [] }, 'a caller without read gets a key without scopes')
})

t.test("another user's keys are managed only over a user whose rights the actor holds", async (t) => {
  const gw = await startGateway(t)
  await createUser(gw, { username: 'lead', password: 'lead-password', scope: ['team'] })
  const adminKey = await newKey(gw, ADMIN, { scope: ['read'] })
  const LEAD = { authorization: basic('lead', 'lead-password') }
  t.equal((await gw.fetch(`/api/api-tokens/${adminKey.id}`, { method: 'DELETE', headers: LEAD })).status, 403)
  t.equal((await gw.fetch(`/api/api-tokens/${adminKey.id}`, { method: 'PATCH', headers: LEAD, json: { description: 'x' } })).status, 403)
  t.equal((await gw.fetch('/api/snapshots', { headers: { 'x-api-token': adminKey.token } })).status, 200, 'the key still works')
})

t.test("a key acts on its owner's keys only within its own scopes", async (t) => {
  const gw = await startGateway(t)
  const full = await newKey(gw, ADMIN, { scope: ['read', 'settings', 'team', 'write'] })
  const other = await newKey(gw, ADMIN, { scope: ['read', 'write'] })
  for (const scope of [[], ['read']]) {
    const weak = await newKey(gw, ADMIN, { scope })
    const KEY = { 'x-api-token': weak.token }
    for (const target of [full, other]) {
      const read = await gw.fetch(`/api/api-tokens/${target.id}`, { headers: KEY })
      t.equal(read.status, 403, `a ${JSON.stringify(scope)} key does not read a key with more scopes`)
      t.match(await read.json(), { code: 'API_INSUFFICIENT_RIGHTS', message: /scope/ })
      t.equal((await gw.fetch(`/api/api-tokens/${target.id}`, { method: 'PATCH', headers: KEY, json: { scope: [] } })).status, 403, 'nor changes it')
      t.equal((await gw.fetch(`/api/api-tokens/${target.id}`, { method: 'DELETE', headers: KEY })).status, 403, 'nor deletes it')
    }
    const listed = (await (await gw.fetch('/api/api-tokens', { headers: KEY })).json()) as { id: string }[]
    t.notOk(listed.some((k) => k.id === full.id), 'nor lists it')
    t.equal((await gw.fetch(`/api/api-tokens/${weak.id}`, { headers: KEY })).status, 200, 'its own record: allowed')
  }
  t.match(await (await gw.fetch(`/api/api-tokens/${full.id}`, { headers: { 'x-api-token': full.token } })).json(), { scope: ['read', 'settings', 'team', 'write'] }, 'the keys are unchanged')
  const readKey = await newKey(gw, ADMIN, { scope: ['read'] })
  const RW = { 'x-api-token': other.token }
  t.equal((await gw.fetch(`/api/api-tokens/${readKey.id}`, { method: 'PATCH', headers: RW, json: { description: 'x' } })).status, 200, 'a key within the actor’s scopes: allowed')
  t.equal((await gw.fetch(`/api/api-tokens/${readKey.id}`, { method: 'PATCH', headers: RW, json: { scope: ['read', 'settings'] } })).status, 403, 'but never raised beyond them')
  t.equal((await gw.fetch(`/api/api-tokens/${readKey.id}`, { method: 'DELETE', headers: RW })).status, 204)
  t.equal((await gw.fetch(`/api/api-tokens/${full.id}`, { method: 'DELETE', headers: ADMIN })).status, 204, 'a user session manages every key of its own')
})

t.test('a chosen API key must be hard to guess', async (t) => {
  const gw = await startGateway(t)
  for (const weak of ['a'.repeat(32), 'abcdefghijklmnopqrstuvwxyz012345', 'P@ssw0rdP@ssw0rdP@ssw0rdP@ssw0rd']) {
    const res = await gw.fetch('/api/api-tokens', { method: 'POST', headers: ADMIN, json: { token: weak } })
    t.equal(res.status, 422, weak)
    t.match(await res.json(), { errors: [{ message: /"token" is too easy to guess/ }] })
  }
  t.equal((await gw.fetch('/api/api-tokens', { method: 'POST', headers: ADMIN, json: { token: '3f9c1a7e5b2d8046c9e1f7a3b5d20e84' } })).status, 201, '32 random hexadecimal digits')
})

t.test('usernames: NFKC, one script, no look-alike of an existing user', async (t) => {
  const gw = await startGateway(t)
  const create = (username: string) => gw.fetch('/api/users', { method: 'POST', headers: ADMIN, json: { username, password: 'some-password', scope: ['read'], eulaApproved: true } })
  const mixed = await create('\u0430dmin')
  t.equal(mixed.status, 422, 'аdmin with a Cyrillic а')
  t.match(await mixed.json(), { errors: [{ message: /"username" must not mix letters of different scripts \(Cyrillic, Latin\)/ }] })
  const fullWidth = await create('ａｄｍｉｎ')
  t.equal(fullWidth.status, 409, 'full-width admin is admin')
  const greek = await create('\u03bf\u03c1\u03b1') // all Greek: ορα
  t.equal(greek.status, 201, 'one script is fine')
  const cyrillicOpa = await create('\u043e\u0440\u0430') // all Cyrillic: ора
  t.equal(cyrillicOpa.status, 409, 'but not when it looks like an existing name')
  t.match(await cyrillicOpa.json(), { message: /looks like the existing user/ })
  t.equal((await create('zero\u200bwidth')).status, 422, 'invisible characters')
  t.equal((await create('山田たろう')).status, 201, 'Japanese mixes Han and Hiragana')
  t.equal((await login(gw, 'ａｄｍｉｎ', ADMIN_PASSWORD)).res.status, 200, 'login normalises the same way')
})
