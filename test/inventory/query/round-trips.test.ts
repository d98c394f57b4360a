/**
 * The statement timeout costs no round trip: a table query on PostgreSQL sends its page (and,
 * when needed, its count) and nothing else — no transaction, no SET — on connections that carry
 * the timeout from their start, while the rest of the database stays unbounded for long work.
 * A comparison of two snapshots is the exception: each of its statements (page, count, CSV
 * cursor) runs in a transaction of its own that sets the comparison's settings first.
 */
import t from 'tap'
import { freshPglite, freshPostgres } from '../../helpers/db.js'
import { notFound } from '../../../src/shared/errors.js'
import { COMPARISON_SETTINGS, prepareTableQuery, queryTable, streamTableCsv } from '../../../src/inventory/query/index.js'
import type { Db } from '../../../src/shared/db/index.js'
import type { TableDef } from '../../../src/inventory/catalog/types.js'
import type { ServerResponse } from 'node:http'
import { ITEMS, createItems, insertItems, sampleItems } from './fixture.js'
import { testDeps } from './helpers.js'
import { recording, type Recorder } from '../../helpers/recording-db.js'

t.test('a table query is one statement per answer part, under the timeout, on PostgreSQL', async (t) => {
  const { db } = await freshPostgres(t)
  await createItems(db)
  await insertItems(db, 's1', sampleItems())
  const log: Recorder = { statements: [], transactions: 0, timeouts: [] }
  const deps = testDeps(recording(db, log), ['s1'])

  const filtered = await queryTable(deps, ITEMS, { snapshot: 's1', columns: ['id'], filters: { count: ['gt', 5] } })
  t.equal(filtered._meta.count, 2)
  t.equal(log.transactions, 0, 'no transaction around the statement')
  t.equal(log.statements.length, 1, `a filtered short page is one statement: ${JSON.stringify(log.statements)}`)
  t.notMatch(log.statements.join('\n'), /statement_timeout|set_config|BEGIN/i)
  t.same(log.timeouts, [10000], 'run on the bounded view of the configured timeout')

  log.statements = []
  const unfiltered = await queryTable(deps, ITEMS, { snapshot: 's1', columns: ['id'], pagination: { start: 0, limit: 2 } })
  t.same(unfiltered._meta, { limit: 2, start: 0, count: 5, size: 2 })
  t.equal(log.statements.length, 2, 'page and count, nothing else')
  t.equal(log.transactions, 0)
})

t.test('bounded connections carry the timeout; the database itself stays unbounded', async (t) => {
  const { db } = await freshPostgres(t)
  const bounded = db.withStatementTimeout(1234)
  t.equal(db.withStatementTimeout(1234), bounded, 'one pool per timeout, reused')
  const setting = async (d: Db) => (await d.query<{ v: string }>("SELECT current_setting('statement_timeout') AS v")).rows[0]?.v
  t.equal(await setting(bounded), '1234ms')
  t.equal(await setting(db), '0', 'long work (loads, index builds, exports) is not bounded')
  const err = await db.withStatementTimeout(50).query('SELECT pg_sleep(1)').then(
    () => null,
    (e: unknown) => e,
  )
  t.match(err, { code: '57014' }, 'the bounded view stops a long statement')
})

t.test('PGlite has a bounded view too: its limit stops a statement (docs/tables.md says how)', async (t) => {
  const db = await freshPglite(t)
  const bounded = db.withStatementTimeout(100)
  t.not(bounded, db)
  t.match(await bounded.query('SELECT count(*) FROM generate_series(1, 5000000)').catch((e: unknown) => e), { code: '57014' })
  const { renderTablesDoc } = await import('../../../src/inventory/query/describe.js')
  t.match(renderTablesDoc([]), /On the embedded database \(PGlite[^)]*\)[^.]*the limit also counts the wait/)
})

