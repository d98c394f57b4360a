/**
 * Hostile table requests through the real entry point (`netinv serve`), with the exact bodies of
 * the attack run: none may stop the server, take every database connection, or be answered with
 * the database's own words or a 500.
 */
import t from 'tap'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { freshPostgres } from '../helpers/db.js'
import { apiKey, bearer, call, discoverLab, login, newApiKey, type Reply } from './client.js'
import { serve, stop, tempDirs } from './process.js'

const ADMIN_PASSWORD = 'hostile-admin-password-1'
const DEVICES = '/api/tables/inventory/devices'

/** A request that must be answered: a hang fails the test instead of stopping the suite. */
async function post(base: string, path: string, headers: Record<string, string>, body: string | object): Promise<Reply> {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: text,
    signal: AbortSignal.timeout(20_000),
  })
  const answer = await res.text()
  return { status: res.status, headers: res.headers, text: answer, json: <T>() => JSON.parse(answer) as T }
}

function setQueryConfig(configDir: string, query: Record<string, unknown>): void {
  const file = join(configDir, 'api.json')
  const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  config.query = query
  writeFileSync(file, JSON.stringify(config, null, 2), { mode: 0o644 })
}

const DATABASE_WORDS = /invalid byte sequence|UTF8|0x00|regular expression failed|ERROR|pg_|SQLSTATE/

t.test('embedded database (npm start)', async (t) => {
  const { dataDir, configDir } = tempDirs(t)
  const app = await serve(t, { DATA_DIR: dataDir, CONFIG_DIR: configDir, ADMIN_PASSWORD })
  const base = app.url
  const session = await login(base, 'admin', ADMIN_PASSWORD)
  const reader = apiKey(await newApiKey(base, session.accessToken, ['read']))
  await discoverLab(base, bearer(session.accessToken))

  await t.test('the regular expression and the error that froze the server for good', async (t) => {
    const regex = await post(base, DEVICES, reader, { snapshot: '$last', columns: ['id', 'hostname'], filters: { hostname: ['reg', '(\\w{1,255}){1,255}$'] } })
    t.equal(regex.status, 422, 'the over-complex pattern is refused before the database sees it')
    t.match(regex.json(), { code: 'API_INVALID_INPUT', errors: [{ message: /^"filters.hostname" regular expression is too complex/ }] })

    const nul = await post(base, DEVICES, reader, '{"snapshot": "$last", "columns": ["id"], "filters": {"hostname": ["eq", "a\\u0000"]}}')
    t.equal(nul.status, 422, 'the value the database cannot hold is refused too')
    t.match(nul.json(), { errors: [{ message: /U\+0000/ }] })
    t.notMatch(nul.text, DATABASE_WORDS, "the answer says what was wrong without the database's words")

    // the same text anywhere else: refused at the door, whatever endpoint the body is for
    const admin = bearer(session.accessToken)
    for (const [path, body] of [
      ['/api/auth/login', '{"username": "a\\u0000b", "password": "x"}'],
      ['/api/attributes/global', '{"sn": "a\\u0000b", "name": "floor", "value": "1"}'],
      ['/api/snapshots', '{"profile": "lab", "snapshotName": "\\ud800"}'],
    ] as const) {
      const r = await post(base, path, path === '/api/auth/login' ? {} : admin, body)
      t.equal(r.status, 422, `${path}: ${r.text}`)
      t.match(r.json(), { code: 'API_INVALID_INPUT', errors: [{ message: /must not contain (the character U\+0000|an unpaired surrogate)/ }] })
      t.notMatch(r.text, DATABASE_WORDS)
    }

    // a reference percent-encoded in the path is the reference
    const encoded = await call(base, 'GET', '/api/snapshots/%24last/changes?against=%24last', { headers: admin })
    t.equal(encoded.status, 200, encoded.text)
    t.same(encoded.json(), (await call(base, 'GET', '/api/snapshots/$last/changes?against=$last', { headers: admin })).json())

    const health = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5000) })
    t.equal(health.status, 200, '/healthz answers')
    const after = await post(base, DEVICES, reader, { snapshot: '$last', columns: ['id'], pagination: { limit: 1 } })
    t.equal(after.status, 200, 'and so do table queries')

    const nested = await post(base, DEVICES, reader, { snapshot: '$last', columns: ['id'], filters: { or: [{ hostname: ['reg', '(a+)+$'] }, { hostname: ['ireg', '(x|y)\\1'] }] } })
    t.match(nested.json(), { code: 'API_INVALID_INPUT', errors: [{ message: /"filters.or\[0\].hostname" regular expression nests unbounded repetitions/ }] })
  })

  await t.test('340,000 empty filter objects and 500 unknown columns are refused, briefly', async (t) => {
    const empties = `{"snapshot": "$last", "columns": ["id"], "filters": {"and": [${Array.from({ length: 340_000 }, () => '{}').join(',')}]}}`
    t.ok(empties.length < 1_048_576, 'the attack body fits under the default body limit')
    const started = performance.now()
    const flood = await post(base, DEVICES, reader, empties)
    t.comment(`340,000 empty filter objects answered in ${Math.round(performance.now() - started)} ms`)
    t.equal(flood.status, 422)
    t.match(flood.json(), { errors: [{ message: '"filters" may hold at most 2000 filter objects and conditions' }] })

    const columns = Array.from({ length: 500 }, (_, i) => `nope${i}`)
    const unknown = await post(base, DEVICES, reader, { snapshot: '$last', columns })
    t.equal(unknown.status, 422)
    const body = unknown.json<{ errors: Array<{ message: string }> }>()
    t.match(body.errors[0]!.message, /^"columns\[0\]" must be one of \[id, /, 'the first error keeps the shape SDKs parse')
    t.equal(body.errors.length, 11, 'ten problems are listed, then how many more there are')
    t.equal(body.errors[10]!.message, '490 more problems of the same request not listed')
    t.ok(unknown.text.length < 8192, `the answer stays small (${unknown.text.length} bytes)`)
  })

  t.equal(await stop(app), 0, 'SIGTERM still stops it cleanly')
})

