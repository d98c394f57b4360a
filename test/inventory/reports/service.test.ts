import t from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { ApiError } from '../../../src/shared/errors.js'
import { findTable } from '../../../src/inventory/catalog/index.js'
import { queryTable } from '../../../src/inventory/query/index.js'
import { ReportService } from '../../../src/inventory/reports/index.js'
import { testDeps } from '../query/helpers.js'
import { LAB_ID, labSnapshot } from './lab.js'

async function status(p: Promise<unknown>): Promise<number | string> {
  try {
    await p
    return 'ok'
  } catch (err) {
    return err instanceof ApiError ? err.status : String(err)
  }
}

for (const engine of ENGINES) {
  t.test(`intent rules on a lab snapshot (${engine})`, async (t) => {
    const db = await freshDb(t, engine)
    await labSnapshot(db)
    const reports = new ReportService({ db, findTable, now: () => 42 })
    const deps = { ...testDeps(db, [LAB_ID]), rulesFor: reports.rulesFor.bind(reports) }
    const devices = findTable('inventory/devices')!

    await t.test('results count rows per severity, in agreement with colour filters', async (t) => {
      const rules = await reports.rules()
      const results = await reports.results(rules, LAB_ID)
      const mem = results.get('device-memory-utilization')!
      const total = (await queryTable(deps, devices, { snapshot: LAB_ID, columns: ['id'], pagination: { limit: 1 } }))._meta.count
      t.equal(mem.count, total)
      t.same(Object.keys(mem.checks).sort(), ['0', '20', '30'])
      for (const s of ['30', '20', '0'] as const) {
        const r = await queryTable(deps, devices, { snapshot: LAB_ID, columns: ['id'], reports: '/inventory/devices', filters: { memoryUtilization: ['color', 'eq', Number(s)] }, pagination: { limit: 1 } })
        t.equal(String(r._meta.count), mem.checks[s], `severity ${s}`)
      }
      const red = await queryTable(deps, devices, { snapshot: LAB_ID, columns: ['memoryUtilization'], reports: ['device-memory-utilization'], filters: { memoryUtilization: ['color', 'eq', 30] }, pagination: { limit: 5 } })
      t.ok(red.data.length > 0, 'some devices are red')
      for (const row of red.data) {
        const cell = row.memoryUtilization as { data: number; severity: number }
        t.ok(cell.severity === 30 && cell.data > 90, `red above 90: ${JSON.stringify(cell)}`)
      }
      const bgp = results.get('bgp-session-state')!
      t.equal(Number(bgp.checks['30']) + Number(bgp.checks['0']), bgp.count, 'every session is established or not')
    })

    await t.test('colour with sort and pagination', async (t) => {
      const body = { snapshot: LAB_ID, columns: ['hostname', 'memoryUtilization'], reports: '/inventory/devices', sort: { column: 'memoryUtilization', order: 'desc' } }
      const all = await queryTable(deps, devices, { ...body, pagination: { limit: 1000 } })
      const pages = [await queryTable(deps, devices, { ...body, pagination: { start: 0, limit: 7 } }), await queryTable(deps, devices, { ...body, pagination: { start: 7, limit: 7 } })]
      t.same(pages.flatMap((p) => p.data), all.data.slice(0, 14))
      t.match(all.data[0], { hostname: String, memoryUtilization: { data: Number, severity: Number } })
      const plain = await queryTable(deps, devices, { snapshot: LAB_ID, columns: ['hostname'], reports: '/elsewhere' })
      t.type(plain.data[0]!.hostname, 'string', 'another web path colours nothing')
      t.equal(await status(queryTable(deps, devices, { ...body, reports: ['nope'] })), 422)
    })

    await t.test('custom rules: create, use, change, delete', async (t) => {
      const created = await reports.create(
        { name: 'Old software', apiEndpoint: '/v1/tables/inventory/devices', column: 'version', checks: { '20': { version: ['reg', '^1[0-5]\\.'] } }, descriptions: { general: 'Old' } },
        'alice',
      )
      t.match(created, { custom: true, tablePath: 'inventory/devices', groups: ['custom'] })
      t.match(reports.toApi(created), { apiEndpoint: '/v1/tables/inventory/devices', webEndpoint: '/inventory/devices', groups: [{ id: 'custom', name: 'Custom' }] })
      const r = await queryTable(deps, devices, { snapshot: LAB_ID, columns: ['version'], reports: [created.id], pagination: { limit: 3 } })
      t.match(r.data[0], { version: { data: String, severity: Number } })
      const updated = await reports.update(created.id, { defaultColor: 0 })
      t.equal(updated.defaultColor, 0)
      t.equal(updated.name, 'Old software', 'PATCH keeps other fields')
      t.equal((await reports.get(created.id)).defaultColor, 0)
      t.equal(await status(reports.update('device-uptime', { name: 'x' })), 409, 'built-in rules are read-only')
      t.equal(await status(reports.remove('device-uptime')), 409)
      await reports.remove(created.id)
      t.equal(await status(reports.get(created.id)), 404)
      t.equal(await status(reports.remove(created.id)), 404)
    })

    await t.test('a stored rule that no longer fits the catalog is left out', async (t) => {
      await db.query(
        `INSERT INTO inventory.report_rules (id, name, table_path, column_name, checks, created_at, updated_at) VALUES ('stale', 'Stale', 'inventory/devices', 'gone', '{"30": {"gone": ["eq", 1]}}', 1, 1)`,
      )
      const rules = await reports.rules()
      t.notOk(rules.some((r) => r.id === 'stale'))
      t.ok((await reports.results(rules, LAB_ID)).size > 0, 'results still computed')
      await db.query("DELETE FROM inventory.report_rules WHERE id = 'stale'")
    })

    await t.test('custom rules are validated like filters', async (t) => {
      const base = { name: 'x', apiEndpoint: '/v1/tables/inventory/devices', column: 'version', checks: { '20': { version: ['eq', '1'] } } }
      const bad: unknown[] = [
        null,
        { ...base, name: '' },
        { ...base, apiEndpoint: '/v1/tables/nope' },
        { ...base, column: 'nope' },
        { ...base, checks: {} },
        { ...base, checks: { '40': {} } },
        { ...base, checks: { '20': { version: ['gt', 1] } } },
        { ...base, checks: { '20': { nope: ['eq', 1] } } },
        { ...base, checks: { '20': { uptime: ['color', 'eq', 30] } } },
        { ...base, defaultColor: 5 },
        { ...base, groups: ['nope'] },
        { ...base, extra: 1 },
        { ...base, checks: { '30': { version: ['reg', '(unclosed'] } } },
        { ...base, checks: { '30': { or: [{ hostname: ['nireg', '[z-a]'] }] } } },
      ]
      for (const body of bad) t.equal(await status(reports.create(body, null)), 422, JSON.stringify(body))
    })
  })
}
