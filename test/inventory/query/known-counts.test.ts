/**
 * A request without filters answers the count of rows measured once when the snapshot's rows came
 * in, instead of scanning the table for every page: the figure agrees with the rows, a device
 * removal counts again in its transaction, a filter still scans, and a snapshot measured before
 * the figures existed scans until it is measured at start.
 */
import t from 'tap'
import { freshDb } from '../../helpers/db.js'
import { startApp } from '../app.js'
import { STORED_TABLES, partitionTable } from '../../../src/inventory/catalog/index.js'

type Meta = { _meta: { count: number } }

t.test('counts of requests without filters come from the figures measured with the rows', async (t) => {
  const db = await freshDb(t, 'pglite')
  let api = await startApp(t, db)
  const id = await api.discover({ sites: ['ROME-01'] })
  const figures = async (): Promise<Record<string, number> | null> =>
    (await db.query<{ row_counts: Record<string, number> | null }>('SELECT row_counts FROM inventory.snapshots WHERE id = $1', [id])).rows[0]!.row_counts
  const scanned = async (path: string): Promise<number> => {
    const table = STORED_TABLES.find((x) => x.path === path)!
    return Number((await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${partitionTable(table, id)}`)).rows[0]!.n)
  }
  const count = async (path: string, extra: Record<string, unknown> = {}): Promise<number> => {
    const r = await api.call('POST', `tables/${path}`, { snapshot: id, columns: ['id'], pagination: { limit: 1 }, ...extra })
    t.equal(r.status, 200, `${path} answers`)
    return (r.body as Meta)._meta.count
  }

  const measured = await figures()
  t.ok(measured, 'the rows of each table are counted when the discovery ends')
  for (const table of STORED_TABLES) t.equal(measured![table.path], await scanned(table.path), `${table.path}: ${measured![table.path]} rows`)
  const devices = measured!['inventory/devices']!
  t.ok(devices > 1, 'the discovery found devices')
  t.equal(await count('inventory/devices'), devices)

  // The answer is the figure, not a scan: a figure that says otherwise is what the request answers.
  await db.query(`UPDATE inventory.snapshots SET row_counts = jsonb_set(row_counts, '{inventory/devices}', '12345') WHERE id = $1`, [id])
  t.equal(await count('inventory/devices'), 12345, 'without filters, the measured figure is the count')
  t.equal(await count('inventory/devices', { filters: { hostname: ['like', ''] } }), devices, 'with a filter, the rows are counted')
  await db.query(`UPDATE inventory.snapshots SET row_counts = jsonb_set(row_counts, '{inventory/devices}', $2::jsonb) WHERE id = $1`, [id, String(devices)])

  // Removing a device counts again, in the same transaction as the rows leave.
  const sn = ((await api.call('POST', 'tables/inventory/devices', { snapshot: id, columns: ['sn'], pagination: { limit: 1 } })).body as { data: Array<{ sn: string }> }).data[0]!.sn
  const interfacesBefore = await scanned('inventory/interfaces')
  t.equal((await api.call('DELETE', `snapshots/${id}/devices`, [sn])).status, 204, 'a device is removed')
  const after = await figures()
  t.equal(after!['inventory/devices'], devices - 1, 'one device fewer')
  t.equal(after!['inventory/interfaces'], await scanned('inventory/interfaces'), 'its interfaces left the figure too')
  t.ok(after!['inventory/interfaces']! < interfacesBefore, 'and there were some')
  t.equal(await count('inventory/devices'), devices - 1)

  // A snapshot measured before the figures existed: its counts are scanned until it is measured.
  await db.query('UPDATE inventory.snapshots SET row_counts = NULL WHERE id = $1', [id])
  t.equal(await count('inventory/devices'), devices - 1, 'without figures, the count is scanned')
  await api.close()
  api = await startApp(t, db)
  t.same(await figures(), after, 'measured again at start')
})
