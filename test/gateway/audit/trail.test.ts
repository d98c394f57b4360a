/**
 * The audit trail end to end: each event type produced by the real endpoint, read back through
 * POST tables/audit (filters, sort, paging, CSV), one log line per event, and `netinv audit
 * verify` finding an edited, a deleted and a reordered event; pruning keeps the rest verifiable.
 */
import t from 'tap'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { auditCommand } from '../../../src/commands/audit.js'
import { AuditStore } from '../../../src/gateway/audit/index.js'
import { freshPostgres } from '../../helpers/db.js'
import { memoryIo } from '../../commands/cli.js'
import { basic, login, startGateway, ADMIN_PASSWORD, TEST_CONFIG, type TestGateway } from '../handlers/helper.js'

const ADMIN = { authorization: basic('admin', ADMIN_PASSWORD) }

interface Page {
  data: Array<Record<string, unknown>>
  _meta: { limit: number | null; start: number; count: number; size: number }
}

async function audit(gw: TestGateway, body: Record<string, unknown>, headers: Record<string, string> = ADMIN): Promise<Response> {
  return gw.fetch('/api/tables/audit', { method: 'POST', headers, json: body })
}

/** The events once `count` of them are stored (they are written in batches, after the answers). */
async function eventsWhenStored(gw: TestGateway, count: number): Promise<Page['data']> {
  const columns = ['id', 'time', 'actorName', 'actorMethod', 'apiKeyId', 'requestId', 'clientIp', 'action', 'target', 'outcome', 'reason', 'before', 'after']
  for (let i = 0; i < 500; i++) {
    const page = (await (await audit(gw, { columns, pagination: { limit: 1000 } })).json()) as Page
    // the rows themselves: the count is a statement of its own, and may see an event the page did not
    if (page.data.length >= count) return page.data
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`fewer than ${count} audit events were stored`)
}

