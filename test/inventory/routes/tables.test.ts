import t from 'tap'
import { freshDb } from '../../helpers/db.js'
import { TABLES } from '../../../src/inventory/catalog/index.js'
import { LAB_ID, labSnapshot } from '../reports/lab.js'
import { fromGeneration, startInventory } from './server.js'

t.test('table endpoints over HTTP', async (t) => {
  const db = await freshDb(t, 'postgres')
  const counts = await labSnapshot(db)
  const server = await startInventory(t, db, { query: { maxLimit: 500 } })

  await t.test('every table answers', async (t) => {
    for (const table of TABLES) {
      const body = { ...(table.snapshotScoped ? { snapshot: '$last' } : {}), columns: table.columns.map((c) => c.name), pagination: { limit: 3 } }
      const r = await server.request('POST', `tables/${table.path}`, body)
      t.equal(r.status, 200, `${table.path}: ${r.text.slice(0, 200)}`)
      const json = r.json as { data: Array<Record<string, unknown>>; _meta: { count: number; size: number } }
      if (table.source.kind === 'stored') t.equal(json._meta.count, counts[table.path], `${table.path}: count`)
      if (json.data[0]) t.same(Object.keys(json.data[0]), table.columns.map((c) => c.name), `${table.path}: row keys`)
    }
  })

  await t.test('legacy camelCase path, description, unknown table', async (t) => {
    const legacy = await server.request('POST', 'tables/addressing/managedDevs', { snapshot: LAB_ID, columns: ['id'], pagination: { limit: 1 } })
    t.equal(legacy.status, 200)
    const d = await server.request('GET', 'tables/inventory/devices/description')
    t.equal(d.status, 200)
    t.match(d.json, { path: 'inventory/devices', columns: [{ name: 'id', type: 'string' }], exampleRequest: { snapshot: '$last', columns: Array } })
    const example = (d.json as { exampleRequest: unknown }).exampleRequest
    t.equal((await server.request('POST', 'tables/inventory/devices', example)).status, 200, 'the example body works')
    t.equal((await server.request('POST', 'tables/nope/nope', { columns: ['id'] })).status, 404)
    t.equal((await server.request('GET', 'tables/nope/description')).status, 404)
    t.equal((await server.request('GET', 'tables/inventory/devices')).status, 405)
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const path of ['tables/no/such/table', 'tables/nope/description', 'tables/inventory/devices/nope']) {
        const r = await server.request(method, path, method === 'GET' ? undefined : {})
        t.equal(r.status, 404, `${method} ${path}: an unknown table is no endpoint, whatever the method`)
        t.match(r.json, { code: 'API_NOT_FOUND', message: 'Requested Resource Not Found' })
      }
    }
    t.same((await server.request('POST', 'tables/no/such/table', { columns: ['id'] })).json, { code: 'API_NOT_FOUND', message: 'Requested Resource Not Found' }, 'no detail: the router found no endpoint')
    t.match((await server.request('POST', 'tables/inventory/sites', { snapshot: 'nope', columns: ['id'] })).json, { message: 'Requested Resource Not Found', detail: /nope/ }, 'which snapshot goes in detail')
  })

  await t.test('the service itself refuses an Accept it cannot satisfy (406), for every endpoint', async (t) => {
    t.equal((await server.request('GET', 'tables', undefined, { accept: 'application/xml' })).status, 406)
    t.equal((await server.request('GET', `reports?snapshot=${LAB_ID}`, undefined, { accept: 'application/json;q=0' })).status, 406)
    t.equal((await server.request('GET', 'reports/groups', undefined, { accept: 'application/*' })).status, 200)
    t.equal((await server.request('POST', 'tables/inventory/sites', { snapshot: LAB_ID, columns: ['id'] }, { accept: 'text/csv' })).status, 200)
  })

  await t.test('errors in the documented shape', async (t) => {
    const star = await server.request('POST', 'tables/inventory/sites', { snapshot: LAB_ID, columns: ['*'] })
    t.equal(star.status, 422)
    const list = '[id, siteName, siteKey, devicesCount, routersCount, switchesCount, networksCount, usersCount, vlanCount, stpDomains, stpDCount, rDomains, rDCount]'
    t.same(star.json, { code: 'API_INVALID_INPUT', message: `"columns[0]" must be one of ${list}`, errors: [{ message: `"columns[0]" must be one of ${list}` }] })
    t.equal((await server.request('POST', 'tables/inventory/sites', '{"columns":')).status, 400)
    t.equal((await server.request('POST', 'tables/inventory/sites', 'columns=id', { 'content-type': 'text/plain' })).status, 415)
    t.equal((await server.request('POST', 'tables/inventory/sites', { snapshot: LAB_ID, columns: ['id'], pagination: { limit: 501 } })).status, 422)
    t.equal((await server.request('POST', 'tables/inventory/sites', { snapshot: 'nope', columns: ['id'] })).status, 404)
    t.equal((await server.request('POST', 'tables/inventory/sites', { snapshot: LAB_ID, columns: ['id'] }, { accept: 'application/xml' })).status, 406)
    const regex = await server.request('POST', 'tables/inventory/devices', { snapshot: LAB_ID, columns: ['id'], filters: { hostname: ['reg', '(['] } })
    t.equal(regex.status, 422)
  })

  await t.test('CSV', async (t) => {
    const body = { snapshot: LAB_ID, columns: ['hostname', 'loginIp', 'uptime'], sort: { column: 'hostname', order: 'asc' } }
    const json = (await server.request('POST', 'tables/inventory/devices', { ...body, pagination: { limit: 500 } })).json as { data: Array<Record<string, unknown>> }
    const csv = await server.request('POST', 'tables/inventory/devices', { ...body, format: { exportToFile: true, dataType: 'csv' } })
    t.equal(csv.status, 200)
    t.match(csv.headers.get('content-type'), /^text\/csv/)
    t.match(csv.headers.get('content-disposition'), /attachment; filename="inventory-devices.csv"/)
    const lines = csv.text.trimEnd().split('\r\n')
    t.equal(lines[0], 'hostname,loginIp,uptime')
    t.equal(lines.length - 1, json.data.length, 'every row, no page limit')
    t.same(lines.slice(1, 4), json.data.slice(0, 3).map((r) => `${r.hostname},${r.loginIp ?? ''},${r.uptime ?? ''}`))
    const accepted = await server.request('POST', 'tables/inventory/devices', { ...body, pagination: { limit: 2 } }, { accept: 'text/csv' })
    t.equal(accepted.status, 200)
    t.equal(accepted.text.trimEnd().split('\r\n').length, 3, 'Accept: text/csv honours pagination')
    t.equal((await server.request('POST', 'tables/inventory/devices', { ...body, format: { dataType: 'csv' } }, { accept: 'application/json' })).status, 406)
    const bad = await server.request('POST', 'tables/inventory/devices', { ...body, filters: { hostname: ['reg', '(['] }, format: { dataType: 'csv' } })
    t.equal(bad.status, 422, 'an error before the first row is a normal error response')
  })

  await t.test('reports endpoints', async (t) => {
    const list = await server.request('GET', `reports?snapshot=${LAB_ID}`)
    t.equal(list.status, 200)
    const rules = list.json as Array<Record<string, unknown>>
    t.ok(rules.length >= 12)
    t.match(rules[0], { id: String, name: String, apiEndpoint: /^\/v1\/tables\//, webEndpoint: /^\//, column: String, custom: false, checks: Object, groups: [{ id: String, name: String }], result: { count: Number, checks: Object } })
    const groups = await server.request('GET', 'reports/groups')
    t.match(groups.json, [{ id: 'device-health', reports: Array }])
    const created = await server.request('POST', 'reports', { name: 'Telnet', apiEndpoint: '/v1/tables/inventory/devices', column: 'loginType', checks: { '30': { loginType: ['eq', 'telnet'] } } })
    t.equal(created.status, 201)
    const id = (created.json as { id: string }).id
    t.match((await server.request('GET', `reports/${id}?snapshot=${LAB_ID}`)).json, { id, custom: true, result: { count: Number } })
    t.equal((await server.request('PATCH', `reports/${id}`, { name: 'Telnet 2' })).status, 200)
    t.equal((await server.request('PATCH', 'reports/device-uptime', { name: 'x' })).status, 409)
    t.equal((await server.request('POST', 'reports', { name: 'x' })).status, 422)
    t.equal((await server.request('DELETE', `reports/${id}`)).status, 204)
    t.equal((await server.request('GET', `reports/${id}`)).status, 404)
  })
})

