/**
 * Natural keys and volatile columns of the catalog: every table declares a key of its own
 * columns, and in a simulated snapshot (and a network one, for the table only the network fills)
 * no two rows share a key, as a comparison of two snapshots joins on it, and only the key columns
 * declared nullable hold nulls.
 */
import t from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { UNSIMULATED } from '../../helpers/unsimulated.js'
import { startApp } from '../app.js'
import { TABLES, columnSql, storageName } from '../../../src/inventory/catalog/index.js'
import { comparedColumns } from '../../../src/inventory/query/compare.js'
import { baseRelation } from '../../../src/inventory/query/kept-comparison.js'

t.test('every table declares a key and volatile columns among its own columns', async (t) => {
  for (const table of TABLES) {
    const names = new Set(table.columns.map((c) => c.name))
    t.ok(table.key && table.key.length > 0, `${table.path} declares a key`)
    for (const name of table.key ?? []) t.ok(names.has(name), `${table.path}: key column ${name} exists`)
    t.equal(new Set(table.key).size, table.key?.length, `${table.path}: no key column twice`)
    for (const name of table.nullableKey ?? []) t.ok(table.key?.includes(name), `${table.path}: nullable key column ${name} is in the key`)
    for (const name of table.volatile ?? []) {
      t.ok(names.has(name), `${table.path}: volatile column ${name} exists`)
      t.notOk(table.key?.includes(name), `${table.path}: volatile column ${name} is not part of the key`)
    }
  }
  for (const table of TABLES) {
    for (const c of table.columns) {
      // the address discovery reached a device on is no property of the device or its interfaces
      if (c.name === 'loginIp') t.ok(table.volatile?.includes('loginIp'), `${table.path}: loginIp is volatile`)
      if (c.unordered) t.ok(['json', 'stringArray', 'integerArray', 'ipArray'].includes(c.type), `${table.path}: ${c.name}, compared as a set, is a list`)
    }
  }
  // a table whose rows are copies of another's in what it compares: its kept comparison is
  // computed from that one's (query/kept-comparison.ts), which holds only if it reads that table's
  // relation once, has its key, and compares only columns that table compares, of the same type
  const copies = TABLES.filter((table) => table.rowFrom)
  t.ok(copies.length >= 13, `${copies.length} tables are copies of another's rows (the views per interface of interfaces/counters)`)
  for (const table of copies) {
    const base = TABLES.find((x) => x.path === table.rowFrom)
    if (!t.ok(base?.source.kind === 'stored' && table.source.kind === 'derived' && base.snapshotScoped && table.snapshotScoped, `${table.path}: derived from ${table.rowFrom}, stored`)) continue
    if (base?.source.kind !== 'stored' || table.source.kind !== 'derived') continue
    t.equal(table.source.sql.match(baseRelation(base.source.table))?.length, 1, `${table.path} reads ${base.source.table} once`)
    t.same(table.key, base.key, `${table.path} has the key of ${base.path}`)
    const theirs = new Map(comparedColumns(base, false).map((c) => [c.name, `${c.type}${c.unordered ? ' as a set' : ''}`]))
    for (const c of comparedColumns(table, false)) t.equal(theirs.get(c.name), `${c.type}${c.unordered ? ' as a set' : ''}`, `${table.path}: ${c.name} is compared in ${base.path} too, alike`)
  }
  const volatile = (path: string) => TABLES.find((x) => x.path === path)!.volatile ?? []
  t.ok(volatile('inventory/devices').includes('uptime'), 'uptime is volatile')
  t.ok(volatile('interfaces/counters').includes('inBytes'), 'counters are volatile')
  t.same(TABLES.find((x) => x.path === 'inventory/interfaces')!.key, ['sn', 'intName'])
  t.same(TABLES.find((x) => x.path === 'networks/routes')!.key, ['sn', 'vrf', 'network'])
})

