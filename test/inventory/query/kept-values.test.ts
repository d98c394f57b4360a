/**
 * Value counts of kept comparisons (`query/kept-values.ts`), on both engines, against the join of
 * the two snapshots they stand in for: after a pair is kept, every counted column's value counts
 * are the `GROUP BY` of the pair's kept rows, and the count of a compared request filtered on one
 * counted column is the join's, for every operator and for trees of them, volatile comparisons
 * too, and a count filtered on the kind of change alone is the pair's counts per kind; the value
 * counts are what is read (changed, the count changes); a pair without them (kept
 * by an earlier release) counts the kept rows and gets them at the next start; deleting the pair's
 * row deletes them.
 */
import t from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { startApp } from '../app.js'
import { rowsOf } from '../../helpers/materialised.js'
import { COUNTED, SCANNED, type Filters } from '../../helpers/value-filters.js'
import { testDeps } from './helpers.js'
import { storageName } from '../../../src/inventory/catalog/columns.js'
import { INTERFACES } from '../../../src/inventory/catalog/inventory.js'
import { partitionTable } from '../../../src/inventory/catalog/ddl.js'
import { COMPARABLE_TABLES, prepareTableQuery, queryTable, type TableQueryDeps } from '../../../src/inventory/query/index.js'
import { backfillKeptValues, keptComparison, keptRelation } from '../../../src/inventory/query/kept-comparison.js'

/** Filters on the kind of change alone, which the pair's counts per kind answer (with one that a second column sends to the kept rows). */
const CHANGES: Array<{ filters: Filters }> = [
  { filters: { change: ['eq', 'added'] } },
  { filters: { change: ['eq', 'removed'] } },
  { filters: { change: ['neq', 'changed'] } },
  { filters: { change: ['like', 'ed'] } },
  { filters: { or: [{ change: ['eq', 'added'] }, { change: ['eq', 'changed'] }] } },
  { filters: { change: ['eq', 'changed'], l1: ['eq', 'down'] } },
]

const FILTERS = [...COUNTED, ...SCANNED, ...CHANGES]

