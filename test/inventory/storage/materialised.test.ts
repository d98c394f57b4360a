/**
 * Materialised tables, on both engines, against the SQL they replace: after a discovery (whose
 * partitions are analysed before they are computed from) every
 * materialised table's kept rows of the snapshot are the rows its SQL yields, and its pages and
 * counts through the API are the SQL's; the kept rows are what is read (changed, the answer
 * changes); a snapshot without them (detached, or dropped: not ready) is read by the SQL, and gets
 * them at the next start; a device removal, an unload and load, and a clone keep them in step; a
 * deleted snapshot leaves none; a parent no table names any more is emptied at start and dropped
 * a day later.
 */
import t from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { startApp, type Client } from '../app.js'
import { materialisedParent, materialisedPartition, materialisedPartitionName, materialisedTables, type MaterialisedTableDef } from '../../../src/inventory/catalog/materialised.js'
import { checkKept } from '../../helpers/materialised.js'
import { backfillComputed } from '../../../src/inventory/storage/partitions.js'
import { RETIRED_PARENT_MS, detachMaterialised, dropMaterialised, ensureMaterialisedParents } from '../../../src/inventory/storage/materialised.js'
import { relationState } from '../../../src/inventory/storage/snapshot-relations.js'

type Page = { data: Array<Record<string, unknown>>; _meta: { count: number } }

/** A table's first page (every column, the default sort) and its count through the API. */
async function page(api: Client, table: MaterialisedTableDef, id: string): Promise<Page> {
  const r = await api.call('POST', `tables/${table.path}`, { snapshot: id, columns: table.columns.map((c) => c.name), pagination: { start: 0, limit: 50 } })
  if (r.status !== 200) throw new Error(`${table.path}: ${r.status} ${r.text}`)
  return r.body as Page
}

async function pages(api: Client, id: string): Promise<Map<string, Page>> {
  const out = new Map<string, Page>()
  for (const table of materialisedTables()) out.set(table.path, await page(api, table, id))
  return out
}

