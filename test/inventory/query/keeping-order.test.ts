/**
 * A discovery's keeping, and a `changes` request that keeps a pair, take the tables heaviest first
 * when they keep several at once, and the views kept from another table's kept rows last
 * (`query/keeping-order.ts`), on PostgreSQL where they keep several at once.
 */
import t from 'tap'
import { freshPostgres } from '../../helpers/db.js'
import { recording, type Recorder } from '../../helpers/recording-db.js'
import { startApp } from '../app.js'
import { STORED_TABLES, partitionName, type TableDef } from '../../../src/inventory/catalog/index.js'
import { COMPARABLE_TABLES } from '../../../src/inventory/query/index.js'
import { backgroundKeeping } from '../../../src/inventory/query/keeping.js'
import { keepingOrder } from '../../../src/inventory/query/keeping-order.js'
import { PAIR_ROW, recorder, sent } from './keeping.js'

/** The tables whose comparison of the pair was kept, in the order their keeping's transaction began. */
function keptInOrder(log: Recorder, pair: { older: string; newer: string }): string[] {
  return sent(log, PAIR_ROW)
    .filter((p) => p[0] === pair.newer && p[1] === pair.older && p[2] === false)
    .map((p) => String(p[3]))
}

t.test('the heaviest tables first, the views of kept rows last', async (t) => {
  const { db } = await freshPostgres(t)
  const log = recorder()
  const handle = recording(db, log)
  const api = await startApp(t, handle)
  const older = await api.discover({ profile: 'lab', seed: 5 })
  const newer = await api.discover({ profile: 'lab', seed: 5 })
  await backgroundKeeping(handle)
  const pair = { older, newer }
  const order = await keepingOrder(db, pair, COMPARABLE_TABLES)
  const paths = order.map((table) => table.path)
  t.same([...paths].sort(), COMPARABLE_TABLES.map((table) => table.path).sort(), 'every table once')

  // two lanes: a table is taken once every table three places before it in the order has ended, so
  // none begins more than two places before its own (one may begin later: its lane may still be
  // creating its relation while the other lane keeps several). In catalog order the devices,
  // which weigh little, would begin first.
  const near = (kept: string[], what: string) => {
    t.same([...kept].sort(), [...paths].sort(), `${what}: every table kept once`)
    const early = kept.map((path, i) => [path, i - paths.indexOf(path)] as const).filter(([, off]) => off < -2)
    t.same(early, [], `${what}: in that order`)
  }
  near(keptInOrder(log, pair), "the discovery's keeping")
  await db.query('DELETE FROM inventory.snapshot_changes')
  log.inTransactions = []
  const changes = await api.call('GET', `snapshots/${newer}/changes?against=${older}`)
  t.equal(changes.status, 200, changes.text)
  near(keptInOrder(log, pair), 'a changes request keeping the pair')
  await api.close()

  const fromKept = (table: TableDef) => table.rowFrom !== undefined
  const lastOther = order.findLastIndex((table) => !fromKept(table))
  const firstFromKept = order.findIndex(fromKept)
  t.ok(firstFromKept > lastOther, `the views computed from kept rows last (from ${firstFromKept}, after ${lastOther})`)
  for (const table of order.filter(fromKept)) t.ok(paths.indexOf(table.rowFrom!) < paths.indexOf(table.path), `${table.path} after ${table.rowFrom}`)

  // the stored tables among themselves: by what both snapshots' partitions hold on disk
  const size = async (table: TableDef) => {
    const names = [older, newer].map((id) => partitionName(STORED_TABLES.find((s) => s.path === table.path)!, id))
    const r = await db.query<{ bytes: string }>('SELECT coalesce(sum(pg_table_size(c.oid)), 0)::text AS bytes FROM pg_class c WHERE c.relname = ANY($1)', [names])
    return Number(r.rows[0]!.bytes)
  }
  const stored = order.filter((table) => table.source.kind === 'stored')
  const sizes = await Promise.all(stored.map(size))
  t.ok(sizes[0]! > sizes[sizes.length - 1]!, 'the lab has tables of different weights')
  t.same(sizes, [...sizes].sort((a, b) => b - a), 'the stored tables heaviest first')
  t.ok(paths.indexOf('inventory/interfaces') < paths.indexOf('inventory/devices'), 'the interfaces before the devices')
  // a derived table weighs what it reads: the radios read both snapshots' interfaces
  t.ok(paths.indexOf('wireless/radio') < paths.indexOf('inventory/devices'), 'the radios, read from the interfaces, before the devices')
})
