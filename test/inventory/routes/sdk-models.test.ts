/**
 * What the 6.x SDK's models require of intent rules and snapshot settings, through the
 * inventory's HTTP entry point: `status` on every rule, `custom` on every group (reference),
 * `result.checks` keyed "0".."30" with decimal counts (the default colour counted too), and
 * `disabledPostDiscoveryActions` in `snapshots/{id}/settings`.
 */
import t from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { startApp } from '../app.js'

type Rule = {
  id: string
  status: unknown
  custom: unknown
  groups: Array<Record<string, unknown>>
  column: string
  apiEndpoint: string
  webEndpoint: string
  result: { count: number | null; checks: Record<string, string> }
}

for (const engine of ENGINES) {
  t.test(`intent rules and snapshot settings as the SDK reads them, on ${engine}`, async (t) => {
    const db = await freshDb(t, engine)
    const api = await startApp(t, db)

    // before any snapshot: every rule still carries a result object
    const early = (await api.call('GET', 'reports')).body as Rule[]
    t.ok(early.length > 0)
    t.ok(early.every((r) => r.result !== null && typeof r.result === 'object' && r.result.count === null), 'result object without a snapshot')

    const id = await api.discover({ profile: 'lab' })

    const created = await api.call('POST', 'reports', {
      name: 'Telnet or else blue',
      apiEndpoint: '/v1/tables/inventory/devices',
      column: 'loginType',
      defaultColor: 10,
      checks: { '30': { loginType: ['eq', 'telnet'] } },
    })
    t.equal(created.status, 201)
    const customId = (created.body as { id: string }).id

    const rules = (await api.call('GET', `reports?snapshot=${id}`)).body as Rule[]
    for (const rule of rules) {
      t.equal(rule.status, 1, `${rule.id}: status`)
      t.equal(typeof rule.custom, 'boolean', `${rule.id}: custom`)
      for (const g of rule.groups) t.match(g, { id: String, name: String, custom: false }, `${rule.id}: group reference`)
      t.equal(typeof rule.result.count, 'number', `${rule.id}: result.count`)
      for (const [key, value] of Object.entries(rule.result.checks)) {
        t.ok(['0', '10', '20', '30'].includes(key), `${rule.id}: severity key ${key}`)
        t.match(value, /^\d+$/, `${rule.id}: count as the SDK parses it (int(value))`)
      }
    }

    // the default colour is counted, and the counts agree with the rows a client then fetches
    const custom = rules.find((r) => r.id === customId)!
    t.same(Object.keys(custom.result.checks).sort(), ['10', '30'], 'checked severity and default colour')
    t.equal(Number(custom.result.checks['10']) + Number(custom.result.checks['30']), custom.result.count)
    t.ok(Number(custom.result.checks['10']) > 0)
    for (const color of [10, 30]) {
      const page = await api.call('POST', custom.apiEndpoint.replace(/^\/v1\//, ''), {
        snapshot: id,
        columns: ['id', 'loginType'],
        reports: custom.webEndpoint,
        filters: { loginType: ['color', 'eq', color] },
        pagination: { limit: 1 },
      })
      t.equal(page.status, 200)
      t.equal((page.body as { _meta: { count: number } })._meta.count, Number(custom.result.checks[String(color)]), `rows of severity ${color}`)
    }

    const groups = (await api.call('GET', 'reports/groups')).body as Array<{ id: string; custom: unknown; children: Array<{ id: string; weight: number }> }>
    t.ok(groups.length > 0)
    for (const g of groups) {
      t.equal(g.custom, false, `group ${g.id}: custom`)
      t.ok(Array.isArray(g.children) && g.children.every((c) => typeof c.id === 'string' && typeof c.weight === 'number'), `group ${g.id}: children`)
    }
    t.ok(groups.find((g) => g.id === 'device-health')!.children.some((c) => c.id === 'device-uptime'))

    // disabledPostDiscoveryActions: empty by default, set, kept with other settings, validated
    const settings = await api.call('GET', `snapshots/${id}/settings`)
    t.same((settings.body as Record<string, unknown>).disabledPostDiscoveryActions, [])
    const set = await api.call('PATCH', `snapshots/${id}/settings`, { disabledPostDiscoveryActions: ['intentVerification', 'graphCache'] })
    t.equal(set.status, 200)
    t.same((set.body as Record<string, unknown>).disabledPostDiscoveryActions, ['graphCache', 'intentVerification'])
    t.same(((await api.call('GET', `snapshots/${id}/settings`)).body as Record<string, unknown>).disabledPostDiscoveryActions, ['graphCache', 'intentVerification'])
    const seed = await api.call('PATCH', `snapshots/${id}/settings`, { seed: 9 })
    t.match(seed.body, { seed: 9, disabledPostDiscoveryActions: ['graphCache', 'intentVerification'] }, 'another setting keeps the list')
    const bad = await api.call('PATCH', `snapshots/${id}/settings`, { disabledPostDiscoveryActions: ['graphCache', 'coffee'] })
    t.equal(bad.status, 422)
    t.match(bad.body, { code: 'API_INVALID_INPUT', errors: [{ message: /disabledPostDiscoveryActions\[1\].*must be one of \[graphCache, historicalData, intentVerification\]/ }] })
    t.equal((await api.call('PATCH', `snapshots/${id}/settings`, { disabledPostDiscoveryActions: 'graphCache' })).status, 422)
    const enabling = Date.now()
    const cleared = await api.call('PATCH', `snapshots/${id}/settings`, { disabledPostDiscoveryActions: [] })
    t.same((cleared.body as Record<string, unknown>).disabledPostDiscoveryActions, [])
    // the SDK then waits for the jobs of the actions enabled again, by name, started after its request
    for (const [name, expected] of [['loadGraphCache', 1], ['report', 1], ['saveHistoricalData', 0]] as const) {
      const jobs = await api.call('POST', 'tables/jobs', {
        columns: ['id', 'name', 'isDone', 'status', 'startedAt'],
        filters: { snapshot: ['eq', id], name: ['eq', name], startedAt: ['gte', enabling - 100] },
        sort: { order: 'desc', column: 'startedAt' },
      })
      t.equal(jobs.status, 200, jobs.text)
      const rows = (jobs.body as { data: Array<Record<string, unknown>> }).data
      t.equal(rows.length, expected, `${name} jobs`)
      if (expected > 0) t.match(rows[0], { isDone: true, status: 'done' })
    }
    t.equal((await api.call('POST', `snapshots/${id}/lock`)).status, 200)
    t.match((await api.call('PATCH', `snapshots/${id}/settings`, { disabledPostDiscoveryActions: ['graphCache'] })).body, { code: 'API_SNAPSHOT_LOCKED' })
  })
}