for (const engine of ENGINES) {
  t.test(`keys are unique within a simulated snapshot on ${engine}`, async (t) => {
    const db = await freshDb(t, engine)
    const api = await startApp(t, db)
    await api.call('POST', 'settings/snmp', { version: '2c', community: 'public' })
    await api.call('PATCH', 'settings', { limits: { timeoutMs: 100, retries: 0 }, allowedSpecialNetworks: ['127.0.0.0/8'] })
    const network = await api.discover({ source: 'network', seeds: ['127.0.0.1'] })
    // global attributes, which the next discoveries copy into their own
    await api.call('PUT', 'attributes/global', { attributes: [{ sn: 'ANY-SN', name: 'floor', value: '3' }, { sn: 'ANY-SN', name: 'siteName', value: 'ROME-01' }] })
    // ROME-01 and BERLIN-02 of the small profile give every table rows; a second generation moves things
    await api.discover({ profile: 'small', sites: ['ROME-01', 'BERLIN-02'] })
    const id = await api.discover({ profile: 'small', sites: ['ROME-01', 'BERLIN-02'] })
    // tables netinv does not collect have no rows to key, nor those the simulator models nothing of
    for (const table of TABLES.filter((x) => x.collected !== false && !UNSIMULATED.includes(x.path))) {
      const from = table.source.kind === 'stored' ? table.source.table : `(${table.source.sql})`
      const key = (table.key ?? []).map((name) => `coalesce((${columnSql(table.columns.find((c) => c.name === name)!)})::text, '')`)
      const where = table.snapshotScoped ? 'WHERE t.snapshot_id = $1' : ''
      const snapshot = table.path === 'discovery/connectivity-report' ? network : id
      const r = await db.query<{ rows: number; keys: number }>(
        `SELECT count(*)::int AS rows, count(DISTINCT (${key.join(', ')}${key.length === 1 ? ", ''" : ''}))::int AS keys FROM ${from} t ${where}`,
        table.snapshotScoped ? [snapshot] : [],
      )
      const { rows, keys } = r.rows[0]!
      t.ok(rows > 0, `${table.path} has rows`)
      t.equal(keys, rows, `${table.path}: no two rows share a key (${table.key?.join(', ')})`)
      // a key column not declared nullable is joined as it is: a null there would never match
      for (const name of (table.key ?? []).filter((k) => !table.nullableKey?.includes(k))) {
        const nulls = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${from} t WHERE ${table.snapshotScoped ? 't.snapshot_id = $1 AND ' : ''}(${columnSql(table.columns.find((c) => c.name === name)!)}) IS NULL`,
          table.snapshotScoped ? [snapshot] : [],
        )
        t.equal(nulls.rows[0]!.n, 0, `${table.path}: key column ${name} is never null`)
      }
    }
    // a copy of another table's rows: one row per row there, its compared columns equal
    for (const table of TABLES.filter((x) => x.rowFrom)) {
      const base = TABLES.find((x) => x.path === table.rowFrom)!
      if (table.source.kind !== 'derived' || base.source.kind !== 'stored') continue
      const col = (name: string) => table.columns.find((c) => c.name === name)!
      const on = table.key!.map((name) => `b.${storageName(name)} = ${columnSql(col(name))}`).join(' AND ')
      const differ = comparedColumns(table, false).map((c) => `${columnSql(c)} IS DISTINCT FROM b.${storageName(c.name)}`)
      const r = await db.query<{ rows: number; theirs: number; differ: number }>(
        `SELECT (SELECT count(*) FROM (${table.source.sql}) t WHERE t.snapshot_id = $1)::int AS rows, (SELECT count(*) FROM ${base.source.table} WHERE snapshot_id = $1)::int AS theirs,
                (SELECT count(*) FROM (SELECT * FROM (${table.source.sql}) v WHERE v.snapshot_id = $1) t FULL JOIN (SELECT * FROM ${base.source.table} WHERE snapshot_id = $1) b ON ${on}
                  WHERE t.snapshot_id IS NULL OR b.snapshot_id IS NULL${differ.map((d) => ` OR ${d}`).join('')})::int AS differ`,
        [id],
      )
      t.ok(r.rows[0]!.rows > 0 && r.rows[0]!.rows === r.rows[0]!.theirs && r.rows[0]!.differ === 0, `${table.path}: a row per ${base.path} row, its compared columns copied`, { found: r.rows[0] })
    }
  })
}
