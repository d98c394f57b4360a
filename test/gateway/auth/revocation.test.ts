/**
 * Two gateway replicas on one database: removing an API key or changing a user's scopes on one
 * reaches the other's caches through Redis pub/sub (within 1 s; here: as soon as the message is
 * delivered).
 */
import t from 'tap'
import { randomBytes } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { freshPostgres, REDIS_URL } from '../../helpers/db.js'
import { basic, createUser, startGateway, ADMIN_PASSWORD, type TestGateway } from '../handlers/helper.js'

/** Resolves once the next revocation message has been delivered on `channel`. */
async function nextMessage(t: { teardown(fn: () => unknown): void }, channel: string): Promise<() => Promise<void>> {
  const sub = new Redis(REDIS_URL)
  t.teardown(() => sub.disconnect())
  await sub.subscribe(channel)
  return () => new Promise<void>((resolve) => sub.once('message', () => resolve()))
}

/** Polls until `check` holds (the subscriber of the replica may see the message a moment later). */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return true
    await new Promise((r) => setTimeout(r, 10))
  }
  return false
}

t.test('revocation reaches the other replica through Redis', async (t) => {
  const { db } = await freshPostgres(t)
  const channel = `netinv:test:${randomBytes(6).toString('hex')}`
  const redisA = new Redis(REDIS_URL)
  const redisB = new Redis(REDIS_URL)
  t.teardown(() => {
    redisA.disconnect()
    redisB.disconnect()
  })
  const dataDir = await mkdtemp(join(tmpdir(), 'netinv-auth-'))
  const a: TestGateway = await startGateway(t, { db, dataDir, redis: redisA, revocationChannel: channel })
  const b: TestGateway = await startGateway(t, { db, dataDir, redis: redisB, revocationChannel: channel })
  const message = await nextMessage(t, channel)

  const user = await createUser(a, { username: 'svc', password: 'svc-password', scope: ['read', 'write'] })
  const created = await a.fetch('/api/api-tokens', { method: 'POST', headers: { authorization: basic('svc', 'svc-password') }, json: { scope: ['read', 'write'] } })
  const { id, token } = (await created.json()) as { id: string; token: string }
  const viaB = () => b.fetch('/api/snapshots', { method: 'POST', headers: { 'x-api-token': token } })
  t.equal((await viaB()).status, 200, 'B verified and cached the key')
  t.equal((await b.fetch('/api/snapshots', { headers: { authorization: basic('svc', 'svc-password') } })).status, 200, 'B cached Basic')

  // A takes write away from the user: B stops granting write.
  let delivered = message()
  await a.fetch(`/api/users/${user.id as string}`, { method: 'PATCH', headers: { authorization: basic('admin', ADMIN_PASSWORD) }, json: { scope: ['read'] } })
  await delivered
  t.ok(await eventually(async () => (await viaB()).status === 403), 'scope change applied on B')

  // A removes the key: B refuses it.
  delivered = message()
  t.equal((await a.fetch(`/api/api-tokens/${id}`, { method: 'DELETE', headers: { authorization: basic('admin', ADMIN_PASSWORD) } })).status, 204)
  await delivered
  t.ok(await eventually(async () => (await viaB()).status === 401), 'key removal applied on B')
  const gone = await viaB()
  t.same(await gone.json(), { code: 'API_INVALID_API_TOKEN', message: 'Invalid API Token' })

  // A changes the password: B's cached Basic verification is dropped.
  delivered = message()
  await a.fetch(`/api/users/${user.id as string}`, { method: 'PATCH', headers: { authorization: basic('admin', ADMIN_PASSWORD) }, json: { password: 'another-password' } })
  await delivered
  t.ok(await eventually(async () => (await b.fetch('/api/snapshots', { headers: { authorization: basic('svc', 'svc-password') } })).status === 401), 'old password refused on B')
})
