import t from 'tap'
import fc from 'fast-check'
import { versionNumber } from '../../src/gateway/pipeline/version.js'
import { decodeInternal } from '../../src/shared/principal.js'
import { send, startTestGateway } from './helpers.js'

const BEFORE_PATH_SUNSET = Date.parse('2026-01-15T00:00:00Z')
const AFTER_PATH_SUNSET = Date.parse('2026-03-01T00:00:00Z')
const auth = { 'x-api-token': 'reader-key' }

t.test('header generation: default, chosen, unsupported and invalid versions', async (t) => {
  const gw = await startTestGateway(t)
  const def = await send(gw.url, '/api/snapshots', { headers: auth })
  t.equal(def.status, 200)
  t.equal(def.headers['x-api-versions-supported'], '1')
  t.equal(def.headers['x-api-version-used'], '1')
  t.equal(def.headers['x-product-version'], 'v7.6')
  t.equal(def.headers.deprecation, undefined)
  t.equal(decodeInternal((def.json() as { headers: Record<string, string> }).headers['x-netinv-internal'])?.apiVersion, 1, 'the inventory learns the version')

  const token = await send(gw.url, '/api/auth/token', { method: 'POST', headers: { 'x-api-version': '2' } })
  t.equal(token.headers['x-api-versions-supported'], '1,2')
  t.equal(token.headers['x-api-version-used'], '2')

  for (const bad of ['3', '0', 'two', '1.5', '-1', '']) {
    const r = await send(gw.url, '/api/snapshots', { headers: { ...auth, 'x-api-version': bad } })
    t.equal(r.status, 410, `X-API-Version: ${JSON.stringify(bad)}`)
    const body = r.json() as Record<string, string>
    t.same(Object.keys(body).sort(), ['api_version', 'message', 'release_version'])
    t.equal(body.release_version, '7.6.0')
    t.equal(body.api_version, '1')
    t.equal(r.headers['x-api-versions-supported'], '1', 'version headers on the 410')
    t.equal(r.headers['x-product-version'], 'v7.6')
    if (bad === '-1' || bad === 'two') t.equal(body.message, 'X-API-Version must be one version number, in digits (such as 1)')
  }
})

t.test('a deprecated endpoint version answers with Deprecation and its Sunset (config overrides, enforcement)', async (t) => {
  const gw = await startTestGateway(t, { now: () => BEFORE_PATH_SUNSET })
  const v1 = await send(gw.url, '/api/auth/token', { method: 'POST', headers: { 'x-api-version': '1' } })
  t.equal(v1.headers['x-api-version-used'], '1')
  t.equal(v1.headers.deprecation, 'true')
  t.equal(v1.headers.sunset, '2027-06-30T00:00:00Z')
  const v2 = await send(gw.url, '/api/auth/token', { method: 'POST' })
  t.equal(v2.headers.deprecation, undefined)

  const moved = await startTestGateway(t, {
    now: () => Date.parse('2026-12-01T00:00:00Z'),
    config: { versioning: { endpointSunsets: { 'auth/token@1': { sunset: '2026-11-01T00:00:00Z', enforce: true } } } },
  })
  const gone = await send(moved.url, '/api/auth/token', { method: 'POST', headers: { 'x-api-version': '1' } })
  t.equal(gone.status, 410)
  t.equal((gone.json() as { api_version: string }).api_version, '2')
})

t.test('path generation: Deprecation + configured Sunset, endpoint version of the release', async (t) => {
  const gw = await startTestGateway(t, { now: () => BEFORE_PATH_SUNSET })
  const r = await send(gw.url, '/api/v6.0/snapshots', { headers: auth })
  t.equal(r.status, 200)
  t.equal(r.headers.deprecation, 'true')
  t.equal(r.headers.sunset, '2026-02-01T00:00:00Z')
  const echoed = r.json() as { url: string; headers: Record<string, string> }
  t.equal(echoed.url, '/api/snapshots', 'forwarded without the generation prefix')
  t.equal(decodeInternal(echoed.headers['x-netinv-internal'])?.generation, 'path')
  const old = await send(gw.url, '/api/v6.0/auth/token', { method: 'POST' })
  t.equal(old.headers['x-api-version-used'], '1', 'releases before 6.1 used auth/token version 1')
  const newer = await send(gw.url, '/api/v6.1/auth/token', { method: 'POST' })
  t.equal(newer.headers['x-api-version-used'], '2')
  t.equal((await send(gw.url, '/api/v7.7/snapshots', { headers: auth })).status, 410, 'above the product release')
  t.equal((await send(gw.url, '/api/v3.9/snapshots', { headers: auth })).status, 410, 'below versioning.oldestRelease')
  t.equal((await send(gw.url, '/api/v7.6/snapshots', { headers: auth })).status, 200, 'the product release itself')
})

