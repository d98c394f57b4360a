import t from 'tap'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compileConfig } from '../../../src/shared/config/index.js'
import { ENDPOINTS } from '../../../src/shared/manifest.js'
import { parseRouteFile, readRouteFiles, type RouteFile } from '../../../src/gateway/routes/files.js'
import { compileRouteTable } from '../../../src/gateway/routes/table.js'
import { resolveUpstreams } from '../../../src/gateway/upstreams/settings.js'
import { tableWildcards } from '../../../src/inventory/paths.js'

const LEGACY = { legacy: { url: 'http://legacy.example:8080', versioning: 'path', release: '6.0', identity: { mode: 'passthrough' } } }

function table(files: RouteFile[], upstreams: Record<string, unknown> = LEGACY, options: { inventory?: boolean; canMint?: boolean } = {}) {
  const config = compileConfig({ upstreams })
  return compileRouteTable({
    builtIn: ENDPOINTS,
    files,
    upstreams: resolveUpstreams(config, { inventoryUrl: options.inventory === false ? undefined : 'http://inventory:8081', internalSecret: 's'.repeat(32), readFiles: false }),
    canMintTokens: options.canMint ?? true,
  })
}

const file = (entries: unknown[], source = 'routes/legacy.json'): RouteFile => parseRouteFile(source, JSON.stringify(entries), 'json')
const entry = (path: string, more: Record<string, unknown> = {}) => ({ path, methods: { GET: 'read' }, upstream: 'legacy', description: path, ...more })

function errorOf(fn: () => unknown): string {
  try {
    fn()
  } catch (err) {
    return (err as Error).message
  }
  return 'no error'
}

t.test('the built-in table compiles through the route files’ checks, bound to the gateway or the inventory', async (t) => {
  const built = table([])
  t.equal(built.routes.length, ENDPOINTS.length)
  t.equal(built.match('snapshots/upload')?.endpoint.upstream, 'inventory')
  t.equal(built.match('snapshots/upload')?.endpoint.upload, true)
  t.equal(built.match('auth/login')?.endpoint.target, null, 'answered by the gateway itself')
  t.same(built.notes, ['upstream legacy serves no route (add CONFIG_DIR/routes/legacy.json)'])
  const alone = table([], LEGACY, { inventory: false })
  t.equal(alone.match('snapshots'), null, 'no inventory: its endpoints are not served')
  t.ok(alone.match('auth/login'), 'the gateway’s own are')
  t.match(alone.notes[0], /no inventory upstream/)
})

t.test('what each route answers in (406 otherwise): JSON for the built-in table unless it says, a route file entry only when it says', async (t) => {
  const built = table([file([entry('devices', { produces: ['Application/PDF'] }), entry('things')])])
  t.same(built.match('snapshots')?.endpoint.answersIn, ['application/json'])
  t.same(built.match('auth/login')?.endpoint.answersIn, ['application/json'])
  t.same(built.match('tables/inventory/devices')?.endpoint.answersIn, ['application/json', 'text/csv'])
  t.same(built.match('snapshots/s1/download')?.endpoint.answersIn, ['application/x-ndjson'])
  t.same(built.match('devices')?.endpoint.answersIn, ['application/pdf'])
  t.equal(built.match('things')?.endpoint.answersIn, null, 'not said: the upstream decides')
})

t.test('wildcards: a path under `*` the table is told does not exist matches no route', async (t) => {
  const config = compileConfig({})
  const known = table([])
  const told = compileRouteTable({
    builtIn: ENDPOINTS,
    files: [],
    upstreams: resolveUpstreams(config, { inventoryUrl: 'http://inventory:8081', internalSecret: 's'.repeat(32), readFiles: false }),
    canMintTokens: true,
    wildcards: tableWildcards(),
  })
  t.equal(known.match('tables/no/such/table')?.endpoint.path, 'tables/*', 'not told: every path under * is the endpoint\'s')
  t.equal(told.match('tables/no/such/table'), null)
  t.equal(told.match('tables/no/such/description'), null, 'neither the description of no table nor a table of that name')
  t.equal(told.match('tables/inventory/devices')?.endpoint.path, 'tables/*')
  t.equal(told.match('tables/addressing/managedDevs')?.endpoint.path, 'tables/*', 'v4 camelCase names are tables')
  t.equal(told.match('tables/inventory/devices/description')?.endpoint.path, 'tables/*/description')
})

t.test('route file entries: the most specific pattern wins, whatever the file order', async (t) => {
  const built = table([file([entry('*', { methods: { GET: 'read', POST: 'write' } }), entry('tables/special'), entry('devices/:id'), entry('devices')])])
  t.equal(built.match('tables/special')?.endpoint.upstream, 'legacy', 'carved out of the built-in tables/*')
  t.equal(built.match('tables/inventory/devices')?.endpoint.upstream, 'inventory')
  t.equal(built.match('tables/special/description')?.endpoint.path, 'tables/*/description')
  t.same(built.match('devices/42')?.params, { id: '42' })
  t.equal(built.match('anything/else/at/all')?.endpoint.path, '*', 'the catch-all takes what nothing else does')
  t.equal(built.match('snapshots/s1/lock')?.endpoint.upstream, 'inventory', 'not what a more specific entry serves')
})

