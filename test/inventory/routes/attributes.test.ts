/**
 * Device attributes over HTTP in the SDK's request shapes: `attributes/global` (POST one, PUT a
 * list, DELETE by serial or id), `attributes/local` (per snapshot), the two attribute tables,
 * global attributes copied into a new discovery, and `attributeFilters` in table requests.
 */
import t from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { startApp } from '../app.js'

type Page = { data: Array<Record<string, unknown>>; _meta: { count: number } }

for (const engine of ENGINES) {
  t.test(`device attributes on ${engine}`, async (t) => {
    const db = await freshDb(t, engine)
    const api = await startApp(t, db)
    const first = await api.discover({ profile: 'lab' })
    const table = async (path: string, body: Record<string, unknown>) => {
      const r = await api.call('POST', `tables/${path}`, body)
      t.equal(r.status, 200, `${path}: ${r.text.slice(0, 200)}`)
      return r.body as Page
    }
    const devices = (await table('inventory/devices', { snapshot: first, columns: ['sn', 'hostname'], pagination: { limit: 3 } })).data.map((d) => String(d.sn))
    const [a, b, c] = devices as [string, string, string]

    // global: one (a second of the same name is a conflict), then a list (add or update)
    const one = await api.call('POST', 'attributes/global', { sn: a, name: 'floor', value: '12' })
    t.equal(one.status, 201)
    t.match(one.body, { id: /^\d+$/, sn: a, name: 'floor', value: '12' })
    t.match((await api.call('POST', 'attributes/global', { sn: a, name: 'floor', value: '13' })).body, { code: 'API_CONFLICT' })
    t.equal((await api.call('POST', 'attributes/global', { sn: a, name: '_bad-name', value: '1' })).status, 422)
    const put = await api.call('PUT', 'attributes/global', { attributes: [{ sn: a, name: 'floor', value: '14' }, { sn: b, name: 'siteName', value: 'HQ' }] })
    t.equal(put.status, 200)
    t.match(put.body, [{ sn: a, name: 'floor', value: '14', id: (one.body as { id: string }).id }, { sn: b, name: 'siteName', value: 'HQ' }])
    const global = await table('global-attributes', { columns: ['id', 'sn', 'name', 'value'], sort: { column: 'name', order: 'asc' } })
    t.same(global.data.map((r) => [r.sn, r.name, r.value]), [[a, 'floor', '14'], [b, 'siteName', 'HQ']])

    // a discovery after takes the global attributes; the one before has none
    const second = await api.discover({ profile: 'lab' })
    t.equal((await table('snapshot-attributes', { snapshot: first, columns: ['id'] }))._meta.count, 0)
    t.same((await table('snapshot-attributes', { snapshot: second, columns: ['sn', 'name', 'value'], sort: { column: 'name', order: 'asc' } })).data, [
      { sn: a, name: 'floor', value: '14' },
      { sn: b, name: 'siteName', value: 'HQ' },
    ])

    // local attributes of the first snapshot, then attributeFilters on its tables
    const local = await api.call('PUT', 'attributes/local', { snapshot: first, attributes: [{ sn: a, name: 'siteName', value: 'Lab A' }, { sn: c, name: 'siteName', value: 'Lab C' }, { sn: c, name: 'floor', value: '2' }] })
    t.equal(local.status, 200)
    const filtered = await table('inventory/devices', { snapshot: first, columns: ['sn'], attributeFilters: { siteName: ['Lab A', 'Lab C'] } })
    t.same(filtered.data.map((r) => r.sn).sort(), [a, c].sort())
    t.same((await table('inventory/devices', { snapshot: first, columns: ['sn'], attributeFilters: { siteName: ['Lab A', 'Lab C'], floor: ['2'] } })).data, [{ sn: c }], 'attributes ANDed')
    t.equal((await table('inventory/devices', { snapshot: second, columns: ['sn'], attributeFilters: { siteName: ['Lab A'] } }))._meta.count, 0, 'attributes of the other snapshot')
    t.same((await table('inventory/devices', { snapshot: second, columns: ['sn'], attributeFilters: { siteName: ['HQ'] } })).data, [{ sn: b }])
    const interfaces = await table('inventory/interfaces', { snapshot: first, columns: ['sn'], attributeFilters: { siteName: ['Lab A'] }, pagination: { limit: 1000 } })
    const all = await table('inventory/interfaces', { snapshot: first, columns: ['sn'], filters: { sn: ['eq', a] }, pagination: { limit: 1 } })
    t.ok(interfaces._meta.count > 0 && interfaces.data.every((r) => r.sn === a), "a device's interfaces")
    t.equal(interfaces._meta.count, all._meta.count)
    const neighbors = await table('neighbors/all', { snapshot: first, columns: ['localSn'], attributeFilters: { siteName: ['Lab A'] }, pagination: { limit: 1000 } })
    t.ok(neighbors.data.every((r) => r.localSn === a), 'neighbours by their local end')
    const csv = await api.call('POST', 'tables/inventory/devices', { snapshot: first, columns: ['sn'], attributeFilters: { siteName: ['Lab A'] }, format: { dataType: 'csv' } })
    t.same(csv.text.trimEnd().split('\r\n'), ['sn', a], 'CSV export filtered too')
    // a value a spreadsheet would run as a formula is exported as text
    t.equal((await api.call('PUT', 'attributes/global', { attributes: [{ sn: a, name: 'note', value: '=HYPERLINK("http://x","y")' }] })).status, 200)
    const notes = await api.call('POST', 'tables/global-attributes', { columns: ['value'], filters: { name: ['eq', 'note'] }, format: { dataType: 'csv' } })
    t.same(notes.text.trimEnd().split('\r\n'), ['value', `"'=HYPERLINK(""http://x"",""y"")"`])
    const noteIds = ((await api.call('POST', 'tables/global-attributes', { columns: ['id'], filters: { name: ['eq', 'note'] } })).body as { data: Array<{ id: string }> }).data.map((r) => r.id)
    t.equal((await api.call('DELETE', 'attributes/global', { attributes: { id: noteIds } })).status, 204)
    const jobs = await api.call('POST', 'tables/jobs', { columns: ['id'], attributeFilters: { siteName: ['Lab A'] } })
    t.equal(jobs.status, 422)
    t.match(jobs.body, { errors: [{ message: /cannot filter table jobs: its rows belong to no device/ }] })
    t.equal((await api.call('POST', 'tables/inventory/devices', { snapshot: first, columns: ['sn'], attributeFilters: { siteName: 'Lab A' } })).status, 422)

    // deletes by serial and by id; local ones leave the global ones alone
    t.equal((await api.call('DELETE', 'attributes/local', { snapshot: first, attributes: { sn: [c] } })).status, 204)
    t.same((await table('snapshot-attributes', { snapshot: first, columns: ['sn'] })).data, [{ sn: a }])
    const ids = (await table('global-attributes', { columns: ['id'], filters: { sn: ['eq', b] } })).data.map((r) => r.id)
    t.equal((await api.call('DELETE', 'attributes/global', { attributes: { id: ids } })).status, 204)
    t.same((await table('global-attributes', { columns: ['sn'] })).data, [{ sn: a }])
    t.equal((await table('snapshot-attributes', { snapshot: second, columns: ['id'] }))._meta.count, 2, "the snapshot's copy stays")

    // errors in the documented shape
    t.match((await api.call('PUT', 'attributes/local', { attributes: [] })).body, { code: 'API_INVALID_INPUT', errors: [{ message: /"snapshot" is required/ }] })
    t.match((await api.call('PUT', 'attributes/local', { snapshot: '00000000-0000-4000-8000-000000000000', attributes: [] })).body, { code: 'API_NOT_FOUND' })
    t.match((await api.call('PUT', 'attributes/global', { attributes: [{ sn: a, name: 'x1', value: 'v' }, { sn: a, name: 'x1', value: 'w' }] })).body, { errors: [{ message: /a second time/ }] })
    t.match((await api.call('DELETE', 'attributes/global', { attributes: { hostname: ['x'] } })).body, {
      code: 'API_INVALID_INPUT',
      errors: [{ message: '"attributes" must be {"sn": [serial, ...]} or {"id": [attribute id, ...]}', path: 'attributes' }],
    })
    t.match((await api.call('POST', 'attributes/global', { sn: a, name: '9floor', value: '', color: 1 })).body, {
      errors: [
        { message: '"color" is not allowed; allowed keys are [sn, name, value]' },
        { message: '"name" must match ^[a-zA-Z][a-zA-Z0-9_]*[a-zA-Z0-9]+$ (at most 64 characters)' },
        { message: '"value" must be a non-empty string of at most 1000 characters' },
      ],
    })
    t.match((await api.call('PUT', 'attributes/local', { snapshot: first, attributes: [{ sn: a, name: 'floor' }], extra: true })).body, {
      errors: [{ message: '"extra" is not allowed; allowed keys are [attributes, snapshot]' }, { message: '"attributes[0].value" must be a non-empty string of at most 1000 characters' }],
    })
    t.equal((await api.call('POST', `snapshots/${first}/lock`)).status, 200)
    t.match((await api.call('PUT', 'attributes/local', { snapshot: first, attributes: [{ sn: a, name: 'floor', value: '1' }] })).body, { code: 'API_SNAPSHOT_LOCKED' })
    t.equal((await api.call('POST', `snapshots/${first}/unlock`)).status, 200)

    // a snapshot's attributes go with it
    t.equal((await api.call('DELETE', `snapshots/${second}`)).status, 204)
    const left = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM inventory.snapshot_attributes WHERE snapshot_id = $1', [second])
    t.equal(left.rows[0]!.n, 0)
  })
}
