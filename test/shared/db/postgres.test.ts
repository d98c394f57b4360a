/**
 * The PostgreSQL adapter under failure: a COPY that fails while its source is waiting gives its
 * connection back at once, and a database that cannot be reached is a 503 with Retry-After.
 */
import t from 'tap'
import { freshPostgres } from '../../helpers/db.js'
import { freePort } from '../../e2e/process.js'
import { createPostgresDb, DatabaseUnavailableError } from '../../../src/shared/db/index.js'
import { toErrorResponse } from '../../../src/shared/errors.js'

t.test('a COPY that fails while its source waits for more is reported at once, and its connection is free', async (t) => {
  const { url } = await freshPostgres(t)
  const db = createPostgresDb({ url, max: 1 })
  await db.exec('CREATE TABLE c (n int NOT NULL)')
  // like an upload whose client stopped sending after a bad line
  async function* stalled() {
    yield '1\nnot a number\n'
    await new Promise(() => {})
  }
  const err = await db.copyFrom('COPY c (n) FROM STDIN WITH (FORMAT csv)', stalled()).then(
    () => null,
    (e: unknown) => e,
  )
  t.match(err, { code: '22P02' }, 'the bad value is reported while the source still waits')
  t.same((await db.query('SELECT count(*)::int AS n FROM c')).rows, [{ n: 0 }], 'the one connection serves the next query; nothing was loaded')
  await db.close()
  t.pass('and the pool closes')
})

t.test('a COPY whose connection breaks under it fails as the database being away; the pool goes on', async (t) => {
  const { url, db: admin } = await freshPostgres(t)
  const db = createPostgresDb({ url, max: 1, applicationName: 'copy-under-test' })
  await db.exec('CREATE TABLE b (n int NOT NULL)')
  let sent = () => {}
  const started = new Promise<void>((resolve) => (sent = resolve))
  let cut = () => {}
  const terminated = new Promise<void>((resolve) => (cut = resolve))
  async function* lines() {
    yield '1\n2\n'
    sent()
    await terminated
    // more data for a connection that is gone
    for (let i = 0; i < 200; i++) yield `${'3\n'.repeat(5000)}`
  }
  const copying = db.copyFrom('COPY b (n) FROM STDIN WITH (FORMAT csv)', lines()).then(
    () => null,
    (e: unknown) => e,
  )
  await started
  await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'copy-under-test'")
  await new Promise((resolve) => setTimeout(resolve, 100))
  cut()
  t.match(await copying, { code: 'API_DATABASE_UNAVAILABLE' }, 'the COPY fails as the database being away')
  t.same((await db.query('SELECT count(*)::int AS n FROM b')).rows, [{ n: 0 }], 'a new connection serves the next query')
  await db.close()
})

t.test('a database that cannot be reached is a 503 with Retry-After, not a 500', async (t) => {
  const db = createPostgresDb({ url: `postgres://postgres@127.0.0.1:${await freePort()}/none`, max: 1 })
  t.teardown(() => db.close())
  const err = await db.query('SELECT 1').then(
    () => null,
    (e: unknown) => e,
  )
  t.ok(err instanceof DatabaseUnavailableError, String(err))
  t.match(toErrorResponse(err), { status: 503, body: { code: 'API_DATABASE_UNAVAILABLE' }, headers: { 'retry-after': '5' } })
  t.equal(await db.ping(), false)
})