t.test('path versioning: the newest release a version used, the upstream’s own release, none → not served', async (t) => {
  const built = table([
    file([
      entry('devices', { versions: [{ version: 1, summary: 'a' }, { version: 2, summary: 'b' }], defaultVersion: 2, releases: [['5.0', 1], ['5.2', 1], ['6.0', 2]] }),
      entry('sites'),
      entry('racks', { versions: [{ version: 1, summary: 'a' }, { version: 2, summary: 'b' }], releases: [['6.0', 1]] }),
    ]),
  ])
  t.same([...built.match('devices')!.endpoint.pathReleases!], [[1, '5.2'], [2, '6.0']])
  t.same([...built.match('sites')!.endpoint.pathReleases!], [[1, '6.0']], 'no releases: the upstream’s release')
  t.same([...built.match('racks')!.endpoint.pathReleases!], [[1, '6.0']], 'version 2: no release, so 410')
  const unserved = table([file([entry('sites', { versions: [{ version: 1, summary: 'a' }, { version: 2, summary: 'b' }], defaultVersion: 2, releases: [['6.0', 1]] })])])
  t.match(unserved.notes, [/routes\/legacy\.json \(sites\): no release of upstream legacy serves version 2, the default: requests for it get 410/], 'a default no release serves is noted')
  t.equal(built.match('snapshots')!.endpoint.pathReleases, null, 'only for path upstreams')
})

t.test('original versioning: a declared camelCase alias is what the upstream gets', async (t) => {
  const built = table([file([entry('tables/*', { legacyAliases: ['tables/addressing/managedDevs'], upstream: 'old' })])], { old: { url: 'http://old:80', versioning: 'original', identity: { mode: 'passthrough' } } }, { inventory: false })
  t.same([...built.match('tables/a/b')!.endpoint.aliases!], [['tables/addressing/managed-devs', 'tables/addressing/managedDevs']])
})

t.test('refused, naming the file, the entry and the key', async (t) => {
  const cases: Array<[string, () => unknown, RegExp]> = [
    ['not JSON', () => parseRouteFile('routes/x.json', '[{', 'json'), /^routes\/x\.json: is not valid JSON/],
    ['not a list', () => parseRouteFile('routes/x.json', '{}', 'json'), /routes\/x\.json: must be an array of endpoints/],
    ['unknown key', () => file([entry('devices', { scopes: ['read'] })]), /routes\/legacy\.json\[0\]\.scopes: unknown key/],
    ['bad pattern', () => file([entry('/devices')]), /\[0\]\.path: "\/devices": each segment/],
    ['two wildcards', () => file([entry('a/*/b/*')]), /at most one \*/],
    ['not a method', () => file([entry('devices', { methods: { FETCH: 'read' } })]), /\[0\] \(devices\)\.methods\.FETCH: not a method/],
    ['not an access rule', () => file([entry('devices', { methods: { GET: 'admin' } })]), /methods\.GET: must be one of public, authenticated, read, settings, team, write/],
    ['default not a version', () => file([entry('devices', { defaultVersion: 2 })]), /defaultVersion: must be one of the versions \(1\)/],
    ['bad sunset', () => file([entry('devices', { versions: [{ version: 1, summary: 'x', deprecated: { sunset: 'soon' } }] })]), /versions\[0\]\.deprecated\.sunset: must be an RFC 3339/],
    ['releases out of order', () => file([entry('devices', { releases: [['6.0', 1], ['5.0', 1]] })]), /releases\[1\]: releases must be in ascending order/],
    ['release of no version', () => file([entry('devices', { releases: [['6.0', 3]] })]), /version 3 is not one of the entry's versions/],
    ['produces not a list', () => file([entry('devices', { produces: 'application/json' })]), /\[0\] \(devices\)\.produces: must be a non-empty array of media types/],
    ['produces a range', () => file([entry('devices', { produces: ['application/*'] })]), /\.produces: must be a non-empty array of media types/],
    ['produces nothing', () => file([entry('devices', { produces: [] })]), /\.produces: must be a non-empty array of media types/],
    ['no upstream', () => file([{ path: 'devices', methods: { GET: 'read' }, description: '' }]), /\.upstream: must name an upstream/],
    ['a service', () => file([entry('devices', { service: 'inventory' })]), /\.service: unknown key \(route files name an "upstream"\)/],
    ['an upstream not configured', () => table([file([entry('devices', { upstream: 'nope' })])]), /\[0\] \(devices\)\.upstream: "nope" is not an upstream of api\.json \(configured: inventory, legacy\)/],
    ['the same shape as a built-in entry', () => table([file([entry('snapshots/:snapshotId')])]), /routes\/legacy\.json \(snapshots\/:snapshotId\): serves the same paths as "snapshots\/:id" of the built-in table \(inventory\)/],
    ['the same shape twice', () => table([file([entry('devices')]), file([entry('devices')], 'routes/other.json')]), /serves the same paths as "devices" of routes\//],
    ['path versioning without a release', () => table([file([entry('devices')])], { legacy: { ...LEGACY.legacy, release: '' } }), /upstream legacy takes path versions, but no release serves any version of it/],
    ['jwt without a signing key', () => table([file([entry('devices')])], { legacy: { ...LEGACY.legacy, identity: { mode: 'jwt' } } }, { canMint: false }), /upstreams\.legacy\.identity\.mode: "jwt" needs the gateway's signing key/],
  ]
  for (const [what, fn, message] of cases) t.match(errorOf(fn), message, what)
})

t.test('route files are read in name order from JSON and YAML, dot files skipped', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'netinv-routes-'))
  writeFileSync(join(dir, 'b.yaml'), '- path: sites\n  methods: { GET: read }\n  upstream: legacy\n  description: Sites.\n')
  writeFileSync(join(dir, 'a.json'), JSON.stringify([entry('devices')]))
  writeFileSync(join(dir, '.hidden.json'), 'not read')
  writeFileSync(join(dir, 'notes.txt'), 'not read')
  const files = readRouteFiles(dir)
  t.same(files.map((f) => f.source), ['routes/a.json', 'routes/b.yaml'])
  t.equal(table(files).match('sites')?.endpoint.source, 'routes/b.yaml')
  t.same(readRouteFiles(join(dir, 'missing')), [], 'no directory, no files')
})