for (const engine of ENGINES) {
  t.test(`value counts of kept comparisons against the join (${engine})`, async (t) => {
    const db = await freshDb(t, engine)
    const api = await startApp(t, db)
    const sites = { sites: ['ROME-01', 'PARIS-01'] }
    const older = await api.discover(sites)
    const newer = await api.discover(sites)
    // differences of every kind in the interfaces: a device gone (removed rows), interfaces down
    // and described again (changed), one renamed (a removed and an added row)
    const sn = (await db.query<{ sn: string }>(`SELECT min(sn) AS sn FROM ${partitionTable(INTERFACES, newer)}`)).rows[0]!.sn
    t.equal((await api.call('DELETE', `snapshots/${newer}/devices`, [sn])).status, 204)
    const part = partitionTable(INTERFACES, newer)
    const edited = await db.query(`UPDATE ${part} SET l1 = 'down', dscr = 'moved to ' || int_name WHERE int_name ILIKE '%gi1/0/1%' AND l1 = 'up'`)
    const renamed = await db.query(`UPDATE ${part} SET int_name = int_name || '.100' WHERE id = (SELECT min(id) FROM ${part} WHERE int_name ILIKE 'gi%')`)
    t.equal(renamed.rowCount, 1, 'one interface renamed')
    t.ok((edited.rowCount ?? 0) > 0, `${edited.rowCount} interfaces changed`)
    // rows edited behind the API's back: the comparison is kept again on the next request
    await db.query('DELETE FROM inventory.snapshot_changes')

    const kept: TableQueryDeps = testDeps(db, [older, newer])
    const live: TableQueryDeps = { ...kept, keepComparisons: false }
    const count = async (deps: TableQueryDeps, filters: Filters, volatile = false) => {
      const body = { snapshot: newer, compare: { snapshot: older, volatile }, columns: ['id'], filters, pagination: { start: 0, limit: 1 } }
      return (await queryTable(deps, INTERFACES, body))._meta.count
    }
    const counts = async (deps: TableQueryDeps) => {
      const out: number[] = []
      for (const { filters } of FILTERS) out.push(await count(deps, filters))
      return out
    }

    const joined = await counts(live)
    t.ok(joined.some((n) => n > 0), `the join counts ${joined.join(', ')}`)
    t.same(await counts(kept), joined, 'every count of the kept comparison is the join\'s')
    for (const volatile of [true]) {
      for (const { filters } of FILTERS.slice(0, 4)) t.equal(await count(kept, filters, volatile), await count(live, filters, volatile), `volatile: ${JSON.stringify(filters)}`)
    }

    const pair = (await keptComparison(db, { newer, older }, false, INTERFACES))!
    const values = keptRelation(INTERFACES).values!
    t.equal(pair.values?.name, values.name, 'the pair names its value counts')
    const prepared = await prepareTableQuery(kept, INTERFACES, { snapshot: newer, compare: { snapshot: older }, columns: ['id'], filters: COUNTED[0]!.filters })
    t.match(prepared.plan.count.sql, values.name, 'a count filtered on one counted column reads them')
    const scanned = await prepareTableQuery(kept, INTERFACES, { snapshot: newer, compare: { snapshot: older }, columns: ['id'], filters: SCANNED[0]!.filters })
    t.notMatch(scanned.plan.count.sql, values.name, 'a count filtered on two columns does not')

    // a count filtered on the kind of change alone reads the pair's counts per kind
    // (a count is asked of the database only when the page is full: kinds with rows)
    const kinds = FILTERS.indexOf(CHANGES[0]!)
    t.ok(joined[kinds]! > 0 && joined[kinds + 1]! > 0, 'rows added and removed')
    t.match((await prepareTableQuery(kept, INTERFACES, { snapshot: newer, compare: { snapshot: older }, columns: ['id'], filters: CHANGES[1]!.filters })).plan.count.sql, 'snapshot_changes p CROSS JOIN LATERAL', 'planned on the counts per kind')
    await db.query('UPDATE inventory.snapshot_changes SET removed = removed + 1000 WHERE id = $1', [pair.id])
    t.equal(await count(kept, CHANGES[1]!.filters), joined[kinds + 1]! + 1000, 'a changed count per kind is what the count of `change` eq removed says')
    t.equal(await count(kept, CHANGES[0]!.filters), joined[kinds]!, 'the other kinds\' are not')
    t.equal(await count(kept, CHANGES.at(-1)!.filters), joined.at(-1)!, 'with a second column, the kept rows are counted')
    await db.query('UPDATE inventory.snapshot_changes SET removed = removed - 1000 WHERE id = $1', [pair.id])

    // what is kept: per counted column, the GROUP BY of the pair's kept rows, and the row of all of them
    const vc = `inventory."${values.name}"`
    const rel = `inventory."${keptRelation(INTERFACES).name}"`
    for (const [g, name] of (INTERFACES.valueCounts ?? []).entries()) {
      const column = `"${storageName(name)}"`
      t.same(
        await rowsOf(db, `SELECT ${column} AS value, n FROM ${vc} WHERE _pair = ${pair.id} AND g = ${g}`),
        await rowsOf(db, `SELECT ${column} AS value, count(*) AS n FROM ${rel} WHERE _pair = ${pair.id} GROUP BY 1`),
        `${name}: the kept rows' GROUP BY`,
      )
    }
    const all = await db.query<{ n: string; rows: string }>(`SELECT (SELECT n FROM ${vc} WHERE _pair = $1 AND g = -1)::text AS n, (SELECT count(*) FROM ${rel} WHERE _pair = $1)::text AS rows`, [pair.id])
    t.equal(all.rows[0]!.n, all.rows[0]!.rows, `the row of all rows: ${all.rows[0]!.n}`)

    // the value counts are what a count reads: changed, the count changes
    const matched = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${vc} WHERE _pair = $1 AND g = 2 AND int_name ILIKE '%gi1/0/1%'`, [pair.id])
    t.ok(Number(matched.rows[0]!.n) > 0, 'names match')
    await db.query(`UPDATE ${vc} SET n = n + 1000 WHERE _pair = $1 AND g = 2`, [pair.id])
    t.equal(await count(kept, COUNTED[0]!.filters), joined[0]! + 1000 * Number(matched.rows[0]!.n), 'a changed value count is what the count says')
    await db.query(`UPDATE ${vc} SET n = n - 1000 WHERE _pair = $1 AND g = 2`, [pair.id])

    // a pair kept without them (an earlier release): the kept rows are counted
    const columns = ['n', ...(INTERFACES.valueCounts ?? []).map((name) => `"${storageName(name)}"`)].join(', ')
    const written = await rowsOf(db, `SELECT g, ${columns} FROM ${vc} WHERE _pair = ${pair.id}`)
    await db.query(`DELETE FROM ${vc} WHERE _pair = $1`, [pair.id])
    t.same(await counts(kept), joined, 'without value counts, the kept rows give the same counts')
    t.equal((await keptComparison(db, { newer, older }, false, INTERFACES))?.id, pair.id, 'still kept')
    // ... and gets them at the next start, once
    t.equal(await backfillKeptValues(db, COMPARABLE_TABLES), 1, 'the start counts the pair kept without them')
    t.equal(await backfillKeptValues(db, COMPARABLE_TABLES), 0, 'once')
    t.same(await rowsOf(db, `SELECT g, ${columns} FROM ${vc} WHERE _pair = ${pair.id}`), written, 'the value counts the keeping wrote')
    t.same(await counts(kept), joined, 'the same counts')
    // through the service's start
    await db.query(`DELETE FROM ${vc} WHERE _pair = $1`, [pair.id])
    await startApp(t, db)
    const deadline = Date.now() + 60_000
    while ((await rowsOf(db, `SELECT 1 FROM ${vc} WHERE _pair = ${pair.id} AND g = -1`)).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
    t.same(await rowsOf(db, `SELECT g, ${columns} FROM ${vc} WHERE _pair = ${pair.id}`), written, 'a start of the service counts it')

    // deleting the pair's row deletes its value counts with the rows
    await db.query('DELETE FROM inventory.snapshot_changes')
    t.same(await counts(kept), joined, 'kept again: the same counts')
    const again = (await keptComparison(db, { newer, older }, false, INTERFACES))!
    const mine = async (id: string) => Number((await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${vc} WHERE _pair = $1`, [id])).rows[0]!.n)
    t.ok((await mine(again.id)) > 0, 'kept again with its value counts')
    t.equal((await api.call('DELETE', `snapshots/${older}`)).status, 204)
    t.equal(await mine(again.id), 0, 'a deleted snapshot takes its pairs\' value counts along')
    t.equal(Number((await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${vc}`)).rows[0]!.n), 0, 'none left')
  })
}
