import t from 'tap'
import { mkdirSync, mkdtempSync, writeFileSync, renameSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { watchConfig } from '../../src/gateway/config-watch.js'
import { memoryLog, send, startTestGateway, startUpstream } from './helpers.js'
import { RELEASE_VERSION } from '../../src/shared/product.js'

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (cond()) return
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}

function writeConfig(dir: string, value: unknown): void {
  // Written next to the target and renamed, as editors and ConfigMap updates do.
  const tmp = join(dir, '.api.json.tmp')
  writeFileSync(tmp, typeof value === 'string' ? value : JSON.stringify(value), { mode: 0o644 })
  renameSync(tmp, join(dir, 'api.json'))
}

t.test('api.json changes apply without a restart; a bad file keeps the running config', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'netinv-cfg-'))
  writeConfig(dir, { versioning: { apiVersion: 'v7.6' } })
  const { log, lines } = memoryLog()
  const gw = await startTestGateway(t)
  const watch = watchConfig({ configDir: dir, log, apply: (c) => gw.gateway.setConfig(c), debounceMs: 20 })
  t.teardown(() => watch.stop())

  writeConfig(dir, { versioning: { apiVersion: 'v6.0' } })
  await until(() => gw.gateway.config().versioning.apiVersion === 'v6.0', 'file change')
  t.same((await send(gw.url, '/api/version')).json(), { apiVersion: 'v6.0', releaseVersion: `6.0.0+netinv.${RELEASE_VERSION}` })

  writeConfig(dir, { rateLimit: { perSecond: 'lots' } })
  await until(() => lines.some((l) => l.msg === 'configuration reload failed; keeping the running configuration and route table'), 'error log')
  const failed = lines.find((l) => l.msg === 'configuration reload failed; keeping the running configuration and route table')!
  t.match(failed.error, /rateLimit\.perSecond/)
  t.equal(gw.gateway.config().versioning.apiVersion, 'v6.0', 'old config kept')

  writeConfig(dir, '{ not json')
  await until(() => lines.filter((l) => l.level === 50).length >= 2, 'second error')
  t.equal(gw.gateway.config().versioning.apiVersion, 'v6.0')
})

t.test('SIGHUP reloads', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'netinv-cfg-'))
  writeConfig(dir, {})
  const { log } = memoryLog()
  let applied = 0
  const watch = watchConfig({ configDir: dir, log, apply: () => applied++, debounceMs: 10_000 })
  t.teardown(() => watch.stop())
  process.emit('SIGHUP', 'SIGHUP')
  t.equal(applied, 1)
})

t.test('a sunset moved or its enforcement switched off in api.json: the path generation answers again, no restart', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'netinv-cfg-'))
  const path = (sunset: string, enforce: boolean) => ({ versioning: { generations: { path: { deprecated: true, sunset, enforce } } } })
  writeConfig(dir, path('2026-02-01T00:00:00Z', true))
  const { log } = memoryLog()
  // The clock just after the published sunset.
  const gw = await startTestGateway(t, { now: () => Date.parse('2026-03-01T00:00:00Z'), config: path('2026-02-01T00:00:00Z', true) })
  const watch = watchConfig({ configDir: dir, log, apply: (c) => gw.gateway.setConfig(c), debounceMs: 20 })
  t.teardown(() => watch.stop())
  const auth = { 'x-api-token': 'reader-key' }
  t.equal((await send(gw.url, '/api/v7.5/snapshots', { headers: auth })).status, 410, 'past the sunset')

  writeConfig(dir, path('2027-02-01T00:00:00Z', true))
  await until(() => gw.gateway.config().versioning.generations.path.sunset === '2027-02-01T00:00:00Z', 'the moved sunset')
  const moved = await send(gw.url, '/api/v7.5/snapshots', { headers: auth })
  t.equal(moved.status, 200, 'the sunset moved later')
  t.equal(moved.headers.deprecation, 'true')
  t.equal(moved.headers.sunset, '2027-02-01T00:00:00Z')

  writeConfig(dir, path('2026-02-01T00:00:00Z', false))
  await until(() => gw.gateway.config().versioning.generations.path.enforce === false, 'enforcement off')
  const announced = await send(gw.url, '/api/v7.5/snapshots', { headers: auth })
  t.equal(announced.status, 200, 'past the sunset, enforcement off')
  t.equal(announced.headers.sunset, '2026-02-01T00:00:00Z')

  writeConfig(dir, path('2026-02-01T00:00:00Z', true))
  await until(() => gw.gateway.config().versioning.generations.path.enforce === true, 'enforcement on')
  t.equal((await send(gw.url, '/api/v7.5/snapshots', { headers: auth })).status, 410, 'and back')
})

t.test('route files apply without a restart; a bad one keeps the running route table and says why', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'netinv-cfg-'))
  const legacy = await startUpstream(t, (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ url: req.url }))
  })
  const config = { upstreams: { legacy: { url: legacy.url, versioning: 'none', identity: { mode: 'passthrough' } } } }
  writeConfig(dir, config)
  mkdirSync(join(dir, 'routes'))
  const routes = (entries: unknown) => writeFileSync(join(dir, 'routes', 'legacy.json'), typeof entries === 'string' ? entries : JSON.stringify(entries))
  const entry = (path: string) => ({ path, methods: { GET: 'public' }, upstream: 'legacy', description: path })
  routes([entry('devices')])
  const { log, lines } = memoryLog()
  const gw = await startTestGateway(t, { config, routesDir: join(dir, 'routes') })
  const watch = watchConfig({ configDir: dir, log, apply: (c) => gw.gateway.setConfig(c), debounceMs: 20 })
  t.teardown(() => watch.stop())
  t.same((await send(gw.url, '/api/devices')).json(), { url: '/devices' })
  t.equal((await send(gw.url, '/api/sites')).status, 404)

  routes([entry('devices'), entry('sites')])
  await until(() => gw.gateway.routes().match('sites') !== null, 'the new route')
  t.same((await send(gw.url, '/api/sites')).json(), { url: '/sites' }, 'a route added to the file is served')

  routes([entry('devices'), entry('sites'), entry('snapshots/:name')])
  await until(() => lines.some((l) => l.msg === 'configuration reload failed; keeping the running configuration and route table'), 'error log')
  t.match(lines.find((l) => l.level === 50)?.error, /routes\/legacy\.json \(snapshots\/:name\): serves the same paths as "snapshots\/:id"/)
  t.equal((await send(gw.url, '/api/sites')).status, 200, 'the running table still serves')

  routes('[{')
  await until(() => lines.filter((l) => l.level === 50).length >= 2, 'second error')
  t.match(lines.filter((l) => l.level === 50)[1]?.error, /routes\/legacy\.json: is not valid JSON/)
  t.equal((await send(gw.url, '/api/devices')).status, 200)

  // api.json and the route files are one configuration: an api.json that drops the upstream the
  // routes name is refused as a whole.
  const reloads = lines.filter((l) => l.msg === 'configuration reloaded').length
  routes([entry('devices')])
  await until(() => lines.filter((l) => l.msg === 'configuration reloaded').length > reloads, 'a good file again')
  writeConfig(dir, {})
  await until(() => lines.filter((l) => l.level === 50).length >= 3, 'third error')
  t.match(lines.filter((l) => l.level === 50)[2]?.error, /routes\/legacy\.json\[0\] \(devices\)\.upstream: "legacy" is not an upstream of api\.json/)
  t.equal((await send(gw.url, '/api/devices')).status, 200, 'still served')
  t.equal(gw.gateway.config().upstreams.legacy?.url, legacy.url, 'with the configuration that goes with it')
})
