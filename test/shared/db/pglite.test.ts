/**
 * The embedded database in its worker thread: statements past their time limit are really
 * stopped (the worker is replaced and the data directory recovers), requests that were only
 * waiting survive the restart, and nothing committed is lost.
 */
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPgliteDb, type Db } from '../../../src/shared/db/index.js'

/** One database on disk (as `netinv serve` keeps it) for the tests below: opening one costs seconds. */
let shared: Promise<Db> | undefined
function onDisk(): Promise<Db> {
  return (shared ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'netinv-pglite-'))
    const db = await createPgliteDb({ dataDir: dir })
    t.teardown(async () => {
      await db.close()
      rmSync(dir, { recursive: true, force: true })
    })
    return db
  })())
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as Record<string, unknown>,
  )

/** Never finishes on its own within a test's life. */
const ENDLESS = 'SELECT count(*) FROM generate_series(1, 100000000000)'

t.test('a statement past its limit is stopped; waiting requests are answered; committed rows stay', async (t) => {
  const db = await onDisk()
  await db.exec('CREATE TABLE kept (id int PRIMARY KEY, v text)')
  await db.query("INSERT INTO kept SELECT g, repeat('x', 50) FROM generate_series(1, 50000) g")
  await db.query('CREATE INDEX kept_v ON kept (v, id)')

  const bounded = db.withStatementTimeout(300)
  const stopped = failure(bounded.query(ENDLESS))
  // sent while the endless statement runs: waits its turn, then goes to the new worker
  const waiting = db.query<{ n: number }>('SELECT count(*)::int AS n FROM kept')
  t.match(await stopped, { code: '57014' }, 'the statement gets the timeout of PostgreSQL (57014)')
  t.same((await waiting).rows, [{ n: 50000 }], 'a request that was waiting is answered by the restarted database')

  // a transaction stopped by its own statement's limit leaves nothing behind
  const inTx = await failure(
    bounded.transaction(async (tx) => {
      await tx.query('INSERT INTO kept SELECT g, $1 FROM generate_series(50001, 60000) g', ['uncommitted'])
      await tx.query(ENDLESS)
    }),
  )
  t.ok(inTx, 'the transaction failed')
  const after = await db.query<{ n: number; u: number }>("SELECT count(*)::int AS n, count(*) FILTER (WHERE v = 'uncommitted')::int AS u FROM kept")
  t.same(after.rows, [{ n: 50000, u: 0 }], 'committed rows are all there, uncommitted ones are not')
  const viaIndex = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM kept WHERE v = repeat('x', 50) AND id > 49990")
  t.same(viaIndex.rows, [{ n: 10 }], 'the index answers after recovery')
  await db.query("INSERT INTO kept VALUES (0, 'written after the restart')")
  t.equal((await db.query('SELECT v FROM kept WHERE id = 0')).rows.length, 1, 'and takes writes')
})

t.test('the embedded engine stuck for ever (a huge regular expression, then an error) is stopped', async (t) => {
  const db = await onDisk()
  await db.exec("CREATE TABLE h (hostname text); INSERT INTO h SELECT 'host-' || g || '-abcdefghij' FROM generate_series(1, 200) g")
  const bounded = db.withStatementTimeout(1000)
  // PostgreSQL refuses this pattern as too complex; PGlite compiles it and is left broken: the next
  // error never returns (the query engine refuses such patterns before any database sees them)
  await failure(bounded.query('SELECT count(*) FROM h WHERE hostname ~ $1', ['(\\w{1,255}){1,255}$']))
  t.match(await failure(bounded.query('SELECT count(*) FROM h WHERE hostname = $1', ['a\u0000'])), { code: '57014' }, 'the error never came: stopped at the limit')
  t.same((await db.query('SELECT count(*)::int AS n FROM h')).rows, [{ n: 200 }], 'the database answers again')
})

t.test('a request that waited past its limit gets the timeout; the running statement is not stopped', async (t) => {
  const db = await onDisk()
  await db.exec("SET application_name = 'same-worker'")
  const long = db.query('SELECT count(*) FROM generate_series(1, 2000000)')
  t.match(await failure(db.withStatementTimeout(50).query('SELECT 1')), { code: '57014' })
  await long
  const name = await db.query<{ v: string }>("SELECT current_setting('application_name') AS v")
  t.same(name.rows, [{ v: 'same-worker' }], 'the worker was not restarted (its session is the same)')
})