t.test('PostgreSQL: one user cannot take every connection; a full pool is a 503, never a 500', async (t) => {
  const { url } = await freshPostgres(t)
  const { configDir } = tempDirs(t)
  // five queries of one user may fill the pool (each runs its page and its count at once), to show both limits
  setQueryConfig(configDir, { maxConcurrentPerPrincipal: 5, maxQueuedPerPrincipal: 0 })
  const app = await serve(t, { DATABASE_URL: url, CONFIG_DIR: configDir, ADMIN_PASSWORD })
  const base = app.url
  const session = await login(base, 'admin', ADMIN_PASSWORD)
  const admin = bearer(session.accessToken)
  const created = await call(base, 'POST', '/api/users', { headers: admin, body: { username: 'reader', password: 'reader-password-1', scope: ['read'], eulaApproved: true } })
  t.equal(created.status, 201, 'a read-only user')
  const readerSession = await login(base, 'reader', 'reader-password-1')
  const firstKey = apiKey(await newApiKey(base, readerSession.accessToken, ['read']))
  const secondKey = apiKey(await newApiKey(base, readerSession.accessToken, ['read']))
  await discoverLab(base, admin)

  const attack = await post(base, DEVICES, firstKey, {
    snapshot: '$last',
    columns: ['id'],
    filters: { or: Array.from({ length: 40 }, (_, i) => ({ hostname: ['reg', `(\\w{1,255}){1,255}${i}$`] })) },
  })
  t.equal(attack.status, 422, 'catastrophic patterns over or groups are refused before PostgreSQL runs them')

  // Hold queries inside the database: a lock on the devices table makes them wait there.
  const locker = new pg.Client({ connectionString: url })
  const watcher = new pg.Client({ connectionString: url }) // outside the transaction: a fresh view of the activity
  await Promise.all([locker.connect(), watcher.connect()])
  t.teardown(() => Promise.all([locker.end(), watcher.end()]))
  await locker.query('BEGIN')
  await locker.query('LOCK TABLE inventory.devices IN ACCESS EXCLUSIVE MODE')
  const held = Array.from({ length: 5 }, () => post(base, DEVICES, firstKey, { snapshot: '$last', columns: ['id'] }))
  for (;;) {
    const r = await watcher.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%inventory.devices%'",
    )
    if (r.rows[0]!.n >= 10) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }

  const sixth = await post(base, DEVICES, secondKey, { snapshot: '$last', columns: ['id'] })
  t.equal(sixth.status, 429, 'a sixth query of the same user (another of their keys) is refused at once')
  t.equal(sixth.headers.get('retry-after'), '1')
  t.match(sixth.json(), { code: 'API_TOO_MANY_REQUESTS' })

  const others = await post(base, '/api/tables/inventory/interfaces', admin, { snapshot: '$last', columns: ['id'], pagination: { limit: 1 } })
  t.equal(others.status, 503, 'with every connection held, another query waits a bounded time and gets 503')
  t.equal(others.headers.get('retry-after'), '2')
  t.match(others.json(), { code: 'API_DATABASE_BUSY' })

  await locker.query('ROLLBACK')
  for (const r of await Promise.all(held)) t.equal(r.status, 200, 'the held queries finish once the lock is gone')
  const again = await post(base, '/api/tables/inventory/interfaces', admin, { snapshot: '$last', columns: ['id'], pagination: { limit: 1 } })
  t.equal(again.status, 200, 'and the pool serves everyone again')
  t.equal(await stop(app), 0)
})
