/**
 * End to end through the real entry point: `netinv serve` as a child process, driven over HTTP
 * the way a user and their scripts drive it. The whole story on the embedded default (PGlite, no
 * Redis), and its key steps on PostgreSQL with Redis (the production path).
 */
import t, { type Test } from 'tap'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { createServer, type AddressInfo } from 'node:net'
import { freshPostgres, REDIS_URL } from '../helpers/db.js'
import { apiKey, bearer, call, waitForJob, type Reply } from './client.js'
import type { Page, Row } from './answers.js'
import { serve, stop, tempDirs } from './process.js'
import { applyLegacyRecipe } from './legacy-recipe.js'
import { spawnOwned } from '../helpers/owned.js'
import { CLI } from '../helpers/cli-entry.js'

const ADMIN_PASSWORD = 'e2e-admin-password-1'
/** The columns the 6.0.x SDK requests from tables/management/snapshots; its model requires all. */
const SDK_SNAPSHOT_COLUMNS = [
  'id', 'status', 'finishStatus', 'loadedSize', 'unloadedSize', 'name', 'note', 'sites', 'fromArchive', 'loading', 'locked', 'deviceAddedCount',
  'deviceRemovedCount', 'interfaceActiveCount', 'interfaceCount', 'interfaceEdgeCount', 'totalDevCount', 'isLastSnapshot', 'tsChange', 'tsEnd', 'tsStart', 'userCount',
]
const SNAPSHOT_FIELDS = ['id', 'name', 'note', 'state', 'status', 'finishStatus', 'locked', 'totalDevCount', 'licensedDevCount', 'tsStart', 'tsEnd', 'version', 'initialVersion', 'sites', 'errors']
const DEVICE_QUERY = {
  snapshot: '$last',
  columns: ['id', 'hostname', 'siteName', 'vendor', 'memoryUtilization'],
  filters: { or: [{ vendor: ['eq', 'cisco'] }, { vendor: ['eq', 'arista'] }], hostname: ['like', '0'] },
  sort: { column: 'hostname', order: 'asc' },
  pagination: { start: 0, limit: 5 },
}

/** What ops do for 5.x/6.x-era clients (docs/api-versions.md): apiVersion v5.0, a later sunset of the path generation. */
function setRateLimit(configDir: string, perSecond: number): void {
  const file = join(configDir, 'api.json')
  const config = JSON.parse(readFileSync(file, 'utf8')) as { rateLimit: Record<string, unknown> }
  config.rateLimit.perSecond = perSecond
  writeFileSync(file, JSON.stringify(config, null, 2), { mode: 0o644 })
}

