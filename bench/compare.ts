/**
 * Snapshot comparison benchmark on PostgreSQL: the comparison of `inventory/interfaces` between
 * two successive "large" snapshots (1.1 M interfaces each) as a table request with `compare`
 * plans it, against a FULL OUTER JOIN typed by hand, in the same run: time to the first page
 * (1000 rows, default sort) and to the full count; p50 of runs in rotating order. The comparison
 * runs as the service runs it, under its PostgreSQL settings (`COMPARISON_SETTINGS`: hash join, no
 * JIT); the hand-written join as typed, with the server's defaults, and once more, for reference,
 * under the same settings.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:compare [-- profile iterations]
 *
 * The two snapshots (generations 0 and 1 of seed 1; interfaces and devices only) are simulated
 * and loaded into a database of their own (`netinv_bench_compare_<profile>`) the first time and
 * reused afterwards: loading two "large" snapshots takes minutes.
 */
import { keptBenchDatabase } from './db.js'
import { p50, timeIt } from './timing.js'
import { compileConfig } from '../src/shared/config/index.js'
import { createPostgresDb, queryWithSettings, type Db } from '../src/shared/db/index.js'
import { findTable } from '../src/inventory/catalog/index.js'
import { DEVICES, INTERFACES } from '../src/inventory/catalog/inventory.js'
import { migrateInventory } from '../src/inventory/migrations/index.js'
import { comparedColumns, prepareTableQuery, runTableQuery, type TableQueryDeps } from '../src/inventory/query/index.js'
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
  console.log(`profile ${PROFILE}: interfaces ${sizes.rows.map((r) => r.n).join(' and ')}; ${ITERATIONS} iterations (p50, ms)`)

  const table = findTable('inventory/interfaces')!
  const deps: TableQueryDeps = { db, limits: { ...compileConfig({}).query, statementTimeoutMs: 600_000 }, resolveSnapshot: async (ref) => ref, rulesFor: async () => [] }
  const columns = ['id', 'sn', 'hostname', 'intName', 'l1', 'l2', 'primaryIp']
  const prepared = await prepareTableQuery(deps, table, { snapshot: NEWER, columns, compare: { snapshot: OLDER }, pagination: { start: 0, limit: 1000 } })
  const hand = handWritten(columns)
  const ours = {
    page: () => queryWithSettings(db, prepared.plan.settings, prepared.plan.select.sql, prepared.plan.select.params),
    count: () => queryWithSettings<{ n: number }>(db, prepared.plan.settings, prepared.plan.count.sql, prepared.plan.count.params),
    request: () => runTableQuery(deps, prepared),
  }
  const theirs = {
    page: () => db.query(hand.page, [OLDER, NEWER]),
    count: () => db.query<{ n: number }>(hand.count, [OLDER, NEWER]),
  }
  const theirsSet = {
    page: () => queryWithSettings(db, prepared.plan.settings, hand.page, [OLDER, NEWER]),
    count: () => queryWithSettings<{ n: number }>(db, prepared.plan.settings, hand.count, [OLDER, NEWER]),
  }
  const [n1, n2] = [Number((await ours.count()).rows[0]!.n), Number((await theirs.count()).rows[0]!.n)]
  if (n1 !== n2) throw new Error(`the comparison counts ${n1} rows, the hand-written join ${n2}`)
  const [p1, p2] = [(await ours.page()).rows, (await theirs.page()).rows]
  if (JSON.stringify(p1.map((r) => r.c0)) !== JSON.stringify(p2.map((r) => r.id))) throw new Error('the first pages differ')
  const times = { page: [] as number[], handPage: [] as number[], handSetPage: [] as number[], count: [] as number[], handCount: [] as number[], handSetCount: [] as number[] }
  for (let i = 0; i < ITERATIONS; i++) {
    // the order rotates, so that none always finds another's pages in the cache
    const round = async (...runs: Array<[number[], () => Promise<unknown>]>) => {
      const order = [...runs.slice(i % runs.length), ...runs.slice(0, i % runs.length)]
      for (const [list, fn] of i % 2 === 0 ? order : order.reverse()) list.push(await timeIt(fn))
    }
    await round([times.page, ours.page], [times.handPage, theirs.page], [times.handSetPage, theirsSet.page])
    await round([times.count, ours.count], [times.handCount, theirs.count], [times.handSetCount, theirsSet.count])
  }
  const request = await timeIt(ours.request)
  const row = (name: string, a: number[], b: number[], c: number[]) =>
    `| ${name} | ${p50(a).toFixed(0)} | ${p50(b).toFixed(0)} | ${(p50(a) / p50(b)).toFixed(2)}x | ${p50(c).toFixed(0)} |`
  console.log(`differences: ${n1}`)
  console.log('| measure | compare (planner) | hand-written FULL OUTER JOIN | ratio | hand-written, same settings |')
  console.log('|---|---|---|---|---|')
  console.log(row('first page (1000 rows, sort by hostname)', times.page, times.handPage, times.handSetPage))
  console.log(row('full count', times.count, times.handCount, times.handSetCount))
  console.log(`| whole request (page and count at once, once) | ${request.toFixed(0)} | | | |`)
  await db.close()
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
