import t, { type Test } from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import {
  createIdentityStore,
  ensureAdmin,
  migrateIdentity,
  secretHash,
  verifyPassword,
  type IdentityEvent,
} from '../../../src/gateway/identity/index.js'

const REFRESH = { expiresIn: 100, length: 48, reuseGraceSeconds: 5 }

async function setup(t: Test, engine: (typeof ENGINES)[number]) {
  const db = await freshDb(t, engine)
  t.same(await migrateIdentity(db), [1, 2, 3, 4, 5, 6])
  t.same(await migrateIdentity(db), [], 'migrations apply once')
  let now = 1_700_000_000_000
  const events: IdentityEvent[] = []
  const store = createIdentityStore(db, { clock: () => now, refresh: REFRESH, notify: (e) => events.push(e) })
  return { db, store, events, tick: (ms: number) => (now += ms), now: () => now }
}

for (const engine of ENGINES) {
  t.test(`${engine}: users, first-start admin, password hashing`, async (t) => {
    const { db, store, events } = await setup(t, engine)
    const printed: string[] = []
    t.equal(await ensureAdmin(db, store.users, { print: (l) => printed.push(l) }), true)
    t.equal(await ensureAdmin(db, store.users, { print: (l) => printed.push(l) }), false, 'only on an empty store')
    t.equal(printed.length, 1, 'generated password printed once')
    const generated = /password: (\S+)/.exec(printed[0]!)![1]!
    const admin = await store.users.credentials('ADMIN')
    t.ok(admin, 'usernames are case-insensitive')
    t.same(admin!.user.scopes, ['read', 'settings', 'team', 'write'])
    t.equal(admin!.user.isAdmin, true)
    t.equal(admin!.user.eulaApproved, true)
    t.match(admin!.passwordHash, /^scrypt\$/)
    t.notMatch(admin!.passwordHash!, generated)
    t.equal(await verifyPassword(generated, admin!.passwordHash), true)
    t.equal(await verifyPassword('wrong', admin!.passwordHash), false)
    t.equal(await verifyPassword('wrong', null), false, 'no user: still a hash run, still false')

    const bob = await store.users.create({ username: 'bob', password: 'pa:ss:wörd', scopes: ['write', 'read'] })
    t.same(bob.scopes, ['read', 'write'])
    await t.rejects(store.users.create({ username: 'Bob', password: 'x', scopes: [] }), { code: 'API_CONFLICT' })
    const changed = await store.users.update(bob.id, { scopes: ['read'], password: 'new password' })
    t.same(changed!.scopes, ['read'])
    t.same(events, [{ type: 'user', id: bob.id }])
    t.equal(await verifyPassword('new password', (await store.users.credentials('bob'))!.passwordHash), true)
    t.equal(await store.users.delete(bob.id), true)
    t.equal(await store.users.byId(bob.id), null)
  })

  t.test(`${engine}: API keys keep only a hash and count usage in batches`, async (t) => {
    const { db, store, events, tick } = await setup(t, engine)
    const u = await store.users.create({ username: 'svc', password: 'secret-pw', scopes: ['read', 'write'] })
    const { apiKey, key } = await store.apiKeys.create({ userId: u.id, scopes: ['read'], description: 'ci', expiresAt: null })
    t.match(key, /^nik_[A-Za-z0-9_-]{43}$/)
    const raw = await db.query<{ key_hash: string }>('SELECT key_hash FROM identity.api_keys')
    t.same(raw.rows, [{ key_hash: secretHash(key) }], 'only the hash is stored')
    t.equal((await store.apiKeys.byHash(secretHash(key)))!.id, apiKey.id)
    tick(1000)
    await store.apiKeys.addUsage([{ id: apiKey.id, count: 3, lastUsedAt: 42 }])
    await store.apiKeys.addUsage([{ id: apiKey.id, count: 2, lastUsedAt: 41 }])
    const k = await store.apiKeys.byId(apiKey.id)
    t.equal(k!.usageCount, 5)
    t.equal(k!.lastUsedAt, 42)
    t.same((await store.apiKeys.update(apiKey.id, { scopes: ['read', 'write'] }))!.scopes, ['read', 'write'])
    t.equal(await store.apiKeys.delete(apiKey.id), true)
    t.same(events, [
      { type: 'apiKey', id: apiKey.id },
      { type: 'apiKey', id: apiKey.id },
    ])
    const custom = 'my-own-key-string-that-is-long-enough-123'
    await store.apiKeys.create({ userId: u.id, scopes: ['read'], key: custom })
    await t.rejects(store.apiKeys.create({ userId: u.id, scopes: ['read'], key: custom }), { code: 'API_CONFLICT' })
  })

  t.test(`${engine}: refresh-token states`, async (t) => {
    const { db, store, tick } = await setup(t, engine)
    const u = await store.users.create({ username: 'u', password: 'secret-pw', scopes: ['read'] })
    const rt = store.refreshTokens
    const { refreshToken, familyId } = await rt.issue(u.id)
    t.equal(refreshToken.length, REFRESH.length)
    const stored = await db.query<{ token_hash: string }>('SELECT token_hash FROM identity.refresh_tokens')
    t.same(stored.rows, [{ token_hash: secretHash(refreshToken) }])

    // original generation: same token, idle timer restarts
    tick(90_000)
    t.match(await rt.refresh(refreshToken, false), { ok: true, refreshToken, familyId })
    tick(90_000)
    t.match(await rt.refresh(refreshToken, false), { ok: true, refreshToken }, '180 s after issue, 90 s after last use')
    tick(100_000)
    t.same(await rt.refresh(refreshToken, false), { ok: false, reason: 'expired' }, 'idle for the whole lifetime')

    // 6.1+: rotation, the old one dead; reuse within the grace answers the successor
    const a = await rt.issue(u.id)
    const r1 = await rt.refresh(a.refreshToken, true)
    t.ok(r1.ok)
    if (!r1.ok) return
    t.not(r1.refreshToken, a.refreshToken)
    tick(2000)
    t.match(await rt.refresh(a.refreshToken, true), { ok: true, refreshToken: r1.refreshToken }, 'concurrent refresh within the grace')
    tick(4000)
    t.same(await rt.refresh(a.refreshToken, true), { ok: false, reason: 'reused' }, 'reuse after the grace')
    t.same(await rt.refresh(r1.refreshToken, true), { ok: false, reason: 'revoked' }, 'the whole family is dead')

    // revocation
    const b = await rt.issue(u.id)
    t.equal(await rt.revoke(b.refreshToken), true)
    t.equal(await rt.revoke('no-such-token'), false)
    t.same(await rt.refresh(b.refreshToken, false), { ok: false, reason: 'revoked' })
    t.same(await rt.refresh('no-such-token', true), { ok: false, reason: 'unknown' })

    // pruning: dead families idle for a day go; a family with a live token stays
    const live = await rt.issue(u.id)
    t.equal(await rt.prune(), 0, 'nothing is a day old yet')
    tick(86_400_000 + 1)
    await rt.refresh(live.refreshToken, false).then((r) => t.ok(r.ok === false, 'idle-expired'))
    const fresh = await rt.issue(u.id)
    const before = (await db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM identity.refresh_tokens')).rows[0]!.n
    t.equal(await rt.prune(), before - 1, 'every dead row goes, the fresh family stays')
    t.match(await rt.refresh(fresh.refreshToken, false), { ok: true })

    // a new password ends the user's sessions
    await store.users.update(u.id, { password: 'changed-password' })
    t.same(await rt.refresh(fresh.refreshToken, false), { ok: false, reason: 'revoked' })
  })

  t.test(`${engine}: sign-in addresses are trusted for a day; old ones go a bounded batch per write`, async (t) => {
    const { db, store } = await setup(t, engine)
    const day = 86_400_000
    const addresses = store.signInAddresses
    t.equal(await addresses.isTrusted('pair-a', 0), false, 'never seen')
    await addresses.remember('pair-a', 1_000 * day, 999 * day)
    t.equal(await addresses.isTrusted('pair-a', 999 * day), true, 'seen within the day')
    t.equal(await addresses.isTrusted('pair-a', 1_000 * day + 1), false, 'not after its time')
    await addresses.remember('pair-a', 1_000 * day - 5, 999 * day)
    t.equal(await addresses.isTrusted('pair-a', 1_000 * day), true, 'an older write does not move it back')
    for (let i = 0; i < 150; i++) await db.query('INSERT INTO identity.sign_in_addresses (pair, seen_at) VALUES ($1, $2)', [`old-${i}`, i])
    await addresses.remember('pair-b', 1_002 * day, 1_001 * day)
    const count = async () => (await db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM identity.sign_in_addresses')).rows[0]!.n
    t.equal(Number(await count()), 52, 'a hundred of the day-old rows went with one write')
    await addresses.remember('pair-b', 1_002 * day, 1_001 * day)
    t.equal(Number(await count()), 1, 'the rest with the next one; only the recent pair stays')
  })
}
