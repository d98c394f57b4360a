/**
 * Fairness on the embedded database (issue 30, item 3): it runs one statement at a time, first
 * come first served, so one user's four queries in flight put everyone else's behind all four.
 * Each user's queries now take turns in a lane of their own: another user's query reaches the
 * database behind at most one query of each other user. Asserted on the order of answers, not on
 * their times.
 */
import t from 'tap'
import { freshPglite, freshPostgres } from '../../helpers/db.js'
import { Deadline } from '../../../src/shared/db/index.js'
import { ApiError } from '../../../src/shared/errors.js'
import type { Principal } from '../../../src/shared/principal.js'
import { QueryAdmission, prepareTableQuery, queryAdmission, runTableQuery, type Admitted } from '../../../src/inventory/query/index.js'
import type { TableDef } from '../../../src/inventory/catalog/types.js'
import { testDeps } from './helpers.js'

const user = (id: string): Principal => ({ id, username: id, scopes: ['read'], isAdmin: false, method: 'apiKey' })
const HEAVY_USER = user('heavy')
const OTHER_USER = user('other')

function table(path: string, sql: string): TableDef {
  return {
    path,
    title: path,
    description: 'A relation of the test.',
    snapshotScoped: false,
    source: { kind: 'derived', sql },
    columns: [{ name: 'id', type: 'string', description: 'Row id.' }],
    defaultSort: { column: 'id', order: 'asc' },
    indexes: [],
    webPath: `/${path}`,
  }
}
/** A costly query (it sleeps per row; the filter passes the pattern check) and a cheap one. */
const HEAVY = table('test/heavy', 'SELECT g::text AS id, pg_sleep(0.01) AS slept FROM generate_series(1, 15) g')
const CHEAP = table('test/cheap', 'SELECT g::text AS id FROM generate_series(1, 5) g')
const BODY = { columns: ['id'], filters: { id: ['reg', '.{1,255}.{1,255}x|[0-9]'] }, pagination: { limit: 1 } }

t.test('on the embedded database another user is served after one query of a user who has four in flight, not after all four', async (t) => {
  const db = await freshPglite(t)
  const deps = testDeps(db, [])
  const admission = queryAdmission({ db, config: { query: { maxConcurrentPerPrincipal: 4 } } })
  const answered: string[] = []
  const admitted: Record<string, Admitted[]> = { heavy: [], other: [] }
  const query = (who: Principal, def: TableDef, name: string) =>
    admission.run(
      who,
      async () => {
        const r = await runTableQuery(deps, await prepareTableQuery(deps, def, BODY))
        answered.push(name)
        return r
      },
      Deadline.after(deps.limits.statementTimeoutMs),
      (how) => admitted[who.id]!.push(how),
    )
  const heavy = [1, 2, 3, 4].map((n) => query(HEAVY_USER, HEAVY, `heavy ${n}`))
  await new Promise((resolve) => setImmediate(resolve))
  const cheap = query(OTHER_USER, CHEAP, 'cheap')
  const results = await Promise.all([...heavy, cheap])
  t.same(results.map((r) => r._meta.count), [15, 15, 15, 15, 5], 'every query is answered')
  t.same(admitted, { heavy: ['running', 'waiting', 'waiting', 'waiting'], other: ['running'] }, 'the heavy user runs one query at a time; the other user goes at once')
  t.ok(answered.indexOf('cheap') <= 1, `the cheap query is answered behind one heavy query at most: ${answered.join(', ')}`)
  t.equal(answered.at(-1), 'heavy 4', 'the heavy user waits for their own queries')
})

