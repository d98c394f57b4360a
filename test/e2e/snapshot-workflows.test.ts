/**
 * The snapshot workflows of 5.x/6.x-era clients through the real entry point (`netinv serve`:
 * gateway in front of the inventory), with API keys and their scopes: device attributes and
 * `attributeFilters`, removing and rediscovering devices (a job polled like the SDK polls),
 * post-discovery actions in the snapshot's settings, and intent rules with the fields the SDK's
 * models require. On the embedded default and on PostgreSQL.
 */
import t, { type Test } from 'tap'
import { freshPostgres } from '../helpers/db.js'
import { apiKey, bearer, call, login, newApiKey, waitForJob, discoverLab } from './client.js'
import type { Page } from './answers.js'
import { serve, tempDirs } from './process.js'

const ADMIN_PASSWORD = 'e2e-admin-password-1'

async function story(t: Test, extraEnv: Record<string, string>): Promise<void> {
  const { dataDir, configDir } = tempDirs(t)
  const app = await serve(t, { DATA_DIR: dataDir, CONFIG_DIR: configDir, ADMIN_PASSWORD, ...extraEnv })
  const base = app.url
  const session = await login(base, 'admin', ADMIN_PASSWORD)
  const writer = apiKey(await newApiKey(base, session.accessToken, ['read', 'write', 'settings']))
  const reader = apiKey(await newApiKey(base, session.accessToken, ['read']))
  const id = await discoverLab(base, bearer(session.accessToken))
  const table = async (path: string, body: Record<string, unknown>) => {
    const r = await call(base, 'POST', `/api/tables/${path}`, { headers: reader, body })
    t.equal(r.status, 200, `${path}: ${r.text.slice(0, 200)}`)
    return r.json<Page>()
  }
  const [a, b] = (await table('inventory/devices', { snapshot: id, columns: ['sn'], pagination: { limit: 2 } })).data.map((d) => String(d.sn)) as [string, string]

  // attributes: settings scope for global ones, write for a snapshot's; attributeFilters in a table body
  t.equal((await call(base, 'POST', '/api/attributes/global', { headers: reader, body: { sn: a, name: 'floor', value: '12' } })).status, 403)
  t.equal((await call(base, 'POST', '/api/attributes/global', { headers: writer, body: { sn: a, name: 'floor', value: '12' } })).status, 201)
  t.equal((await call(base, 'PUT', '/api/attributes/local', { headers: writer, body: { snapshot: id, attributes: [{ sn: a, name: 'siteName', value: 'HQ' }] } })).status, 200)
  t.same((await table('snapshot-attributes', { snapshot: id, columns: ['sn', 'name', 'value'] })).data, [{ sn: a, name: 'siteName', value: 'HQ' }])
  t.same((await table('global-attributes', { columns: ['sn', 'name', 'value'] })).data, [{ sn: a, name: 'floor', value: '12' }])
  t.same((await table('inventory/devices', { snapshot: id, columns: ['sn'], attributeFilters: { siteName: ['HQ'] } })).data, [{ sn: a }])

  // removal, then rediscovery as a job
  const before = (await call(base, 'GET', `/api/snapshots/${id}`, { headers: reader })).json<{ totalDevCount: number }>()
  t.equal((await call(base, 'DELETE', `/api/snapshots/${id}/devices`, { headers: reader, body: [b] })).status, 403)
  t.equal((await call(base, 'DELETE', `/api/snapshots/${id}/devices`, { headers: writer, body: [b] })).status, 204)
  t.equal((await call(base, 'GET', `/api/snapshots/${id}`, { headers: reader })).json<{ totalDevCount: number }>().totalDevCount, before.totalDevCount - 1)
  const unknown = await call(base, 'DELETE', `/api/snapshots/${id}/devices`, { headers: writer, body: [b] })
  t.equal(unknown.status, 422)
  t.match(unknown.json(), { code: 'API_INVALID_INPUT', errors: [{ message: /is not the serial number of a device/ }] })
  const started = await call(base, 'POST', `/api/snapshots/${id}/devices`, { headers: writer, body: { snList: [a] } })
  t.equal(started.status, 202)
  const { job } = await waitForJob(base, started.json<{ jobId: string }>().jobId, reader)
  t.match(job, { name: 'discoveryRefresh', status: 'done', snapshot: id })

  // post-discovery actions and intent rules as the SDK reads them
  const patched = await call(base, 'PATCH', `/api/snapshots/${id}/settings`, { headers: writer, body: { disabledPostDiscoveryActions: ['historicalData'] } })
  t.equal(patched.status, 200)
  t.same((await call(base, 'GET', `/api/snapshots/${id}/settings`, { headers: reader })).json<Record<string, unknown>>().disabledPostDiscoveryActions, ['historicalData'])
  t.equal((await call(base, 'PATCH', `/api/snapshots/${id}/settings`, { headers: writer, body: { disabledPostDiscoveryActions: ['nope'] } })).status, 422)
  const rules = (await call(base, 'GET', `/api/reports?snapshot=${id}`, { headers: reader })).json<Array<Record<string, unknown>>>()
  t.ok(rules.length > 0)
  for (const rule of rules) t.match(rule, { status: 1, custom: Boolean, groups: Array, result: { count: Number, checks: Object } }, String(rule.id))
  t.ok(rules.every((r) => (r.groups as Array<Record<string, unknown>>).every((g) => g.custom === false)))
  const groups = (await call(base, 'GET', '/api/reports/groups', { headers: reader })).json<Array<Record<string, unknown>>>()
  t.ok(groups.every((g) => g.custom === false && Array.isArray(g.children)))
}

t.test('snapshot workflows through netinv serve on the embedded default', async (t) => {
  await story(t, {})
})

t.test('snapshot workflows through netinv serve on PostgreSQL', async (t) => {
  const { url } = await freshPostgres(t)
  await story(t, { DATABASE_URL: url })
})
