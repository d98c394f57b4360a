/**
 * 406 for an Accept an endpoint cannot satisfy (src/gateway/pipeline/accept.ts), through a real
 * gateway: its own endpoints and forwarded ones alike, every method, before any handler or
 * upstream runs, with the version headers; q-values and wildcards as RFC 9110 has them; a route
 * file's entry is checked only when it says what it produces.
 */
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { send, startTestGateway, startUpstream } from '../helpers.js'

const reader = { 'x-api-token': 'reader-key' }
const writer = { 'x-api-token': 'writer-key' }

t.test('an unsatisfiable Accept is 406 on gateway and inventory endpoints, before the upstream sees it', async (t) => {
  let forwarded = 0
  const upstream = await startUpstream(t, (_req, res) => {
    forwarded++
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{}')
  })
  // Before the path generation's sunset, so that /api/v7.6/ is served.
  const gw = await startTestGateway(t, { upstreamUrl: upstream.url, now: () => Date.parse('2026-01-15T00:00:00Z') })
  const cases: Array<[string, string, Record<string, string>]> = [
    ['GET', '/api/version', {}],
    ['POST', '/api/auth/login', {}],
    ['GET', '/api/snapshots', reader],
    ['POST', '/api/snapshots/x/clone', writer],
    ['POST', '/api/tables/inventory/devices', reader],
    ['GET', '/api/v1/snapshots', reader],
    ['GET', '/api/v7.6/snapshots', reader],
  ]
  for (const accept of ['application/xml', 'application/json;q=0', 'text/html, */*;q=0']) {
    for (const [method, path, headers] of cases) {
      const r = await send(gw.url, path, { method, headers: { ...headers, accept } })
      t.equal(r.status, 406, `${method} ${path} Accept: ${accept}`)
      t.match(r.json(), { code: 'API_NOT_ACCEPTABLE', message: /^The Accept header cannot be satisfied/ })
      t.match(r.headers['content-type'], /^application\/json/, 'the error body is JSON all the same')
      t.equal(r.headers['x-product-version'], 'v7.6')
      // clone has a version 2 (the specification's 201), its default under /api/
      const clone = path === '/api/snapshots/x/clone'
      t.equal(r.headers['x-api-versions-supported'], clone ? '1,2' : '1')
      t.equal(r.headers['x-api-version-used'], clone ? '2' : '1')
    }
  }
  t.equal(forwarded, 0, 'no 406 request reached the inventory')
})

t.test('acceptable: none, */*, application/*, the type itself, CSV for tables, ndjson for downloads', async (t) => {
  const gw = await startTestGateway(t)
  for (const accept of [undefined, '*/*', 'application/*', 'application/json', 'application/json;q=0.1', 'text/html, */*;q=0.8']) {
    const r = await send(gw.url, '/api/snapshots', { headers: { ...reader, ...(accept ? { accept } : {}) } })
    t.equal(r.status, 200, `Accept: ${accept ?? '(none)'}`)
    t.equal((await send(gw.url, '/api/version', { headers: accept ? { accept } : {} })).status, 200, `version, Accept: ${accept ?? '(none)'}`)
  }
  t.equal((await send(gw.url, '/api/tables/inventory/devices', { method: 'POST', headers: { ...reader, accept: 'text/csv' } })).status, 200, 'tables answer CSV')
  t.equal((await send(gw.url, '/api/tables/inventory/devices', { method: 'POST', headers: { ...reader, accept: 'application/json;q=0, text/csv' } })).status, 200)
  t.equal((await send(gw.url, '/api/tables/inventory/devices', { method: 'POST', headers: { ...reader, accept: 'text/csv;q=0, application/json;q=0' } })).status, 406)
  t.equal((await send(gw.url, '/api/snapshots', { headers: { ...reader, accept: 'text/csv' } })).status, 406, 'other endpoints do not')
  t.equal((await send(gw.url, '/api/snapshots/x/download', { headers: { ...reader, accept: 'application/x-ndjson' } })).status, 200)
  t.equal((await send(gw.url, '/api/snapshots/x/download', { headers: { ...reader, accept: 'text/csv' } })).status, 406)
})

t.test('the earlier answers win: 404, 405 and 410 over 406; 406 before authentication', async (t) => {
  const gw = await startTestGateway(t)
  const xml = { accept: 'application/xml' }
  t.equal((await send(gw.url, '/api/nope', { headers: xml })).status, 404)
  t.equal((await send(gw.url, '/api/snapshots', { method: 'PUT', headers: { ...reader, ...xml } })).status, 405)
  t.equal((await send(gw.url, '/api/snapshots', { headers: { ...reader, ...xml, 'x-api-version': '9' } })).status, 410)
  t.equal((await send(gw.url, '/api/snapshots', { headers: xml })).status, 406, 'no credential: still 406, nothing to verify')
})

t.test('route files: an entry that says what it produces is checked, one that does not is left to its upstream', async (t) => {
  const other = await startUpstream(t)
  const dir = mkdtempSync(join(tmpdir(), 'netinv-accept-routes-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(
    join(dir, 'legacy.json'),
    JSON.stringify([
      { path: 'reports/pdf/:id', upstream: 'legacy', methods: { GET: 'read' }, produces: ['application/pdf'], description: 'A report as PDF.' },
      { path: 'things', upstream: 'legacy', methods: { GET: 'read' }, description: 'Things.' },
    ]),
  )
  const gw = await startTestGateway(t, { config: { upstreams: { legacy: { url: other.url } } }, routesDir: dir })
  t.equal((await send(gw.url, '/api/reports/pdf/1', { headers: { ...reader, accept: 'application/pdf' } })).status, 200)
  t.equal((await send(gw.url, '/api/reports/pdf/1', { headers: { ...reader, accept: 'application/json' } })).status, 406)
  t.equal((await send(gw.url, '/api/things', { headers: { ...reader, accept: 'application/xml' } })).status, 200, 'not said: the upstream decides')
})
