/**
 * Single sign-on past the first login, against a real provider (oidc-provider, oidc-lab.ts):
 * - the command line's device login (RFC 8628) run by the gateway: the API, and `netinv login
 *   --sso` end to end with the person's step through the provider's own pages; a provider without
 *   the device flow is a clear 404;
 * - every refresh asks the provider about the user again (its refresh token, else userinfo): new
 *   groups give new scopes, a removed account or one without a mapped group loses the session, a
 *   provider that is down is a 503 that keeps it;
 * - a user who has not approved the EULA gets a ticket from the login, approves with it and gets
 *   the session.
 * Each step is read back from the audit trail.
 */
import t from 'tap'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../../../src/commands/main.js'
import { readSessionFile, sessionPath } from '../../../src/client/session.js'
import { memoryIo, tempHome } from '../../commands/cli.js'
import { freshPostgres } from '../../helpers/db.js'
import { basic, startGateway, ADMIN_PASSWORD, TEST_CONFIG, type TestGateway } from '../handlers/helper.js'
import { browse, Jar, startProvider } from './oidc-lab.js'

const PUBLIC_BASE = 'https://netinv.example.test'
const CLIENT_SECRET = 'a-client-secret-of-the-test-provider-0123456789'
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code'
const GROUPS = { 'netinv-admins': { scopes: ['read', 'settings', 'team', 'write'], isAdmin: true }, 'netinv-readers': { scopes: ['read'] } }

type Body = Record<string, unknown>

async function auditEvents(gw: TestGateway, filters: Body, count: number): Promise<Body[]> {
  for (let i = 0; i < 500; i++) {
    const res = await gw.fetch('/api/tables/audit', { method: 'POST', headers: { authorization: basic('admin', ADMIN_PASSWORD) }, json: { columns: ['actorName', 'actorMethod', 'action', 'target', 'outcome', 'reason', 'before', 'after'], filters } })
    const { data } = (await res.json()) as { data: Body[] }
    if (data.length >= count) return data
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`fewer than ${count} audit events match ${JSON.stringify(filters)}`)
}

/** A browser login through `provider` up to netinv's callback answer. */
async function webLogin(gw: TestGateway, provider: string, username: string): Promise<{ res: Response; jar: Jar }> {
  const jar = new Jar()
  const started = await fetch(`${gw.url}/api/auth/sso/${provider}/start`, { redirect: 'manual' })
  jar.take(started)
  const { left } = await browse(started.headers.get('location') ?? '', username, { until: PUBLIC_BASE })
  if (!left) throw new Error('the provider did not send the browser back')
  const res = await fetch(gw.url + left.slice(PUBLIC_BASE.length), { redirect: 'manual', headers: { cookie: jar.header() } })
  jar.take(res)
  return { res, jar }
}

/** The EULA ticket of a browser login whose user has not approved it yet. */
async function ticketOf(gw: TestGateway, provider: string, username: string): Promise<string> {
  const { res } = await webLogin(gw, provider, username)
  const location = res.headers.get('location') ?? ''
  const ticket = /^\/#ssoEula=(.+)$/.exec(location)?.[1]
  if (res.status !== 302 || !ticket) throw new Error(`expected the EULA step, got ${res.status} ${location}`)
  return ticket
}

/** A session through the EULA ticket (provider corp's users start without approval). */
async function sessionOf(gw: TestGateway, username: string): Promise<{ refreshToken: string; scope: string[] }> {
  const ticket = await ticketOf(gw, 'corp', username)
  const res = await gw.fetch('/api/auth/eula', { method: 'POST', json: { ticket, accept: true } })
  if (res.status !== 200) throw new Error(`eula: ${res.status} ${await res.text()}`)
  return (await res.json()) as { refreshToken: string; scope: string[] }
}

const refresh = (gw: TestGateway, refreshToken: string) => gw.fetch('/api/auth/token', { method: 'POST', json: { refreshToken } })