t.test('path generation at or after its sunset: 410 when enforced, working when ops switch enforcement off', async (t) => {
  const at = await startTestGateway(t, { now: () => Date.parse('2026-02-01T00:00:00Z') })
  const gone = await send(at.url, '/api/v6.0/snapshots', { headers: auth })
  t.equal(gone.status, 410)
  t.match(gone.json(), { release_version: '7.6.0', api_version: '1' })
  t.equal((await send(at.url, '/api/snapshots', { headers: auth })).status, 200, 'the header generation is unaffected')

  const relaxed = await startTestGateway(t, { now: () => AFTER_PATH_SUNSET, config: { versioning: { generations: { path: { enforce: false } } } } })
  const still = await send(relaxed.url, '/api/v6.0/snapshots', { headers: auth })
  t.equal(still.status, 200)
  t.equal(still.headers.deprecation, 'true')

  const moved = await startTestGateway(t, { now: () => AFTER_PATH_SUNSET, config: { versioning: { generations: { path: { sunset: '2027-01-01T00:00:00Z' } } } } })
  const r = await send(moved.url, '/api/v6.0/snapshots', { headers: auth })
  t.equal(r.status, 200)
  t.equal(r.headers.sunset, '2027-01-01T00:00:00Z')
})

t.test('original generation: version 1 under its own policy', async (t) => {
  const gw = await startTestGateway(t, { now: () => AFTER_PATH_SUNSET })
  const r = await send(gw.url, '/api/v1/auth/token', { method: 'POST', headers: { 'x-api-version': '2' } })
  t.equal(r.headers['x-api-version-used'], '1')
  const snap = await send(gw.url, '/api/v1/snapshots', { headers: auth })
  t.equal(snap.status, 200)
  t.equal(snap.headers.deprecation, undefined, 'not deprecated by default')
  const dep = await startTestGateway(t, {
    now: () => AFTER_PATH_SUNSET,
    config: { versioning: { generations: { original: { deprecated: true, sunset: '2028-01-01T00:00:00Z' } } } },
  })
  const d = await send(dep.url, '/api/v1/snapshots', { headers: auth })
  t.equal(d.headers.deprecation, 'true')
  t.equal(d.headers.sunset, '2028-01-01T00:00:00Z')
})

t.test('deprecated twice over: the earlier sunset is announced', async (t) => {
  const gw = await startTestGateway(t, {
    now: () => BEFORE_PATH_SUNSET,
    config: { versioning: { generations: { path: { sunset: '2028-01-01T00:00:00Z' } } } },
  })
  const r = await send(gw.url, '/api/v6.0/auth/token', { method: 'POST' })
  t.equal(r.headers['x-api-version-used'], '1')
  t.equal(r.headers.deprecation, 'true')
  t.equal(r.headers.sunset, '2027-06-30T00:00:00Z', 'auth/token@1 ends before the path generation does')
})

t.test('405 carries the endpoint’s supported versions too', async (t) => {
  const gw = await startTestGateway(t)
  const r = await send(gw.url, '/api/auth/token', { method: 'GET' })
  t.equal(r.status, 405)
  t.equal(r.headers['x-api-versions-supported'], '1,2')
  t.equal(r.headers['x-product-version'], 'v7.6')
})

