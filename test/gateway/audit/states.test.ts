/**
 * Before and after of forwarded settings changes in the audit trail, through `netinv serve` (the
 * gateway and the real inventory): the seed addresses replaced, an SNMP credential added (its
 * community masked on both sides), and a refused change recorded with its before only.
 */
import t from 'tap'
import { call, login } from '../../e2e/client.js'
import { serve, tempDirs } from '../../e2e/process.js'
import { freshPostgres } from '../../helpers/db.js'

const ADMIN_PASSWORD = 'states-admin-password-1'
type Row = Record<string, unknown>

t.test('settings changes carry their before and after', async (t) => {
  const { dataDir, configDir } = tempDirs(t)
  const app = await serve(t, { DATA_DIR: dataDir, CONFIG_DIR: configDir, ADMIN_PASSWORD, DATABASE_URL: (await freshPostgres(t)).url })
  const { accessToken } = await login(app.url, 'admin', ADMIN_PASSWORD)
  const headers = { authorization: `Bearer ${accessToken}` }
  const api = (method: string, path: string, body?: unknown) => call(app.url, method, `/api/${path}`, { headers, ...(body === undefined ? {} : { body }) })
  const events = async (action: string, count: number): Promise<Row[]> => {
    for (let i = 0; i < 500; i++) {
      const r = await api('POST', 'tables/audit', { columns: ['action', 'outcome', 'reason', 'before', 'after'], filters: { action: ['eq', action] }, sort: { column: 'id', order: 'asc' } })
      const rows = (r.json() as { data: Row[] }).data
      if (rows.length >= count) return rows
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error(`fewer than ${count} events ${action}`)
  }

  const first = await api('PUT', 'settings/seed', ['10.1.0.1'])
  t.equal(first.status, 200, first.text)
  const second = await api('PUT', 'settings/seed', ['10.1.0.1', '10.2.0.7'])
  t.equal(second.status, 200, second.text)
  const seeds = await events('PUT settings/seed', 2)
  t.match(seeds[1], { outcome: 'success', before: ['10.1.0.1'], after: ['10.1.0.1', '10.2.0.7'] }, 'the seeds before and after the change')

  t.equal((await api('POST', 'settings/snmp', { name: 'core', version: '2c', community: 'sup3r-s3cret-community' })).status, 201)
  const [snmp] = await events('POST settings/snmp', 1)
  t.same(snmp?.before, [], 'no credential before')
  t.match(snmp?.after, [{ name: 'core', version: '2c', community: /^\*+$/ }], 'the new credential after, masked')
  const all = (await api('POST', 'tables/audit', { columns: ['before', 'after'] })).text
  t.notOk(all.includes('sup3r-s3cret-community'), 'the community is nowhere in the trail')

  const bad = await api('PUT', 'settings/seed', ['not an address'])
  t.ok(bad.status >= 400 && bad.status < 500, `refused: ${bad.status} ${bad.text}`)
  const refused = await events('PUT settings/seed', 3)
  t.match(refused[2], { outcome: 'failure', reason: `HTTP ${bad.status}`, before: ['10.1.0.1', '10.2.0.7'], after: null }, 'a refused change: its before, no after')
})