t.test('the snapshot lookup overlaps the query on PostgreSQL; its error still wins', async (t) => {
  const { db } = await freshPostgres(t)
  await createItems(db)
  const S1 = '00000000-0000-4000-8000-0000000000a1'
  const S2 = '00000000-0000-4000-8000-0000000000a2'
  await insertItems(db, S1, sampleItems())
  await insertItems(db, S2, [{ ...sampleItems()[0]!, id: 'x1' }])
  const log: Recorder = { statements: [], transactions: 0, timeouts: [] }
  let release = () => {}
  const gate = new Promise<void>((resolve) => (release = resolve))
  const deps = {
    ...testDeps(recording(db, log), []),
    resolveSnapshot: async (ref: string) => {
      await gate
      if (ref === S2) throw notFound()
      return ref === S1 ? S1 : S2
    },
  }
  const answer = queryTable(deps, ITEMS, { snapshot: S1, columns: ['id'], filters: { count: ['gt', 5] } })
  while (log.statements.length === 0) await new Promise((r) => setTimeout(r, 5))
  t.equal(log.statements.length, 1, 'the page query is under way before the snapshot is resolved')
  release()
  t.equal((await answer)._meta.count, 2)

  const err = await queryTable(deps, ITEMS, { snapshot: S2, columns: ['id'], filters: { name: ['reg', '[z-a]'] } }).then(
    () => null,
    (e: unknown) => e,
  )
  t.match(err, { code: 'API_NOT_FOUND' }, 'an unknown snapshot is 404 even when the query fails too')

  const other = '00000000-0000-4000-8000-0000000000a3'
  const remapped = await queryTable(deps, ITEMS, { snapshot: other, columns: ['id'] })
  t.same(remapped.data, [{ id: 'x1' }], 'a resolver that names another snapshot gets that snapshot’s rows')
})

t.test('a comparison on PostgreSQL runs each statement in a transaction of its own, under the comparison settings', async (t) => {
  const { db } = await freshPostgres(t)
  await createItems(db)
  const [S1, S2] = ['00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-0000000000b2']
  await insertItems(db, S1, sampleItems())
  await insertItems(db, S2, [...sampleItems().slice(1, 4), { ...sampleItems()[4]!, count: 8 }, { ...sampleItems()[0]!, id: 'i9' }])
  const keyed: TableDef = { ...ITEMS, key: ['id'] }
  const log: Recorder = { statements: [], transactions: 0, timeouts: [], inTransactions: [], streamSettings: [] }
  // the join itself (what a pair not kept yet, or an export past the time limit, reads): no kept comparison
  const deps = { ...testDeps(recording(db, log), [S1, S2]), keepComparisons: false }
  const settings = Object.entries(COMPARISON_SETTINGS).flat()
  t.same(COMPARISON_SETTINGS, { enable_mergejoin: 'off', jit: 'off' }, 'hash join, no JIT')

  const answer = await queryTable(deps, keyed, { snapshot: S2, compare: { snapshot: S1 }, columns: ['id'], sort: { column: 'id', order: 'asc' }, pagination: { start: 0, limit: 2 } })
  t.same(answer.data.map((r) => [r.id, r.change]), [['i1', 'removed'], ['i5', 'changed']])
  t.equal(answer._meta.count, 3, 'removed i1, changed i5, added i9')
  t.equal(log.transactions, 2, 'page and count, each in its transaction')
  t.equal(log.statements.length, 0, 'nothing outside them')
  for (const statements of log.inTransactions!) {
    t.equal(statements.length, 2, 'the settings, then the statement')
    t.match(statements[0]!.sql, /^SELECT set_config\(\$1, \$2, true\)/)
    t.same(statements[0]!.params, settings)
    t.match(statements[1]!.sql, /FULL OUTER JOIN/)
  }

  const prepared = await prepareTableQuery(deps, keyed, { snapshot: S2, compare: { snapshot: S1 }, columns: ['id'] }, true)
  let text = ''
  const res = {
    destroyed: false,
    writeHead: () => res,
    write: (chunk: string) => ((text += chunk), true),
    end: () => undefined,
    addTrailers: (trailers: Record<string, string>) => (text += `trailer ${JSON.stringify(trailers)}`),
    once: () => res,
    off: () => res,
  } as unknown as ServerResponse
  await streamTableCsv(deps, prepared, res)
  t.match(text, /^id,change,diff\r\n(.*\r\n){3}trailer \{"X-Row-Count":"3"\}$/, 'three differences, counted in the trailer')
  t.same(log.streamSettings, [COMPARISON_SETTINGS], 'the CSV cursor runs under the same settings')
})
