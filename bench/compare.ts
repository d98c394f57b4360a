/**
 * Snapshot comparison benchmark on PostgreSQL: the comparison of `inventory/interfaces` between
 * two successive "large" snapshots (1.1 M interfaces each), in the same run and interleaved:
 * - kept: as a table request with `compare` reads it once the pair's comparison is kept
 *   (`query/kept-comparison.ts`);
 * - join: as it was planned before (and still is as the fallback, `keepComparisons: false`): the
 *   FULL OUTER JOIN of the two snapshots, under the comparison's settings (hash join, no JIT);
 * - hand: a FULL OUTER JOIN typed by hand, with the server's defaults.
 * Measures: the one-time work of keeping the comparison; the first page (1000 rows, sort by
 * hostname), the full count, a filtered page (changed and up, 100 rows) and its count, a page of
 * 100 at half the differences and the first page the other way round; `changes` once kept. The
 * kept pages also without the index that serves them (`kept, no index`: the same statement in a
 * transaction that drops the index first and rolls back), interleaved with the others. p50 of runs in rotating order; the machine's load average before and after. It
 * checks first that kept and joined answers are the same rows.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:compare [-- profile iterations]
 *
 * The two snapshots (generations 0 and 1 of seed 1; interfaces and devices only) are simulated
 * and loaded into a database of their own (`netinv_bench_compare_<profile>`) the first time and
 * reused afterwards: loading two "large" snapshots takes minutes.
 */
import { cpus, loadavg } from 'node:os'
import { keptBenchDatabase } from './db.js'
import { p50, timeIt } from './timing.js'
import { compileConfig } from '../src/shared/config/index.js'
import { Deadline, createPostgresDb, queryWithSettings, type Db } from '../src/shared/db/index.js'
import { findTable } from '../src/inventory/catalog/index.js'
import { DEVICES, INTERFACES } from '../src/inventory/catalog/inventory.js'
import { migrateInventory } from '../src/inventory/migrations/index.js'
import { comparedColumns, countChanges, prepareTableQuery, type TableQueryDeps } from '../src/inventory/query/index.js'
import { keepComparison, keptRelation } from '../src/inventory/query/kept-comparison.js'
import { applyLocalSettings } from '../src/shared/db/settings.js'
import type { SqlPlan } from '../src/inventory/query/types.js'
import { isProfileName, simulate } from '../src/inventory/simulator/index.js'
import { loadSnapshotRows } from '../src/inventory/storage/index.js'
import { storageName } from '../src/inventory/catalog/columns.js'

const PROFILE = process.argv[2] ?? 'large'
const ITERATIONS = Number(process.argv[3] ?? 5)
const OLDER = '00000000-0000-4000-8000-00000000c001'
const NEWER = '00000000-0000-4000-8000-00000000c002'

