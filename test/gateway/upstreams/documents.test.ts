/**
 * The gateway knows its inventory only by the document the inventory publishes: a gateway in
 * front of a real inventory with one more table than the catalog the gateway was built with
 * serves and describes it, and in front of one with one fewer, the missing table is 404 for every
 * method before any credential is checked. A changed document is followed; the last good one is
 * kept while the upstream is away; an upstream never reached yet answers 503 for its tables. A
 * backend of a route file that publishes a document is described and checked the same way.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import t, { type Test } from 'tap'
import { TABLES, type TableDef } from '../../../src/inventory/catalog/index.js'
import { createInventoryApp } from '../../../src/inventory/app.js'
import { migrateInventory } from '../../../src/inventory/migrations/index.js'
import { publishDocument } from '../../../src/inventory/openapi/document.js'
import { compileConfig } from '../../../src/shared/config/index.js'
import { silentLogger } from '../../../src/shared/log.js'
import { freshPostgres } from '../../helpers/db.js'
import { SECRET, memoryLog, send, startTestGateway, startUpstream } from '../helpers.js'

type Doc = { paths: Record<string, Record<string, Record<string, unknown>>>; components: { schemas: Record<string, unknown> } }

const SNAPSHOTS = TABLES.find((x) => x.path === 'management/snapshots')!
/** A table the gateway's own catalog has not: the snapshot list again, under another path. */
const EXTRA: TableDef = { ...SNAPSHOTS, path: 'management/snapshot-list', legacyPaths: [], title: 'Snapshot list' }
/** A table the catalog has, that this inventory does not serve. */
const GONE = TABLES.find((x) => x.path === 'inventory/devices')!

