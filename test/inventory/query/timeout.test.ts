import t from 'tap'
import { freshPostgres } from '../../helpers/db.js'
import { ApiError } from '../../../src/shared/errors.js'
import { queryTable } from '../../../src/inventory/query/index.js'
import type { TableDef } from '../../../src/inventory/catalog/types.js'
import { testDeps } from './helpers.js'

/** A relation that takes a while per row, to hit the statement timeout without timing assertions. */
const SLOW: TableDef = {
  path: 'test/slow',
  title: 'Slow',
  description: 'Rows that take time.',
  snapshotScoped: false,
  source: { kind: 'derived', sql: 'SELECT g::text AS id, pg_sleep(0.05) AS slept FROM generate_series(1, 200) g' },
  columns: [{ name: 'id', type: 'string', description: 'Row id.' }],
  defaultSort: { column: 'id', order: 'asc' },
  indexes: [],
  webPath: '/test/slow',
}

t.test('a query past the statement timeout is a coded 503, not a 500', async (t) => {
  const { db } = await freshPostgres(t)
  const deps = testDeps(db, [])
  const err = await queryTable({ ...deps, limits: { ...deps.limits, statementTimeoutMs: 100 } }, SLOW, { columns: ['id'] }).then(
    () => null,
    (e: unknown) => e,
  )
  t.ok(err instanceof ApiError, String(err))
  t.match(err, { code: 'API_QUERY_TIMEOUT', status: 503 })
  const ok = await db.query<{ n: number }>('SELECT 1 AS n')
  t.equal(ok.rows[0]?.n, 1, 'the pool still works and the timeout did not leak to the session')
  const setting = await db.query<{ v: string }>("SELECT current_setting('statement_timeout') AS v")
  t.equal(setting.rows[0]?.v, '0')
})
