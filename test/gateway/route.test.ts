import t from 'tap'
import fc from 'fast-check'
import { parseApiPath, unsafePath } from '../../src/gateway/pipeline/route.js'
import { ApiError } from '../../src/shared/errors.js'
import { PRODUCT_VERSION, RELEASE_VERSION } from '../../src/shared/product.js'
import { tableWildcards } from '../../src/inventory/paths.js'
import { send, startTestGateway, startUpstream } from './helpers.js'

function codeOf(path: string): string | null {
  try {
    parseApiPath(path)
    return null
  } catch (err) {
    return err instanceof ApiError ? err.code : 'not an ApiError'
  }
}

t.test('three address generations', async (t) => {
  t.same(parseApiPath('/api/snapshots'), { generation: 'header', endpointPath: 'snapshots' })
  t.same(parseApiPath('/api/v1/snapshots/1/lock'), { generation: 'original', endpointPath: 'snapshots/1/lock' })
  t.same(parseApiPath('/api/v6.0/auth/token'), { generation: 'path', release: '6.0', endpointPath: 'auth/token' })
  t.same(parseApiPath('/api/v07.05/version'), { generation: 'path', release: '7.5', endpointPath: 'version' })
  t.same(parseApiPath('/api/v2/snapshots'), { generation: 'header', unknownVersion: 'v2', endpointPath: 'snapshots' }, 'a version-shaped segment of no generation')
  t.same(parseApiPath('/api/version'), { generation: 'header', endpointPath: 'version' })
  t.same(parseApiPath('/api/v2'), { generation: 'header', endpointPath: 'v2' }, 'a last segment is an endpoint name')
  t.same(parseApiPath('/api/v6.0/graphs/'), { generation: 'path', release: '6.0', endpointPath: 'graphs' }, "the diagram clients' trailing slash")
  t.same(parseApiPath('/api/snapshots/'), { generation: 'header', endpointPath: 'snapshots/' }, 'no other endpoint drops it')
})

t.test('path tricks are refused before matching', async (t) => {
  const tricks = [
    '/api/v1/../healthz',
    '/api/v1/./snapshots',
    '/api/v1/%2e%2e/readyz',
    '/api/v1/%2E%2E/metrics',
    '/api/v1%2f..%2fhealthz',
    '/api/snapshots%2F1',
    '/api//snapshots',
    '/api/v1//snapshots',
    '/api/v1\\..\\snapshots',
    '/api/v1/snapshots%5c..',
    '/api/v1/snapshots%00',
    '/api/v1/snapshots/%zz',
    '/api/tables/../../../healthz',
    '/api/v6.0/..',
  ]
  for (const p of tricks) t.equal(codeOf(p), 'API_MALFORMED_REQUEST', p)
})

t.test('outside /api/ and empty endpoint paths are 404', async (t) => {
  for (const p of ['/', '/api', '/metrics', '/apix/snapshots', '/api/', '/api/v1/', '/api/v6.0/']) t.equal(codeOf(p), 'API_NOT_FOUND', p)
})

t.test('through the gateway: escapes never reach the upstream', async (t) => {
  const seen: string[] = []
  const up = await startUpstream(t, (req, res) => {
    seen.push(req.url ?? '')
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{}')
  })
  const gw = await startTestGateway(t, { upstreamUrl: up.url })
  const headers = { 'x-api-token': 'reader-key' }
  for (const p of ['/api/v1/../../readyz', '/api/%2e%2e/readyz', '/api/v1/snapshots/..%2f..%2freadyz', '//api/snapshots', '/api/v1/tables/..\\..\\x']) {
    const r = await send(gw.url, p, { headers })
    t.equal(r.status, 400, p)
    t.same(r.json(), { code: 'API_MALFORMED_REQUEST', message: 'Malformed request path' }, p)
  }
  const ok = await send(gw.url, '/api/v1/snapshots?x=1', { headers })
  t.equal(ok.status, 200)
  t.same(seen, ['/api/snapshots?x=1'], 'only the legitimate request reached the upstream, without its generation prefix')
})