async function startInventory(t: Test, tables: readonly TableDef[]): Promise<string> {
  const { db } = await freshPostgres(t)
  await migrateInventory(db)
  const app = await createInventoryApp({ db, config: compileConfig({}), log: silentLogger(), internalSecret: SECRET, tables })
  const server = createServer(app.handle)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(async () => {
    await app.close()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function documentOf(base: string, path = '/api/openapi.json'): Promise<Doc> {
  const res = await fetch(`${base}${path}`)
  return (await res.json()) as Doc
}

const TABLE_REQUEST = JSON.stringify({ columns: ['id'] })

t.test('an inventory with one more table than the gateway was built with: served and described', async (t) => {
  const inventory = await startInventory(t, [...TABLES, EXTRA])
  const gw = await startTestGateway(t, { upstreamUrl: inventory })
  const doc = await documentOf(gw.url)
  t.ok(doc.paths['/tables/management/snapshot-list']?.post, 'the new table is in the public document')
  t.ok(doc.paths['/tables/management/snapshot-list/description']?.get, 'and its description')
  t.ok(doc.components.schemas.ManagementSnapshotListRequest, 'with its request schema')
  const result = await new Validator().validate(doc as unknown as Record<string, unknown>)
  t.ok(result.valid, 'a valid OpenAPI document')
  const anonymous = await send(gw.url, '/api/tables/management/snapshot-list', { method: 'POST', headers: { 'content-type': 'application/json' }, body: TABLE_REQUEST })
  t.equal(anonymous.status, 401, 'it exists: credentials are asked for')
  const answer = await send(gw.url, '/api/tables/management/snapshot-list', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-token': 'reader-key' }, body: TABLE_REQUEST })
  t.equal(answer.status, 200, answer.text)
  t.same((answer.json() as { data: unknown[] }).data, [], 'the inventory answered it')
  const description = await send(gw.url, '/api/tables/management/snapshot-list/description', { headers: { 'x-api-token': 'reader-key' } })
  t.equal(description.status, 200, description.text)
})

t.test('an inventory with one table fewer: the missing table is 404 for every method, before credentials', async (t) => {
  const inventory = await startInventory(t, TABLES.filter((x) => x !== GONE))
  const gw = await startTestGateway(t, { upstreamUrl: inventory })
  const doc = await documentOf(gw.url)
  t.notOk(doc.paths['/tables/inventory/devices'], 'not in the document')
  t.notOk(doc.components.schemas.InventoryDevicesRequest)
  t.ok(doc.paths['/tables/inventory/interfaces']?.post, 'the others are')
  for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
    for (const path of ['/api/tables/inventory/devices', '/api/tables/inventory/devices/description', '/api/v1/tables/inventory/devices']) {
      const r = await send(gw.url, path, { method, ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: TABLE_REQUEST } : {}) })
      t.equal(r.status, 404, `${method} ${path}`)
      t.match(r.json(), { code: 'API_NOT_FOUND' })
    }
  }
  const known = await send(gw.url, '/api/tables/inventory/interfaces', { method: 'POST', headers: { 'content-type': 'application/json' }, body: TABLE_REQUEST })
  t.equal(known.status, 401, 'a table it has asks for credentials')
  const legacy = await send(gw.url, '/api/v1/tables/addressing/managedDevs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: TABLE_REQUEST })
  t.equal(legacy.status, 401, 'a v4 camelCase path the inventory lists as an alias exists')
})

t.test('a changed document is followed; the last good one is kept while the upstream is away', async (t) => {
  let published = publishDocument(TABLES)
  const upstream = await startUpstream(
    t,
    (req, res) => {
      if (req.url === '/openapi.json') {
        if (req.headers['if-none-match'] === published.etag) {
          res.writeHead(304, { etag: published.etag })
          return res.end()
        }
        res.writeHead(200, { 'content-type': 'application/json', etag: published.etag })
        return res.end(published.text)
      }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"data":[]}')
    },
    null,
  )
  const sink = memoryLog()
  const gw = await startTestGateway(t, { upstreamUrl: upstream.url, config: { upstream: { documentRefreshMs: 100 } }, log: sink.log })
  const first = await send(gw.url, '/api/tables/management/snapshot-list', { method: 'POST', headers: { 'content-type': 'application/json' }, body: TABLE_REQUEST })
  t.equal(first.status, 404, 'not published yet')
  published = publishDocument([...TABLES, EXTRA])
  let doc = await documentOf(gw.url)
  while (!doc.paths['/tables/management/snapshot-list']) {
    await new Promise((r) => setTimeout(r, 50))
    doc = await documentOf(gw.url)
  }
  t.pass('the public document lists the table once the upstream publishes it')
  const now = await send(gw.url, '/api/tables/management/snapshot-list', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-token': 'reader-key' }, body: TABLE_REQUEST })
  t.equal(now.status, 200, 'and it is forwarded')

  // Away: every read fails; what was read last stays.
  upstream.server.closeAllConnections()
  await new Promise((r) => upstream.server.close(r))
  while (!sink.lines.some((l) => l.msg === 'could not read the OpenAPI document of an upstream')) await new Promise((r) => setTimeout(r, 50))
  t.ok(gw.gateway.documents.state('inventory'), 'the last good document is kept')
  t.ok((await documentOf(gw.url)).paths['/tables/management/snapshot-list'], 'and served')
  const gone = await send(gw.url, '/api/tables/inventory/nothing-here', { method: 'DELETE' })
  t.equal(gone.status, 404, 'an unknown table is still 404 from it')
})

t.test('an upstream never reached: its tables are 503 until its document is read; one that publishes none has every path forwarded', async (t) => {
  const free = createServer()
  await new Promise<void>((r) => free.listen(0, '127.0.0.1', r))
  const port = (free.address() as AddressInfo).port
  await new Promise((r) => free.close(r))
  const gw = await startTestGateway(t, { upstreamUrl: `http://127.0.0.1:${port}` })
  const r = await send(gw.url, '/api/tables/inventory/devices', { method: 'POST', headers: { 'content-type': 'application/json' }, body: TABLE_REQUEST })
  t.equal(r.status, 503)
  t.equal(r.headers['retry-after'], '1')
  t.match(r.json(), { code: 'API_SERVICE_UNAVAILABLE', message: /not read yet/ })
  const doc = await documentOf(gw.url)
  t.ok(doc.paths['/tables/{path}']?.post, 'the document describes the route from the route table alone')
  t.ok(doc.paths['/users']?.get, 'and the gateway\'s own operations')

  const plain = await startUpstream(t, undefined, null)
  const other = await startTestGateway(t, { upstreamUrl: plain.url })
  const forwarded = await send(other.url, '/api/tables/whatever/it-is', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-token': 'reader-key' }, body: TABLE_REQUEST })
  t.equal(forwarded.status, 200, 'forwarded: the upstream answers for its own paths')
})

t.test('a legacy backend that publishes a document (documentPath) is described and its `*` paths checked the same way', async (t) => {
  const published = {
    openapi: '3.0.3',
    info: { title: 'shop', version: '1' },
    paths: {
      '/widgets/blue': { get: { summary: 'The blue widget.', responses: { 200: { description: 'A widget.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Widget' } } } } } } },
      '/widgets/{id}/parts': { get: { summary: 'Parts.', responses: { 200: { description: 'Parts.' } } } },
    },
    components: { schemas: { Widget: { type: 'object', properties: { colour: { type: 'string' } } } } },
  }
  const shop = await startUpstream(
    t,
    (req, res) => {
      if (req.url === '/doc.json') {
        res.writeHead(200, { 'content-type': 'application/json' })
        return res.end(JSON.stringify(published))
      }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"colour":"blue"}')
    },
    null,
  )
  const dir = mkdtempSync(join(tmpdir(), 'netinv-documents-routes-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'shop.json'), JSON.stringify([{ path: 'widgets/*', upstream: 'shop', methods: { GET: 'read' }, description: 'Widgets.' }]))
  const gw = await startTestGateway(t, { upstreamUrl: null, config: { upstreams: { shop: { url: shop.url, documentPath: '/doc.json' } } }, routesDir: dir })
  const doc = await documentOf(gw.url)
  const blue = doc.paths['/widgets/blue']?.get
  t.match(blue, { summary: 'The blue widget.', 'x-upstream': 'shop', responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Widget' } } } } } }, 'its operation, with its answer')
  t.ok(doc.components.schemas.Widget, 'and its schemas')
  t.notOk(doc.paths['/widgets/{path}'], 'the path it lists instead of the route\'s pattern')
  t.equal((await send(gw.url, '/api/widgets/blue', { headers: { 'x-api-token': 'reader-key' } })).status, 200, 'a path it lists is forwarded')
  t.equal((await send(gw.url, '/api/widgets/red')).status, 404, 'one it does not is 404 before credentials')
  t.equal((await send(gw.url, '/api/widgets/red/parts', { headers: { 'x-api-token': 'reader-key' } })).status, 200, 'a path of a templated one it lists is forwarded')
  t.equal((await send(gw.url, '/api/widgets/red/wheels')).status, 404)
  t.ok(doc.paths['/widgets/{id}/parts']?.get, 'and described with its parameter')
})