t.test('a request without pagination: every row for the older generations, a first page for the header one, never cut silently', async (t) => {
  const db = await freshDb(t, 'postgres')
  const counts = await labSnapshot(db)
  const server = await startInventory(t, db, { query: { defaultLimit: 2, legacyDefaultLimit: 5000 } })
  const total = counts['inventory/interfaces']!
  t.ok(total > 2, `the lab has ${total} interfaces`)
  const body = { snapshot: LAB_ID, columns: ['id', 'intName'] }
  for (const generation of ['original', 'path'] as const) {
    const r = await server.request('POST', 'tables/inventory/interfaces', body, fromGeneration(generation))
    const json = r.json as { data: unknown[]; _meta: Record<string, unknown> }
    t.equal(json.data.length, total, `${generation}: every row`)
    t.same(json._meta, { limit: 5000, start: 0, count: total, size: total }, `${generation}: nothing left out, nothing to say`)
  }
  const first = (await server.request('POST', 'tables/inventory/interfaces', body)).json as { data: unknown[]; _meta: Record<string, unknown> }
  t.equal(first.data.length, 2, 'header generation: the default page')
  t.same(first._meta, { limit: 2, start: 0, count: total, size: 2, truncated: true }, '_meta says rows were left out')
  const paged = (await server.request('POST', 'tables/inventory/interfaces', { ...body, pagination: { start: 0, limit: 2 } })).json as { _meta: Record<string, unknown> }
  t.same(paged._meta, { limit: 2, start: 0, count: total, size: 2 }, 'a page the client asked for is no truncation')
  const capped = await startInventory(t, db, { query: { defaultLimit: 2, legacyDefaultLimit: 3 } })
  const cut = (await capped.request('POST', 'tables/inventory/interfaces', body, fromGeneration('original'))).json as { _meta: Record<string, unknown> }
  t.same(cut._meta, { limit: 3, start: 0, count: total, size: 3, truncated: true }, 'past the bound of the older generations: said too')
})
