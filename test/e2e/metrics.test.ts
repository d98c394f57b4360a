/**
 * /metrics as Prometheus scrapes it, from a real `netinv serve` on PostgreSQL after a discovery,
 * table queries (JSON, CSV, refused) and a comparison: every family the operations guide names
 * is there with bounded labels, and the scrape passes Debian's `promtool check metrics`
 * (package prometheus). The standalone inventory's admin port serves its own families the same way.
 */
import { execFile } from 'node:child_process'
import t, { type Test } from 'tap'
import { compileConfig } from '../../src/shared/config/index.js'
import { silentLogger } from '../../src/shared/log.js'
import { startInventory } from '../../src/inventory/server.js'
import { freshPostgres } from '../helpers/db.js'
import { hasCommand, testNeeding } from '../helpers/requirements.js'
import { bearer, call, discoverLab, login } from './client.js'
import { dirsEnv, serve, stop, tempDirs } from './process.js'

const PASSWORD = 'metrics-admin-password-1'

/** promtool check metrics on `text` (stdin); its complaints, "" when none. */
function promtoolCheck(text: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile('promtool', ['check', 'metrics'], (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` })
    })
    child.stdin!.end(text)
  })
}

/** Value of the series `name{labels…}` (labels in any order), or undefined. */
function value(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line)
    if (!m || m[1] !== name) continue
    const have = Object.fromEntries([...(m[3] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]))
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[4])
  }
  return undefined
}

/** Every label value of a family: none may be an id, an address or a user. */
function labelValues(text: string, prefix: string): string[] {
  const out = new Set<string>()
  for (const line of text.split('\n')) {
    if (!line.startsWith(prefix)) continue
    for (const x of line.matchAll(/[a-zA-Z_]+="((?:[^"\\]|\\.)*)"/g)) out.add(x[1]!)
  }
  return [...out]
}

function expectBounded(t: Test, text: string): void {
  const values = labelValues(text, 'netinv_')
  const unbounded = values.filter((v) => /[0-9a-f]{8}-[0-9a-f]{4}-|^\d+\.\d+\.\d+\.\d+$|admin/.test(v))
  t.same(unbounded, [], 'no id, address or user name in a label')
}

testNeeding(t, 'serve on PostgreSQL: the gateway\'s, the inventory\'s and the process\'s metrics pass promtool', hasCommand('promtool') ? undefined : 'promtool (Debian package prometheus)', async (t) => {
  const { url: databaseUrl } = await freshPostgres(t)
  const served = await serve(t, { ...dirsEnv(tempDirs(t)), DATABASE_URL: databaseUrl, ADMIN_PASSWORD: PASSWORD })
  const base = served.url
  const { accessToken } = await login(base, 'admin', PASSWORD)
  const auth = bearer(accessToken)
  const snapshot = await discoverLab(base, auth)
  const json = await call(base, 'POST', '/api/tables/inventory/devices', { headers: auth, body: { columns: ['hostname', 'siteName'], snapshot } })
  t.equal(json.status, 200)
  const csv = await call(base, 'POST', '/api/tables/inventory/interfaces', { headers: { ...auth, accept: 'text/csv' }, body: { columns: ['nameOriginal'], snapshot } })
  t.equal(csv.status, 200)
  const refused = await call(base, 'POST', '/api/tables/inventory/devices', { headers: auth, body: { columns: ['no-such-column'] } })
  t.equal(refused.status, 422)
  const changes = await call(base, 'GET', `/api/snapshots/${snapshot}/changes?against=${snapshot}`, { headers: auth })
  t.equal(changes.status, 200, changes.text.slice(0, 200))

  const scrape = await fetch(`${served.adminUrl}/metrics`)
  t.equal(scrape.status, 200)
  t.match(scrape.headers.get('content-type'), /^text\/plain; version=0\.0\.4/)
  const text = await scrape.text()
  const checked = await promtoolCheck(text)
  t.equal(checked.code, 0, 'promtool check metrics')
  t.equal(checked.output.trim(), '', checked.output.slice(0, 2000))

  t.ok(value(text, 'netinv_gateway_requests_total', { endpoint: 'tables/*', status: '200' }) !== undefined, 'the gateway\'s requests')
  t.equal(value(text, 'netinv_inventory_table_query_duration_seconds_count', { table: 'inventory/devices', format: 'json', outcome: 'ok' }), 1, 'a JSON table query, by table and outcome')
  t.equal(value(text, 'netinv_inventory_table_query_duration_seconds_count', { table: 'inventory/devices', outcome: 'rejected' }), 1, 'the refused one')
  t.equal(value(text, 'netinv_inventory_table_query_duration_seconds_count', { table: 'inventory/interfaces', format: 'csv', outcome: 'ok' }), 1, 'the CSV export')
  const rows = csv.text.trim().split('\n').length - 1
  t.equal(value(text, 'netinv_inventory_table_rows_returned_total', { table: 'inventory/interfaces' }), rows, 'rows of the export')
  t.equal(value(text, 'netinv_inventory_csv_bytes_total', { table: 'inventory/interfaces' }), Buffer.byteLength(csv.text), 'bytes of the export')
  t.equal(value(text, 'netinv_inventory_changes_duration_seconds_count', { outcome: 'ok' }), 1, 'the comparison of snapshots')
  t.equal(value(text, 'netinv_inventory_discovery_jobs_total', { source: 'simulator', outcome: 'done' }), 1, 'the discovery, by source and outcome')
  t.ok((value(text, 'netinv_inventory_ingest_rows_total', { source: 'simulator' }) ?? 0) > 0, 'rows loaded')
  t.equal(value(text, 'netinv_db_errors_total', { kind: 'statement_timeout' }), 0, 'database failures, at zero')
  t.ok((value(text, 'netinv_db_pool_connections', { state: 'max' }) ?? 0) > 0, 'the pool\'s size')
  t.ok(value(text, 'netinv_db_pool_waiting') !== undefined, 'waiting for a connection')
  t.ok(value(text, 'nodejs_eventloop_lag_p99_seconds') !== undefined, 'event-loop delay')
  t.ok(value(text, 'nodejs_heap_size_used_bytes') !== undefined, 'heap')
  t.ok(value(text, 'process_cpu_seconds_total') !== undefined, 'process CPU')
  t.equal(text.split('\n').filter((l) => l.startsWith('# TYPE process_cpu_seconds_total')).length, 1, 'the process\'s families once, though two services run in it')
  expectBounded(t, text)
  t.equal(await stop(served), 0)
})

testNeeding(t, 'the standalone inventory serves its metrics on its admin port', hasCommand('promtool') ? undefined : 'promtool (Debian package prometheus)', async (t) => {
  const { db } = await freshPostgres(t)
  const inv = await startInventory({ db, config: compileConfig({}), log: silentLogger(), internalSecret: 'metrics-internal-secret-0123456789', port: 0, adminPort: 0 })
  t.teardown(() => inv.close(0))
  t.ok(inv.adminUrl)
  const text = await (await fetch(`${inv.adminUrl}/metrics`)).text()
  const checked = await promtoolCheck(text)
  t.equal(checked.code, 0, `promtool check metrics ${checked.output.slice(0, 1000)}`)
  for (const family of ['netinv_inventory_table_query_duration_seconds', 'netinv_inventory_discovery_jobs_total', 'netinv_inventory_snmp_errors_total', 'netinv_db_errors_total', 'nodejs_eventloop_lag_p99_seconds']) {
    t.match(text, new RegExp(`^# TYPE ${family} `, 'm'), family)
  }
  t.notMatch(text, /^netinv_gateway_/m, 'nothing of the gateway')
  t.equal((await fetch(`${inv.adminUrl}/healthz`)).status, 200)
  t.equal((await fetch(`${inv.adminUrl}/api/snapshots`)).status, 404, 'the admin port serves nothing of the API')
})
