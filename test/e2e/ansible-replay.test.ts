/**
 * The IP Fabric Ansible collection, replayed against `netinv serve` with the one recipe for older
 * clients (docs/api-versions.md, helm/netinv/examples/legacy-clients.yaml): the module calls
 * sdk-replay.test.ts does not already check (it checks `snapshots/{id}/clone` 204 and
 * `snapshots/{id}/devices` 200). Request shapes and the statuses the modules test for, from
 * community-fabric/ipfabric-ansible 0.0.3 at 384784f (none of its code):
 *
 * - plugins/module_utils/module.py: `IPFClient(unloaded=True)` of the Python SDK (6.0.9 shapes:
 *   `tables/management/snapshots` without the loaded filter, then `GET snapshots`; X-API-Token,
 *   httpx's User-Agent, /api/v5.0/ after the version probe).
 * - plugins/modules/snapshot.py: `present` without an id: `POST snapshots` without a body (reads
 *   `success`), then `GET snapshots` until one has `state` "discovering"; with an id:
 *   `PATCH snapshots/{id}` `{name, note}` (tests 200); `load`/`unload`: `GET snapshots/{id}`
 *   (reads `state`, `locked`), `POST snapshots/{id}/load|unload` without a body (tests 204);
 *   `lock`/`unlock`: `GET snapshots/{id}` (reads `locked`), `POST snapshots/{id}/lock|unlock`
 *   (tests 200); `absent`: a discovering snapshot's jobs from `tables/jobs` (its columns, filter
 *   `snapshot eq`, no `snapshot` key), `POST jobs/{id}/stop` of a running `discoveryNew`, then
 *   `DELETE snapshots/{id}` (tests 204).
 * - plugins/inventory/inventory.py: `inventory.devices.all()` with `filters` and the columns plus
 *   `loginIp` and `hostname` (reads both); plugins/modules/table_info.py: `Table.all()` with
 *   `filters`, `columns`, `sort`, `reports`, `snapshot_id`.
 */
import t from 'tap'
import { call, waitForJob } from './client.js'
import type { Page, Row } from './answers.js'
import { serveForReplay, pathGeneration } from './legacy-client.js'

const ADMIN_PASSWORD = 'ansible-replay-admin-password-1'

