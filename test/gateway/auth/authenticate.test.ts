import t from 'tap'
import { compileConfig } from '../../../src/shared/config/index.js'
import { Authenticator } from '../../../src/gateway/auth/authenticate.js'
import type { AccessTokens } from '../../../src/gateway/auth/jwt.js'
import type { PasswordChecks } from '../../../src/gateway/auth/passwords.js'
import { secretHash, type ApiKey, type IdentityStore, type UsageRecorder, type User } from '../../../src/gateway/identity/index.js'

const USER: User = { id: 'u1', username: 'alice', scopes: ['read', 'write'], isAdmin: false, eulaApproved: true, email: null, timezone: 'UTC', isLocal: true, ldapDn: null, ssoProvider: null, ssoSubject: null, createdAt: 0, updatedAt: 0 }
const KEY: ApiKey = { id: 'k1', userId: 'u1', username: 'alice', description: '', scopes: ['read'], expiresAt: null, lastUsedAt: null, usageCount: 0, createdAt: 0 }

/** An authenticator over an in-memory store that counts its loads. */
function setup(key: ApiKey = KEY) {
  let now = 1_000_000
  const loads = { keys: 0, users: 0 }
  const used: string[] = []
  const store = {
    apiKeys: {
      async byHash(hash: string) {
        loads.keys++
        return hash === secretHash('good-key') ? key : null
      },
    },
    users: {
      async byId(id: string) {
        loads.users++
        return id === USER.id ? USER : null
      },
    },
  } as unknown as IdentityStore
  const auth = new Authenticator({
    store,
    tokens: {} as AccessTokens,
    usage: { record: (id: string) => void used.push(id) } as unknown as UsageRecorder,
    passwords: {} as PasswordChecks,
    config: compileConfig({}),
    clock: () => now,
    ttlMs: () => 10_000,
  })
  return { auth, loads, used, advance: (ms: number) => (now += ms) }
}

t.test('a warm API key is answered at once: no promise on the hot path', async (t) => {
  const { auth, loads, used } = setup()
  const first = auth.principal({ kind: 'apiKey', key: 'good-key' })
  t.ok(first instanceof Promise, 'a cold cache loads')
  const p = await first
  t.match(p, { id: 'u1', scopes: ['read'], method: 'apiKey', apiKeyId: 'k1' })
  const again = auth.principal({ kind: 'apiKey', key: 'good-key' })
  t.notOk(again instanceof Promise, 'warm: the principal itself')
  t.equal(again, p, 'the same frozen principal')
  t.same(loads, { keys: 1, users: 1 })
  t.same(used, ['k1', 'k1'], 'usage is counted on both paths')
})

t.test('bad and expired keys fail on both paths', async (t) => {
  const { auth, loads } = setup({ ...KEY, expiresAt: 1_000_500 })
  await t.rejects(Promise.resolve().then(() => auth.principal({ kind: 'apiKey', key: 'wrong' })), { code: 'API_INVALID_API_TOKEN' })
  await t.rejects(Promise.resolve().then(() => auth.principal({ kind: 'apiKey', key: 'wrong' })), { code: 'API_INVALID_API_TOKEN' })
  t.equal(loads.keys, 2, 'an unknown key is never cached (it may be created a moment later)')
  await auth.principal({ kind: 'apiKey', key: 'good-key' })
  const s = setup({ ...KEY, expiresAt: 1_000_500 })
  await s.auth.principal({ kind: 'apiKey', key: 'good-key' })
  s.advance(600)
  t.throws(() => s.auth.principal({ kind: 'apiKey', key: 'good-key' }), { code: 'API_EXPIRED_API_TOKEN' }, 'expired while cached: thrown at once')
})

t.test('an invalidated owner is loaded again, not answered from the cache', async (t) => {
  const { auth, loads } = setup()
  await auth.principal({ kind: 'apiKey', key: 'good-key' })
  auth.invalidateUser('u1')
  const next = auth.principal({ kind: 'apiKey', key: 'good-key' })
  t.ok(next instanceof Promise)
  await next
  t.same(loads, { keys: 2, users: 2 })
})
