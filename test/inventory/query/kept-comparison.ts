/**
 * A kept comparison answers what the join of the two snapshots answers, byte for byte: pages,
 * sorts, filters (on `change`, `diff` and the table's columns), counts and volatile comparisons,
 * for every comparable table, on both engines, with the rules that keep noise out (null key
 * columns equal, order-free lists as sets, volatile columns). The kept rows are what is read; a
 * device removal or rediscovery forgets them in its transaction (a rediscovery keeps the comparison
 * with the previous snapshot again when it ends); a statement whose kept rows are gone when it
 * starts reads the join.
 */
import type { Test } from 'tap'
import { freshDb } from '../../helpers/db.js'
import { startApp } from '../app.js'
import { findTable } from '../../../src/inventory/catalog/index.js'
import { Deadline, type Db } from '../../../src/shared/db/index.js'
import { COMPARABLE_TABLES, prepareTableQuery, queryTable, runTableQuery, type TableQueryDeps } from '../../../src/inventory/query/index.js'
import { dropForgottenPartitions, keepComparison, keptComparison, keptRelation } from '../../../src/inventory/query/kept-comparison.js'
import { recording } from '../../helpers/recording-db.js'
import { backgroundKeeping } from '../../../src/inventory/query/keeping.js'
import { testDeps } from './helpers.js'

type Body = Record<string, unknown>

/** The requests compared on a table: pages and sorts, filters, counts, volatile columns. */
function requests(path: string, compare: string, detailed: boolean): Body[] {
  const table = findTable(path)!
  const names = table.columns.map((c) => c.name)
  const text = table.columns.find((c) => c.type === 'string' && !table.key!.includes(c.name) && c.name !== 'id')
  const base = { columns: names, compare: { snapshot: compare } }
  const out: Body[] = [
    { ...base, pagination: { start: 0, limit: 1000 } },
    { ...base, compare: { snapshot: compare, volatile: true }, pagination: { start: 0, limit: 1000 } },
  ]
  if (!detailed) return out
  out.push(
    { ...base, pagination: { start: 0, limit: 0 } },
    { ...base, pagination: { start: 0, limit: 7 }, sort: { column: names[1]!, order: 'desc' } },
    { ...base, pagination: { start: 7, limit: 7 }, sort: { column: names[1]!, order: 'desc' } },
    { ...base, pagination: { start: 3, limit: 5 }, sort: { column: 'change', order: 'asc' } },
    { ...base, filters: { change: ['eq', 'changed'] }, pagination: { start: 0, limit: 1000 } },
    { ...base, filters: { change: ['eq', 'removed'] }, pagination: { start: 0, limit: 2 } },
    { ...base, filters: { diff: ['empty', true] }, pagination: { start: 0, limit: 1000 } },
    { ...base, filters: { diff: ['like', 'old'] }, pagination: { start: 0, limit: 3 } },
    { ...base, columns: ['id', 'change', table.key![0]!], pagination: { start: 0, limit: 1000 }, sort: { column: table.key![0]!, order: 'asc' } },
    { ...base, compare: { snapshot: compare, volatile: true }, filters: { change: ['eq', 'changed'] }, pagination: { start: 0, limit: 4 } },
  )
  if (text) out.push({ ...base, filters: { [text.name]: ['like', 'a'] }, pagination: { start: 1, limit: 3 }, sort: { column: text.name, order: 'asc' } })
  return out
}

/**
 * Noise, not change, in the two snapshots: order-free lists reordered in the newer, and a value of
 * each nullable key column (the catalog says it may be null and matches null to '') made null in
 * the older and '' in the newer. Answers the tables it touched.
 */