async function login(t: Test, base: string): Promise<{ accessToken: string; refreshToken: string }> {
  const r = await call(base, 'POST', '/api/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })
  t.equal(r.status, 200, 'admin logs in with ADMIN_PASSWORD')
  return r.json()
}

async function createKey(t: Test, base: string, accessToken: string, scope: string[]): Promise<string> {
  const r = await call(base, 'POST', '/api/api-tokens', { headers: bearer(accessToken), body: { description: `e2e ${scope.join('+')}`, scope } })
  t.equal(r.status, 201, `API key with scope ${scope.join(',')} created`)
  const key = r.json<{ token: string; scope: string[] }>()
  t.same(key.scope, scope)
  t.type(key.token, 'string', 'the key is shown once, at creation')
  return key.token
}

/** Starts a lab discovery and waits for it; returns the snapshot id. */
async function discover(t: Test, base: string, headers: Record<string, string>, name: string): Promise<string> {
  const started = await call(base, 'POST', '/api/snapshots', { headers, body: { snapshotName: name, profile: 'lab' } })
  t.equal(started.status, 201, 'discovery started')
  const { success, id, jobId } = started.json<{ success: boolean; id: string; jobId: string }>()
  t.equal(success, true)
  const { job, seen } = await waitForJob(base, jobId, headers)
  t.match(job, { status: 'done', isDone: true, snapshot: id }, 'the discovery job finished')
  // The POST answered at once and the server kept answering while the discovery ran.
  t.ok(seen.length > 0, `polls saw the job in progress (${seen.join(', ')})`)
  return id
}

function expectError(t: Test, r: Reply, status: number, code: string, what: string): void {
  t.equal(r.status, status, what)
  t.match(r.json(), { code, message: String }, `${what}: ${code}`)
}

async function queryDevices(t: Test, base: string, headers: Record<string, string>): Promise<Page> {
  const r = await call(base, 'POST', '/api/tables/inventory/devices', { headers, body: DEVICE_QUERY })
  t.equal(r.status, 200, 'devices table answers')
  return r.json<Page>()
}

function checkDevicePage(t: Test, page: Page): void {
  t.same(page._meta.limit, 5)
  t.equal(page._meta.start, 0)
  t.equal(page._meta.size, page.data.length)
  t.equal(page.data.length, 5, 'a full first page')
  t.ok(page._meta.count >= page._meta.size, '_meta.count is the total of matching rows')
  for (const row of page.data) {
    t.same(Object.keys(row).sort(), [...DEVICE_QUERY.columns].sort(), 'rows hold exactly the requested columns')
    t.ok(['cisco', 'arista'].includes(row.vendor as string) && String(row.hostname).includes('0'), 'rows match the filters')
  }
  const names = page.data.map((r) => String(r.hostname))
  t.same(names, [...names].sort(), 'sorted by hostname')
}

t.test('the whole user story on the embedded default', async (t) => {
  const { dataDir, configDir } = tempDirs(t)
  const env = { DATA_DIR: dataDir, CONFIG_DIR: configDir, ADMIN_PASSWORD }
  let app = await serve(t, env)
  const base = app.url

  const version = await call(base, 'GET', '/api/version')
  t.equal(version.status, 200, 'GET /api/version needs no credentials')
  t.match(version.json(), { apiVersion: 'v7.6', releaseVersion: /^7\.6\./ })
  t.equal(version.headers.get('x-product-version'), 'v7.6')
  expectError(t, await call(base, 'GET', '/api/snapshots'), 401, 'API_UNAUTHORIZED', 'no credentials')
  expectError(t, await call(base, 'POST', '/api/auth/login', { body: { username: 'admin', password: 'wrong' } }), 401, 'API_INVALID_CREDENTIALS', 'wrong password')

  const session = await login(t, base)
  const me = await call(base, 'GET', '/api/users/me', { headers: bearer(session.accessToken) })
  t.match(me.json(), { username: 'admin', scope: ['read', 'settings', 'team', 'write'] }, 'Bearer works')

  const readKey = await createKey(t, base, session.accessToken, ['read'])
  const reader = apiKey(readKey)
  const empty = await call(base, 'GET', '/api/snapshots', { headers: reader })
  t.same(empty.json(), [], 'no snapshot yet')
  expectError(t, await call(base, 'POST', '/api/snapshots', { headers: reader, body: { profile: 'lab' } }), 403, 'API_INSUFFICIENT_RIGHTS', 'a read-only key cannot start a discovery')

  const snapshotId = await discover(t, base, bearer(session.accessToken), 'e2e first')

  const list = await call(base, 'GET', '/api/snapshots', { headers: reader })
  t.equal(list.status, 200)
  const snapshots = list.json<Row[]>()
  t.ok(Array.isArray(snapshots), 'GET /api/snapshots is a bare array')
  t.equal(snapshots.length, 1)
  const snap = snapshots[0]!
  for (const field of SNAPSHOT_FIELDS) t.ok(field in snap, `snapshot has ${field}`)
  t.match(snap, { id: snapshotId, name: 'e2e first', state: 'loaded', status: 'done', finishStatus: 'done', locked: false })
  t.ok((snap.totalDevCount as number) > 50, 'a lab network has about 100 devices')

  // Table query: columns, filters (and/or), sort, pagination, _meta; next page does not overlap.
  const page = await queryDevices(t, base, reader)
  checkDevicePage(t, page)
  const next = await call(base, 'POST', '/api/tables/inventory/devices', { headers: reader, body: { ...DEVICE_QUERY, pagination: { start: 5, limit: 5 } } })
  const nextIds = next.json<Page>().data.map((r) => r.id)
  t.notOk(nextIds.some((id) => page.data.some((r) => r.id === id)), 'pages do not overlap')

  // The SDK's column discovery.
  const discovery = await call(base, 'POST', '/api/tables/inventory/devices', { headers: reader, body: { snapshot: '$last', columns: ['*'] } })
  t.equal(discovery.status, 422, 'columns ["*"] is 422')
  const message = discovery.json<{ errors: Array<{ message: string }> }>().errors[0]?.message ?? ''
  const listed = /^"columns\[0\]" must be one of \[(.*)\]$/.exec(message)?.[1]?.split(', ') ?? []
  t.ok(listed.includes('hostname') && listed.includes('memoryUtilization') && listed.includes('id'), 'the message lists the columns')

  // CSV: by format and by Accept; an unsatisfiable Accept is 406.
  const csvBody = { ...DEVICE_QUERY, columns: ['hostname', 'vendor'], format: { exportToFile: true, dataType: 'csv' } }
  const csv = await call(base, 'POST', '/api/tables/inventory/devices', { headers: reader, body: csvBody })
  t.equal(csv.status, 200)
  t.match(csv.headers.get('content-type'), /^text\/csv/)
  const lines = csv.text.trim().split(/\r?\n/)
  t.equal(lines[0], 'hostname,vendor', 'CSV header row')
  t.same(lines.slice(1), page.data.map((r) => `${String(r.hostname)},${String(r.vendor)}`), 'CSV rows are the JSON rows')
  const accepted = await call(base, 'POST', '/api/tables/inventory/devices', { headers: { ...reader, accept: 'text/csv' }, body: DEVICE_QUERY })
  t.match(accepted.headers.get('content-type'), /^text\/csv/, 'Accept: text/csv gives CSV')
  expectError(t, await call(base, 'POST', '/api/tables/inventory/devices', { headers: { ...reader, accept: 'image/png' }, body: DEVICE_QUERY }), 406, 'API_NOT_ACCEPTABLE', 'unsatisfiable Accept')

  // Colour reports: coloured columns, and the color filter in the database.
  const coloured = await call(base, 'POST', '/api/tables/inventory/devices', {
    headers: reader,
    body: { snapshot: '$last', columns: ['id', 'hostname', 'memoryUtilization'], reports: '/inventory/devices', filters: { memoryUtilization: ['color', 'gte', 0] }, pagination: { limit: 20 } },
  })
  t.equal(coloured.status, 200, 'table with reports')
  const colouredRows = coloured.json<Page>().data
  t.ok(colouredRows.length > 0)
  for (const row of colouredRows) {
    t.match(row.memoryUtilization, { data: Number, severity: Number }, 'a coloured column is {data, severity}')
    t.ok((row.memoryUtilization as { severity: number }).severity >= 0, 'the color filter holds')
    t.type(row.hostname, 'string', 'a column without a rule stays plain')
  }
  const rules = await call(base, 'GET', `/api/reports?snapshot=${snapshotId}`, { headers: reader })
  t.equal(rules.status, 200)
  t.ok(rules.json<Row[]>().length >= 12, 'built-in intent rules with results')

  // Original generation with an API key, as Nautobot-style integrations call it.
  const v1 = await call(base, 'GET', '/api/v1/snapshots', { headers: reader })
  t.equal(v1.status, 200, '/api/v1/ works with X-API-Token')
  t.equal(v1.json<Row[]>()[0]?.id, snapshotId)
  const v1Table = await call(base, 'POST', '/api/v1/tables/inventory/devices', { headers: reader, body: DEVICE_QUERY })
  t.same(v1Table.json<Page>().data, page.data, '/api/v1/ tables answer the same rows')
  t.match((await call(base, 'GET', '/api/v1/os/version')).json(), { version: /^7\.6\./ })

  // Path generation: past the published sunset by default.
  const gone = await call(base, 'GET', '/api/v6.0/snapshots', { headers: reader })
  t.equal(gone.status, 410, '/api/v6.0/ is gone after the default sunset')
  t.match(gone.json(), { message: String, release_version: String, api_version: String })
  const v99 = await call(base, 'GET', '/api/snapshots', { headers: { ...reader, 'x-api-version': '99' } })
  t.equal(v99.status, 410, 'X-API-Version: 99 is 410')
  t.same(Object.keys(v99.json()).sort(), ['api_version', 'message', 'release_version'], 'the spec\'s version-error body')

  // Refresh: header generation rotates; the original generation keeps the token.
  const rotated = await call(base, 'POST', '/api/auth/token', { body: { refreshToken: session.refreshToken } })
  t.equal(rotated.status, 200, 'refresh')
  const pair = rotated.json<{ accessToken: string; refreshToken: string }>()
  t.not(pair.refreshToken, session.refreshToken, 'the header generation rotates the refresh token')
  t.equal((await call(base, 'GET', '/api/users/me', { headers: bearer(pair.accessToken) })).status, 200, 'the new access token works')
  const kept = await call(base, 'POST', '/api/v1/auth/token', { body: { refreshToken: pair.refreshToken } })
  t.same(Object.keys(kept.json()), ['accessToken'], 'the original generation answers only an access token')
  const again = await call(base, 'POST', '/api/v1/auth/token', { body: { refreshToken: pair.refreshToken } })
  t.equal(again.status, 200, 'and keeps the same refresh token valid')
  expectError(t, await call(base, 'POST', '/api/auth/token', { body: { refreshToken: 'not-a-token' } }), 401, 'API_INVALID_REFRESH_TOKEN', 'unknown refresh token')

  // A locked snapshot cannot be deleted; a second one can.
  t.equal((await call(base, 'POST', `/api/snapshots/${snapshotId}/lock`, { headers: bearer(session.accessToken) })).status, 200, 'lock')
  expectError(t, await call(base, 'DELETE', `/api/snapshots/${snapshotId}`, { headers: bearer(session.accessToken) }), 409, 'API_SNAPSHOT_LOCKED', 'deleting a locked snapshot')
  t.equal((await call(base, 'POST', `/api/snapshots/${snapshotId}/unlock`, { headers: bearer(session.accessToken) })).status, 200, 'unlock')

  // Bad inputs get clear errors, never a 500.
  const table = '/api/tables/inventory/devices'
  expectError(t, await call(base, 'POST', table, { headers: { ...reader, 'content-type': 'application/json' }, body: '{"snapshot":' }), 400, 'API_MALFORMED_REQUEST', 'malformed JSON')
  expectError(t, await call(base, 'POST', table, { headers: { ...reader, 'content-type': 'text/plain' }, body: '{}' }), 415, 'API_UNSUPPORTED_MEDIA_TYPE', 'non-JSON content type')
  expectError(t, await call(base, 'GET', '/api/no/such/endpoint', { headers: reader }), 404, 'API_NOT_FOUND', 'unknown endpoint')
  const wrongMethod = await call(base, 'DELETE', '/api/snapshots', { headers: reader })
  expectError(t, wrongMethod, 405, 'API_METHOD_NOT_ALLOWED', 'wrong method')
  t.equal(wrongMethod.headers.get('allow'), 'GET, POST', '405 carries Allow')
  const huge = Buffer.alloc(2 * 1024 * 1024, 'a')
  expectError(t, await call(base, 'POST', table, { headers: { ...reader, 'content-type': 'application/json' }, body: huge }), 413, 'API_PAYLOAD_TOO_LARGE', 'huge body')
  expectError(t, await call(base, 'GET', '/api/snapshots/no-such-snapshot', { headers: reader }), 404, 'API_NOT_FOUND', 'unknown snapshot')

  // The embedded database belongs to the running server: an admin command on the same DATA_DIR
  // refuses instead of writing what the server would overwrite.
  const cli = spawnSync(process.execPath, [...CLI, 'user', 'create', 'alice', '--scopes', 'read'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, CONFIG_DIR: configDir, NETINV_PASSWORD: 'alice-password-1' },
    encoding: 'utf8',
  })
  t.equal(cli.status, 1, 'netinv user create refuses while serve holds the embedded database')
  t.match(cli.stderr, /in use by process \d+/)

  // Restart on the same DATA_DIR, with the path generation's sunset moved later by ops.
  t.equal(await stop(app), 0, 'SIGTERM exits 0')
  applyLegacyRecipe(configDir, { versioning: { generations: { path: { sunset: '2099-01-01T00:00:00Z' } } } })
  app = await serve(t, env)
  const after = app.url
  t.notMatch(app.stderr(), /Created user "admin"/, 'the admin is not created twice')
  const survived = await call(after, 'GET', '/api/snapshots', { headers: reader })
  t.equal(survived.status, 200, 'the API key survives a restart')
  t.match(survived.json<Row[]>(), [{ id: snapshotId, name: 'e2e first', status: 'done', state: 'loaded' }], 'the snapshot survives a restart')
  t.same((await queryDevices(t, after, reader)).data, page.data, 'its tables answer the same rows')
  t.equal((await call(after, 'GET', '/api/users/me', { headers: bearer(pair.accessToken) })).status, 200, 'access tokens issued before the restart still verify')
  t.equal((await call(after, 'POST', '/api/v1/auth/token', { body: { refreshToken: pair.refreshToken } })).status, 200, 'refresh tokens survive a restart')
  const legacy = await call(after, 'GET', '/api/v6.0/snapshots', { headers: reader })
  t.equal(legacy.status, 200, '/api/v6.0/ works again once the sunset is later')
  t.equal(legacy.headers.get('deprecation'), 'true')
  t.equal(legacy.headers.get('sunset'), '2099-01-01T00:00:00Z')
  t.equal(legacy.json<Row[]>()[0]?.id, snapshotId, 'same payload as before')

  // A 5.x/6.x-era SDK start-up: version → /api/v<min(own, apiVersion)>/ = /api/v5.0/, login,
  // users/me, the management table with every column the 6.0 SDK's snapshot model requires,
  // snapshots; its refresh keeps the same token (rotation starts with 6.1).
  const advertised = (await call(after, 'GET', '/api/version')).json<{ apiVersion: string; releaseVersion: string }>()
  t.match(advertised, { apiVersion: 'v5.0', releaseVersion: /^5\.0\./ }, 'the recipe advertises v5.0, and the release agrees')
  const sdk = await call(after, 'POST', '/api/v5.0/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })
  t.equal(sdk.status, 200, 'a 6.0 SDK logs in')
  const sdkSession = sdk.json<{ accessToken: string; refreshToken: string }>()
  t.ok((await call(after, 'GET', '/api/v5.0/users/me', { headers: bearer(sdkSession.accessToken) })).json<{ roleIds?: unknown }>().roleIds, 'users/me has roleIds')
  const managed = await call(after, 'POST', '/api/v5.0/tables/management/snapshots', {
    headers: bearer(sdkSession.accessToken),
    body: { columns: SDK_SNAPSHOT_COLUMNS, filters: { and: [{ status: ['eq', 'done'] }, { finishStatus: ['eq', 'done'] }] }, sort: { column: 'tsEnd', order: 'desc' }, pagination: { limit: 1000 } },
  })
  t.equal(managed.status, 200, managed.text.slice(0, 300))
  const model = managed.json<Page>().data.find((s) => s.id === snapshotId)!
  t.same(Object.keys(model).sort(), [...SDK_SNAPSHOT_COLUMNS].sort(), 'every column the SDK names, and only those')
  for (const k of ['loadedSize', 'unloadedSize', 'interfaceActiveCount', 'interfaceEdgeCount', 'userCount', 'interfaceCount', 'totalDevCount']) t.ok(Number.isSafeInteger(model[k]) && (model[k] as number) > 0, `${k} is a real count (${model[k]})`)
  t.ok((model.loadedSize as number) > (model.unloadedSize as number), 'indexes count when loaded')
  t.ok((model.interfaceActiveCount as number) < (model.interfaceCount as number), 'not every interface is up')
  t.match(model, { status: 'done', finishStatus: 'done', fromArchive: false, isLastSnapshot: true, sites: Array })
  t.equal((await call(after, 'GET', '/api/v5.0/snapshots', { headers: bearer(sdkSession.accessToken) })).status, 200)
  const sdkRefresh = await call(after, 'POST', '/api/v5.0/auth/token', { body: { refreshToken: sdkSession.refreshToken } })
  t.same(Object.keys(sdkRefresh.json()), ['accessToken'], 'a 6.0 refresh answers an access token only')
  t.equal((await call(after, 'POST', '/api/v5.0/auth/token', { body: { refreshToken: sdkSession.refreshToken } })).status, 200, 'and the first refresh token stays valid')

  const keys = await call(after, 'GET', '/api/api-tokens', { headers: bearer(pair.accessToken) })
  const used = keys.json<Array<{ description: string; usageCount: number; lastUsed: number | null }>>().find((k) => k.description === 'e2e read')
  t.ok(used && used.usageCount >= 10 && used.lastUsed !== null, `the read key's usage before the restart was kept (${used?.usageCount})`)
  t.equal(await stop(app), 0, 'SIGTERM exits 0')
})

t.test('key steps on PostgreSQL with Redis', async (t) => {
  const { url } = await freshPostgres(t, 1)
  const { dataDir, configDir } = tempDirs(t)
  // Other tests share this Redis and the 127.0.0.1 rate-limit key: a high limit keeps this one from
  // refusing their requests, and one below 1,000 a second keeps it from taking leases, whose
  // reserved places the others' gateways (at the default 100) would count as requests.
  setRateLimit(configDir, 999)
  const env = { DATA_DIR: dataDir, CONFIG_DIR: configDir, ADMIN_PASSWORD, DATABASE_URL: url, REDIS_URL }
  let app = await serve(t, env)
  const base = app.url

  t.equal((await call(base, 'GET', '/api/version')).status, 200)
  const session = await login(t, base)
  const reader = apiKey(await createKey(t, base, session.accessToken, ['read']))
  const writer = apiKey(await createKey(t, base, session.accessToken, ['read', 'write']))
  expectError(t, await call(base, 'POST', '/api/snapshots', { headers: reader, body: {} }), 403, 'API_INSUFFICIENT_RIGHTS', 'read-only key')
  const snapshotId = await discover(t, base, writer, 'e2e postgres')
  const list = await call(base, 'GET', '/api/snapshots', { headers: reader })
  t.match(list.json<Row[]>(), [{ id: snapshotId, state: 'loaded', status: 'done' }])
  const page = await queryDevices(t, base, reader)
  checkDevicePage(t, page)
  const csv = await call(base, 'POST', '/api/tables/inventory/devices', { headers: { ...reader, accept: 'text/csv' }, body: DEVICE_QUERY })
  t.equal(csv.text.trim().split(/\r?\n/).length, 6, 'CSV: a header and five rows')
  t.equal((await call(base, 'GET', '/api/v1/snapshots', { headers: reader })).status, 200)
  t.ok(list.headers.get('ratelimit-policy'), 'rate limited')
  const file = await call(base, 'GET', `/api/snapshots/${snapshotId}/download`, { headers: reader })
  t.equal(file.status, 200, 'download a snapshot file')
  const uploaded = await call(base, 'POST', '/api/snapshots/upload', { headers: { ...writer, 'content-type': 'application/x-ndjson' }, body: file.text })
  t.equal(uploaded.status, 201, 'upload it back')
  const copy = uploaded.json<{ id: string; jobId: string }>()
  t.match((await waitForJob(base, copy.jobId, writer)).job, { status: 'done' }, 'the import finished')
  const again = await call(base, 'GET', `/api/snapshots/${copy.id}/download`, { headers: reader })
  const body = (text: string) => text.slice(text.indexOf('\n'))
  t.ok(body(again.text) === body(file.text), 'the round trip is lossless (every row line identical)')
  t.match((await call(base, 'GET', '/readyz')).json(), { status: 'ready', checks: { database: true, upstream: true, redis: true } }, 'ready on PostgreSQL and Redis')

  t.equal(await stop(app), 0, 'SIGTERM exits 0')
  app = await serve(t, env)
  const kept = (await call(app.url, 'GET', '/api/snapshots', { headers: reader })).json<Row[]>()
  t.same(kept.map((x) => x.id).sort(), [snapshotId, copy.id].sort(), 'snapshots and key survive a restart')
  t.same((await queryDevices(t, app.url, reader)).data, page.data)
  t.equal(await stop(app), 0, 'SIGTERM exits 0')
})

t.test('a failed start exits 1 instead of hanging: the port is taken', async (t) => {
  const { dataDir, configDir } = tempDirs(t)
  const holder = createServer()
  await new Promise<void>((resolve) => holder.listen(0, '0.0.0.0', resolve))
  t.teardown(() => holder.close())
  const port = String((holder.address() as AddressInfo).port)
  const child = spawnOwned(process.execPath, [...CLI, 'serve'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', DATA_DIR: dataDir, CONFIG_DIR: configDir, ADMIN_PASSWORD, PORT: port, ADMIN_PORT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c))
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  t.equal(code, 1, 'exit code 1')
  t.match(stderr, new RegExp(`port ${port} on 0\\.0\\.0\\.0 is already in use.*set PORT to a free port`), 'the reason is printed, with the setting to change')
})
