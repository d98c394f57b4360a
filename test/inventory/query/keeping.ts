/**
 * A discovery's comparison with the previous snapshot is kept once, in the background, after the
 * snapshot is done: whoever asks meanwhile (`changes`, a compared page, another keeping) waits for
 * the tables under way instead of keeping them again, a caller whose time runs out first gets a
 * timeout while the keeping goes on, two processes on one database create each relation and keep
 * each table once, a pair a restart cut short is kept on its first request, and a snapshot not
 * loaded (or being loaded or unloaded) keeps nothing.
 */
import type { Test } from 'tap'
import { freshPglite, freshPostgres } from '../../helpers/db.js'
import { recording, type Recorder } from '../../helpers/recording-db.js'
import { startApp } from '../app.js'
import { findTable } from '../../../src/inventory/catalog/index.js'
import { Deadline, createPostgresDb, sqlState, type Db } from '../../../src/shared/db/index.js'
import { COMPARABLE_TABLES, Params, changeCountSql, countChanges, keepChanges } from '../../../src/inventory/query/index.js'
import { backgroundKeeping, keepOnce, keepingUnderWay } from '../../../src/inventory/query/keeping.js'
import { keepComparison, keptRelation } from '../../../src/inventory/query/kept-comparison.js'

type Counts = Array<{ table: string; added: number; removed: number; changed: number }>

export function recorder(): Recorder {
  return { statements: [], transactions: 0, timeouts: [], inTransactions: [] }
}

/** Statements of `log` (in transactions or not) matching `pattern`, with their parameters when known. */
export function sent(log: Recorder, pattern: RegExp): Array<readonly unknown[]> {
  const inTx = (log.inTransactions ?? []).flat().filter((s) => pattern.test(s.sql))
  return [...inTx.map((s) => s.params), ...log.statements.filter((sql) => pattern.test(sql)).map(() => [])]
}

export const PAIR_ROW = /INSERT INTO inventory\.snapshot_changes/
const KEPT_ROWS = /INSERT INTO inventory\."cmp_/

/** The pair's counts per comparable table as the join counts them (nothing kept is read). */
async function joined(db: Db, newer: string, older: string, volatile = false): Promise<Counts> {
  const out: Counts = []
  for (const table of COMPARABLE_TABLES) {
    const params = new Params()
    const row = (await db.query<{ added: string; removed: string; changed: string }>(changeCountSql(table, { newer, older }, volatile, params), params.values)).rows[0]!
    out.push({ table: table.path, added: Number(row.added), removed: Number(row.removed), changed: Number(row.changed) })
  }
  return out
}

async function pairRows(db: Db, newer: string, older: string, volatile = false): Promise<string[]> {
  const r = await db.query<{ table_path: string }>('SELECT table_path FROM inventory.snapshot_changes WHERE newer = $1 AND older = $2 AND volatile = $3 ORDER BY table_path', [newer, older, volatile])
  return r.rows.map((row) => row.table_path)
}

const ALL = COMPARABLE_TABLES.map((table) => table.path).sort()

