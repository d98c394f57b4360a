/**
 * The gateway's own tables in the catalog: `GET tables` (the upstream's listing) gains audit,
 * users and roles for callers with scope team, `GET tables/<path>/description` describes them in
 * the inventory's shape, and the description's example request is answered as it stands.
 */
import type { ServerResponse } from 'node:http'
import t from 'tap'
import { ADMIN_PASSWORD, basic, createUser, startGateway } from './handlers/helper.js'

const INVENTORY_LISTING = [{ path: 'inventory/devices', title: 'Devices', webPath: '/inventory/devices', snapshotScoped: true, columns: [{ name: 'sn', type: 'string', description: 'Serial number' }] }]
const admin = { authorization: basic('admin', ADMIN_PASSWORD) }
const gw = await startGateway(t, { upstream })

/** What the upstream answers to `GET tables`: its status and body (JSON, raw text when a string). */
let upstreamAnswer: { status: number; body: unknown } = { status: 200, body: INVENTORY_LISTING }
function upstream(req: { url?: string }, res: ServerResponse): void {
  const { status, body } = upstreamAnswer
  res.writeHead(req.url?.endsWith('/tables') ? status : 404, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body))
}

t.test('GET tables lists the gateway\'s tables after the upstream\'s, for callers with scope team', async (t) => {
  upstreamAnswer = { status: 200, body: INVENTORY_LISTING }
  const res = await gw.fetch('/api/tables', { headers: admin })
  t.equal(res.status, 200)
  t.equal(res.headers.get('content-length'), String(Buffer.byteLength(await res.clone().text())), 'the length of the answer sent')
  const tables = (await res.json()) as Array<{ path: string; webPath: string; snapshotScoped: boolean; columns: Array<{ name: string; type: string; description: string }> }>
  t.same(tables.map((x) => x.path), ['inventory/devices', 'audit', 'users', 'roles'])
  const audit = tables.find((x) => x.path === 'audit')!
  t.equal(audit.webPath, '/administration/audit')
  t.equal(audit.snapshotScoped, false)
  t.same(audit.columns.find((c) => c.name === 'time'), { name: 'time', type: 'timestamp', description: audit.columns.find((c) => c.name === 'time')!.description })
  t.ok(audit.columns.every((c) => c.description.length > 5), 'every column says what it means')

  await createUser(gw, { username: 'reader', password: 'reader-password-1', scope: ['read'] })
  const read = (await (await gw.fetch('/api/tables', { headers: { authorization: basic('reader', 'reader-password-1') } })).json()) as Array<{ path: string }>
  t.same(read.map((x) => x.path), ['inventory/devices'], 'a reader is not shown tables it cannot read')
  t.equal((await gw.fetch('/api/tables/audit/description', { headers: { authorization: basic('reader', 'reader-password-1') } })).status, 403)
})

t.test('a description whose example request the gateway answers', async (t) => {
  // an event in the trail: a login
  t.equal((await gw.fetch('/api/auth/login', { method: 'POST', json: { username: 'admin', password: ADMIN_PASSWORD } })).status, 200)
  for (const path of ['audit', 'users', 'roles']) {
    const res = await gw.fetch(`/api/tables/${path}/description`, { headers: admin })
    t.equal(res.status, 200, path)
    const d = (await res.json()) as { path: string; exampleRequest: Record<string, unknown>; columns: Array<{ name: string; operators: string[] }> }
    t.equal(d.path, path)
    t.ok(d.columns.every((c) => c.operators.length > 0), `${path}: operators per column`)
    const answer = await gw.fetch(`/api/tables/${path}`, { method: 'POST', headers: admin, json: d.exampleRequest })
    t.equal(answer.status, 200, `${path}: the example request is answered`)
    const body = (await answer.json()) as { data: Array<Record<string, unknown>> }
    t.ok(body.data.length > 0, `${path}: rows`)
    t.same(Object.keys(body.data[0]!), d.columns.map((c) => c.name), `${path}: the described columns`)
  }
})

t.test('a page and its count in one answer: past the end, sorted by a column not asked for', async (t) => {
  const roles = async (body: Record<string, unknown>) => (await (await gw.fetch('/api/tables/roles', { method: 'POST', headers: admin, json: body })).json()) as { data: Array<Record<string, unknown>>; _meta: { count: number; size: number } }
  const all = await roles({ columns: ['id'], sort: { column: 'description', order: 'desc' } })
  t.equal(all._meta.count, 5, 'admin and one role per scope')
  t.same(all.data.map((r) => r.id), ['write', 'team', 'settings', 'read', 'admin'], 'in the order of their descriptions, a column the request did not ask for')
  const second = await roles({ columns: ['id'], sort: { column: 'id', order: 'asc' }, pagination: { start: 2, limit: 2 } })
  t.same(second, { data: [{ id: 'settings' }, { id: 'team' }], _meta: { limit: 2, start: 2, count: 5, size: 2 } })
  const past = await roles({ columns: ['id'], pagination: { start: 10, limit: 2 } })
  t.same(past, { data: [], _meta: { limit: 2, start: 10, count: 5, size: 0 } }, 'past the end: no row, the count still')
})

t.test('an upstream listing the gateway does not change', async (t) => {
  await t.test('one that lists a table of the same path already', async (t) => {
    upstreamAnswer = { status: 200, body: [...INVENTORY_LISTING, { path: 'audit', title: 'The upstream\'s own' }] }
    const tables = (await (await gw.fetch('/api/tables', { headers: admin })).json()) as Array<{ path: string; title: string }>
    t.same(tables.map((x) => x.path), ['inventory/devices', 'audit', 'users', 'roles'])
    t.equal(tables[1]!.title, 'The upstream\'s own')
  })
  await t.test('one that is no JSON list', async (t) => {
    upstreamAnswer = { status: 200, body: { tables: [] } }
    t.same(await (await gw.fetch('/api/tables', { headers: admin })).json(), { tables: [] })
    upstreamAnswer = { status: 200, body: '[not json' }
    const res = await gw.fetch('/api/tables', { headers: admin })
    t.equal(res.status, 200)
    t.equal(await res.text(), '[not json', 'as the upstream sent it')
  })
  await t.test('an error answer', async (t) => {
    upstreamAnswer = { status: 503, body: { code: 'API_BUSY' } }
    const res = await gw.fetch('/api/tables', { headers: admin })
    t.equal(res.status, 503)
    t.same(await res.json(), { code: 'API_BUSY' })
  })
})