async function addNoise(db: Db, first: string, second: string): Promise<{ lists: number; nullKeys: number; tables: string[] }> {
  const protocols = await db.query(
    `UPDATE inventory.neighbors n SET protocols = ARRAY(SELECT p FROM unnest(n.protocols) WITH ORDINALITY x(p, i) ORDER BY i DESC)
      WHERE n.snapshot_id = $1 AND cardinality(n.protocols) > 1`,
    [second],
  )
  const gateways = await db.query(`UPDATE inventory.hosts SET gateways = gateways || gateways WHERE snapshot_id = $1 AND jsonb_array_length(gateways) > 0`, [second])
  const tables = ['neighbors/all', 'addressing/hosts']
  let nullKeys = 0
  for (const table of COMPARABLE_TABLES) {
    if (table.source.kind !== 'stored') continue
    for (const name of table.nullableKey ?? []) {
      if (table.columns.find((c) => c.name === name)?.type !== 'string') continue
      const column = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
      const from = `FROM ${table.source.table} WHERE snapshot_id IN ($1, $2)`
      const r = await db.query<{ v: string | null; empty: boolean }>(`SELECT min(${column}) AS v, bool_or(coalesce(${column}, '') = '') AS empty ${from}`, [first, second])
      if (r.rows[0]?.v == null || r.rows[0].empty) continue
      const v = r.rows[0].v
      await db.query(`UPDATE ${table.source.table} SET ${column} = NULL WHERE snapshot_id = $1 AND ${column} = $2`, [first, v])
      nullKeys += (await db.query(`UPDATE ${table.source.table} SET ${column} = '' WHERE snapshot_id = $1 AND ${column} = $2`, [second, v])).rowCount ?? 0
      tables.push(table.path)
    }
  }
  return { lists: (protocols.rowCount ?? 0) + (gateways.rowCount ?? 0), nullKeys, tables }
}

/**
 * Changes only the counters show, made in the newer snapshot: an interface's speed and another's
 * description (compared), a device's error and drop rates (volatile), an interface gone, a device's
 * counters all gone. Every view of the counters is computed from them (a per-device view sums a
 * device's rows), and keeps its comparison by reading only the devices whose counters differ, so
 * each of its answers must still be the join's. Answers the devices changed.
 */
async function changeCounters(db: Db, second: string): Promise<string[]> {
  const r = await db.query<{ sn: string }>('SELECT sn FROM inventory.counters WHERE snapshot_id = $1 GROUP BY sn HAVING count(*) > 2 ORDER BY sn LIMIT 5', [second])
  const devices = r.rows.map((row) => row.sn)
  const [speed, dscr, rates, oneGone, allGone] = devices
  const first = `(SELECT min(int_name) FROM inventory.counters WHERE snapshot_id = $1 AND sn = $2)`
  await db.query(`UPDATE inventory.counters SET speed_value = coalesce(speed_value, 0) + 1000 WHERE snapshot_id = $1 AND sn = $2 AND int_name = ${first}`, [second, speed])
  await db.query(`UPDATE inventory.counters SET dscr = coalesce(dscr, '') || ' (moved)' WHERE snapshot_id = $1 AND sn = $2 AND int_name = ${first}`, [second, dscr])
  await db.query('UPDATE inventory.counters SET in_err_pkts = in_err_pkts + 7, out_drop_pkts = out_drop_pkts + 3 WHERE snapshot_id = $1 AND sn = $2', [second, rates])
  await db.query(`DELETE FROM inventory.counters WHERE snapshot_id = $1 AND sn = $2 AND int_name = ${first}`, [second, oneGone])
  await db.query('DELETE FROM inventory.counters WHERE snapshot_id = $1 AND sn = $2', [second, allGone])
  return devices
}