t.test('in memory: the caller gets its timeout, the database keeps its data', async (t) => {
  const db = await createPgliteDb()
  t.teardown(() => db.close())
  await db.exec('CREATE TABLE m (id int)')
  await db.query('INSERT INTO m VALUES (1)')
  t.match(await failure(db.withStatementTimeout(100).query('SELECT count(*) FROM generate_series(1, 5000000)')), { code: '57014' })
  t.same((await db.query('SELECT id FROM m')).rows, [{ id: 1 }])
})

t.test('errors keep their SQLSTATE and fields; transactions, COPY and cursors work across the thread', async (t) => {
  const db = await createPgliteDb()
  t.teardown(() => db.close())
  await db.exec('CREATE TABLE k (id int PRIMARY KEY, v text NOT NULL)')
  await db.query("INSERT INTO k VALUES (1, 'a')")
  t.match(await failure(db.query("INSERT INTO k VALUES (1, 'b')")), { code: '23505', constraint: 'k_pkey' })
  t.match(await failure(db.query('SELECT 1/0')), { code: '22012', message: 'division by zero' })
  await failure(
    db.transaction(async (tx) => {
      await tx.query("INSERT INTO k VALUES (2, 'b')")
      throw new Error('rolled back')
    }),
  )
  async function* lines() {
    for (let i = 10; i < 5000; i++) yield `${i},v${i}\n`
  }
  await db.transaction(async (tx) => db.copyFrom('COPY k (id, v) FROM STDIN WITH (FORMAT csv)', lines(), tx))
  const batches: number[] = []
  await db.stream<{ id: number }>('SELECT id FROM k ORDER BY id', [], 2000, async (rows) => {
    batches.push(rows.length)
  })
  t.same(batches, [2000, 2000, 991], 'the cursor is read in batches, the rolled back row is absent')
  const stop = await failure(
    db.stream('SELECT id FROM k', [], 100, async () => {
      throw new Error('client went away')
    }),
  )
  t.match(stop, { message: 'client went away' })
  t.same((await db.query('SELECT count(*)::int AS n FROM k')).rows, [{ n: 4991 }], 'the database is free again after a stopped cursor')
})

t.test('a cursor whose consumer waits does not hold the database: other statements run meanwhile, the rows arrive whole and in order', async (t) => {
  const db = await createPgliteDb()
  t.teardown(() => db.close())
  await db.exec("CREATE TABLE w (id int PRIMARY KEY, at timestamptz NOT NULL, tags text[] NOT NULL); INSERT INTO w SELECT g, '2026-11-27T00:00:00Z'::timestamptz + g * interval '1 s', ARRAY['a', g::text] FROM generate_series(1, 5000) g")
  // The consumer of the first batch waits until another statement, sent once it waits, has been
  // answered: a client that stopped reading its export. A release after 20 s keeps a database
  // held by the cursor from hanging the test; it then fails on the order.
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let holding!: () => void
  const held = new Promise<void>((resolve) => (holding = resolve))
  const order: string[] = []
  const safety = setTimeout(() => {
    order.push('released after 20 s')
    release()
  }, 20_000)
  const rows: Array<{ id: number; at: Date; tags: string[] }> = []
  const streaming = db.stream<{ id: number; at: Date; tags: string[] }>('SELECT id, at, tags FROM w ORDER BY id', [], 1000, async (batch) => {
    if (rows.length === 0) {
      holding()
      await released
    }
    rows.push(...batch)
  })
  await held
  const other = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM w')
  order.push('another statement answered')
  release()
  await streaming
  clearTimeout(safety)
  t.same(other.rows, [{ n: 5000 }])
  t.same(order, ['another statement answered'], 'while the consumer held')
  t.equal(rows.length, 5000, 'every row')
  t.ok(rows.every((r, i) => r.id === i + 1), 'in order')
  t.ok(rows[0]!.at instanceof Date && rows[0]!.at.toISOString() === '2026-11-27T00:00:01.000Z', 'a timestamp stays a date')
  t.same(rows[4999]!.tags, ['a', '5000'], 'a list stays a list')
})