for (const engine of ENGINES) {
  t.test(`materialised tables against their SQL (${engine})`, async (t) => {
    const db = await freshDb(t, engine)
    const api = await startApp(t, db)
    const id = await api.discover({ sites: ['ROME-01', 'PARIS-01'] })
    t.ok(materialisedTables().length >= 12, 'the per-device rates and the spanning-tree links are materialised')

    // the rows' statistics are gathered before the materialised tables are computed from them (positions are read by their index only)
    const hex = id.replace(/-/g, '')
    const unanalysed = await db.query<{ relname: string }>(
      `SELECT s.relname FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
        WHERE s.schemaname = 'inventory' AND s.relname LIKE '%\\_s\\_${hex}' AND s.relname NOT LIKE 'mv\\_%' AND s.relname NOT LIKE '%\\_positions\\_s\\_%' AND c.relkind = 'r' AND s.last_analyze IS NULL`,
    )
    t.same(unanalysed.rows, [], 'every partition of the discovery is analysed')
    await checkKept(t, db, id, 'after the discovery')
    const kept = await pages(api, id)
    for (const table of materialisedTables()) {
      const n = Number((await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${materialisedPartition(table, id)}`)).rows[0]!.n)
      t.equal(kept.get(table.path)!._meta.count, n, `${table.path}: the count is the kept rows'`)
    }
    // (the two spanning-tree inconsistencies have none here: their test's hand-made snapshot has)
    const empty = materialisedTables().filter((table) => kept.get(table.path)!._meta.count === 0).map((table) => table.path)
    t.same(empty, ['spanning-tree/inconsistencies/neighbor-ports-vlan-mismatch', 'spanning-tree/inconsistencies/ports-multiple-neighbors'], 'the other materialised tables have rows in the simulated sites')

    // the kept rows are what a page reads: changed, the answer changes
    const device = materialisedTables().find((table) => table.path === 'interfaces/transfer-rates/bidirectional-device')!
    await db.query(`UPDATE ${materialisedPartition(device, id)} SET hostname = 'kept-' || hostname`)
    t.ok(
      (await page(api, device, id)).data.every((row) => String(row.hostname).startsWith('kept-')),
      'a changed kept row is what the page shows',
    )
    await db.query(`UPDATE ${materialisedPartition(device, id)} SET hostname = substr(hostname, 6)`)

    // not ready: detached, then dropped, the SQL answers the same pages
    await db.transaction((tx) => detachMaterialised(tx, id))
    t.same(await pages(api, id), kept, 'detached: the SQL answers the same pages and counts')
    await dropMaterialised(db, id)
    t.same(await pages(api, id), kept, 'dropped: the SQL answers the same pages and counts')
    // a start computes what a snapshot lacks
    t.equal(await backfillComputed(db), 1, 'the snapshot without them gets them at start')
    t.equal(await backfillComputed(db), 0, 'once')
    await checkKept(t, db, id, 'after the backfill')
    t.same(await pages(api, id), kept, 'after the backfill: the same pages')

    // a device removal computes them again in its transaction
    const sn = (kept.get(device.path)!.data[0]!.sn as string)
    t.equal((await api.call('DELETE', `snapshots/${id}/devices`, [sn])).status, 204)
    await checkKept(t, db, id, 'after a device removal')
    t.notOk((await page(api, device, id)).data.some((row) => row.sn === sn), 'the removed device has no row')

    // unloaded: detached with the rows; loaded: attached again
    t.equal((await api.call('POST', `snapshots/${id}/unload`)).status, 204)
    for (const table of materialisedTables()) {
      const state = await relationState(db, materialisedPartitionName(table, id))
      t.ok(state.exists && !state.attached, `unloaded: ${table.path} kept, detached`)
    }
    t.equal((await api.call('POST', `snapshots/${id}/load`)).status, 204)
    await checkKept(t, db, id, 'loaded again')

    // a clone computes its own
    const clone = await api.call('POST', `snapshots/${id}/clone`)
    t.equal(clone.status, 201)
    const cloneId = (clone.body as { id: string; jobId: string }).id
    t.equal((await api.waitJob((clone.body as { jobId: string }).jobId)).status, 'done')
    t.equal((await api.call('POST', `snapshots/${cloneId}/load`)).status, 204)
    await checkKept(t, db, cloneId, 'a clone')

    // deleting a snapshot drops them
    for (const snap of [cloneId, id]) t.equal((await api.call('DELETE', `snapshots/${snap}`)).status, 204)
    const left = await db.query(`SELECT relname FROM pg_class WHERE relname LIKE 'mv\\_%\\_s\\_%'`)
    t.same(left.rows, [], 'no kept rows left of deleted snapshots')

    // a parent no table names (a release changed the SQL) loses its partitions at the next start
    // and stays a day, empty, for the services of the release before, which read the SQL then
    const stale = 'inventory.mv_000000000000'
    await db.exec(`CREATE TABLE ${stale} (snapshot_id text NOT NULL, id text) PARTITION BY LIST (snapshot_id);
      CREATE TABLE ${stale}_s_00000000000040008000000000000001 PARTITION OF ${stale} FOR VALUES IN ('00000000-0000-4000-8000-000000000001');
      INSERT INTO ${stale} VALUES ('00000000-0000-4000-8000-000000000001', 'x');
      CREATE TABLE ${stale}_s_00000000000040008000000000000002 (LIKE ${stale})`)
    const now = Date.now()
    t.same(await ensureMaterialisedParents(db, now), [], 'every current parent exists')
    const staleRelations = async () => (await db.query<{ relname: string }>("SELECT relname FROM pg_class WHERE relname LIKE 'mv\\_000000000000%' ORDER BY relname")).rows.map((r) => r.relname)
    t.same(await staleRelations(), ['mv_000000000000'], 'its partitions, attached or not, are dropped; the parent stays')
    t.same((await db.query(`SELECT * FROM ${stale}`)).rows, [], 'and reads as empty')
    await ensureMaterialisedParents(db, now + RETIRED_PARENT_MS - 1)
    t.same(await staleRelations(), ['mv_000000000000'], 'within the day it stays')
    await ensureMaterialisedParents(db, now + RETIRED_PARENT_MS)
    t.same(await staleRelations(), [], 'after a day it is dropped')
    for (const table of materialisedTables()) t.ok((await relationState(db, materialisedParent(table).split('.')[1]!)).exists, `${table.path}: its parent stays`)
  })
}