t.test('a query that waits in its lane past its deadline is a 503 with Retry-After and never starts', async (t) => {
  const admission = new QueryAdmission({ maxPerPrincipal: 4, serial: true })
  let release = () => {}
  const holding = admission.run(HEAVY_USER, () => new Promise<void>((resolve) => (release = resolve)), Deadline.after(60000))
  let started = false
  const waited = await admission
    .run(HEAVY_USER, async () => void (started = true), Deadline.after(50))
    .then(
      () => null,
      (e: unknown) => e,
    )
  t.ok(waited instanceof ApiError)
  t.match(waited, { code: 'API_QUERY_TIMEOUT', status: 503, headers: { 'retry-after': '1' } })
  t.equal(started, false, 'its work never started')
  t.equal(admission.waiting(HEAVY_USER), 0, 'it left the lane')
  t.equal(admission.count(HEAVY_USER), 1, 'and its slot')
  release()
  await holding
  t.equal(admission.count(HEAVY_USER), 0)
  const again = await admission.run(HEAVY_USER, async () => 'ran', Deadline.after(1000))
  t.equal(again, 'ran', 'the lane is free again')
})

t.test('on PostgreSQL (a pool of sessions) a user\'s queries run at once, up to the bound', async (t) => {
  const { db } = await freshPostgres(t)
  const admission = queryAdmission({ db, config: { query: { maxConcurrentPerPrincipal: 2 } } })
  const how: Admitted[] = []
  let release = () => {}
  const gate = new Promise<void>((resolve) => (release = resolve))
  const two = [1, 2].map(() => admission.run(HEAVY_USER, () => gate, undefined, (h) => how.push(h)))
  const third = await admission.run(HEAVY_USER, async () => 'ran').then(
    () => null,
    (e: unknown) => e,
  )
  t.match(third, { code: 'API_TOO_MANY_REQUESTS', status: 429, headers: { 'retry-after': '1' } })
  release()
  await Promise.all(two)
  t.same(how, ['running', 'running'])
})

t.test('queries past the running ones wait their turn, in order, instead of a 429 that clients do not retry', async (t) => {
  const admission = new QueryAdmission({ maxPerPrincipal: 2, maxQueuedPerPrincipal: 3 })
  const release: Array<() => void> = []
  const started: number[] = []
  const admitted: Admitted[] = []
  const query = (n: number) =>
    admission.run(
      HEAVY_USER,
      () =>
        new Promise<number>((resolve) => {
          started.push(n)
          release.push(() => resolve(n))
        }),
      Deadline.after(60_000),
      (how) => admitted.push(how),
    )
  const five = [1, 2, 3, 4, 5].map(query)
  await new Promise((resolve) => setImmediate(resolve))
  t.same(started, [1, 2], 'two run')
  t.same(admitted, ['running', 'running', 'waiting', 'waiting', 'waiting'], 'three wait')
  const sixth = await admission.run(HEAVY_USER, async () => 6).catch((e: unknown) => e)
  t.ok(sixth instanceof ApiError && sixth.code === 'API_TOO_MANY_REQUESTS', 'the sixth is refused: 429')
  t.equal((sixth as ApiError).headers?.['retry-after'], '1', 'with Retry-After')
  t.equal(await admission.run(OTHER_USER, async () => 'other'), 'other', 'another user is not held up')
  for (let i = 0; i < 5; i++) {
    while (release.length === 0) await new Promise((resolve) => setImmediate(resolve))
    release.shift()!()
  }
  t.same(await Promise.all(five), [1, 2, 3, 4, 5], 'every waiting query is answered')
  t.same(started, [1, 2, 3, 4, 5], 'in the order they came')
  t.equal(admission.count(HEAVY_USER), 0)

  const late = new QueryAdmission({ maxPerPrincipal: 1, maxQueuedPerPrincipal: 1 })
  let free: () => void = () => {}
  const holder = late.run(HEAVY_USER, () => new Promise<void>((resolve) => (free = resolve)))
  const waiter = await late.run(HEAVY_USER, async () => 'ran', Deadline.after(1)).catch((e: unknown) => e)
  t.ok(waiter instanceof ApiError && waiter.code === 'API_QUERY_TIMEOUT', 'a query that waits past its deadline is a 503, never started')
  free()
  await holder
})
