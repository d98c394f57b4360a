/**
 * Settings of one statement: on PostgreSQL set for that statement only (in a transaction of its
 * own, for a query and for a cursor), never left on the pooled connection, also when the statement
 * fails; on PGlite the statement runs as it is.
 */
import t from 'tap'
import { freshPglite, freshPostgres } from '../../helpers/db.js'
import { createPostgresDb, queryWithSettings, type Db } from '../../../src/shared/db/index.js'

const SETTINGS = { jit: 'off', enable_mergejoin: 'off' }
const READ = "SELECT current_setting('jit') AS jit, current_setting('enable_mergejoin') AS mergejoin"

async function current(db: Db): Promise<Record<string, unknown>> {
  return (await db.query(READ)).rows[0]!
}

t.test('on PostgreSQL a statement runs under its settings, and the connection keeps its own', async (t) => {
  const { url } = await freshPostgres(t)
  // one connection, so that a setting left behind would show on the next statement
  const db = createPostgresDb({ url, max: 1 })
  t.teardown(() => db.close())
  const before = await current(db)
  t.equal(before.mergejoin, 'on')

  t.same((await queryWithSettings(db, SETTINGS, READ)).rows, [{ jit: 'off', mergejoin: 'off' }], 'the statement sees its settings')
  t.same(await current(db), before, 'the next statement on the same connection does not')

  const failed = await queryWithSettings(db, SETTINGS, 'SELECT 1 / (SELECT count(*) FROM pg_class WHERE false)').then(
    () => null,
    (e: unknown) => e,
  )
  t.match(failed, { code: '22012' }, 'the statement error comes through')
  t.same(await current(db), before, 'a failed statement leaves nothing behind either')

  t.same((await queryWithSettings(db, undefined, READ)).rows, [before], 'no settings: the statement as it is')
  t.same((await queryWithSettings(db, {}, READ)).rows, [before])

  const seen: unknown[] = []
  await db.stream(READ, [], 10, async (rows) => void seen.push(...rows), SETTINGS)
  t.same(seen, [{ jit: 'off', mergejoin: 'off' }], 'a cursor runs under its settings')
  t.same(await current(db), before, 'and leaves nothing behind')
})

t.test('on PGlite the statement runs as it is', async (t) => {
  const db = await freshPglite(t)
  const before = await current(db)
  t.same((await queryWithSettings(db, SETTINGS, READ)).rows, [before])
  const seen: unknown[] = []
  await db.stream(READ, [], 10, async (rows) => void seen.push(...rows), SETTINGS)
  t.same(seen, [before])
})
