/**
 * One time limit per table request (issue 30, item 3): the page and the count share it, so a
 * request whose page and count each take most of the limit is answered 503 at about one limit,
 * not after two. The relation below sleeps per row, as many rows as make each of the two
 * statements take about 75% of the limit on the engine (the sleep is wall-clock time).
 */
import t from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import type { Db } from '../../../src/shared/db/index.js'
import { ApiError } from '../../../src/shared/errors.js'
import { queryTable } from '../../../src/inventory/query/index.js'
import type { TableDef } from '../../../src/inventory/catalog/types.js'
import { testDeps } from './helpers.js'

const LIMIT_MS = 2000

/** A relation of `rows` rows that sleeps 10 ms per row. */
function slowTable(rows: number): TableDef {
  return {
    path: 'test/slow',
    title: 'Slow',
    description: 'Rows that take at least 10 ms each to produce.',
    snapshotScoped: false,
    source: { kind: 'derived', sql: `SELECT g::text AS id, pg_sleep(0.01) AS slept FROM generate_series(1, ${rows}) g` },
    columns: [{ name: 'id', type: 'string', description: 'Row id.' }],
    defaultSort: { column: 'id', order: 'asc' },
    indexes: [],
    webPath: '/test/slow',
  }
}

/**
 * Rows whose scan takes about 75% of the limit on this engine (the embedded one sleeps longer per
 * call), from the fastest of three timings: a machine busy for a moment only slows a timing, and
 * one slow timing alone made the statements so short that page and count fitted in the limit.
 */
async function rowsForMostOfTheLimit(db: Db): Promise<number> {
  await db.query('SELECT 1')
  let fastest = Infinity
  for (let i = 0; i < 3; i++) {
    const started = Date.now()
    await db.query('SELECT count(pg_sleep(0.01)) FROM generate_series(1, 40)')
    fastest = Math.min(fastest, Date.now() - started)
  }
  return Math.ceil((0.75 * LIMIT_MS * 40) / Math.max(400, fastest))
}

/** A full page of one row: the count is a second statement, as long as the page. */
const BODY = { columns: ['id'], filters: { id: ['reg', '^[0-9]+$'] }, pagination: { limit: 1 } }

/** Records the time limit each statement ran under: its bounded view's, or the `statement_timeout` set before it in its transaction. */
function spying(db: Db, limits: number[], viewMs?: number): Db {
  return {
    ...db,
    query(sql, params) {
      if (viewMs !== undefined) limits.push(viewMs)
      return db.query(sql, params)
    },
    withStatementTimeout(ms) {
      return spying(db.withStatementTimeout(ms), limits, ms)
    },
    transaction(fn) {
      let set: number | undefined
      return db.transaction((tx) =>
        fn({
          query(sql, params) {
            const at = (params ?? []).indexOf('statement_timeout')
            if (at >= 0) set = Number.parseInt(String(params![at + 1]), 10)
            else limits.push(set ?? viewMs ?? Infinity)
            return tx.query(sql, params)
          },
        }),
      )
    },
  }
}

for (const engine of ENGINES) {
  t.test(`page and count share one limit on ${engine}: 503 after about one limit, with what remains for the count`, async (t) => {
    const db = await freshDb(t, engine)
    const rows = await rowsForMostOfTheLimit(db)
    const limits: number[] = []
    const deps = testDeps(spying(db, limits), [])
    const answer = await queryTable({ ...deps, limits: { ...deps.limits, statementTimeoutMs: LIMIT_MS } }, slowTable(rows), BODY).then(
      (r) => r,
      (e: unknown) => e,
    )
    t.ok(answer instanceof ApiError, `a page and a count of ${rows} rows each (75% of the limit) do not fit in ${LIMIT_MS} ms: ${JSON.stringify(answer)}`)
    t.match(answer, { code: 'API_QUERY_TIMEOUT', status: 503 })
    t.ok(limits.length >= 1 && limits[0]! <= LIMIT_MS, `the page runs under the whole limit at most: ${limits.join(', ')}`)
    if (limits.length === 1) t.comment('the page alone used up the limit (a loaded machine): no count was started')
    else {
      t.equal(limits.length, 2, `page and count: ${limits.join(', ')}`)
      t.ok(limits[1]! <= LIMIT_MS - rows * 10, `the count runs under what the page (${rows * 10} ms of sleep at least) left: ${limits[1]} ms`)
    }
  })
}
