/**
 * A client of the 6.0.x Python SDK generation, replayed against `netinv serve` from recorded
 * request shapes: the requests as that SDK sends them (paths, bodies, headers), written from the
 * published SDK's documented behaviour (COMPAT.md); no client code. The server runs with the one
 * recipe for older clients of docs/api-versions.md (helm/netinv/examples/legacy-clients.yaml).
 *
 * The client authenticates with `X-API-Token`, sends httpx's User-Agent, and after the version
 * probe addresses `/api/v<min(own, apiVersion)>/` (the path generation).
 */
import t, { type Test } from 'tap'
import { call, waitForJob, type Reply } from './client.js'
import type { Page, Row } from './answers.js'
import { HTTPX_HEADERS, serveForReplay } from './legacy-client.js'
import { siteNames } from '../../src/inventory/simulator/index.js'

const ADMIN_PASSWORD = 'sdk-replay-admin-password-1'
/** The SDK's own version: it refuses a server whose apiVersion major is above 6. */
const SDK_VERSION = [6, 0]

/** The columns the SDK's snapshot model requests from tables/management/snapshots, and their types in the model. */
const SNAPSHOT_COLUMNS: Record<string, 'string' | 'int' | 'bool' | 'strings' | 'stringOrNull' | 'intOrNull'> = {
  id: 'string', status: 'string', finishStatus: 'string', loadedSize: 'int', unloadedSize: 'int', name: 'stringOrNull', note: 'stringOrNull',
  sites: 'strings', fromArchive: 'bool', loading: 'bool', locked: 'bool', deviceAddedCount: 'int', deviceRemovedCount: 'int',
  interfaceActiveCount: 'int', interfaceCount: 'int', interfaceEdgeCount: 'int', totalDevCount: 'int', isLastSnapshot: 'bool',
  tsChange: 'intOrNull', tsEnd: 'intOrNull', tsStart: 'int', userCount: 'int',
}
/** The columns the SDK's job poller requests from tables/jobs. */
const JOB_COLUMNS = ['id', 'downloadFile', 'finishedAt', 'isDone', 'name', 'scheduledAt', 'snapshot', 'startedAt', 'status', 'username']

function typeOk(kind: string, v: unknown): boolean {
  switch (kind) {
    case 'string':
      return typeof v === 'string'
    case 'stringOrNull':
      return v === null || typeof v === 'string'
    case 'int':
      return Number.isInteger(v)
    case 'intOrNull':
      return v === null || Number.isInteger(v)
    case 'bool':
      return typeof v === 'boolean'
    default:
      return Array.isArray(v) && v.every((s) => typeof s === 'string')
  }
}

/** The SDK's client: a base path, its headers, and the calls it makes. */
class SdkClient {
  constructor(
    private readonly url: string,
    readonly prefix: string,
    private readonly token: string,
  ) {}

