/**
 * `GET snapshots/{id}/changes` reads counts kept per pair of snapshots: a discovery counts its
 * changes since the snapshot before it when it ends, another pair is counted on its first request
 * (only the tables not counted yet), a device removal forgets the pairs of its snapshot, and a
 * deleted snapshot takes its pairs along.
 */
import t from 'tap'
import { freshDb } from '../../helpers/db.js'
import { startApp } from '../app.js'
import { COMPARABLE_TABLES } from '../../../src/inventory/query/index.js'

type Changes = { tables: Array<{ table: string; added: number; removed: number; changed: number }> }

t.test('changes between two snapshots are counted once and kept', async (t) => {
  const db = await freshDb(t, 'pglite')
  const api = await startApp(t, db)
  const first = await api.discover({ sites: ['ROME-01'] })
  const second = await api.discover({ sites: ['ROME-01'] })
  const kept = async (newer: string, older: string, volatile = false): Promise<Map<string, number>> => {
    const r = await db.query<{ table_path: string; added: string }>('SELECT table_path, added::text FROM inventory.snapshot_changes WHERE newer = $1 AND older = $2 AND volatile = $3', [newer, older, volatile])
    return new Map(r.rows.map((row) => [row.table_path, Number(row.added)]))
  }
  const changes = async (query: string): Promise<Changes['tables']> => {
    const r = await api.call('GET', `snapshots/${second}/changes${query}`)
    t.equal(r.status, 200, `changes${query}`)
    return (r.body as Changes).tables
  }
  const devicesOf = (tables: Changes['tables']) => tables.find((x) => x.table === 'inventory/devices')!

  t.equal((await kept(first, second)).size, 0, 'nothing kept for the first discovery: there was no snapshot before it')
  t.equal((await kept(second, first)).size, COMPARABLE_TABLES.length, 'the second discovery counted its changes since the first when it ended')

  const counted = await changes('')
  t.equal(counted.length, COMPARABLE_TABLES.length)
  // What is kept is what is answered: a kept count that says otherwise is the answer.
  await db.query(`UPDATE inventory.snapshot_changes SET added = 777 WHERE newer = $1 AND table_path = 'inventory/devices'`, [second])
  t.equal(devicesOf(await changes('')).added, 777, 'the kept count is read, not counted again')
  // A table whose count is missing is counted alone, and kept.
  await db.query(`DELETE FROM inventory.snapshot_changes WHERE newer = $1 AND table_path = 'inventory/devices'`, [second])
  t.same(await changes(''), counted, 'a missing table is counted again, the same')
  t.equal((await kept(second, first)).get('inventory/devices'), devicesOf(counted).added, 'and kept')

  // Another pair (with volatile columns) is counted on its first request and kept.
  t.equal((await kept(second, first, true)).size, 0)
  const volatile = await changes('?volatile=true')
  t.equal((await kept(second, first, true)).size, COMPARABLE_TABLES.length, 'counted on the first request, kept')
  t.same(await changes('?volatile=true'), volatile)

  // Removing a device of the newer snapshot forgets its pairs; the next request counts the change.
  const sn = ((await api.call('POST', 'tables/inventory/devices', { snapshot: first, columns: ['sn'], pagination: { limit: 1 } })).body as { data: Array<{ sn: string }> }).data[0]!.sn
  t.equal((await api.call('DELETE', `snapshots/${second}/devices`, [sn])).status, 204)
  t.equal((await kept(second, first)).size, 0, 'a device removal forgets the counts of its snapshot')
  t.equal((await kept(second, first, true)).size, 0)
  const after = await changes('')
  t.equal(devicesOf(after).removed, devicesOf(counted).removed + 1, 'the removed device is counted')
  await db.query('DELETE FROM inventory.snapshot_changes')
  t.same(await changes(''), after, 'as a count from nothing says')

  // Deleting a snapshot takes its pairs along.
  t.equal((await api.call('DELETE', `snapshots/${first}`)).status, 204)
  t.equal((await db.query('SELECT 1 FROM inventory.snapshot_changes')).rows.length, 0, 'nothing kept of a deleted snapshot')
})