t.test('unknown endpoint 404, wrong method 405 with Allow', async (t) => {
  const gw = await startTestGateway(t)
  const nf = await send(gw.url, '/api/nope')
  t.equal(nf.status, 404)
  t.same(nf.json(), { code: 'API_NOT_FOUND', message: 'Requested Resource Not Found' })
  t.equal(nf.headers['x-product-version'], 'v7.6')
  const na = await send(gw.url, '/api/snapshots', { method: 'PUT' })
  t.equal(na.status, 405)
  t.equal(na.headers.allow, 'GET, POST')
  t.equal((na.json() as { code: string }).code, 'API_METHOD_NOT_ALLOWED')
})

t.test('a version-shaped prefix of no generation is a version error: 410, not 404', async (t) => {
  const gw = await startTestGateway(t)
  for (const prefix of ['v2', 'v6', 'v0', 'v6.0.1', 'v10.2.3']) {
    const r = await send(gw.url, `/api/${prefix}/snapshots`, { headers: { 'x-api-token': 'reader-key' } })
    t.equal(r.status, 410, prefix)
    t.same(r.json(), { message: `/api/${prefix}/ is not an API version: use /api/<endpoint> with the X-API-Version header (or the original /api/v1/)`, release_version: RELEASE_VERSION, api_version: '1' })
    t.equal(r.headers['x-api-versions-supported'], '1')
  }
  const unknown = await send(gw.url, '/api/v2/nothing-here')
  t.equal(unknown.status, 410)
  t.equal((unknown.json() as { api_version: string }).api_version, '', 'no endpoint, no latest version')
  t.equal((await send(gw.url, '/api/v1/nothing-here')).status, 404, 'under a real generation, an unknown endpoint stays 404')
})

t.test('authorization by the manifest: 401 without credentials, 403 without the scope', async (t) => {
  const gw = await startTestGateway(t)
  const anon = await send(gw.url, '/api/snapshots')
  t.equal(anon.status, 401)
  t.same(anon.json(), { code: 'API_UNAUTHORIZED', message: 'Authentication required' })
  const bad = await send(gw.url, '/api/snapshots', { headers: { 'x-api-token': 'nope' } })
  t.equal((bad.json() as { code: string }).code, 'API_INVALID_API_TOKEN')
  const reader = await send(gw.url, '/api/snapshots', { method: 'POST', headers: { 'x-api-token': 'reader-key' } })
  t.equal(reader.status, 403)
  t.equal((reader.json() as { code: string }).code, 'API_INSUFFICIENT_RIGHTS')
  const writer = await send(gw.url, '/api/snapshots', { method: 'POST', headers: { 'x-api-token': 'writer-key', 'content-type': 'application/json' }, body: '{}' })
  t.equal(writer.status, 200)
})

t.test('gateway-owned public endpoints: version and os/version', async (t) => {
  const gw = await startTestGateway(t, { config: { versioning: { apiVersion: 'v6.0', generations: { path: { enforce: false } } } } })
  const v = await send(gw.url, '/api/version', { headers: { 'x-api-token': 'stale-and-invalid' } })
  t.equal(v.status, 200)
  t.same(v.json(), { apiVersion: 'v6.0', releaseVersion: `6.0.0+netinv.${RELEASE_VERSION}` }, 'the release follows the advertised apiVersion')
  const os = await send(gw.url, '/api/v1/os/version')
  t.same(os.json(), { version: `6.0.0+netinv.${RELEASE_VERSION}` }, 'v4-era scripts are told the release GET version reports')
  t.same((await send(gw.url, '/api/v6.0/os/version')).json(), { version: `6.0.0+netinv.${RELEASE_VERSION}` }, 'and so is the path generation')
  t.same((await send(gw.url, '/api/os/version')).json(), { version: RELEASE_VERSION }, 'the header generation speaks for the product, as X-Product-Version does')
  const own = await startTestGateway(t)
  t.same((await send(own.url, '/api/version')).json(), { apiVersion: PRODUCT_VERSION, releaseVersion: RELEASE_VERSION }, 'by default the product speaks for itself')
})