/** The whole check on one engine (one test file per engine: two discoveries each). */
export async function keptComparisonsAnswerAsTheJoin(t: Test, engine: 'postgres' | 'pglite'): Promise<void> {
  {
    const began = Date.now()
    const db = await freshDb(t, engine)
    const api = await startApp(t, db)
    const first = await api.discover({ profile: 'lab', seed: 11 })
    const second = await api.discover({ profile: 'lab', seed: 11 })
    t.comment(`two discoveries: ${((Date.now() - began) / 1000).toFixed(1)} s`)
    const changes = async () => ((await api.call('GET', `snapshots/${second}/changes`)).body as { tables: Array<{ table: string }> }).tables
    const before = await changes()
    const noise = await addNoise(db, first, second)
    t.ok(noise.lists > 0 && noise.nullKeys > 0, `${noise.lists} lists reordered, ${noise.nullKeys} key values null in the older snapshot and '' in the newer`)
    // rows edited behind the API's back: what the discovery kept no longer holds
    await db.query('DELETE FROM inventory.snapshot_changes')
    const after = await changes()
    const touched = (list: typeof before) => list.filter((c) => noise.tables.includes(c.table))
    t.same(touched(after), touched(before), `noise is no change: ${noise.tables.join(', ')}`)
    const countersChanged = await changeCounters(db, second)
    t.equal(countersChanged.length, 5, `counters changed on ${countersChanged.join(', ')}`)
    await db.query('DELETE FROM inventory.snapshot_changes')

    const live: TableQueryDeps = { ...testDeps(db, [first, second]), keepComparisons: false }
    const kept: TableQueryDeps = testDeps(db, [first, second])
    const answer = async (deps: TableQueryDeps, path: string, body: Body) => JSON.stringify(await queryTable(deps, findTable(path)!, { snapshot: second, ...body }))

    const detailed = new Set(['inventory/interfaces', 'inventory/devices', 'neighbors/all', 'addressing/hosts', 'addressing/arp', 'neighbors/unmanaged'])
    let differences = 0
    for (const table of COMPARABLE_TABLES) {
      for (const body of requests(table.path, first, detailed.has(table.path))) {
        const [fromJoin, fromKept] = [await answer(live, table.path, body), await answer(kept, table.path, body)]
        if (fromJoin !== fromKept) t.fail(`${table.path} ${JSON.stringify(body)}`, { found: fromKept.slice(0, 400), wanted: fromJoin.slice(0, 400) })
        differences += (JSON.parse(fromJoin) as { _meta: { count: number } })._meta.count
      }
      t.ok(await keptComparison(db, { newer: second, older: first }, false, table), `${table.path}: kept`)
    }
    t.comment(`every table compared: ${((Date.now() - began) / 1000).toFixed(1)} s`)
    t.ok(differences > 0, `the two snapshots differ (${differences} rows in all answers)`)
    t.pass(`every answer of ${COMPARABLE_TABLES.length} tables is the join's`)

    // no noise: reordered lists and null keys written as '' are no change, kept or not
    const neighbors = JSON.parse(await answer(kept, 'neighbors/all', { columns: ['id'], compare: { snapshot: first }, pagination: { limit: 1000 } })) as { data: Array<{ diff: Record<string, unknown> | null }> }
    t.notOk(neighbors.data.some((row) => row.diff && 'protocols' in row.diff), 'protocols in another order are no change')

    // a view of the counters reads only the devices whose counters differ: a device changed behind
    // the counters' kept comparison (which still holds) is not seen by a view kept after it
    const load = findTable('interfaces/load')!
    const pairOf = { newer: second, older: first }
    const quiet = await db.query<{ sn: string }>('SELECT min(sn) AS sn FROM inventory.counters WHERE snapshot_id = $1 AND NOT (sn = ANY ($2))', [second, countersChanged])
    await db.query(`UPDATE inventory.counters SET hostname = hostname || '-renamed' WHERE snapshot_id = $1 AND sn = $2`, [second, quiet.rows[0]!.sn])
    await db.query('DELETE FROM inventory.snapshot_changes WHERE newer = $1 AND table_path = $2', [second, load.path])
    t.ok(await keptComparison(db, pairOf, false, findTable('interfaces/counters')!), 'the counters stay kept')
    const onlyChanged = { columns: ['sn'], compare: { snapshot: first }, filters: { sn: ['eq', quiet.rows[0]!.sn] }, pagination: { limit: 0 } }
    const count = async (deps: TableQueryDeps) => (JSON.parse(await answer(deps, load.path, onlyChanged)) as { _meta: { count: number } })._meta.count
    t.equal(await count(kept), 0, `${load.path} kept from the devices the counters' differences name: not ${quiet.rows[0]!.sn}`)
    t.ok((await count(live)) > 0, 'which the join sees')
    await db.query('DELETE FROM inventory.snapshot_changes WHERE newer = $1', [second])
    t.ok((await count(kept)) > 0, 'kept again with the counters, it is there')

    // what is answered is what is kept (and the count of an unfiltered request is the kept count)
    const interfaces = findTable('inventory/interfaces')!
    // a page reads the pair's rows in the default order from one index, which leads with the pair
    const indexes = await db.query<{ indexname: string; indexdef: string }>(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'inventory' AND tablename = $1`, [
      keptRelation(interfaces).name,
    ])
    t.same(
      indexes.rows.map((r) => [r.indexname, r.indexdef.replace(/^.* USING btree /, '')]),
      [[keptRelation(interfaces).pageIndex, '(_pair, hostname, id, change)']],
      'one index: the pair, the default sort column, id, change',
    )
    // a relation kept by an earlier release (one table for every pair, an index on the pair alone) becomes the first partition, its pairs still read
    const relation = `inventory."${keptRelation(interfaces).name}"`
    const firstPartition = `${keptRelation(interfaces).partitions}_0`
    const wholePage = { columns: interfaces.columns.map((c) => c.name), compare: { snapshot: first }, pagination: { start: 0, limit: 1000 } }
    const asBefore = await answer(kept, 'inventory/interfaces', wholePage)
    await db.query(`CREATE TABLE inventory.earlier AS SELECT * FROM ${relation}`)
    await db.query(`DROP TABLE ${relation}`)
    await db.query(`ALTER TABLE inventory.earlier RENAME TO "${keptRelation(interfaces).name}"`)
    await db.query(`CREATE INDEX ON ${relation} (_pair)`)
    const earlier = recording(db, { statements: [], transactions: 0, timeouts: [] })
    t.equal(await answer(kept, 'inventory/interfaces', wholePage), asBefore, 'an earlier relation: its pair is read')
    t.ok(await keepComparison(earlier, { newer: second, older: first }, false, interfaces, Deadline.after(60_000)), 'still kept when first used')
    t.equal(await answer(kept, 'inventory/interfaces', wholePage), asBefore, 'and read through the partitioned relation as before')
    const kinds = await db.query<{ name: string; kind: string }>(`SELECT relname AS name, relkind::text AS kind FROM pg_class WHERE relname = ANY($1) ORDER BY relname`, [[keptRelation(interfaces).name, firstPartition]])
    t.same(kinds.rows, [{ name: firstPartition, kind: 'r' }, { name: keptRelation(interfaces).name, kind: 'p' }].sort((a, b) => (a.name < b.name ? -1 : 1)), 'partitioned, the earlier rows its first partition')
    const upgraded = await db.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'inventory' AND tablename = $1`, [firstPartition])
    t.same(upgraded.rows.map((r) => r.indexdef.replace(/^.* USING btree /, '')), ['(_pair, hostname, id, change)'], 'an earlier relation: its index on the pair replaced by the page index')
    const pair = { newer: second, older: first }
    const k = (await keptComparison(db, pair, false, interfaces))!
    await db.query(`UPDATE inventory."${keptRelation(interfaces).name}" SET "change" = 'removed' WHERE _pair = $1`, [k.id])
    // (with a second column: a count filtered on `change` alone sums the pair's counts per kind)
    const tampered = JSON.parse(await answer(kept, 'inventory/interfaces', { columns: ['id'], compare: { snapshot: first }, filters: { change: ['eq', 'removed'], id: ['empty', false] }, pagination: { limit: 0 } })) as { _meta: { count: number } }
    const total = await db.query<{ n: number }>(`SELECT (added + removed + changed)::int AS n FROM inventory.snapshot_changes WHERE id = $1`, [k.id])
    t.equal(tampered._meta.count, total.rows[0]!.n, 'the kept rows are read')
    await db.query(`DELETE FROM inventory.snapshot_changes WHERE id = $1`, [k.id])

    // a statement whose kept rows are gone when it starts reads the join
    const whole = { columns: interfaces.columns.map((c) => c.name), compare: { snapshot: first }, pagination: { start: 0, limit: 1000 } }
    const body = { snapshot: second, ...whole }
    const prepared = await prepareTableQuery(kept, interfaces, body)
    t.match(prepared.plan.select.sql, /UNION ALL/, 'planned on kept rows')
    await db.query(`DELETE FROM inventory.snapshot_changes WHERE newer = $1 AND table_path = 'inventory/interfaces'`, [second])
    t.equal(JSON.stringify(await runTableQuery(kept, prepared)), await answer(live, 'inventory/interfaces', whole), 'the join answers')

    // a device removal forgets the kept rows of its snapshot's pairs in its transaction
    await answer(kept, 'inventory/interfaces', { ...whole, pagination: { limit: 1 } })
    const rows = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM inventory."${keptRelation(interfaces).name}"`)).rows[0]!.n
    t.ok((await rows()) > 0, 'kept again on the next request')
    const sn = (JSON.parse(await answer(live, 'inventory/devices', { columns: ['sn'], pagination: { limit: 1 } })) as { data: Array<{ sn: string }> }).data[0]!.sn
    const keptPair = (await keptComparison(db, pair, false, interfaces))!
    const partition = `${keptRelation(interfaces).partitions}_${keptPair.id}`
    const partitionOf = async () =>
      (await db.query<{ parent: string }>('SELECT p.relname AS parent FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent WHERE c.relname = $1', [partition])).rows.map((r) => r.parent)
    t.same(await partitionOf(), [keptRelation(interfaces).name], "the pair's rows are a partition of their own")
    t.equal((await api.call('DELETE', `snapshots/${second}/devices`, [sn])).status, 204)
    t.equal(await rows(), 0, 'a device removal forgets the kept rows')
    t.ok((await dropForgottenPartitions(db, COMPARABLE_TABLES)) > 0, 'the partitions of forgotten pairs are dropped')
    t.same(await partitionOf(), [], "the pair's among them")
    t.equal(await dropForgottenPartitions(db, COMPARABLE_TABLES), 0, 'once')
    for (const path of ['inventory/interfaces', 'inventory/devices']) {
      const request = { columns: findTable(path)!.columns.map((c) => c.name), compare: { snapshot: first }, pagination: { start: 0, limit: 1000 } }
      t.equal(await answer(kept, path, request), await answer(live, path, request), `${path} after the removal: the join's answer`)
    }

    // a rediscovery forgets them in its transaction and keeps the comparison with the previous snapshot again when it ends
    const other = (JSON.parse(await answer(live, 'inventory/devices', { columns: ['sn'], pagination: { start: 1, limit: 1 } })) as { data: Array<{ sn: string }> }).data[0]!.sn
    await db.query('DELETE FROM inventory.snapshot_changes')
    const started = await api.call('POST', `snapshots/${second}/devices`, { snList: [other] })
    t.equal(started.status, 202, started.text)
    t.match(await api.waitJob((started.body as { jobId: string }).jobId), { status: 'done' })
    await backgroundKeeping(db)
    t.ok(await keptComparison(db, pair, false, interfaces), 'the rediscovery kept the comparison with the previous snapshot (in the background, once it ended)')
    const request = { ...whole, filters: { change: ['eq', 'changed'] } }
    t.equal(await answer(kept, 'inventory/interfaces', request), await answer(live, 'inventory/interfaces', request), 'which answers as the join')

    // no foreign key checks each kept row as it is written: deleting a snapshot takes its pairs'
    // rows (their foreign key to it) and their kept rows (the trigger of snapshot_changes) along
    const keys = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_constraint WHERE contype = 'f' AND confrelid = 'inventory.snapshot_changes'::regclass`)
    t.equal(keys.rows[0]!.n, 0, 'no kept relation has a foreign key to its pair')
    t.ok((await rows()) > 0, 'rows kept before the snapshot is deleted')
    t.equal((await api.call('DELETE', `snapshots/${first}`)).status, 204)
    t.equal(await rows(), 0, 'a deleted snapshot takes the kept rows of its pairs along')
  }
}