  private send(method: string, path: string, body?: unknown): Promise<Reply> {
    return call(this.url, method, `${this.prefix}${path}`, { headers: { ...HTTPX_HEADERS, 'x-api-token': this.token }, ...(body !== undefined ? { body } : {}) })
  }
  get(path: string): Promise<Reply> {
    return this.send('GET', path)
  }
  post(path: string, body?: unknown): Promise<Reply> {
    return this.send('POST', path, body)
  }
  /** A POST whose answer is an image: its status, type and bytes. */
  async image(path: string, body: unknown): Promise<{ status: number; type: string | null; bytes: Buffer }> {
    const r = await fetch(`${this.url}${this.prefix}${path}`, { method: 'POST', headers: { ...HTTPX_HEADERS, 'x-api-token': this.token, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    return { status: r.status, type: r.headers.get('content-type'), bytes: Buffer.from(await r.arrayBuffer()) }
  }

  /** `_ipf_pager`: pages of 1000 from start 0 until a short page. */
  async pager(t: Test, table: string, payload: Row): Promise<Row[]> {
    const rows: Row[] = []
    for (let start = 0; ; start += 1000) {
      const r = await this.post(table, { ...payload, pagination: { limit: 1000, start } })
      if (r.status !== 200) t.fail(`${table} page at ${start}: ${r.status} ${r.text.slice(0, 300)}`)
      const page = r.json<Page>().data
      rows.push(...page)
      if (page.length < 1000) return rows
    }
  }

  /** `get_columns`: a bogus column, then the list parsed out of the 422's first message. */
  async columns(t: Test, table: string, snapshot: string): Promise<string[]> {
    const r = await this.post(table, { snapshot, columns: ['*'] })
    t.equal(r.status, 422, `${table}: columns ["*"] is 422`)
    const message = r.json<{ errors: Array<{ message: string }> }>().errors[0]!.message
    const listed = /".*".*\[(.*)]$/.exec(message)?.[1]
    t.ok(listed, `the message lists the columns: ${message.slice(0, 80)}`)
    return (listed ?? '').split(',').map((c) => c.trim())
  }

  /** `get_count`: one row of `id`, the total from `_meta.count`. */
  async count(table: string, snapshot: string | undefined, filters?: Row): Promise<number> {
    const r = await this.post(table, { columns: ['id'], pagination: { limit: 1, start: 0 }, ...(snapshot ? { snapshot } : {}), ...(filters ? { filters } : {}) })
    return r.json<Page>()._meta.count
  }

  /** `Jobs._return_job_when_done`: the newest job of that name for the snapshot since `started`, once done. */
  async jobWhenDone(t: Test, snapshot: string, name: string, started: number): Promise<Row | undefined> {
    for (let i = 0; i < 1200; i++) {
      const r = await this.post('tables/jobs', {
        columns: JOB_COLUMNS,
        pagination: { start: 0, limit: 1000 },
        filters: { snapshot: ['eq', snapshot], name: ['eq', name], startedAt: ['gte', started - 100] },
        sort: { order: 'desc', column: 'startedAt' },
      })
      t.equal(r.status, 200, `tables/jobs answers the ${name} poll`)
      const [job] = r.json<Page>().data
      if (job?.isDone === true) return job
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return undefined
  }

  /** `Snapshot._refresh_status`. */
  async refresh(snapshot: string): Promise<Row> {
    const r = await this.post('tables/management/snapshots', { columns: ['status', 'finishStatus', 'loading'], filters: { id: ['eq', snapshot] }, pagination: { start: 0, limit: 1000 } })
    return r.json<Page>().data[0]!
  }
}

/** `Snapshot.load` / `unload`: body style with the client's clock, then the job poll and a refresh. */
async function loadOrUnload(t: Test, sdk: SdkClient, snapshot: string, action: 'load' | 'unload'): Promise<Row> {
  const ts = Date.now()
  const r = await sdk.post(`snapshots/${action}`, [{ jobDetail: ts, id: snapshot }])
  t.ok(r.status >= 200 && r.status < 300, `POST snapshots/${action} succeeds (${r.status})`)
  const job = await sdk.jobWhenDone(t, snapshot, action === 'load' ? 'snapshotLoad' : 'snapshotUnload', ts)
  t.match(job, { status: 'done', isDone: true, snapshot }, `the ${action} job is found and done`)
  if (action === 'load') {
    // `load()` with its defaults: the settings' disabledPostDiscoveryActions, then the jobs of the others
    const settings = await sdk.get(`snapshots/${snapshot}/settings`)
    const disabled = settings.json<{ disabledPostDiscoveryActions: string[] }>().disabledPostDiscoveryActions
    t.ok(Array.isArray(disabled), 'the settings say which post-load actions are disabled')
    const waited = { graphCache: 'loadGraphCache', historicalData: 'saveHistoricalData', intentVerification: 'report' } as const
    for (const [action, name] of Object.entries(waited)) {
      if (disabled.includes(action)) continue
      t.match(await sdk.jobWhenDone(t, snapshot, name, ts), { status: 'done' }, `the post-load job ${name} is found and done`)
    }
  }
  return sdk.refresh(snapshot)
}

t.test('a 6.0.x SDK client, replayed', async (t) => {
  // Setting up (a current client, not the SDK): an API key for the SDK, and a discovered network
  // whose interfaces table is larger than 25,000 rows.
  const { base, admin, token } = await serveForReplay(t, ADMIN_PASSWORD, ['read', 'write', 'settings'])
  // 40 of the "medium" profile's 200 sites: about 28,000 interfaces
  const sites = siteNames('medium').slice(0, 40)
  const started = await call(base, 'POST', '/api/snapshots', { headers: admin, body: { snapshotName: 'sdk replay', profile: 'medium', sites } })
  t.equal(started.status, 201, started.text)
  const { id: snapshotId, jobId } = started.json<{ id: string; jobId: string }>()
  t.match((await waitForJob(base, jobId, admin, 6000)).job, { status: 'done' })

  // 1. The version probe, without credentials; the path generation it leads to.
  const version = await call(base, 'GET', '/api/version', { headers: HTTPX_HEADERS })
  t.equal(version.status, 200)
  const { apiVersion, releaseVersion } = version.json<{ apiVersion: string; releaseVersion: string }>()
  t.type(releaseVersion, 'string')
  const server = apiVersion.replace(/^v/, '').split('.').map(Number)
  t.ok(server[0]! <= SDK_VERSION[0]!, `the SDK accepts apiVersion ${apiVersion}`)
  const use = server[0]! < SDK_VERSION[0]! || (server[0] === SDK_VERSION[0] && server[1]! < SDK_VERSION[1]!) ? server : SDK_VERSION
  const sdk = new SdkClient(base, `/api/v${use[0]}.${use[1]}/`, token)
  t.equal(sdk.prefix, '/api/v5.0/', 'the recipe sends 6.0.x clients to /api/v5.0/')

  // 2. users/me
  const me = await sdk.get('users/me')
  t.equal(me.status, 200)
  t.match(me.json(), { username: 'admin', roleIds: Array, roleNames: Array })

  // 3. tables/management/snapshots with every column of the snapshot model; loaded ones only
  const snapshots = await sdk.pager(t, 'tables/management/snapshots', {
    columns: Object.keys(SNAPSHOT_COLUMNS),
    sort: { order: 'desc', column: 'tsEnd' },
    filters: { and: [{ status: ['eq', 'done'] }, { finishStatus: ['eq', 'done'] }] },
  })
  t.equal(snapshots.length, 1)
  for (const [column, kind] of Object.entries(SNAPSHOT_COLUMNS)) t.ok(typeOk(kind, snapshots[0]![column]), `${column} is ${kind}: ${JSON.stringify(snapshots[0]![column])}`)
  t.ok((snapshots[0]!.loadedSize as number) > 0 && (snapshots[0]!.userCount as number) > 0, 'sizes and counts have real values')

  // 4. GET snapshots: a bare array, version on every element
  const list = await sdk.get('snapshots')
  t.equal(list.status, 200)
  const listed = list.json<Row[]>()
  t.ok(Array.isArray(listed))
  for (const s of listed) t.equal(s.version, apiVersion, 'every element has version: the one GET version reports')
  const os = await call(base, 'GET', '/api/v1/os/version', { headers: HTTPX_HEADERS })
  t.same(os.json(), { version: releaseVersion }, 'os/version agrees with GET version')
  const headerList = (await call(base, 'GET', '/api/snapshots', { headers: admin })).json<Row[]>()
  t.equal(headerList[0]!.version, (await call(base, 'GET', '/api/version')).headers.get('x-product-version'), 'the header generation: the product version, as X-Product-Version')

  // 5. settings of each loaded snapshot
  const snapSettings = await sdk.get(`snapshots/${snapshotId}/settings`)
  t.equal(snapSettings.status, 200)
  t.type(snapSettings.json(), 'object')

  // 5b. the settings models: Authentication (credentials and privileges keyed by priority),
  // VendorAPI and SiteSeparation; then DeviceConfigs: the versions, and a text netinv does not keep
  for (const path of ['settings/credentials', 'settings/privileges']) {
    const r = await sdk.get(path)
    t.equal(r.status, 200, path)
    t.ok(Array.isArray(r.json<{ data: unknown }>().data), `${path}: data is a list`)
  }
  t.same((await sdk.get('settings/vendor-api')).json(), [])
  t.match((await sdk.get('settings/site-separation')).json(), { rules: Array })
  const configs = await sdk.pager(t, 'tables/management/configuration', { columns: ['id', 'sn', 'hostname', 'lastChangeAt', 'lastCheckAt', 'status', 'hash'], sort: { order: 'desc', column: 'lastChangeAt' } })
  t.ok(configs.length > 0 && configs.every((c) => typeof c.hash === 'string' && typeof c.lastChangeAt === 'number'))
  const text = await sdk.get(`tables/management/configuration/download?hash=${String(configs[0]!.hash)}&sanitized=true`)
  t.equal(text.status, 404, 'no configuration text of a simulated snapshot: a 404 the SDK raises, not an error body saved as the configuration')
  t.match(text.json(), { code: 'API_NOT_FOUND', detail: /text of [0-9a-f]{40}: not kept/ })

  // 6. Table.all() on a large table: column discovery by 422, then pages of 1000
  const interfaceColumns = await sdk.columns(t, 'tables/inventory/interfaces', '$last')
  t.ok(interfaceColumns.includes('intName') && interfaceColumns.includes('id'))
  const total = await sdk.count('tables/inventory/interfaces', '$last')
  t.ok(total >= 25_000, `the interfaces table holds ${total} rows`)
  const rows = await sdk.pager(t, 'tables/inventory/interfaces', { columns: interfaceColumns, snapshot: '$last' })
  t.equal(rows.length, total, 'paging collects every row')
  t.equal(new Set(rows.map((r) => r.id)).size, total, 'no row twice')
  t.same(Object.keys(rows[0]!).sort(), [...interfaceColumns].sort(), 'rows hold the discovered columns')

  // 7. filters, as Table.fetch sends them
  const filtered = await sdk.post('tables/inventory/devices', {
    columns: ['id', 'hostname', 'vendor', 'siteName'],
    pagination: { start: 0, limit: 1000 },
    snapshot: '$last',
    filters: { and: [{ vendor: ['eq', 'cisco'] }, { or: [{ hostname: ['like', '0'] }, { siteName: ['ieq', String((rows[0] as Row).siteName)] }] }] },
    sort: { order: 'asc', column: 'hostname' },
  })
  t.equal(filtered.status, 200)
  const devices = filtered.json<Page>().data
  t.ok(devices.length > 0 && devices.every((d) => d.vendor === 'cisco'), 'the filter holds')
  t.equal(await sdk.count('tables/inventory/devices', '$last', { vendor: ['eq', 'no-such-vendor'] }), 0)

  // 8. reports: the intent rules with results, their groups, a coloured table
  const intents = await sdk.get(`reports?snapshot=${snapshotId}`)
  t.equal(intents.status, 200)
  const rules = intents.json<Row[]>()
  t.ok(rules.length > 0)
  for (const rule of rules) t.match(rule, { id: String, name: String, column: String, apiEndpoint: String, webEndpoint: String, checks: Object, descriptions: Object, groups: Array, result: { checks: Object }, status: Number })
  for (const rule of rules) for (const group of rule.groups as Row[]) t.match(group, { custom: Boolean }, 'a group reference says whether it is custom')
  t.equal((await sdk.get('reports/groups')).status, 200)
  const coloured = await sdk.post('tables/inventory/devices', { columns: ['id', 'hostname', 'memoryUtilization'], pagination: { start: 0, limit: 10 }, snapshot: '$last', reports: '/inventory/devices' })
  t.equal(coloured.status, 200)
  t.match(coloured.json<Page>().data[0]!.memoryUtilization, { data: Number, severity: Number })

  // 9. lock and unlock
  t.equal((await sdk.post(`snapshots/${snapshotId}/lock`)).status, 200)
  t.match(await sdk.refresh(snapshotId), { status: 'done' })
  t.equal((await sdk.post(`snapshots/${snapshotId}/unlock`)).status, 200)

  // 10. unload and load, body style, polled as jobs
  t.match(await loadOrUnload(t, sdk, snapshotId, 'unload'), { status: 'unloaded', loading: false })
  t.match(await loadOrUnload(t, sdk, snapshotId, 'load'), { status: 'done', finishStatus: 'done', loading: false })

  // 11. clone: 204 in the path generation (the Ansible collection's snapshot module tests for it);
  // found as clients look for it (unloaded, "clone" in its name, the source's start time); loaded
  // body style; the same data
  const cloned = await sdk.post(`snapshots/${snapshotId}/clone`)
  t.equal(cloned.status, 204, 'clone answers 204 in the path generation')
  t.equal(cloned.text, '')
  const all = await sdk.pager(t, 'tables/management/snapshots', { columns: Object.keys(SNAPSHOT_COLUMNS), sort: { order: 'desc', column: 'tsEnd' } })
  const source = all.find((s) => s.id === snapshotId)!
  const found = all.find((s) => s.status !== 'done' && String(s.name).includes('clone') && s.tsStart === source.tsStart)
  t.equal(found?.id, cloned.headers.get('x-snapshot-id'), 'the clone is where clients look for it')
  const cloneId = String(found?.id)
  t.match(found, { locked: false, status: 'unloaded', finishStatus: 'done' })
  t.match(await loadOrUnload(t, sdk, cloneId, 'load'), { status: 'done' })
  t.equal(await sdk.count('tables/inventory/devices', cloneId), await sdk.count('tables/inventory/devices', snapshotId), 'the clone has the devices')

  // 12. download: the job it records, then its file
  const ts = Date.now()
  const download = await sdk.get(`snapshots/${cloneId}/download`)
  t.equal(download.status, 200)
  const job = await sdk.jobWhenDone(t, cloneId, 'snapshotDownload', ts)
  t.match(job, { status: 'done', downloadFile: String })
  const file = await sdk.get(`jobs/${String(job?.id)}/download`)
  t.equal(file.status, 200)
  t.equal(file.text, download.text, 'the job gives the file')

  // a job name no job has yet: an empty answer, not an error
  t.same(
    (await sdk.post('tables/jobs', { columns: JOB_COLUMNS, pagination: { start: 0, limit: 1000 }, filters: { snapshot: ['eq', snapshotId], name: ['eq', 'discoveryAdd'] } })).json<Page>().data,
    [],
  )
  // 13. the Ansible collection's rediscover: 200 in the path generation (it tests for 200), a job
  const sn = (await sdk.post('tables/inventory/devices', { columns: ['sn'], pagination: { start: 0, limit: 1 }, snapshot: snapshotId })).json<Page>().data[0]!.sn
  const rediscover = await sdk.post(`snapshots/${snapshotId}/devices`, { snList: [sn] })
  t.equal(rediscover.status, 200, 'POST snapshots/{id}/devices answers 200 in the path generation')
  t.match((await waitForJob(base, rediscover.json<{ jobId: string }>().jobId, admin, 6000)).job, { isDone: true })

  // 14. the diagrams client: a unicast path between hosts of two sites as JSON (`graphs/`, its
  // trailing slash), then the same body for `svg()` and `png()`
  const hosts = (await sdk.post('tables/addressing/hosts', { columns: ['ip', 'siteName'], pagination: { start: 0, limit: 1000 }, snapshot: snapshotId })).json<Page>().data
  const [from, to] = [hosts[0]!, hosts.find((h) => h.siteName !== hosts[0]!.siteName)!]
  const diagram = {
    snapshot: snapshotId,
    parameters: {
      type: 'pathLookup', groupBy: 'siteName', pathLookupType: 'unicast', networkMode: false, protocol: 'tcp', ttl: 128, fragmentOffset: 0, securedPath: true, enableRegions: false,
      srcRegions: '.*', dstRegions: '.*', l4Options: { srcPorts: '1024-65535', dstPorts: '80,443', flags: [] }, otherOptions: { applications: '.*', tracked: false },
      firstHopAlgorithm: { type: 'automatic' }, startingPoint: String(from.ip), destinationPoint: String(to.ip),
    },
  }
  const graph = await sdk.post('graphs/', diagram)
  t.equal(graph.status, 200, graph.text.slice(0, 300))
  const labels = Object.values(graph.json<{ graphResult: { graphData: { nodes: Record<string, { label: string }> } } }>().graphResult.graphData.nodes).map((n) => n.label)
  t.ok(labels.includes(String(from.ip)) && labels.length > 2, `the path from ${String(from.ip)} crosses devices`)
  const svg = await sdk.image('graphs/svg', diagram)
  t.equal(svg.status, 200)
  t.match(svg.type, /^image\/svg\+xml/)
  for (const label of labels) t.match(svg.bytes.toString('utf8'), `>${label}</text>`, `the drawing shows ${label}`)
  const png = await sdk.image('graphs/png', diagram)
  t.equal(png.status, 200)
  t.equal(png.type, 'image/png')
  t.equal(png.bytes.subarray(1, 4).toString('latin1'), 'PNG', 'a PNG image')

  // a bad body is a 422 in the documented shape
  const bad = await sdk.post('snapshots/load', [{ id: 'nope' }])
  t.equal(bad.status, 422)
  t.match(bad.json(), { code: 'API_INVALID_INPUT', message: String, errors: [{ message: String }] })
})
