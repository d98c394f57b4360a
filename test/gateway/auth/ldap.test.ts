/**
 * Directory logins against a private slapd (test/helpers/slapd.ts): users created and updated at
 * login, groups and nested groups mapped to scopes, plain LDAP, StartTLS and LDAPS with a test CA,
 * the classic holes (empty password, filter injection), a directory that is down or hangs (503
 * with Retry-After, local logins unaffected), users removed or disabled upstream refused at the
 * next refresh, and local authentication switched off.
 */
import t from 'tap'
import { mkdtemp } from 'node:fs/promises'
import { createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Test } from 'tap'
import { freePort } from '../../e2e/process.js'
import { runCli } from '../../../src/commands/main.js'
import { readSessionFile, sessionPath } from '../../../src/client/session.js'
import { memoryIo, tempHome } from '../../commands/cli.js'
import { directoryConfig, slapdMissing, startSlapd, PASSWORDS, SUFFIX } from '../../helpers/slapd.js'
import { Directory } from '../../../src/gateway/auth/ldap/directory.js'
import { compileConfig } from '../../../src/shared/config/index.js'
import { freshPostgres } from '../../helpers/db.js'
import { testNeeding } from '../../helpers/requirements.js'
import { basic, login, startGateway, ADMIN_PASSWORD, TEST_CONFIG, type TestGateway } from '../handlers/helper.js'

const INVALID = { code: 'API_INVALID_CREDENTIALS', message: 'Invalid Credentials' }

/** One database and one signing key for the file's gateways (each would otherwise make its own). */
let shared: { db: TestGateway['db']; dataDir: string } | undefined

async function gatewayWith(t: Test, ldap: Record<string, unknown>, app: Record<string, unknown> = {}): Promise<TestGateway> {
  if (!shared) throw new Error('the file\'s database is made first')
  return startGateway(t, { ...shared, config: { ...TEST_CONFIG, app: { ...TEST_CONFIG.app, ...app }, ldap, audit: { flushMs: 10 } } })
}

/** The audit events matching `filters`, once at least `count` are stored (they are written in batches). */
async function auditEvents(gw: TestGateway, filters: Record<string, unknown>, count: number): Promise<Array<Record<string, unknown>>> {
  for (let i = 0; i < 500; i++) {
    const res = await gw.fetch('/api/tables/audit', { method: 'POST', headers: { authorization: basic('admin', ADMIN_PASSWORD) }, json: { columns: ['actorName', 'actorMethod', 'action', 'target', 'outcome', 'reason'], filters } })
    const { data } = (await res.json()) as { data: Array<Record<string, unknown>> }
    if (data.length >= count) return data
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`fewer than ${count} audit events match ${JSON.stringify(filters)}`)
}

async function me(gw: TestGateway, token: unknown): Promise<Record<string, unknown>> {
  const res = await gw.fetch('/api/users/me', { headers: { authorization: `Bearer ${String(token)}` } })
  return (await res.json()) as Record<string, unknown>
}

async function refresh(gw: TestGateway, refreshToken: unknown): Promise<{ status: number; body: Record<string, unknown>; retryAfter: string | null }> {
  const res = await gw.fetch('/api/auth/token', { method: 'POST', json: { refreshToken } })
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, retryAfter: res.headers.get('retry-after') }
}