t.test('unsafePath refuses exactly what the reference patterns refuse', async (t) => {
  // The rules as regular expressions (what unsafePath does in one pass).
  const reference = (p: string) => /%(2e|2f|5c|00)|\\|\/\//i.test(p) || /%(?![0-9a-f]{2})/i.test(p) || [...p].some((ch) => ch.charCodeAt(0) <= 0x20 || ch.charCodeAt(0) >= 0x7f)
  const chars = fc.constantFrom('/', '%', '.', '\\', 'a', 'F', '2', 'e', '5', 'c', '0', ' ', '\u0000', 'é', '\u007f', 'z', '9')
  fc.assert(
    fc.property(fc.array(chars, { maxLength: 12 }), (cs) => {
      const p = `/api/${cs.join('')}`
      return unsafePath(p) === reference(p)
    }),
    { numRuns: 20000 },
  )
  for (const p of ['/api/a%2Fb', '/api/a%5Cb', '/api/%2e', '/api/x%0', '/api/x%', '/api/ok%41']) t.equal(unsafePath(p), reference(p), p)
})

t.test('an unknown table is 404 for every method, a known one 405 for a method it lacks', async (t) => {
  let forwarded = 0
  const upstream = await startUpstream(t, (_req, res) => {
    forwarded++
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{}')
  })
  const gw = await startTestGateway(t, { upstreamUrl: upstream.url, now: () => Date.parse('2026-01-15T00:00:00Z'), config: { rateLimit: { perSecond: 10000 } }, wildcards: tableWildcards() })
  const headers = { 'x-api-token': 'reader-key', 'content-type': 'application/json' }
  for (const prefix of ['/api/', '/api/v1/', '/api/v7.6/', '/api/v7.x/']) {
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      for (const path of ['tables/no/such/table', 'tables/nope', 'tables/no/such/description', 'tables/inventory/devices/nope']) {
        const r = await send(gw.url, `${prefix}${path}`, { method, headers, ...(method === 'GET' || method === 'HEAD' ? {} : { body: '{}' }) })
        t.equal(r.status, 404, `${method} ${prefix}${path}`)
        if (method !== 'HEAD') t.match(r.json(), { code: 'API_NOT_FOUND', message: 'Requested Resource Not Found' })
        t.equal(r.headers['x-product-version'], 'v7.6')
      }
    }
  }
  t.equal(forwarded, 0, 'none reached the inventory')
  const known = await send(gw.url, '/api/tables/inventory/devices', { headers })
  t.equal(known.status, 405, 'a table that exists: the method is what is wrong')
  t.equal(known.headers.allow, 'POST')
  t.equal((await send(gw.url, '/api/tables/inventory/devices/description', { method: 'DELETE', headers })).status, 405)
  t.equal((await send(gw.url, '/api/v1/tables/addressing/managedDevs', { method: 'PUT', headers, body: '{}' })).status, 405, 'a v4 camelCase name is a table too')
  t.equal((await send(gw.url, '/api/tables/inventory/devices', { method: 'POST', headers, body: '{}' })).status, 200)
  t.equal((await send(gw.url, '/api/tables/inventory/devices/description', { headers })).status, 200)
  t.equal(forwarded, 2, 'known tables are forwarded')
})

t.test('a table path that names no table: the 404 says which of the tables the upstream publishes it may have meant', async (t) => {
  const gw = await startTestGateway(t, { upstreamUrl: (await startUpstream(t)).url, config: { rateLimit: { perSecond: 10000 } } })
  const headers = { 'x-api-token': 'reader-key', 'content-type': 'application/json' }
  const r = await send(gw.url, '/api/tables/inventory/device', { method: 'POST', headers, body: '{}' })
  t.equal(r.status, 404)
  t.same(r.json(), { code: 'API_NOT_FOUND', message: 'Requested Resource Not Found', detail: 'no table "inventory/device" (did you mean inventory/devices, vlan/device or vlan/device-summary?); GET /api/tables lists them' })
  const described = await send(gw.url, '/api/v1/tables/inventory/device/description', { headers })
  t.match(described.json(), { code: 'API_NOT_FOUND', detail: /^no table "inventory\/device" \(did you mean inventory\/devices/ })
  t.same(await send(gw.url, '/api/tables/zzzz', { method: 'POST', headers, body: '{}' }).then((x) => x.json()), {
    code: 'API_NOT_FOUND',
    message: 'Requested Resource Not Found',
    detail: 'no table "zzzz"; GET /api/tables lists them',
  })
  t.same(await send(gw.url, '/api/nothing-here', { headers }).then((x) => x.json()), { code: 'API_NOT_FOUND', message: 'Requested Resource Not Found' }, 'other paths: no detail')
})
