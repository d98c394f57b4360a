/**
 * Value counts (`catalog/value-counts.ts`), on both engines, against the scan they replace: after a
 * discovery every counted column's value counts are the rows' `GROUP BY`, and the count of a request
 * filtered on one counted column is the scan's, for every operator a value filter has and for
 * trees of them; the value counts are what is read (changed, the count changes); a request filtered
 * on two columns, or on a column not counted, counts by the scan; a snapshot without them
 * (detached, or dropped: not ready) counts by the scan and gets them at the next start; a device
 * removal, an unload and load, and a clone keep them in step; a deleted snapshot leaves none; the
 * frozen migration makes the parent the catalog describes.
 */
import t, { type Test } from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { startApp, type Client } from '../app.js'
import { rowsOf } from '../../helpers/materialised.js'
import type { Db } from '../../../src/shared/db/index.js'
import { INTERFACES } from '../../../src/inventory/catalog/inventory.js'
import { partitionTable } from '../../../src/inventory/catalog/ddl.js'
import { storageName } from '../../../src/inventory/catalog/columns.js'
import { countedTables, detachValuesSql, dropValuesSql, valuesParentSql, valuesPartition, valuesPartitionName } from '../../../src/inventory/catalog/value-counts.js'
import { VALUE_COUNTS_SQL } from '../../../src/inventory/migrations/value-counts.js'
import { backfillComputed } from '../../../src/inventory/storage/partitions.js'
import { relationState } from '../../../src/inventory/storage/snapshot-relations.js'
import { COUNTED, SCANNED, type Filters } from '../../helpers/value-filters.js'

async function apiCount(api: Client, id: string, filters: Filters): Promise<number> {
  const r = await api.call('POST', 'tables/inventory/interfaces', { snapshot: id, columns: ['id', 'hostname'], filters, pagination: { start: 0, limit: 1 } })
  if (r.status !== 200) throw new Error(`${JSON.stringify(filters)}: ${r.status} ${r.text}`)
  return (r.body as { _meta: { count: number } })._meta.count
}

async function scanCount(db: Db, id: string, where: string): Promise<number> {
  const r = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${partitionTable(INTERFACES, id)} WHERE ${where}`)
  return Number(r.rows[0]!.n)
}

async function apiCounts(api: Client, id: string): Promise<number[]> {
  const out: number[] = []
  for (const { filters } of [...COUNTED, ...SCANNED]) out.push(await apiCount(api, id, filters))
  return out
}

/** Every count through the API is the scan's, and every counted column's value counts are attached and are the rows' GROUP BY. */
async function checkCounts(t: Test, db: Db, api: Client, id: string, when: string): Promise<void> {
  for (const { filters, where } of [...COUNTED, ...SCANNED]) t.equal(await apiCount(api, id, filters), await scanCount(db, id, where), `${when}: ${JSON.stringify(filters)}`)
  for (const table of countedTables()) {
    t.ok((await relationState(db, valuesPartitionName(table, id))).attached, `${when}: ${table.path} value counts attached`)
    for (const [g, name] of (table.valueCounts ?? []).entries()) {
      const column = `"${storageName(name)}"`
      t.same(
        await rowsOf(db, `SELECT ${column} AS value, n FROM ${valuesPartition(table, id)} WHERE g = ${g}`),
        await rowsOf(db, `SELECT ${column} AS value, count(*) AS n FROM ${partitionTable(table, id)} GROUP BY 1`),
        `${when}: ${table.path} ${name}: the rows' GROUP BY`,
      )
    }
  }
}

t.test('the migration makes the parent the catalog describes', async (t) => {
  t.same(
    VALUE_COUNTS_SQL.trim().split('\n'),
    countedTables().map((table) => `${valuesParentSql(table)};`),
  )
})

for (const engine of ENGINES) {
  t.test(`value counts against the scan (${engine})`, async (t) => {
    const db = await freshDb(t, engine)
    const api = await startApp(t, db)
    const id = await api.discover({ sites: ['ROME-01', 'PARIS-01'] })
    await checkCounts(t, db, api, id, 'after the discovery')
    const counts = await apiCounts(api, id)
    t.comment(`counts: ${counts.join(', ')}`)

    // the value counts are what a count reads: changed, the count changes
    const like = COUNTED[0]!
    const matched = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${valuesPartition(INTERFACES, id)} WHERE g = 2 AND int_name ILIKE '%gi1/0/1%'`)
    await db.query(`UPDATE ${valuesPartition(INTERFACES, id)} SET n = n + 1000 WHERE g = 2`)
    t.equal(await apiCount(api, id, like.filters), counts[0]! + 1000 * Number(matched.rows[0]!.n), 'a changed value count is what the count says')
    t.equal(await apiCount(api, id, SCANNED[0]!.filters), counts[COUNTED.length]!, 'a filter on two columns is counted by the scan')
    await db.query(`UPDATE ${valuesPartition(INTERFACES, id)} SET n = n - 1000 WHERE g = 2`)

    // not ready: detached, then dropped, the scan answers the same counts
    await db.query(detachValuesSql(INTERFACES, id))
    t.same(await apiCounts(api, id), counts, 'detached: the scan answers the same counts')
    await db.query(dropValuesSql(INTERFACES, id))
    t.same(await apiCounts(api, id), counts, 'dropped: the scan answers the same counts')
    t.equal(await backfillComputed(db), 1, 'the snapshot without them gets them at start')
    t.equal(await backfillComputed(db), 0, 'once')
    await checkCounts(t, db, api, id, 'after the backfill')

    // a device removal computes them again in its transaction
    const sn = (await db.query<{ sn: string }>(`SELECT sn FROM ${partitionTable(INTERFACES, id)} WHERE int_name ILIKE '%gi1/0/1%' LIMIT 1`)).rows[0]!.sn
    t.equal((await api.call('DELETE', `snapshots/${id}/devices`, [sn])).status, 204)
    await checkCounts(t, db, api, id, 'after a device removal')
    t.ok((await apiCount(api, id, like.filters)) < counts[0]!, 'the removed device\'s interfaces are no longer counted')

    // unloaded: detached with the rows; loaded: attached again
    t.equal((await api.call('POST', `snapshots/${id}/unload`)).status, 204)
    const state = await relationState(db, valuesPartitionName(INTERFACES, id))
    t.ok(state.exists && !state.attached, 'unloaded: kept, detached')
    t.equal((await api.call('POST', `snapshots/${id}/load`)).status, 204)
    await checkCounts(t, db, api, id, 'loaded again')

    // a clone computes its own
    const clone = await api.call('POST', `snapshots/${id}/clone`)
    t.equal(clone.status, 201)
    const cloneId = (clone.body as { id: string }).id
    t.equal((await api.waitJob((clone.body as { jobId: string }).jobId)).status, 'done')
    t.equal((await api.call('POST', `snapshots/${cloneId}/load`)).status, 204)
    await checkCounts(t, db, api, cloneId, 'a clone')

    // deleting a snapshot drops them
    for (const snap of [cloneId, id]) t.equal((await api.call('DELETE', `snapshots/${snap}`)).status, 204)
    const left = await db.query(`SELECT relname FROM pg_class WHERE relname LIKE '%\\_values\\_s\\_%'`)
    t.same(left.rows, [], 'no value counts left of deleted snapshots')
  })
}