testNeeding(t, 'a directory on slapd', slapdMissing(), async (t) => {
  const slapd = await startSlapd(t)
  shared = { db: (await freshPostgres(t)).db, dataDir: await mkdtemp(join(tmpdir(), 'netinv-ldap-auth-')) }

  t.test('directory users log in with their groups\' scopes; holes stay closed', async (t) => {
    const gw = await gatewayWith(t, directoryConfig(slapd))
    const alice = await login(gw, 'alice', PASSWORDS.alice)
    t.equal(alice.res.status, 200)
    t.same(alice.body.scope, ['read', 'settings', 'team', 'write'], 'operators and admins')
    t.match(await me(gw, alice.body.accessToken), { username: 'alice', isLocal: false, isAdmin: true, email: 'alice@netinv.test', ldapId: `uid=alice,ou=people,${SUFFIX}`, ssoProvider: null })

    const bob = await login(gw, 'bob', PASSWORDS.bob)
    t.equal(bob.res.status, 200)
    t.same(bob.body.scope, ['read', 'write'], 'auditors is inside operators: the nested group counts')
    t.match(await me(gw, bob.body.accessToken), { isAdmin: false })

    const carol = await login(gw, 'carol', PASSWORDS.carol)
    t.equal(carol.res.status, 403, 'the right password but no mapped group')
    t.equal(carol.body.code, 'API_INSUFFICIENT_RIGHTS')
    t.match(carol.body.message, /no directory group that netinv maps to a scope/)

    for (const [username, password, what] of [
      ['dave', PASSWORDS.dave, 'a disabled account'],
      ['alice', 'wrong-password', 'a wrong password'],
      ['nobody', 'whatever', 'an unknown user'],
      ['*', PASSWORDS.alice, 'a wildcard username'],
      ['*)(uid=*))(|(uid=*', PASSWORDS.alice, 'a filter injection'],
      ['alice)(uid=*', PASSWORDS.alice, 'a filter injection after a real name'],
      [`uid=alice,ou=people,${SUFFIX}`, PASSWORDS.alice, 'a DN as username'],
    ] as const) {
      const r = await login(gw, username, password)
      t.equal(r.res.status, 401, what)
      t.same(r.body, INVALID, what)
    }
    const empty = await login(gw, 'alice', '')
    t.equal(empty.res.status, 422, 'an empty password is refused before anything is asked')
    // Below the endpoint too: to slapd, a DN with an empty password is an unauthenticated bind that succeeds.
    const directory = new Directory(() => compileConfig({ ldap: directoryConfig(slapd) }).ldap)
    t.equal(await directory.authenticate('alice', ''), null, 'the directory check never sends an empty password')
    t.equal((await directory.authenticate('alice', PASSWORDS.alice))?.username, 'alice', 'while the right one passes')
    const users = (await (await gw.fetch('/api/users', { headers: { authorization: basic('admin', ADMIN_PASSWORD) } })).json()) as Array<{ username: string; isLocal: boolean }>
    t.same(users.map((u) => u.username).sort(), ['admin', 'alice', 'bob', 'carol'], 'users created at their first login, nobody by the holes')

    const basicAlice = await gw.fetch('/api/snapshots', { headers: { authorization: basic('alice', PASSWORDS.alice) } })
    t.equal(basicAlice.status, 401, 'Basic checks local passwords only')

    const again = await login(gw, 'admin', ADMIN_PASSWORD)
    t.equal(again.res.status, 200, 'local users log in as before')

    const snap = await gw.fetch('/api/snapshots', { headers: { authorization: `Bearer ${String(bob.body.accessToken)}` } })
    t.equal(snap.status, 200, 'a directory session works downstream')

    const logins = await auditEvents(gw, { action: ['eq', 'auth.login'], actorMethod: ['eq', 'ldap'] }, 2)
    t.same(logins.map((e) => e.actorName), ['alice', 'bob'], 'directory logins in the audit trail, by method')
    const refused = await auditEvents(gw, { action: ['eq', 'auth.login'], outcome: ['eq', 'failure'] }, 8)
    t.match(refused.find((e) => e.target === '*)(uid=*))(|(uid=*'), { reason: 'API_INVALID_CREDENTIALS: directory: unknown user or wrong password' }, 'the injection attempt is recorded')
    t.match(refused.find((e) => e.target === 'carol'), { reason: 'API_INSUFFICIENT_RIGHTS' })
  })

  t.test('groups changed, removed or disabled in the directory take effect at the next refresh', async (t) => {
    const gw = await gatewayWith(t, directoryConfig(slapd))
    const bob = await login(gw, 'bob', PASSWORDS.bob)
    const alice = await login(gw, 'alice', PASSWORDS.alice)
    t.equal(bob.res.status, 200)
    const kept = await refresh(gw, bob.body.refreshToken)
    t.equal(kept.status, 200)
    t.same(kept.body.scope, ['read', 'write'])

    slapd.modify(`dn: cn=admins,ou=groups,${SUFFIX}\nchangetype: modify\nadd: member\nmember: uid=bob,ou=people,${SUFFIX}\n`)
    const promoted = await refresh(gw, kept.body.refreshToken)
    t.same(promoted.body.scope, ['read', 'settings', 'team', 'write'], 'a group added upstream')
    t.match(await me(gw, promoted.body.accessToken), { isAdmin: true })

    slapd.modify(
      `dn: cn=admins,ou=groups,${SUFFIX}\nchangetype: modify\ndelete: member\nmember: uid=bob,ou=people,${SUFFIX}\n\n` +
        `dn: cn=auditors,ou=groups,${SUFFIX}\nchangetype: modify\nreplace: member\nmember: uid=carol,ou=people,${SUFFIX}\n`,
    )
    const dropped = await refresh(gw, promoted.body.refreshToken)
    t.equal(dropped.status, 401, 'no group left: refused')
    t.equal(dropped.body.code, 'API_INVALID_REFRESH_TOKEN')
    const bobNow = await gw.fetch('/api/snapshots', { headers: { authorization: `Bearer ${String(promoted.body.accessToken)}` } })
    t.equal(bobNow.status, 401, 'and the access tokens already issued stop with the scopes')

    slapd.modify(`dn: uid=alice,ou=people,${SUFFIX}\nchangetype: modify\nadd: employeeType\nemployeeType: disabled\n`)
    const disabled = await refresh(gw, alice.body.refreshToken)
    t.equal(disabled.status, 401, 'disabled upstream: refused at refresh')
    const relogin = await login(gw, 'alice', PASSWORDS.alice)
    t.equal(relogin.res.status, 401, 'and at login')
    slapd.modify(`dn: uid=alice,ou=people,${SUFFIX}\nchangetype: modify\ndelete: employeeType\n\ndn: cn=auditors,ou=groups,${SUFFIX}\nchangetype: modify\nreplace: member\nmember: uid=bob,ou=people,${SUFFIX}\n`)
    const back = await refresh(gw, alice.body.refreshToken)
    t.equal(back.status, 401, 'a session refused once stays ended (its family is revoked)')
    const reasons = (await auditEvents(gw, { action: ['eq', 'auth.refresh'] }, 3)).map((e) => e.reason)
    t.match(reasons, [/the user may no longer act/, /directory: no longer in the directory \(removed or disabled\)/, /revoked/], 'each refusal in the audit trail')
  })

  t.test('StartTLS and LDAPS verify the directory with the configured CA', async (t) => {
    for (const [what, extra] of [
      ['StartTLS', { startTls: true }],
      ['LDAPS', { url: slapd.ldapsUrl }],
    ] as const) {
      const gw = await gatewayWith(t, directoryConfig(slapd, extra))
      const ok = await login(gw, 'bob', PASSWORDS.bob)
      t.equal(ok.res.status, 200, what)
      const untrusted = await gatewayWith(t, directoryConfig(slapd, { ...extra, caFile: '' }))
      const refused = await login(untrusted, 'bob', PASSWORDS.bob)
      t.equal(refused.res.status, 503, `${what} with a certificate of an unknown CA: unavailable, never a plain fallback`)
      t.equal(refused.body.code, 'API_DIRECTORY_UNAVAILABLE')
      t.equal(refused.res.headers.get('retry-after'), '7')
    }
  })

  t.test('a directory down or hanging: 503 with Retry-After, local logins go on', async (t) => {
    const closed = await freePort()
    const hung: Socket[] = []
    const silent = createServer((s) => void hung.push(s))
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r))
    t.teardown(() => {
      for (const s of hung) s.destroy()
      silent.close()
    })
    const port = (silent.address() as { port: number }).port
    for (const [what, url] of [
      ['down', `ldap://127.0.0.1:${closed}`],
      ['hanging', `ldap://127.0.0.1:${port}`],
    ] as const) {
      const gw = await gatewayWith(t, directoryConfig(slapd, { url, timeoutMs: 300, connectTimeoutMs: 300 }))
      const r = await login(gw, 'bob', PASSWORDS.bob)
      t.equal(r.res.status, 503, what)
      t.match(r.body, { code: 'API_DIRECTORY_UNAVAILABLE' })
      t.equal(r.res.headers.get('retry-after'), '7')
      const local = await login(gw, 'admin', ADMIN_PASSWORD)
      t.equal(local.res.status, 200, `${what}: a local login never asks the directory`)
    }
    // A directory user's refresh while the directory is down: 503, and the token still works after.
    const good = await gatewayWith(t, directoryConfig(slapd))
    const bob = await login(good, 'bob', PASSWORDS.bob)
    const down = await gatewayWith(t, directoryConfig(slapd, { url: `ldap://127.0.0.1:${closed}` }))
    down.clock.now = good.clock.now
    const during = await refresh(down, bob.body.refreshToken)
    t.equal(during.status, 503)
    t.equal(during.retryAfter, '7')
    const after = await refresh(good, bob.body.refreshToken)
    t.equal(after.status, 200, 'the refresh token was not spent by the failed attempt')
  })

  t.test('local authentication off: directory logins, their sessions and API keys work', async (t) => {
    const gw = await gatewayWith(t, directoryConfig(slapd), { enableLocalAuthentication: false })
    const disabled = { code: 'API_LOCAL_AUTHENTICATION_DISABLED' }
    const bob = await login(gw, 'bob', PASSWORDS.bob)
    t.equal(bob.res.status, 200)
    const snap = await gw.fetch('/api/snapshots', { headers: { authorization: `Bearer ${String(bob.body.accessToken)}` } })
    t.equal(snap.status, 200)
    const rotated = await refresh(gw, bob.body.refreshToken)
    t.equal(rotated.status, 200, 'a directory user refreshes')
    const key = await gw.fetch('/api/api-tokens', { method: 'POST', headers: { authorization: `Bearer ${String(rotated.body.accessToken)}` }, json: { scope: ['read'] } })
    t.equal(key.status, 201, 'a directory session creates an API key')
    const { token } = (await key.json()) as { token: string }
    t.equal((await gw.fetch('/api/snapshots', { headers: { 'x-api-token': token } })).status, 200, 'which works')

    const admin = await login(gw, 'admin', ADMIN_PASSWORD)
    t.equal(admin.res.status, 403, 'a local user with the right password')
    t.match(admin.body, disabled)
    const wrong = await login(gw, 'admin', 'not-the-password')
    t.same(wrong.body, INVALID, 'a wrong local password is the generic 401 (nothing to enumerate)')
    const b = await gw.fetch('/api/snapshots', { headers: { authorization: basic('admin', ADMIN_PASSWORD) } })
    t.match(await b.json(), disabled, 'Basic')
    const eula = await gw.fetch('/api/auth/eula', { method: 'POST', json: { username: 'admin', password: ADMIN_PASSWORD, accept: true } })
    t.match(await eula.json(), disabled, 'auth/eula of a local user')
    const providers = await gw.fetch('/api/auth/providers')
    t.same(await providers.json(), { password: { local: false, ldap: true }, sso: [] }, 'a login page learns what works')

    // the command line: netinv login with the directory password (NETINV_PASSWORD); the clock
    // moved a day on, so that its login is the only one of alice's from then on (the file's
    // gateways share a database)
    gw.advance(86_400_000)
    const from = gw.clock.now
    const home = tempHome(t)
    const env = { HOME: home, XDG_CONFIG_HOME: home, NETINV_URL: gw.url, NETINV_PASSWORD: PASSWORDS.alice }
    const cli = memoryIo(env)
    t.equal(await runCli(['login', '--username', 'alice'], cli.io), 0, cli.stderr())
    t.match(cli.stdout(), `logged in to ${gw.url} as alice`)
    const saved = readSessionFile(sessionPath(env)).sessions[gw.url]
    const me = await gw.fetch('/api/users/me', { headers: { authorization: `Bearer ${saved?.accessToken ?? ''}` } })
    t.match(await me.json(), { username: 'alice', isLocal: false, isAdmin: true }, 'the session the command stored is alice\'s')
    // read as alice: Basic with a local password is off here
    let logins: unknown[] = []
    for (let i = 0; i < 500 && logins.length === 0; i++) {
      const r = await gw.fetch('/api/tables/audit', { method: 'POST', headers: { authorization: `Bearer ${saved?.accessToken ?? ''}` }, json: { columns: ['actorName'], filters: { action: ['eq', 'auth.login'], actorName: ['eq', 'alice'], actorMethod: ['eq', 'ldap'], outcome: ['eq', 'success'], time: ['gte', from] } } })
      logins = ((await r.json()) as { data: unknown[] }).data
      if (logins.length === 0) await new Promise((r) => setTimeout(r, 20))
    }
    t.equal(logins.length, 1, 'the command line\'s login is in the audit trail, method ldap')
  })
})
