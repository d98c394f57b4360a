/**
 * End to end on both engines: a "lab" discovery started over HTTP, then every table answers with
 * `$last`, colours come back with `reports`, and `$prev` follows a second discovery.
 */
import t from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { TABLES } from '../../../src/inventory/catalog/index.js'
import { startApp } from '../app.js'
import { UNSIMULATED } from '../../helpers/unsimulated.js'

for (const engine of ENGINES) {
  t.test(`tables after a discovery (${engine})`, async (t) => {
    const db = await freshDb(t, engine)
    const app = await startApp(t, db)
    // two sites of the small profile where the rare events of the derived tables happen (a link
    // seen from one end, a duplicated address), so every table has rows
    // a global attribute, copied into the discovery's own attributes
    t.equal((await app.call('PUT', 'attributes/global', { attributes: [{ sn: 'ANY-SN', name: 'floor', value: '3' }] })).status, 200)
    const first = await app.discover({ snapshotName: 'first', profile: 'small', sites: ['ROME-01', 'BERLIN-02'] })
    for (const table of TABLES) {
      const body = { ...(table.snapshotScoped ? { snapshot: '$last' } : {}), columns: ['id'], pagination: { limit: 1 } }
      const r = await app.call('POST', `tables/${table.path}`, body)
      t.equal(r.status, 200, `${table.path}: ${r.text.slice(0, 200)}`)
      const count = (r.body as { _meta: { count: number } })._meta.count
      // a simulated discovery tries no address: its connectivity report is empty
      if (table.path === 'discovery/connectivity-report') t.equal(count, 0, `${table.path} is empty for the simulator`)
      else if (table.collected === false) t.equal(count, 0, `${table.path} is not collected: no rows`)
      // discovery fills these (derived-tables, lab-ipv6, the discovery labs)
      else if (UNSIMULATED.includes(table.path)) t.equal(count, 0, `${table.path}: the simulator models none`)
      else t.ok(count > 0, `${table.path} has rows`)
    }
    const snaps = await app.call('POST', 'tables/management/snapshots', { columns: ['id', 'status', 'finishStatus'], filters: { and: [{ status: ['eq', 'done'] }, { finishStatus: ['eq', 'done'] }] }, sort: { column: 'tsEnd', order: 'desc' }, pagination: { limit: 1000 } })
    t.same((snaps.body as { data: unknown[] }).data, [{ id: first, status: 'done', finishStatus: 'done' }])
    const coloured = await app.call('POST', 'tables/inventory/interfaces', { snapshot: '$last', columns: ['intName', 'l1'], reports: '/inventory/interfaces', filters: { l1: ['color', 'gte', 10] }, pagination: { limit: 5 } })
    t.equal(coloured.status, 200)
    for (const row of (coloured.body as { data: Array<{ l1: { data: string; severity: number } }> }).data) t.ok(row.l1.severity >= 10, JSON.stringify(row))
    const reports = await app.call('GET', 'reports?snapshot=$last')
    t.equal(reports.status, 200)
    t.ok((reports.body as Array<{ result: { count: number } | null }>).every((r) => r.result !== null && r.result.count >= 0))
    const total = await app.call('POST', 'tables/inventory/interfaces', { snapshot: '$last', columns: ['id'], pagination: { limit: 1 } })
    const csv = await app.call('POST', 'tables/inventory/interfaces', { snapshot: '$last', columns: ['id', 'hostname', 'primaryIp'], format: { exportToFile: true, dataType: 'csv' } })
    t.equal(csv.status, 200)
    t.equal(csv.text.trimEnd().split('\r\n').length, (total.body as { _meta: { count: number } })._meta.count + 1, 'CSV export holds every row')
    const second = await app.discover()
    const prev = await app.call('POST', 'tables/inventory/devices', { snapshot: '$prev', columns: ['id'], pagination: { limit: 1 } })
    t.equal(prev.status, 200)
    const last = await app.call('POST', 'tables/inventory/sites', { snapshot: second, columns: ['siteName'], pagination: { limit: 1 } })
    t.equal(last.status, 200)
  })
}
