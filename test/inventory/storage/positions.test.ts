/**
 * Sort positions and row counts, on both engines, against the scans they replace: after a
 * discovery every positioned table's positions are the order of `ORDER BY <column> ASC NULLS
 * LAST, id ASC NULLS LAST` and every kept row count is `count(*)`; pages at any offset, in both
 * directions, are the scan's pages; the positions are what is read (changed, the answer changes);
 * a snapshot without them (detached: not ready) is read by the scan; a device removal computes
 * them again (null sort values included); a snapshot that lost them gets them at the next start.
 */
import t, { type Test } from 'tap'
import type { Db } from '../../../src/shared/db/index.js'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { startApp, type Client } from '../app.js'
import { partitionTable, storageName } from '../../../src/inventory/catalog/index.js'
import { INTERFACES } from '../../../src/inventory/catalog/inventory.js'
import { detachPositionsSql, dropPositionsSql, positionColumn, positionedTables, positionsPartition } from '../../../src/inventory/catalog/positions.js'
import { STORED_TABLES } from '../../../src/inventory/catalog/tables.js'
import type { StoredTableDef } from '../../../src/inventory/catalog/types.js'
import { backfillComputed } from '../../../src/inventory/storage/partitions.js'

type Page = { data: Array<{ id: string }>; _meta: { count: number } }

/** The ids of a partition in the order the scan pages it. */
async function scanOrder(db: Db, table: StoredTableDef, column: string, id: string): Promise<string[]> {
  const r = await db.query<{ id: string }>(`SELECT id FROM ${partitionTable(table, id)} ORDER BY "${storageName(column)}" ASC NULLS LAST, id ASC NULLS LAST`)
  return r.rows.map((row) => row.id)
}

async function positionOrder(db: Db, table: StoredTableDef, column: string, id: string): Promise<string[]> {
  const r = await db.query<{ id: string; p: string }>(`SELECT id, ${positionColumn(column)}::text AS p FROM ${positionsPartition(table, id)} ORDER BY ${positionColumn(column)}`)
  r.rows.forEach((row, i) => {
    if (Number(row.p) !== i) throw new Error(`${table.path}: position ${row.p} at ${i}`)
  })
  return r.rows.map((row) => row.id)
}

async function checkFigures(t: Test, db: Db, id: string, when: string): Promise<void> {
  for (const table of positionedTables()) {
    for (const column of table.positions!) {
      t.same(await positionOrder(db, table, column, id), await scanOrder(db, table, column, id), `${when}: ${table.path} positions by ${column} are the scan's order`)
    }
  }
  const counts = await db.query<{ row_counts: Record<string, number> }>('SELECT row_counts FROM inventory.snapshots WHERE id = $1', [id])
  for (const table of STORED_TABLES) {
    const n = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${partitionTable(table, id)}`)
    t.equal(counts.rows[0]!.row_counts[table.path], Number(n.rows[0]!.n), `${when}: kept rows of ${table.path}`)
  }
}

/** Pages through the API against the scan, at offsets across the table, both directions (the interfaces and ARP). */
async function checkPages(t: Test, api: Client, db: Db, id: string, when: string): Promise<void> {
  for (const table of positionedTables().filter((x) => x === INTERFACES || x.path === 'addressing/arp')) {
    const column = table.positions![0]!
    const order = await scanOrder(db, table, column, id)
    const n = order.length
    for (const dir of ['asc', 'desc'] as const) {
      const list = dir === 'asc' ? order : [...order].reverse()
      for (const start of [0, Math.floor(n / 2), Math.max(0, n - 3)]) {
        const r = await api.call('POST', `tables/${table.path}`, { snapshot: id, columns: ['id'], sort: { column, order: dir }, pagination: { start, limit: 7 } })
        t.equal(r.status, 200)
        const page = r.body as Page
        t.same(page.data.map((row) => row.id), list.slice(start, start + 7), `${when}: ${table.path} ${dir} page at ${start} of ${n}`)
        t.equal(page._meta.count, n)
      }
    }
  }
}

for (const engine of ENGINES) {
  t.test(`sort positions and row counts against the scan (${engine})`, async (t) => {
    const db = await freshDb(t, engine)
    const api = await startApp(t, db)
    const id = await api.discover({ sites: ['ROME-01'] })
    const path = INTERFACES.path
    const page = async (start: number) =>
      ((await api.call('POST', `tables/${path}`, { snapshot: id, columns: ['id'], pagination: { start, limit: 5 } })).body as Page).data.map((r) => r.id)

    await checkFigures(t, db, id, 'after the discovery')
    await checkPages(t, api, db, id, 'after the discovery')

    // the positions are what a page reads: reversed, the first page is the scan's last rows
    const part = positionsPartition(INTERFACES, id)
    const n = (await scanOrder(db, INTERFACES, 'hostname', id)).length
    const scanFirst = await page(0)
    await db.query(`UPDATE ${part} SET hostname = ${n - 1} - hostname`)
    t.not((await page(0)).join(), scanFirst.join(), 'changed positions change the page')
    t.same(await page(0), (await scanOrder(db, INTERFACES, 'hostname', id)).slice(n - 5), 'the page is the rows at the changed positions, in their order')
    await db.query(`UPDATE ${part} SET hostname = ${n - 1} - hostname`)

    // not ready: positions detached, the page is read by the scan
    await db.query(detachPositionsSql(INTERFACES, id))
    await db.query(`UPDATE ${part} SET hostname = ${n - 1} - hostname`)
    t.same(await page(n - 7), (await scanOrder(db, INTERFACES, 'hostname', id)).slice(n - 7, n - 2), 'without attached positions a deep page is the scan')
    // a start computes what a snapshot lacks, and attaches what it has
    await db.query(dropPositionsSql(INTERFACES, id))
    t.equal(await backfillComputed(db), 1, 'the snapshot without positions gets them at start')
    t.equal(await backfillComputed(db), 0, 'once')
    await checkFigures(t, db, id, 'after the backfill')

    // a device removal computes them again, in its transaction; rows without a sort value go last
    await db.query(`UPDATE ${partitionTable(INTERFACES, id)} SET hostname = NULL WHERE id IN (SELECT id FROM ${partitionTable(INTERFACES, id)} ORDER BY id LIMIT 3)`)
    const sn = ((await api.call('POST', 'tables/inventory/devices', { snapshot: id, columns: ['sn'], pagination: { limit: 1 } })).body as { data: Array<{ sn: string }> }).data[0]!.sn
    const before = n
    t.equal((await api.call('DELETE', `snapshots/${id}/devices`, [sn])).status, 204)
    await checkFigures(t, db, id, 'after a device removal')
    const after = (await scanOrder(db, INTERFACES, 'hostname', id)).length
    t.ok(after < before, 'the removed device took its interfaces along')
    await checkPages(t, api, db, id, 'after a device removal')
    const beyond = await api.call('POST', `tables/${path}`, { snapshot: id, columns: ['id'], sort: { column: 'hostname', order: 'desc' }, pagination: { start: after + 5, limit: 5 } })
    t.same((beyond.body as Page).data, [], 'a page past the end is empty')

    // deleting the snapshot drops them
    t.equal((await api.call('DELETE', `snapshots/${id}`)).status, 204)
    const left = await db.query("SELECT relname FROM pg_class WHERE relname LIKE '%_positions_s_%'")
    t.same(left.rows, [], 'no positions left of a deleted snapshot')
  })
}