t.test('versionNumber reads X-API-Version as the reference pattern does', async (t) => {
  const reference = (h: string) => (/^\s*\d{1,6}\s*$/.test(h) ? Number(h) : null)
  fc.assert(
    fc.property(fc.array(fc.constantFrom('0', '1', '2', '9', ' ', '\t', 'a', '-', '.', '+', 'e'), { maxLength: 9 }), (cs) => {
      const h = cs.join('')
      return versionNumber(h) === reference(h)
    }),
    { numRuns: 20000 },
  )
  t.equal(versionNumber(['1', '2']), null, 'a repeated header is not a version')
  t.equal(versionNumber('1234567'), null)
  t.equal(versionNumber(' 007 '), 7)
})

t.test('the three version headers on every answer: 400, 401, 403, 404, 405, 406, 410, 413, 429 included', async (t) => {
  let now = Date.parse('2026-01-15T00:00:00Z')
  const gw = await startTestGateway(t, { now: () => now, config: { rateLimit: { perSecond: 100 }, server: { bodyLimitBytes: 1024 } } })
  const writer = { 'x-api-token': 'writer-key' }
  const cases: Array<[string, number, string, { method?: string; headers?: Record<string, string>; body?: string }, string, string]> = [
    // what, status, path, request, X-API-Versions-Supported, X-API-Version-Used
    ['a refused path', 400, '/api/v1/../snapshots', {}, '', ''],
    ['no credentials', 401, '/api/snapshots', {}, '1', '1'],
    ['a bad credential', 401, '/api/snapshots', { headers: { 'x-api-token': 'nope' } }, '1', '1'],
    ['no scope', 403, '/api/snapshots', { method: 'POST', headers: auth }, '1', '1'],
    ['no endpoint', 404, '/api/nothing/here', { headers: auth }, '', ''],
    ['no endpoint, original generation', 404, '/api/v1/nothing', { headers: auth }, '', ''],
    ['no endpoint, path generation', 404, '/api/v7.6/nothing', { headers: auth }, '', ''],
    ['not under /api/', 404, '/apix/snapshots', {}, '', ''],
    ['a method the endpoint lacks', 405, '/api/auth/token', { method: 'PUT', headers: { 'x-api-version': '1' } }, '1,2', '1'],
    ['a method the endpoint lacks, default version', 405, '/api/auth/token', { method: 'PUT' }, '1,2', '2'],
    ['an unsatisfiable Accept', 406, '/api/snapshots', { headers: { ...auth, accept: 'application/xml' } }, '1', '1'],
    ['an unsupported version', 410, '/api/snapshots', { headers: { ...auth, 'x-api-version': '7' } }, '1', ''],
    ['a prefix of no generation', 410, '/api/v2/snapshots', { headers: auth }, '1', ''],
    ['a body over the limit', 413, '/api/snapshots', { method: 'POST', headers: { ...writer, 'content-type': 'application/json' }, body: 'x'.repeat(4096) }, '1', '1'],
  ]
  for (const [what, status, path, request, supported, used] of cases) {
    const r = await send(gw.url, path, request)
    t.equal(r.status, status, what)
    t.equal(r.headers['x-product-version'], 'v7.6', `${what}: X-Product-Version`)
    t.equal(r.headers['x-api-versions-supported'], supported, `${what}: X-API-Versions-Supported`)
    t.equal(r.headers['x-api-version-used'], used, `${what}: X-API-Version-Used`)
  }
  now += 1000
  let limited: Awaited<ReturnType<typeof send>> | undefined
  for (let i = 0; i < 101 && limited === undefined; i++) {
    const r = await send(gw.url, i % 2 ? '/api/snapshots' : '/api/nothing', { headers: auth })
    if (r.status === 429) limited = r
  }
  t.equal(limited?.status, 429, 'the limit is reached')
  t.equal(limited?.headers['x-product-version'], 'v7.6')
  t.equal(limited?.headers['x-api-versions-supported'], '', '429 of a request for no endpoint')
  t.equal(limited?.headers['x-api-version-used'], '')
  const known = await send(gw.url, '/api/snapshots', { headers: auth })
  t.equal(known.status, 429)
  t.equal(known.headers['x-api-versions-supported'], '1', '429 of a request for an endpoint')
  t.equal(known.headers['x-api-version-used'], '1')
})