async function ensureSnapshot(db: Db, id: string, generation: number): Promise<void> {
  const have = await db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM inventory.snapshots WHERE id = $1', [id])
  if (Number(have.rows[0]?.n) > 0) return
  if (!isProfileName(PROFILE)) throw new Error(`unknown profile ${PROFILE}`)
  const started = Date.now()
  const sim = simulate({ profile: PROFILE, seed: 1, sites: [], generation })
  const slices = (function* () {
    for (const slice of sim.tables()) if (slice.table === INTERFACES || slice.table === DEVICES) yield slice
  })()
  const counts = await loadSnapshotRows(db, id, slices, () => {}, 3)
  console.log(`loaded generation ${generation}: ${counts['inventory/interfaces']} interfaces in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  const settings = JSON.stringify({ profile: PROFILE, seed: 1, sites: [], generation, network: `${PROFILE}/1` })
  await db.query(
    `INSERT INTO inventory.snapshots (id, status, loaded, origin, settings, ts_start, ts_end, ts_change, version, initial_version)
     VALUES ($1, 'done', true, 'simulator', $2::jsonb, $3, $3, $3, 'v7.6', 'v7.6')`,
    [id, settings, Date.now()],
  )
  await db.query('ANALYZE inventory.interfaces')
}

/** What one types in psql for the same answer: the requested columns and the kind of change. */
function handWritten(columns: readonly string[]): { page: string; count: string } {
  const table = findTable('inventory/interfaces')!
  const compared = comparedColumns(table, false).map((c) => storageName(c.name))
  const pick = columns.map((c) => `CASE WHEN n.sn IS NULL THEN o.${storageName(c)} ELSE n.${storageName(c)} END AS ${storageName(c)}`).join(', ')
  const from =
    `FROM (SELECT * FROM inventory.interfaces WHERE snapshot_id = $1) o FULL OUTER JOIN (SELECT * FROM inventory.interfaces WHERE snapshot_id = $2) n` +
    ` ON o.sn = n.sn AND o.int_name = n.int_name` +
    ` WHERE o.sn IS NULL OR n.sn IS NULL OR (${compared.map((c) => `o.${c}`).join(', ')}) IS DISTINCT FROM (${compared.map((c) => `n.${c}`).join(', ')})`
  return {
    page: `SELECT ${pick}, CASE WHEN o.sn IS NULL THEN 'added' WHEN n.sn IS NULL THEN 'removed' ELSE 'changed' END AS change ${from} ORDER BY hostname, id LIMIT 1000`,
    count: `SELECT count(*)::int8 AS n ${from}`,
  }
}

async function main(): Promise<void> {
  const url = await keptBenchDatabase(`compare_${PROFILE}`)
  const db = createPostgresDb({ url, max: 4 })
  await migrateInventory(db)
  await ensureSnapshot(db, OLDER, 0)
  await ensureSnapshot(db, NEWER, 1)
  const sizes = await db.query<{ snapshot_id: string; n: number }>('SELECT snapshot_id, count(*)::int8 AS n FROM inventory.interfaces GROUP BY 1 ORDER BY 1')
  const load = () => loadavg().map((l) => l.toFixed(1)).join(' ')
  console.log(`profile ${PROFILE}: interfaces ${sizes.rows.map((r) => r.n).join(' and ')}; ${ITERATIONS} iterations (p50, ms); ${cpus().length} cores, load average ${load()}`)

  const table = findTable('inventory/interfaces')!
  const pair = { older: OLDER, newer: NEWER }
  const limits = { ...compileConfig({}).query, statementTimeoutMs: 600_000 }
  const live: TableQueryDeps = { db, limits, resolveSnapshot: async (ref) => ref, rulesFor: async () => [], keepComparisons: false }
  const kept: TableQueryDeps = { ...live, keepComparisons: true }

  // the one-time work: keeping the comparison of the two snapshots (interfaces, then every other table, empty here)
  await db.query('DELETE FROM inventory.snapshot_changes WHERE newer = $1 AND older = $2', [NEWER, OLDER])
  const keepMs = await timeIt(() => keepComparison(db, pair, false, table, Deadline.after(600_000)))
  const changesFirstMs = await timeIt(() => countChanges(db, pair, false, Deadline.after(600_000)))
  console.log(`kept the comparison of ${table.path} once: ${keepMs.toFixed(0)} ms; then of every other table: ${changesFirstMs.toFixed(0)} ms`)

  const columns = ['id', 'sn', 'hostname', 'intName', 'l1', 'l2', 'primaryIp']
  const page = { snapshot: NEWER, columns, compare: { snapshot: OLDER }, pagination: { start: 0, limit: 1000 } }
  const filtered = { ...page, filters: { and: [{ change: ['eq', 'changed'] }, { l1: ['eq', 'up'] }] }, pagination: { start: 0, limit: 100 } }
  const plans = async (deps: TableQueryDeps, body: unknown) => (await prepareTableQuery(deps, table, body)).plan
  const [livePage, keptPage, liveFiltered, keptFiltered] = [await plans(live, page), await plans(kept, page), await plans(live, filtered), await plans(kept, filtered)]
  const run = (plan: SqlPlan, what: 'select' | 'count') => () => queryWithSettings<Record<string, unknown>>(db, plan.settings, plan[what].sql, plan[what].params)
  // the same statement as the planner sees it without the index that serves kept pages
  const rollback = new Error('rollback')
  const noIndex = (plan: SqlPlan, what: 'select' | 'count') => () =>
    db
      .transaction(async (tx) => {
        await tx.query(`DROP INDEX inventory."${keptRelation(table).pageIndex}"`)
        await applyLocalSettings(tx, plan.settings)
        await tx.query(plan[what].sql, plan[what].params)
        throw rollback
      })
      .catch((err: unknown) => {
        if (err !== rollback) throw err
      })
  const hand = handWritten(columns)
  const theirs = {
    page: () => db.query(hand.page, [OLDER, NEWER]),
    count: () => db.query<{ n: number }>(hand.count, [OLDER, NEWER]),
  }
  // the answer's columns (a kept page also carries its sort keys, k0...)
  const answer = (rows: unknown[]) => JSON.stringify(rows.map((row) => Object.entries(row as Record<string, unknown>).filter(([k]) => !/^k\d+$/.test(k))))
  const same = async (a: () => Promise<{ rows: unknown[] }>, b: () => Promise<{ rows: unknown[] }>, what: string) => {
    if (answer((await a()).rows) !== answer((await b()).rows)) throw new Error(`kept and joined answers differ: ${what}`)
  }
  await same(run(keptPage, 'select'), run(livePage, 'select'), 'first page')
  await same(run(keptPage, 'count'), run(livePage, 'count'), 'count')
  await same(run(keptFiltered, 'select'), run(liveFiltered, 'select'), 'filtered page')
  await same(run(keptFiltered, 'count'), run(liveFiltered, 'count'), 'filtered count')
  const n = Number((await theirs.count()).rows[0]!.n)
  const [liveDeep, keptDeep] = [await plans(live, { ...page, pagination: { start: Math.floor(n / 2), limit: 100 } }), await plans(kept, { ...page, pagination: { start: Math.floor(n / 2), limit: 100 } })]
  const backwards = { ...page, sort: { column: 'hostname', order: 'desc' } }
  const [liveBack, keptBack] = [await plans(live, backwards), await plans(kept, backwards)]
  await same(run(keptDeep, 'select'), run(liveDeep, 'select'), 'page at half')
  await same(run(keptBack, 'select'), run(liveBack, 'select'), 'first page the other way')
  if (Number((await run(keptPage, 'count')()).rows[0]!.n) !== n) throw new Error('the comparison and the hand-written join count differently')

  const measures: Array<{ name: string; runs: Array<[string, () => Promise<unknown>]> }> = [
    { name: 'first page (1000 rows, sort by hostname)', runs: [['kept', run(keptPage, 'select')], ['kept, no index', noIndex(keptPage, 'select')], ['join', run(livePage, 'select')], ['hand', theirs.page]] },
    { name: 'first page, sort by hostname desc', runs: [['kept', run(keptBack, 'select')], ['kept, no index', noIndex(keptBack, 'select')]] },
    { name: 'page of 100 at half the differences', runs: [['kept', run(keptDeep, 'select')], ['kept, no index', noIndex(keptDeep, 'select')]] },
    { name: 'full count', runs: [['kept', run(keptPage, 'count')], ['join', run(livePage, 'count')], ['hand', theirs.count]] },
    { name: 'filtered page (changed and up, 100 rows)', runs: [['kept', run(keptFiltered, 'select')], ['kept, no index', noIndex(keptFiltered, 'select')], ['join', run(liveFiltered, 'select')]] },
    { name: 'filtered count', runs: [['kept', run(keptFiltered, 'count')], ['kept, no index', noIndex(keptFiltered, 'count')], ['join', run(liveFiltered, 'count')]] },
    { name: 'changes (every table, kept counts)', runs: [['kept', () => countChanges(db, pair, false, Deadline.after(600_000))]] },
  ]
  const times = new Map<string, number[]>()
  for (let i = 0; i < ITERATIONS; i++) {
    for (const { name, runs } of measures) {
      // the order rotates, so that none always finds another's pages in the cache
      const order = [...runs.slice(i % runs.length), ...runs.slice(0, i % runs.length)]
      for (const [who, fn] of i % 2 === 0 ? order : order.reverse()) {
        const key = `${name}|${who}`
        times.set(key, [...(times.get(key) ?? []), await timeIt(fn)])
      }
    }
  }
  const ms = (name: string, who: string) => {
    const list = times.get(`${name}|${who}`)
    return list ? p50(list).toFixed(list.length > 0 && p50(list) < 10 ? 1 : 0) : ''
  }
  console.log(`differences: ${n}; load average after: ${load()}`)
  console.log('| measure | kept | kept, no page index | join (as before) | hand-written FULL OUTER JOIN |')
  console.log('|---|---|---|---|---|')
  for (const { name } of measures) console.log(`| ${name} | ${ms(name, 'kept')} | ${ms(name, 'kept, no index')} | ${ms(name, 'join')} | ${ms(name, 'hand')} |`)
  for (const [what, plan] of [['first page', keptPage], ['filtered page', keptFiltered]] as const) {
    // under the statement's own settings (no JIT), as the request runs it
    const explain = await db.transaction(async (tx) => {
      await applyLocalSettings(tx, plan.settings)
      return tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${plan.select.sql}`, plan.select.params)
    })
    console.log(`\nEXPLAIN ANALYZE of the kept ${what}:\n${explain.rows.map((r) => r['QUERY PLAN']).join('\n')}`)
  }
  await db.close()
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