t.test('single sign-on sessions against oidc-provider', async (t) => {
  const lab = await startProvider(t, {
    deviceFlow: true,
    clients: [
      {
        client_id: 'netinv',
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${PUBLIC_BASE}/api/auth/sso/corp/callback`],
        grant_types: ['authorization_code', 'refresh_token', DEVICE_GRANT],
        response_types: ['code'],
      },
      // A client the provider gives no refresh token: the gateway asks userinfo at each refresh.
      { client_id: 'netinv-plain', client_secret: CLIENT_SECRET, redirect_uris: [`${PUBLIC_BASE}/api/auth/sso/plain/callback`], grant_types: ['authorization_code'], response_types: ['code'] },
    ],
  })
  const bare = await startProvider(t, { clients: [{ client_id: 'netinv', client_secret: CLIENT_SECRET, redirect_uris: [`${PUBLIC_BASE}/api/auth/sso/bare/callback`], grant_types: ['authorization_code'], response_types: ['code'] }] })
  const dir = await mkdtemp(join(tmpdir(), 'netinv-sso-sessions-'))
  const secretFile = join(dir, 'client-secret')
  await writeFile(secretFile, `${CLIENT_SECRET}\n`, { mode: 0o600 })
  const db = (await freshPostgres(t)).db
  const common = { clientSecretFile: secretFile, scopes: ['openid', 'profile', 'email', 'groups'], groups: GROUPS, redirectBaseUrl: PUBLIC_BASE, allowInsecureHttp: true }
  const gw = await startGateway(t, {
    db,
    dataDir: dir,
    config: {
      ...TEST_CONFIG,
      audit: { flushMs: 10 },
      sso: {
        providers: {
          corp: { ...common, issuer: lab.issuer, clientId: 'netinv', eulaApproved: false },
          plain: { ...common, issuer: lab.issuer, clientId: 'netinv-plain', eulaApproved: true },
          bare: { ...common, issuer: bare.issuer, clientId: 'netinv', eulaApproved: true },
        },
      },
    },
  })

  t.test('a user who has not approved the EULA approves it with the ticket of the login', async (t) => {
    lab.accounts.set('frank', ['netinv-readers'])
    const { res, jar } = await webLogin(gw, 'corp', 'frank')
    t.equal(res.status, 302)
    const ticket = /^\/#ssoEula=([\w-]+)$/.exec(res.headers.get('location') ?? '')?.[1] ?? ''
    t.ok(ticket, 'to the web interface, with the ticket in the fragment')
    t.notOk(jar.cookies.has('accessToken'), 'no session before the approval')

    const mixed = await gw.fetch('/api/auth/eula', { method: 'POST', json: { ticket, username: 'frank', password: 'x', accept: true } })
    t.equal(mixed.status, 422)
    t.match(await mixed.json(), { code: 'API_INVALID_INPUT', message: /either "ticket" or "username" and "password"/ })
    const declined = await gw.fetch('/api/auth/eula', { method: 'POST', json: { ticket, accept: false } })
    t.equal(declined.status, 422, 'accept must be true')

    const approved = await gw.fetch('/api/auth/eula', { method: 'POST', json: { ticket, accept: true } })
    t.equal(approved.status, 200)
    const body = (await approved.json()) as Body
    t.match(body, { success: true, eula: true, scope: ['read'], accessToken: String, refreshToken: String })
    t.match(approved.headers.getSetCookie().join('\n'), /accessToken=/, 'with the token cookies of a login')
    const me = (await (await gw.fetch('/api/users/me', { headers: { authorization: `Bearer ${String(body.accessToken)}` } })).json()) as Body
    t.match(me, { username: 'frank', ssoProvider: 'corp', isLocal: false })
    const listed = (await (await gw.fetch('/api/users', { headers: { authorization: basic('admin', ADMIN_PASSWORD) } })).json()) as Body[]
    t.match(listed.find((u) => u.username === 'frank'), { eulaApproved: true })

    const again = await gw.fetch('/api/auth/eula', { method: 'POST', json: { ticket, accept: true } })
    t.equal(again.status, 401, 'a ticket is used once')
    t.match(await again.json(), { code: 'API_INVALID_CREDENTIALS', message: /log in through the single sign-on provider again/ })
    const forged = await gw.fetch('/api/auth/eula', { method: 'POST', json: { ticket: 'not-a-ticket-of-this-gateway', accept: true } })
    t.equal(forged.status, 401)

    const next = await webLogin(gw, 'corp', 'frank')
    t.equal(next.res.headers.get('location'), '/', 'the next login opens the session at once')
    t.ok(next.jar.cookies.get('accessToken'))

    const eula = await auditEvents(gw, { action: ['eq', 'auth.eula'], target: ['eq', 'frank'] }, 1)
    t.match(eula[0], { actorName: 'frank', actorMethod: 'sso', outcome: 'success', before: { eulaApproved: false }, after: { eulaApproved: true } })
    const waiting = await auditEvents(gw, { action: ['eq', 'auth.login'], target: ['eq', 'frank'], outcome: ['eq', 'failure'] }, 1)
    t.match(waiting[0], { reason: /API_MISSING_EULA_APPROVAL: EULA ticket issued/ })
    await auditEvents(gw, { action: ['eq', 'auth.eula'], target: ['eq', 'ticket'], outcome: ['eq', 'failure'] }, 2)
  })

  t.test('a refresh asks the provider again (its refresh token)', async (t) => {
    lab.accounts.set('erin', ['netinv-readers'])
    let { refreshToken } = await sessionOf(gw, 'erin')
    const next = async () => {
      const res = await refresh(gw, refreshToken)
      const body = (await res.json()) as Body
      if (res.status === 200) refreshToken = String(body.refreshToken)
      return { res, body }
    }
    t.match((await next()).body, { scope: ['read'] }, 'refreshed while the provider knows the user')

    lab.accounts.set('erin', ['netinv-admins'])
    t.match((await next()).body, { scope: ['read', 'settings', 'team', 'write'] }, 'new groups at the provider are new scopes at the next refresh')

    lab.down = true
    const down = await next()
    lab.down = false
    t.equal(down.res.status, 503, 'the provider down: 503')
    t.equal(down.res.headers.get('retry-after'), '30')
    t.match(down.body, { code: 'API_SERVICE_UNAVAILABLE', message: /cannot be reached to renew your session/ })
    t.equal((await next()).res.status, 200, 'and the session is still there when it is back')

    lab.accounts.set('erin', ['staff'])
    const unmapped = await next()
    t.equal(unmapped.res.status, 401, 'no mapped group any more: the session ends')
    t.match(unmapped.body, { code: 'API_INVALID_REFRESH_TOKEN' })
    const users = (await (await gw.fetch('/api/users', { headers: { authorization: basic('admin', ADMIN_PASSWORD) } })).json()) as Body[]
    t.match(users.find((u) => u.username === 'erin'), { scope: [] }, 'and the user keeps no scope')

    lab.accounts.set('gina', ['netinv-readers'])
    const gina = await sessionOf(gw, 'gina')
    lab.accounts.delete('gina')
    const removed = await refresh(gw, gina.refreshToken)
    t.equal(removed.status, 401, 'removed at the provider: the session ends')
    t.match(await removed.json(), { code: 'API_INVALID_REFRESH_TOKEN' })
    lab.accounts.set('gina', ['netinv-readers'])
    t.equal((await refresh(gw, gina.refreshToken)).status, 401, 'for good: the session was revoked')

    // each waited for on its own: the trail is written after the answer, and the provider's
    // outage above is a failed refresh of provider corp too
    const failed = (reason: string) => auditEvents(gw, { action: ['eq', 'auth.refresh'], outcome: ['eq', 'failure'], reason: ['like', reason] }, 1)
    t.ok((await failed('no mapped groups any more')).some((e) => /provider corp/.test(String(e.reason))), 'the unmapped user recorded')
    t.ok((await failed('provider corp refused: invalid_grant')).length > 0, 'the removed user recorded')
    await auditEvents(gw, { action: ['eq', 'auth.refresh'], reason: ['like', 'unreachable at refresh'] }, 1)
  })

  t.test('without a provider refresh token, a refresh asks userinfo', async (t) => {
    lab.accounts.set('henry', ['netinv-readers'])
    const { res, jar } = await webLogin(gw, 'plain', 'henry')
    t.equal(res.headers.get('location'), '/')
    const token = decodeURIComponent(jar.cookies.get('refreshToken') ?? '')
    const ok = await refresh(gw, token)
    t.equal(ok.status, 200)
    lab.accounts.delete('henry')
    const gone = await refresh(gw, String(((await ok.json()) as Body).refreshToken))
    t.equal(gone.status, 401, 'removed at the provider: userinfo refuses, the session ends')
    const ended = await auditEvents(gw, { action: ['eq', 'auth.refresh'], reason: ['like', 'provider plain refused: userinfo answered 401'] }, 1)
    t.match(ended[0], { outcome: 'failure' })
  })

  t.test('the device login through the API', async (t) => {
    lab.accounts.set('dave', ['netinv-readers'])
    const startRes = await gw.fetch('/api/auth/sso/corp/device', { method: 'POST' })
    t.equal(startRes.status, 200)
    const started = (await startRes.json()) as { deviceRequest: string; userCode: string; verificationUri: string; verificationUriComplete: string; interval: number; expiresIn: number }
    t.match(started, { userCode: String, verificationUri: `${lab.issuer}/device`, verificationUriComplete: /user_code=/, interval: Number, expiresIn: Number })
    const poll = () => gw.fetch('/api/auth/sso/corp/device/token', { method: 'POST', json: { deviceRequest: started.deviceRequest } })
    const early = await poll()
    t.equal(early.status, 202, 'pending before the person logs in')
    t.same(await early.json(), { status: 'pending', interval: started.interval })
    gw.advance(started.interval * 1000)
    const asked = await poll()
    t.equal(asked.status, 202, 'the provider says pending too')

    const { page } = await browse(started.verificationUriComplete, 'dave')
    t.match(page, /Sign-in Success/, 'the person logs in at the provider')
    gw.advance(started.interval * 1000)
    const eula = await poll()
    t.equal(eula.status, 403, 'a user without the EULA approved gets no session')
    t.match(await eula.json(), { code: 'API_MISSING_EULA_APPROVAL' })
    const spent = await poll()
    t.equal(spent.status, 401, 'a finished device login cannot be polled again')
    t.match(await spent.json(), { code: 'API_INVALID_CREDENTIALS', message: /run netinv login --sso again/ })

    // Abandoned at the provider.
    const second = (await (await gw.fetch('/api/auth/sso/corp/device', { method: 'POST' })).json()) as typeof started
    t.match((await browse(second.verificationUriComplete, 'dave', { abort: true })).page, /interrupted/, 'the person aborts at the provider')
    gw.advance(second.interval * 1000)
    const denied = await gw.fetch('/api/auth/sso/corp/device/token', { method: 'POST', json: { deviceRequest: second.deviceRequest } })
    t.equal(denied.status, 401)
    t.match(await denied.json(), { code: 'API_INVALID_CREDENTIALS', message: /refused at the single sign-on provider/ })

    const wrongProvider = await gw.fetch('/api/auth/sso/plain/device/token', { method: 'POST', json: { deviceRequest: 'unknown' } })
    t.equal(wrongProvider.status, 401)
    const noBody = await gw.fetch('/api/auth/sso/corp/device/token', { method: 'POST', json: {} })
    t.equal(noBody.status, 422)
    const none = await gw.fetch('/api/auth/sso/bare/device', { method: 'POST' })
    t.equal(none.status, 404, 'a provider without the device flow')
    t.match(await none.json(), { code: 'API_NOT_FOUND', detail: /offers no device login/ })
    const unknown = await gw.fetch('/api/auth/sso/nowhere/device', { method: 'POST' })
    t.equal(unknown.status, 404)

    await auditEvents(gw, { action: ['eq', 'auth.login'], actorMethod: ['eq', 'sso'], reason: ['like', 'access_denied (device login)'] }, 1)
    await auditEvents(gw, { action: ['eq', 'auth.login'], reason: ['like', 'provider corp: API_MISSING_EULA_APPROVAL'] }, 1)
  })

  t.test('netinv login --sso', async (t) => {
    lab.accounts.set('ivy', ['netinv-admins'])
    // ivy approves the EULA once in the web interface first.
    await sessionOf(gw, 'ivy')
    const home = tempHome(t)
    const env = { HOME: home, XDG_CONFIG_HOME: home, NETINV_URL: gw.url }
    const m = memoryIo(env)
    const running = runCli(['login', '--sso', 'corp'], m.io)
    let uri: string | undefined
    for (let i = 0; i < 500 && !uri; i++) {
      uri = /To log in, open (\S+)/.exec(m.stderr())?.[1]
      if (!uri) await new Promise((r) => setTimeout(r, 20))
    }
    t.ok(uri, 'the command shows where to log in')
    t.match(m.stderr(), /and enter the code [A-Z]{4}-[A-Z]{4}/)
    const { page } = await browse(uri ?? '', 'ivy')
    t.match(page, /Sign-in Success/)
    gw.advance(60_000)
    t.equal(await running, 0, m.stderr())
    t.match(m.stdout(), `logged in to ${gw.url} as ivy through corp (scopes read, settings, team, write)`)
    const saved = readSessionFile(sessionPath(env)).sessions[gw.url]
    t.match(saved, { username: 'ivy', accessToken: String, refreshToken: String })
    const me = await gw.fetch('/api/users/me', { headers: { authorization: `Bearer ${saved?.accessToken ?? ''}` } })
    t.match(await me.json(), { username: 'ivy', ssoProvider: 'corp', isAdmin: true })
    t.equal((await refresh(gw, saved?.refreshToken ?? '')).status, 200, 'its refresh token asks the provider and works')

    const bareRun = memoryIo(env)
    t.equal(await runCli(['login', '--sso', 'bare'], bareRun.io), 1)
    t.match(bareRun.stderr(), /netinv login: .*offers no device login|Requested Resource Not Found/)
    const several = memoryIo(env)
    t.equal(await runCli(['login', '--sso'], several.io), 2, 'several providers: name one')
    t.match(several.stderr(), /name the provider: netinv login --sso <provider> \(one of corp, plain, bare\)/)
    const both = memoryIo(env)
    t.equal(await runCli(['login', '--sso', '--username', 'x'], both.io), 2)
    await auditEvents(gw, { action: ['eq', 'auth.login'], target: ['eq', 'ivy'], outcome: ['eq', 'success'] }, 2)
  })
})