t.test('the Ansible collection, replayed', async (t) => {
  const { base, admin, token } = await serveForReplay(t, ADMIN_PASSWORD, ['read', 'write'])
  const started = await call(base, 'POST', '/api/snapshots', { headers: admin, body: { snapshotName: 'ansible', profile: 'lab' } })
  t.equal(started.status, 201, started.text)
  const snapshotId = started.json<{ id: string }>().id
  t.match((await waitForJob(base, started.json<{ jobId: string }>().jobId, admin, 6000)).job, { status: 'done' })

  const ipf = pathGeneration(base, token)
  const snapshot = async (id: string): Promise<Row> => {
    const r = await ipf('GET', `snapshots/${id}`)
    t.equal(r.status, 200, `GET snapshots/${id}`)
    return r.json()
  }

  // the client with unloaded=True: every snapshot, then GET snapshots
  const table = await ipf('POST', 'tables/management/snapshots', { columns: ['id', 'status', 'finishStatus', 'loading', 'locked', 'name', 'tsStart', 'tsEnd'], sort: { order: 'desc', column: 'tsEnd' }, pagination: { limit: 1000, start: 0 } })
  t.equal(table.status, 200)
  t.ok(table.json<Page>().data.some((s) => s.id === snapshotId))
  t.equal((await ipf('GET', 'snapshots')).status, 200)

  // inventory plugin: devices with a filter, the columns plus loginIp and hostname
  const devices = await ipf('POST', 'tables/inventory/devices', { columns: ['siteName', 'vendor', 'loginIp', 'hostname'], snapshot: snapshotId, filters: { vendor: ['like', 'c'] }, pagination: { limit: 1000, start: 0 } })
  t.equal(devices.status, 200)
  const rows = devices.json<Page>().data
  t.ok(rows.length > 0 && rows.every((d) => typeof d.hostname === 'string' && 'loginIp' in d), 'hostname and loginIp of every device')
  // table_info: Table.all() with filters, columns, sort, reports and a snapshot id
  const info = await ipf('POST', 'tables/inventory/interfaces', { columns: ['hostname', 'intName', 'l1', 'l2'], snapshot: snapshotId, filters: { l1: ['eq', 'up'] }, sort: { order: 'asc', column: 'hostname' }, reports: '/inventory/interfaces', pagination: { limit: 1000, start: 0 } })
  t.equal(info.status, 200, info.text.slice(0, 200))

  // present with an id: PATCH name and note
  const patched = await ipf('PATCH', `snapshots/${snapshotId}`, { name: 'renamed by ansible', note: 'a note' })
  t.equal(patched.status, 200, 'PATCH snapshots/{id}: 200, as the module tests')
  t.match(patched.json(), { name: 'renamed by ansible', note: 'a note' })

  // lock / unlock: GET reads locked, then 200
  t.equal((await snapshot(snapshotId)).locked, false)
  t.equal((await ipf('POST', `snapshots/${snapshotId}/lock`)).status, 200, 'lock: 200')
  t.equal((await snapshot(snapshotId)).locked, true)
  t.equal((await ipf('POST', `snapshots/${snapshotId}/unlock`)).status, 200, 'unlock: 200')

  // unload / load: GET reads state and locked, then 204 without a body
  t.match(await snapshot(snapshotId), { state: 'loaded', locked: false })
  const unload = await ipf('POST', `snapshots/${snapshotId}/unload`)
  t.equal(unload.status, 204, 'unload: 204, as the module tests')
  for (let i = 0; i < 600 && (await snapshot(snapshotId)).state !== 'unloaded'; i++) await new Promise((r) => setTimeout(r, 50))
  t.equal((await snapshot(snapshotId)).state, 'unloaded')
  const load = await ipf('POST', `snapshots/${snapshotId}/load`)
  t.equal(load.status, 204, 'load: 204, as the module tests')
  for (let i = 0; i < 600 && (await snapshot(snapshotId)).state !== 'loaded'; i++) await new Promise((r) => setTimeout(r, 50))
  t.equal((await snapshot(snapshotId)).state, 'loaded')

  // present without an id: POST snapshots without a body, then GET snapshots until one is
  // discovering. The operator's settings name a large simulated network, so that the discovery is
  // still running when the module looks for it (and stops it below).
  const settings = await call(base, 'PATCH', '/api/settings', { headers: admin, body: { profile: 'medium' } })
  t.equal(settings.status, 200, settings.text.slice(0, 200))
  const discovery = await ipf('POST', 'snapshots')
  t.ok(discovery.status >= 200 && discovery.status < 300, `POST snapshots without a body: ${discovery.status} ${discovery.text.slice(0, 200)}`)
  t.equal(discovery.json<{ success: boolean }>().success, true, 'success: true')
  const listed = (await ipf('GET', 'snapshots')).json<Row[]>()
  const discovering = listed.find((s) => s.state === 'discovering')
  t.ok(discovering, 'GET snapshots shows the discovering one')

  // absent of a discovering snapshot: its jobs, a stop of the running discoveryNew, then DELETE
  if (discovering) {
    const jobs = await ipf('POST', 'tables/jobs', {
      columns: ['downloadFile', 'isDone', 'name', 'snapshot', 'status', 'username', 'id'],
      filters: { snapshot: ['eq', String(discovering.id)] },
      pagination: { limit: 1000, start: 0 },
    })
    t.equal(jobs.status, 200)
    const running = jobs.json<Page>().data.filter((j) => j.name === 'discoveryNew' && j.status === 'running')
    t.equal(running.length, 1, `the discovery is a running discoveryNew job: ${JSON.stringify(jobs.json<Page>().data)}`)
    for (const job of running) {
      const stop = await ipf('POST', `jobs/${String(job.id)}/stop`)
      t.ok(stop.status >= 200 && stop.status < 300, `jobs/{id}/stop: ${stop.status}`)
      await waitForJob(base, String(job.id), admin, 6000)
    }
    const removed = await ipf('DELETE', `snapshots/${String(discovering.id)}`)
    t.equal(removed.status, 204, `DELETE of the stopped discovery: 204 ${removed.text.slice(0, 200)}`)
  }

  // absent of a done snapshot
  const deleted = await ipf('DELETE', `snapshots/${snapshotId}`)
  t.equal(deleted.status, 204, 'DELETE snapshots/{id}: 204, as the module tests')
  t.equal((await ipf('GET', `snapshots/${snapshotId}`)).status, 404)
})