export async function keptOnceInTheBackground(t: Test, engine: 'postgres' | 'pglite'): Promise<void> {
  const fresh = engine === 'postgres' ? await freshPostgres(t) : { db: await freshPglite(t), url: '' }
  const db = fresh.db
  const log = recorder()
  const handle = recording(db, log)
  const api = await startApp(t, handle)
  const first = await api.discover({ profile: 'lab', seed: 5 })

  // the discovery ends without waiting for its comparison; everyone asking meanwhile shares the keeping
  const started = await api.call('POST', 'snapshots', { profile: 'lab', seed: 5 })
  t.equal(started.status, 201, started.text)
  const second = (started.body as { id: string }).id
  const job = await api.waitJob((started.body as { jobId: string }).jobId)
  t.match(job, { status: 'done' })
  t.match((await api.call('GET', `snapshots/${second}`)).body, { state: 'loaded' }, 'the snapshot is loaded when its job ends')
  const interfaces = findTable('inventory/interfaces')!
  const [a, b, page] = await Promise.all([
    api.call('GET', `snapshots/${second}/changes`),
    api.call('GET', `snapshots/${second}/changes?against=${first}`),
    api.call('POST', 'tables/inventory/interfaces', { snapshot: second, columns: ['id', 'change'], compare: { snapshot: first }, pagination: { limit: 10 } }),
    keepChanges(handle, { newer: second, older: first }, false, 60_000),
  ])
  await backgroundKeeping(handle)
  t.equal(a.status, 200, a.text)
  t.equal(page.status, 200, page.text)
  const expected = await joined(db, second, first)
  t.same((a.body as { tables: Counts }).tables, expected, 'changes while the comparison was being kept: the join counts')
  t.same((b.body as { tables: Counts }).tables, expected)
  t.same(await pairRows(db, second, first), ALL, 'every table kept')
  const pairInserts = sent(log, PAIR_ROW).filter((p) => p[0] === second && p[1] === first && p[2] === false)
  const perTable = new Map<unknown, number>()
  for (const p of pairInserts) perTable.set(p[3], (perTable.get(p[3]) ?? 0) + 1)
  t.same([...perTable.keys()].sort(), ALL, 'each table was kept by someone')
  t.ok([...perTable.values()].every((n) => n === 1), 'and by one caller only: the others waited for it')
  t.equal(sent(log, KEPT_ROWS).length, ALL.length, 'the rows of each table written once')

  // a caller waits for the keeping under way (one volatile comparison of the interfaces), or times out while it goes on
  const pair = { newer: second, older: first }
  const before = sent(log, PAIR_ROW).length
  const keeping = keepOnce(handle, pair, true, interfaces, Deadline.after(60_000))
  t.ok(keepingUnderWay(handle, pair, true, interfaces), 'under way')
  const late = keepOnce(handle, pair, true, interfaces, Deadline.after(0)).then(
    () => undefined,
    (err: unknown) => sqlState(err),
  )
  const request = api.call('POST', 'tables/inventory/interfaces', { snapshot: second, columns: ['id'], compare: { snapshot: first, volatile: true }, pagination: { limit: 0 } })
  const waiter = keepOnce(handle, pair, true, interfaces, Deadline.after(60_000))
  const [mine, theirs, refused, answered] = await Promise.all([keeping, waiter, late, request])
  t.equal(refused, '57014', 'a caller whose time ran out first: a statement timeout')
  t.ok(mine, 'kept')
  t.same(theirs, mine, 'the waiting caller has the same counts')
  t.equal((answered.body as { _meta: { count: number } })._meta.count, mine!.added + mine!.removed + mine!.changed, 'and so has the request that came meanwhile')
  t.equal(sent(log, PAIR_ROW).length - before, 1, 'kept once')
  t.notOk(keepingUnderWay(handle, pair, true, interfaces), 'nothing under way any more')

  // a restart while a discovery's comparison is kept: what is not kept is kept on the first request
  const restarted = await api.call('POST', 'snapshots', { profile: 'lab', seed: 5 })
  const third = (restarted.body as { id: string }).id
  t.match(await api.waitJob((restarted.body as { jobId: string }).jobId), { status: 'done' })
  await api.close()
  const keptAtStop = (await pairRows(db, third, second)).length
  t.ok(keptAtStop <= ALL.length, `${keptAtStop} tables kept when the service stopped`)
  const next = await startApp(t, db)
  const changes = await next.call('GET', `snapshots/${third}/changes`)
  t.equal(changes.status, 200, changes.text)
  t.same((changes.body as { tables: Counts }).tables, await joined(db, third, second), 'after the restart: the join counts')
  t.same(await pairRows(db, third, second), ALL, 'and every table kept')

  // a snapshot not loaded, or being loaded or unloaded, keeps nothing: its partitions are not what the join would read
  const volatilePair = { newer: third, older: second }
  const keep = () => keepComparison(db, volatilePair, true, interfaces, Deadline.after(60_000))
  t.equal((await next.call('POST', `snapshots/${third}/unload`)).status, 204)
  t.equal(await keep(), undefined, 'an unloaded snapshot: nothing kept')
  t.equal((await next.call('POST', `snapshots/${third}/load`)).status, 204)
  // an unload marks the snapshot so before it detaches the partitions
  await db.query('UPDATE inventory.snapshots SET loading = true WHERE id = $1', [third])
  t.equal(await keep(), undefined, 'a snapshot being loaded or unloaded: nothing kept')
  t.same(await pairRows(db, third, second, true), [], 'no pair row')
  await db.query('UPDATE inventory.snapshots SET loading = false WHERE id = $1', [third])
  t.ok(await keep(), 'loaded: kept')
  await next.close()

  // two processes keeping the same pair on a database without the relations yet: each created once, each table kept once
  const drop = await db.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'inventory' AND tablename LIKE 'cmp\\_%'`)
  await db.query('DELETE FROM inventory.snapshot_changes')
  for (const { name } of drop.rows) await db.query(`DROP TABLE IF EXISTS inventory."${name}"`)
  const other = async (): Promise<Db> => {
    if (engine === 'pglite') return db
    const own = createPostgresDb({ url: fresh.url, max: 3 })
    t.teardown(() => own.close())
    return own
  }
  const [logA, logB] = [recorder(), recorder()]
  const [dbA, dbB] = [recording(await other(), logA), recording(await other(), logB)]
  const [countsA, countsB] = await Promise.all([countChanges(dbA, pair, false, Deadline.after(120_000)), countChanges(dbB, pair, false, Deadline.after(120_000))])
  t.same(countsA, expected, 'one process counts the join')
  t.same(countsB, expected, 'and so does the other')
  t.same(await pairRows(db, second, first), ALL, 'every table kept once')
  // (a pair's rows are a partition of its table's relation: not counted)
  const relations = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'inventory' AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname LIKE 'cmp\\_%'`,
  )
  t.equal(relations.rows[0]!.n, new Set(COMPARABLE_TABLES.flatMap((table) => [keptRelation(table).name, ...(keptRelation(table).values ? [keptRelation(table).values!.name] : [])])).size, 'each relation (and its value counts) created once')
  t.equal(sent(logA, KEPT_ROWS).length + sent(logB, KEPT_ROWS).length, ALL.length, 'the rows of each table written by one process only')

  // the end of a discovery keeps `query.keepingConcurrency` tables at once on PostgreSQL (a session
  // each), one at a time on the embedded database (one session); each table once, as the join counts
  let older = third
  for (const keepingConcurrency of [1, 3]) {
    const own = { ...recorder(), open: { now: 0, most: 0 } }
    const ownHandle = recording(db, own)
    const app = await startApp(t, ownHandle, { query: { keepingConcurrency } })
    const s = await app.call('POST', 'snapshots', { profile: 'lab', seed: 5 })
    const newer = (s.body as { id: string }).id
    t.match(await app.waitJob((s.body as { jobId: string }).jobId), { status: 'done' })
    own.open.most = own.open.now
    await backgroundKeeping(ownHandle)
    const atOnce = engine === 'postgres' ? keepingConcurrency : 1
    t.equal(own.open.most, atOnce, `keepingConcurrency ${keepingConcurrency}: ${atOnce} kept at once`)
    t.same(await pairRows(db, newer, older), ALL, 'every table kept')
    t.same(((await app.call('GET', `snapshots/${newer}/changes`)).body as { tables: Counts }).tables, await joined(db, newer, older), 'as the join counts')
    await app.close()
    older = newer
  }
}