t.test('every event type, read back as a table, and the chain verified', async (t) => {
  const { db, url } = await freshPostgres(t)
  const gw = await startGateway(t, { db, config: { ...TEST_CONFIG, audit: { flushMs: 10 } } })

  // Logins: a failure (with its reason) and a success.
  t.equal((await login(gw, 'admin', 'wrong-password')).res.status, 401)
  const admin = await login(gw, 'admin', ADMIN_PASSWORD)
  const session = { authorization: `Bearer ${String(admin.body.accessToken)}` }
  // Users: create, change scopes, EULA approval by the user, delete.
  const created = await gw.fetch('/api/users', { method: 'POST', headers: ADMIN, json: { username: 'dora', password: 'dora-password', scope: ['read'] } })
  const dora = (await created.json()) as { id: string }
  t.equal((await gw.fetch(`/api/users/${dora.id}`, { method: 'PATCH', headers: ADMIN, json: { scope: ['read', 'write'], password: 'dora-password-2' } })).status, 200)
  t.equal((await gw.fetch('/api/auth/eula', { method: 'POST', json: { username: 'dora', password: 'dora-password-2', accept: true } })).status, 200)
  // API keys: create (with a session), change, delete.
  const key = (await (await gw.fetch('/api/api-tokens', { method: 'POST', headers: session, json: { scope: ['read'], description: 'ci' } })).json()) as { id: string; token: string }
  t.equal((await gw.fetch(`/api/api-tokens/${key.id}`, { method: 'PATCH', headers: { 'x-api-token': key.token }, json: { description: 'ci job' } })).status, 200)
  t.equal((await gw.fetch(`/api/api-tokens/${key.id}`, { method: 'DELETE', headers: session })).status, 204)
  // A forwarded state change (the test upstream answers 200).
  t.equal((await gw.fetch('/api/snapshots', { method: 'POST', headers: session, json: {} })).status, 200)
  // Refresh-token reuse after the grace: refused, the session revoked.
  const first = admin.body.refreshToken
  t.equal((await gw.fetch('/api/auth/token', { method: 'POST', json: { refreshToken: first } })).status, 200)
  gw.advance(6000)
  t.equal((await gw.fetch('/api/auth/token', { method: 'POST', json: { refreshToken: first } })).status, 401)
  // Logout, and the user deleted.
  const second = await login(gw, 'admin', ADMIN_PASSWORD)
  t.equal((await gw.fetch('/api/auth/logout', { method: 'POST', headers: { authorization: `Bearer ${String(second.body.accessToken)}` } })).status, 200)
  t.equal((await gw.fetch(`/api/users/${dora.id}`, { method: 'DELETE', headers: ADMIN })).status, 204)

  const events = await eventsWhenStored(gw, 13)
  t.same(
    events.map((e) => `${String(e.action)} ${String(e.outcome)}`),
    [
      'auth.login failure',
      'auth.login success',
      'user.create success',
      'user.update success',
      'auth.eula success',
      'apiKey.create success',
      'apiKey.update success',
      'apiKey.delete success',
      'POST snapshots success',
      'auth.refresh failure',
      'auth.login success',
      'auth.logout success',
      'user.delete success',
    ],
    'one event per action, in order',
  )
  t.match(events[0], { actorName: 'admin', actorMethod: 'password', target: 'admin', reason: /API_INVALID_CREDENTIALS: unknown user or wrong password/, clientIp: '127.0.0.1', requestId: String })
  t.match(events[1], { actorName: 'admin', actorMethod: 'local', outcome: 'success' })
  t.match(events[3], { before: { scope: ['read'] }, after: { scope: ['read', 'write'], password: '***' } }, 'before and after, the secret masked')
  t.match(events[6], { actorMethod: 'apiKey', apiKeyId: key.id, before: { description: 'ci' }, after: { description: 'ci job' } })
  t.match(events[8], { target: 'snapshots', actorMethod: 'bearer' })
  t.match(events[9], { reason: /reused: the session was revoked/ })
  t.match(events[12], { before: { username: 'dora' } })
  t.notOk(JSON.stringify(events).includes('dora-password'), 'no password in the trail')
  t.notOk(JSON.stringify(events).includes(key.token), 'no key in the trail')
  t.equal(gw.logs.filter((l) => l.includes('"msg":"audit"')).length, 13, 'one log line per event')

  // Query: filters, sort, paging, CSV, scope.
  const failures = (await (await audit(gw, { columns: ['id', 'action', 'reason'], filters: { outcome: ['eq', 'failure'] }, sort: { column: 'id', order: 'desc' } })).json()) as Page
  t.same(failures.data.map((e) => e.action), ['auth.refresh', 'auth.login'])
  const page = (await (await audit(gw, { columns: ['action'], filters: { or: [{ action: ['like', 'apikey.'] }, { action: ['eq', 'user.delete'] }] }, pagination: { limit: 2, start: 1 } })).json()) as Page
  t.same(page, { data: [{ action: 'apiKey.update' }, { action: 'apiKey.delete' }], _meta: { limit: 2, start: 1, count: 4, size: 2 } })
  const csv = await audit(gw, { columns: ['id', 'action', 'target'], filters: { action: ['eq', 'user.create'] } }, { ...ADMIN, accept: 'text/csv' })
  t.equal(csv.headers.get('content-type'), 'text/csv; charset=utf-8')
  t.equal(await csv.text(), `id,action,target\r\n3,user.create,dora (${dora.id})\r\n`)
  const bad = await audit(gw, { columns: ['action'], filters: { nope: ['eq', 'x'] } })
  t.equal(bad.status, 422)
  t.match(await bad.json(), { code: 'API_INVALID_INPUT', errors: [{ message: /unknown column "nope"/, path: 'filters.nope' }] })
  const reader = (await (await gw.fetch('/api/api-tokens', { method: 'POST', headers: session, json: { scope: ['read'] } })).json()) as { token: string }
  t.equal((await audit(gw, { columns: ['action'] }, { 'x-api-token': reader.token })).status, 403, 'scope team only')

  // netinv audit verify: intact, then an edited, a deleted and a reordered event.
  const env = { DATABASE_URL: url, CONFIG_DIR: await mkdtemp(join(tmpdir(), 'netinv-cfg-')), DATA_DIR: await mkdtemp(join(tmpdir(), 'netinv-data-')), LOG_LEVEL: 'silent' }
  const verify = async () => {
    const m = memoryIo(env)
    const code = await auditCommand.run(['verify'], m.io)
    return { code, out: m.stdout() }
  }
  const intact = await verify()
  t.equal(intact.code, 0)
  t.match(intact.out, /audit trail intact: 1[45] events verified/)

  await db.query(`UPDATE identity.audit_events SET target = 'someone else' WHERE seq = 3`)
  t.match(await verify(), { code: 1, out: /BROKEN at event 3: event 3 was altered/ })
  await db.query(`UPDATE identity.audit_events SET target = $1 WHERE seq = 3`, [`dora (${dora.id})`])
  t.equal((await verify()).code, 0, 'restored')

  const { rows } = await db.query<Record<string, unknown>>('SELECT * FROM identity.audit_events WHERE seq = 5')
  await db.query('DELETE FROM identity.audit_events WHERE seq = 5')
  t.match(await verify(), { code: 1, out: /BROKEN at event 5: event 5 is missing \(removed\)/ })
  const row = rows[0]!
  const cols = Object.keys(row)
  await db.query(`INSERT INTO identity.audit_events (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`, cols.map((c) => row[c]))
  t.equal((await verify()).code, 0, 'restored')

  await db.query('UPDATE identity.audit_events SET seq = -7 WHERE seq = 7')
  await db.query('UPDATE identity.audit_events SET seq = 7 WHERE seq = 8')
  await db.query('UPDATE identity.audit_events SET seq = 8 WHERE seq = -7')
  t.match(await verify(), { code: 1, out: /BROKEN at event 7: event 7 does not follow the event before it/ }, 'two events swapped')
  await db.query('UPDATE identity.audit_events SET seq = -7 WHERE seq = 7')
  await db.query('UPDATE identity.audit_events SET seq = 7 WHERE seq = 8')
  await db.query('UPDATE identity.audit_events SET seq = 8 WHERE seq = -7')

  // Retention: the oldest go, the anchor keeps the rest verifiable, and new events chain on.
  const store = new AuditStore(db)
  // The test clock moved on 6 s before the refused refresh (event 10): the nine before it are older.
  const { rows: tenth } = await db.query<{ at: number }>('SELECT at FROM identity.audit_events WHERE seq = 10')
  t.equal(await store.prune(Number(tenth[0]!.at)), 9, 'events older than the tenth pruned')
  const after = await verify()
  t.equal(after.code, 0)
  t.match(after.out, /events verified/)
  t.match(await store.verify(), { ok: true })
  // counted before the refused login: its event may be stored by the time its answer is in
  const total = (await (await audit(gw, { columns: ['id'] })).json()) as Page
  t.equal((await login(gw, 'admin', 'wrong-again')).res.status, 401)
  await eventsWhenStored(gw, total._meta.count + 1)
  t.match(await store.verify(), { ok: true }, 'a new event continues the chain after pruning')
})
