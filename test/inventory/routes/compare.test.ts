/**
 * Comparison of two snapshots through the gateway in front of the real inventory: table requests
 * with `compare` (added, removed and changed rows with their diff; filters on `change` and on
 * columns, sort, paging, `_meta.count`, CSV, volatile columns), `GET snapshots/{id}/changes`,
 * `$prev` (the snapshot before of the same network) and the errors. The expected differences are
 * worked out here from the two snapshots' full tables.
 */
import t from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { send, startTestGateway } from '../../gateway/helpers.js'
import { startInventory } from './server.js'
import { migrateInventory } from '../../../src/inventory/migrations/index.js'
import { backgroundKeeping } from '../../../src/inventory/query/keeping.js'
import { TABLES, findTable } from '../../../src/inventory/catalog/index.js'

type Row = Record<string, unknown>
interface Answer {
  status: number
  body: Record<string, unknown>
  text: string
  headers: Record<string, string | string[] | undefined>
}

const KEY = { 'x-api-token': 'writer-key' }

async function stack(t: { teardown(fn: () => unknown): void }, engine: (typeof ENGINES)[number]) {
  const db = await freshDb(t, engine)
  await migrateInventory(db)
  const inventory = await startInventory(t, db)
  const gw = await startTestGateway(t, { upstreamUrl: inventory.url })
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    const r = await send(gw.url, `/api/${path}`, {
      method,
      headers: { ...KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    let parsed: Record<string, unknown> = {}
    try {
      parsed = JSON.parse(r.text) as Record<string, unknown>
    } catch {
      // CSV
    }
    return { status: r.status, body: parsed, text: r.text, headers: r.headers }
  }
  const discover = async (body: Row): Promise<string> => {
    const r = await call('POST', 'snapshots', body)
    if (r.status !== 201) throw new Error(`discovery: ${r.status} ${r.text}`)
    for (;;) {
      const job = (await call('GET', `jobs/${String(r.body.jobId)}`)).body
      if (job.isDone) {
        if (job.status !== 'done') throw new Error(`discovery failed: ${JSON.stringify(job)}`)
        // its comparison with the previous snapshot is kept in the background: rows are edited behind the API's back next
        await backgroundKeeping(db)
        return String(r.body.id)
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  /** Every row of a table in a snapshot, paged like a client. */
  const all = async (path: string, snapshot: string): Promise<Row[]> => {
    const rows: Row[] = []
    const columns = findTable(path)!.columns.map((c) => c.name)
    for (let start = 0; ; start += 5000) {
      const r = await call('POST', `tables/${path}`, { snapshot, columns, pagination: { start, limit: 5000 }, sort: { column: 'id', order: 'asc' } })
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`)
      const page = r.body.data as Row[]
      rows.push(...page)
      if (page.length < 5000) return rows
    }
  }
  return { db, call, discover, all }
}

/** The differences between two full tables as the API should report them. */
function expected(path: string, older: Row[], newer: Row[], volatile = false): Map<string, { change: string; row: Row; diff: Record<string, { old: unknown; new: unknown }> | null }> {
  const table = findTable(path)!
  const key = (row: Row) => JSON.stringify(table.key!.map((k) => row[k] ?? ''))
  const compared = table.columns.map((c) => c.name).filter((n) => n !== 'id' && !table.key!.includes(n) && (volatile || !table.volatile?.includes(n)))
  // a list whose order means nothing differs when its elements do
  const unordered = new Set(table.columns.filter((c) => c.unordered).map((c) => c.name))
  const asSet = (v: unknown) => (Array.isArray(v) ? JSON.stringify([...new Set(v.map((x) => JSON.stringify(x)))].sort()) : JSON.stringify(v))
  const same = (c: string, a: unknown, b: unknown) => (unordered.has(c) ? asSet(a) === asSet(b) : JSON.stringify(a) === JSON.stringify(b))
  const before = new Map(older.map((r) => [key(r), r]))
  const after = new Map(newer.map((r) => [key(r), r]))
  const out = new Map<string, { change: string; row: Row; diff: Record<string, { old: unknown; new: unknown }> | null }>()
  for (const [k, row] of after) {
    const old = before.get(k)
    if (!old) {
      out.set(k, { change: 'added', row, diff: null })
      continue
    }
    const diff: Record<string, { old: unknown; new: unknown }> = {}
    for (const c of compared) if (!same(c, old[c], row[c])) diff[c] = { old: old[c], new: row[c] }
    if (Object.keys(diff).length > 0) out.set(k, { change: 'changed', row, diff })
  }
  for (const [k, row] of before) if (!after.has(k)) out.set(k, { change: 'removed', row, diff: null })
  return out
}

function tally(changes: Iterable<{ change: string }>): Record<string, number> {
  const n: Record<string, number> = { added: 0, removed: 0, changed: 0 }
  for (const c of changes) n[c.change]! += 1
  return n
}

for (const engine of ENGINES) {
  t.test(`snapshot comparison through the gateway on ${engine}`, async (t) => {
    const { db, call, discover, all } = await stack(t, engine)
    const first = await discover({ profile: 'lab', seed: 11 })
    const second = await discover({ profile: 'lab', seed: 11 })
    const another = await discover({ profile: 'lab', seed: 12 })
    // lists whose order means nothing in another order (as a crawl may find them): no difference of their own
    // hosts with the same gateway in both snapshots get a second one, after it in the older and before it in the newer
    const other = { sn: 'SN-OTHER-GATEWAY', hostname: 'other-gateway', intName: 'Vlan10', ip: null }
    const reordered = await db.query<{ n: number }>(
      `WITH r AS (UPDATE inventory.hosts h SET gateways = CASE WHEN h.snapshot_id = $1 THEN h.gateways || $3::jsonb ELSE $3::jsonb || h.gateways END
       WHERE h.snapshot_id IN ($1, $2) AND jsonb_array_length(h.gateways) = 1 AND EXISTS (SELECT 1 FROM inventory.hosts o
       WHERE o.snapshot_id = CASE WHEN h.snapshot_id = $1 THEN $2 ELSE $1 END AND o.ip = h.ip AND o.vrf IS NOT DISTINCT FROM h.vrf AND o.gateways = h.gateways) RETURNING 1)
       SELECT count(*)::int AS n FROM r`,
      [first, second, JSON.stringify([other])],
    )
    // and one of them loses its own gateway in the newer: a change
    const lost = await db.query(
      `UPDATE inventory.hosts SET gateways = $2::jsonb WHERE snapshot_id = $1 AND ip = (SELECT min(ip) FROM inventory.hosts WHERE snapshot_id = $1 AND jsonb_array_length(gateways) = 2)`,
      [second, JSON.stringify([other])],
    )
    t.equal(lost.rowCount, 1)
    const protocols = await db.query<{ n: number }>(
      `WITH r AS (UPDATE inventory.neighbors n SET protocols = ARRAY(SELECT p FROM unnest(n.protocols) WITH ORDINALITY x(p, i) ORDER BY i DESC)
       WHERE n.snapshot_id = $1 AND cardinality(n.protocols) > 1 RETURNING 1) SELECT count(*)::int AS n FROM r`,
      [second],
    )
    t.ok(reordered.rows[0]!.n > 0 && protocols.rows[0]!.n > 0, `the lists of ${reordered.rows[0]!.n / 2} hosts and ${protocols.rows[0]!.n} neighbours in reverse order`)
    // rows edited behind the API's back: the change counts the discovery kept no longer hold
    await db.query('DELETE FROM inventory.snapshot_changes WHERE newer = $1 OR older = $1', [second])

    // devices: the simulator's second discovery misses some devices and finds others
    const devices = expected('inventory/devices', await all('inventory/devices', first), await all('inventory/devices', second))
    const d = await call('POST', 'tables/inventory/devices', {
      snapshot: second,
      columns: ['sn', 'hostname', 'uptime'],
      compare: { snapshot: first },
      pagination: { start: 0, limit: 1000 },
    })
    t.equal(d.status, 200, d.text)
    const dRows = d.body.data as Row[]
    t.same(Object.keys(dRows[0] ?? {}), ['sn', 'hostname', 'uptime', 'change', 'diff'], 'the requested columns, then change and diff')
    t.equal((d.body._meta as Row).count, devices.size, '_meta.count is the number of differences')
    t.ok(tally(devices.values()).added! + tally(devices.values()).removed! > 0, 'successive simulated snapshots differ in devices')
    for (const row of dRows) {
      const want = devices.get(JSON.stringify([row.sn]))
      t.ok(want, `device ${String(row.sn)} differs`)
      t.equal(row.change, want?.change, `device ${String(row.sn)} is ${want?.change}`)
      t.equal(row.hostname, want?.row.hostname, 'the values of the side the row is on')
      t.same(row.diff, want?.diff ?? null)
    }
    t.same(tally(dRows as Array<{ change: string }>), tally(devices.values()))

    // volatile columns: uptime moves between two discoveries, so every device in both changes
    const v = await call('POST', 'tables/inventory/devices', { snapshot: second, columns: ['sn', 'change', 'diff'], compare: { snapshot: first, volatile: true }, pagination: { limit: 1000 } })
    t.equal(v.status, 200, v.text)
    const withVolatile = expected('inventory/devices', await all('inventory/devices', first), await all('inventory/devices', second), true)
    t.equal((v.body._meta as Row).count, withVolatile.size)
    t.ok(withVolatile.size > devices.size, 'volatile columns add changed rows')
    t.ok((v.body.data as Row[]).some((r) => r.change === 'changed' && (r.diff as Row).uptime !== undefined), 'uptime in the diff')
    t.same(Object.keys((v.body.data as Row[])[0]!), ['sn', 'change', 'diff'], 'change and diff where they were asked for')

    // interfaces: state changes and devices coming and going
    const iOld = await all('inventory/interfaces', first)
    const iNew = await all('inventory/interfaces', second)
    const ifs = expected('inventory/interfaces', iOld, iNew)
    const counts = tally(ifs.values())
    t.ok(counts.added! > 0 && counts.removed! > 0 && counts.changed! > 0, `interfaces added, removed and changed: ${JSON.stringify(counts)}`)
    const changedUp = [...ifs.values()].filter((c) => c.change === 'changed' && c.row.l1 === 'up')
    t.ok(changedUp.length > 0, 'some interfaces came up')
    const columns = ['sn', 'hostname', 'intName', 'l1', 'l2']
    const pageOf = (start: number, limit: number) =>
      call('POST', 'tables/inventory/interfaces', {
        snapshot: second,
        columns,
        compare: { snapshot: first },
        filters: { and: [{ change: ['eq', 'changed'] }, { l1: ['eq', 'up'] }] },
        sort: { column: 'intName', order: 'desc' },
        pagination: { start, limit },
      })
    const full = await pageOf(0, 10000)
    t.equal(full.status, 200, full.text)
    t.equal((full.body._meta as Row).count, changedUp.length, 'filters on change and on a column')
    const fullRows = full.body.data as Row[]
    t.ok(fullRows.every((r) => r.change === 'changed' && r.l1 === 'up'))
    const names = fullRows.map((r) => String(r.intName))
    t.same(names, [...names].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)), 'sorted by intName descending')
    for (const row of fullRows) t.same(row.diff, ifs.get(JSON.stringify([row.sn, row.intName]))?.diff, `diff of ${String(row.sn)} ${String(row.intName)}`)
    const pages: Row[] = []
    for (let start = 0; start < changedUp.length; start += 7) {
      const p = await pageOf(start, 7)
      t.equal((p.body._meta as Row).count, changedUp.length, 'the count on every page')
      pages.push(...(p.body.data as Row[]))
    }
    t.same(pages, fullRows, 'pages put together are the whole result')

    const removed = await call('POST', 'tables/inventory/interfaces', { snapshot: second, columns: ['sn', 'intName', 'hostname'], compare: { snapshot: first }, filters: { change: ['eq', 'removed'] }, sort: { column: 'change', order: 'asc' }, pagination: { limit: 10000 } })
    t.equal((removed.body._meta as Row).count, counts.removed)
    for (const row of removed.body.data as Row[]) t.equal(row.hostname, ifs.get(JSON.stringify([row.sn, row.intName]))!.row.hostname, 'removed rows show the older snapshot')
    const emptyDiff = await call('POST', 'tables/inventory/interfaces', { snapshot: second, columns: ['sn'], compare: { snapshot: first }, filters: { diff: ['empty', true] }, pagination: { limit: 0 } })
    t.equal((emptyDiff.body._meta as Row).count, counts.added! + counts.removed!, 'no diff: the added and removed rows')
    const onL1 = await call('POST', 'tables/inventory/interfaces', { snapshot: second, columns: ['sn'], compare: { snapshot: first }, filters: { diff: ['like', '"l1":'] }, pagination: { limit: 0 } })
    t.equal((onL1.body._meta as Row).count, [...ifs.values()].filter((c) => c.diff?.l1).length, 'a filter on the diff')
    const bogus = await call('POST', 'tables/inventory/interfaces', { snapshot: second, columns: ['sn'], compare: { snapshot: first }, filters: { change: ['eq', 'moved'] } })
    t.equal(bogus.status, 200, 'change is an enumeration: a value it never holds matches no row')
    t.equal((bogus.body._meta as Row).count, 0)

    // CSV of the comparison
    const csv = await call('POST', 'tables/inventory/interfaces', { snapshot: second, columns: ['sn', 'intName', 'l1'], compare: { snapshot: first }, format: { dataType: 'csv' } })
    t.equal(csv.status, 200)
    t.match(String(csv.headers['content-type']), /^text\/csv/)
    const lines = csv.text.trim().split('\r\n')
    t.equal(lines[0], 'sn,intName,l1,change,diff')
    t.equal(lines.length - 1, ifs.size, 'one CSV line per difference')
    t.ok(lines.some((l) => /,changed,"\{""/.test(l)), 'the diff as JSON in CSV')

    // the summary per table, in catalog order
    const ch = await call('GET', `snapshots/${second}/changes?against=%24prev`)
    t.equal(ch.status, 200, ch.text)
    t.equal(ch.body.snapshot, second)
    t.equal(ch.body.against, first, '$prev is the snapshot before of the same network')
    const tables = ch.body.tables as Array<Row & { table: string }>
    t.same(tables.map((x) => x.table), TABLES.filter((x) => x.snapshotScoped && x.collected !== false).map((x) => x.path), 'every table of a snapshot netinv fills, in catalog order')
    t.same(tables.find((x) => x.table === 'inventory/interfaces'), { table: 'inventory/interfaces', ...counts })
    t.same(tables.find((x) => x.table === 'inventory/devices'), { table: 'inventory/devices', ...tally(devices.values()) })
    // tables with addresses, MACs, arrays, JSON and nullable keys: the rows and diffs the comparison
    // gives are those worked out here, and the summary counts them
    for (const path of ['addressing/arp', 'addressing/hosts', 'networks/routes', 'neighbors/all', 'neighbors/unmanaged', 'inventory/summary/models']) {
      const want = expected(path, await all(path, first), await all(path, second))
      const table = findTable(path)!
      const columns = table.columns.map((c) => c.name)
      const got = await call('POST', `tables/${path}`, { snapshot: second, columns, compare: { snapshot: first }, pagination: { limit: 10000 } })
      t.equal(got.status, 200, got.text)
      t.equal((got.body._meta as Row).count, want.size, `${path}: as many differences as worked out`)
      let same = 0
      for (const row of got.body.data as Row[]) {
        const w = want.get(JSON.stringify(table.key!.map((k) => row[k] ?? '')))
        if (w && w.change === row.change && JSON.stringify(w.diff) === JSON.stringify(row.diff) && columns.every((c) => JSON.stringify(w.row[c]) === JSON.stringify(row[c]))) same++
      }
      t.equal(same, want.size, `${path}: every row, change and diff as worked out`)
      t.same(tables.find((x) => x.table === path), { table: path, ...tally(want.values()) }, `${path}: the summary counts them`)
    }
    const explicit = await call('GET', `snapshots/${second}/changes?against=${first}`)
    t.same(explicit.body, ch.body, 'against an id')
    const last = await call('GET', `snapshots/$last/changes?against=${first}`)
    t.equal(last.status, 200, 'a snapshot variable in the path')
    t.match(last.body, { snapshot: another, against: first }, 'any two snapshots can be compared')
    const same = await call('GET', `snapshots/${second}/changes?against=${second}`)
    t.ok((same.body.tables as Row[]).every((x) => x.added === 0 && x.removed === 0 && x.changed === 0), 'a snapshot against itself has no change')
    t.equal((same.body.tables as Row[]).length, (explicit.body.tables as Row[]).length, 'every table, as for two snapshots')
    const keptSelf = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM inventory.snapshot_changes WHERE newer = older')
    t.equal(keptSelf.rows[0]!.n, 0, 'without a comparison run or kept: there is nothing to compare')

    // $prev in a table request, and where there is none
    const prev = await call('POST', 'tables/inventory/devices', { snapshot: second, columns: ['sn'], compare: { snapshot: '$prev' }, pagination: { limit: 1000 } })
    t.equal((prev.body._meta as Row).count, devices.size, '$prev compares with the previous snapshot of the same network')
    for (const snapshot of [first, another]) {
      const none = await call('POST', 'tables/inventory/devices', { snapshot, columns: ['sn'], compare: { snapshot: '$prev' } })
      t.equal(none.status, 404, 'no previous snapshot of the same network')
      t.match(none.body, { code: 'API_NOT_FOUND', message: 'Requested Resource Not Found', detail: /No earlier snapshot of the same network/ })
      t.equal((await call('GET', `snapshots/${snapshot}/changes`)).status, 404, 'changes default to $prev')
    }

    // errors
    const body = (compare: unknown, extra: Row = {}) => ({ snapshot: second, columns: ['sn'], compare, ...extra })
    const errors: Array<[string, unknown, number, RegExp]> = [
      ['inventory/devices', body({ snapshot: '2b2f3c9e-0000-4000-8000-000000000000' }), 404, /not found/],
      ['inventory/devices', body({ snapshot: 'nope' }), 404, /not found/],
      ['inventory/devices', body({ snapshot: '$next' }), 404, /Unknown snapshot variable/],
      ['inventory/devices', body({}), 422, /"compare.snapshot" must be/],
      ['inventory/devices', body('$prev'), 422, /"compare" must be an object/],
      ['inventory/devices', body({ snapshot: first, volatile: 'yes' }), 422, /"compare.volatile" must be a boolean/],
      ['inventory/devices', body({ snapshot: first, since: 1 }), 422, /"compare.since" is not allowed/],
      ['inventory/devices', body({ snapshot: first }, { reports: '/inventory/devices' }), 422, /"reports" cannot be combined/],
      ['inventory/devices', body({ snapshot: first }, { columns: ['nope'] }), 422, /"columns\[0\]" must be one of \[.*change, diff\]/],
      ['management/snapshots', { columns: ['id'], compare: { snapshot: first } }, 422, /needs a table of a snapshot/],
    ]
    for (const [path, request, status, message] of errors) {
      const r = await call('POST', `tables/${path}`, request)
      t.equal(r.status, status, `${JSON.stringify(request)} → ${status}`)
      t.match(String(r.status === 404 ? r.body.detail : r.body.message), message)
    }
    t.equal((await call('GET', `snapshots/${second}/changes?against=nope`)).status, 404)
    const badParam = await call('GET', `snapshots/${second}/changes?agianst=${first}`)
    t.equal(badParam.status, 422)
    t.match(badParam.body, { errors: [{ message: /"agianst" is not allowed/ }] })
    t.equal((await call('GET', 'snapshots/nope/changes')).status, 404)

    // an unloaded snapshot is 409, in a comparison as anywhere
    t.equal((await call('POST', `snapshots/${first}/unload`)).status, 204)
    const unloaded = await call('POST', 'tables/inventory/devices', body({ snapshot: first }))
    t.equal(unloaded.status, 409)
    t.match(unloaded.body, { code: 'API_SNAPSHOT_NOT_LOADED' })
    t.equal((await call('GET', `snapshots/${second}/changes`)).status, 409, '$prev unloaded')
    t.equal((await call('POST', 'tables/inventory/devices', body({ snapshot: '$prev' }))).status, 409)
  })
}
