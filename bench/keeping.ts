/**
 * Keeping a comparison, table by table, on PostgreSQL: what a discovery's background work does
 * when it ends (`keepChanges`: every comparable table of the snapshot against the one before it,
 * one table at a time), measured per table for several ways of running it, interleaved in the
 * same run (the order rotates per table and iteration), on the scale benchmark's two generations
 * (`bench/scale-data.ts`, made first if missing). Each way keeps the table's rows for real (the
 * pair's row and its rows are deleted before each keeping) and every way must keep the same rows
 * as the first (a digest of the kept rows, checked once per table). Prints the time per table and
 * way, the totals, the machine's load average (also per table, on stderr), and EXPLAIN (ANALYZE, BUFFERS) of the slowest
 * tables' keeping statement for each way (in a transaction rolled back).
 *
 *   DATABASE_URL=... npm run bench:keeping -- [profile [iterations [way,way...]]]
 *
 * `BENCH_TABLES` (paths, comma-separated) measures only those tables. `BENCH_WHOLE` (concurrencies,
 * comma-separated) measures `keepChanges` whole instead, keeping that many tables at once; with
 * `BENCH_MATERIALISED=1`, each also with the materialised tables read by their SQL. `BENCH_WORK_MEM` sets the session's `work_mem` (e.g. 512kB: at "large", a partition is about a
 * ninth of one at "huge", so a ninth of the default makes the join spill as it does at 10 M).
 */
import { cpus, loadavg } from 'node:os'
import { Deadline, createPostgresDb, type Db } from '../src/shared/db/index.js'
import { storageName } from '../src/inventory/catalog/columns.js'
import type { TableDef } from '../src/inventory/catalog/types.js'
import { COMPARABLE_TABLES, keepChanges } from '../src/inventory/query/change-counts.js'
import { KEEPING, dropForgottenPartitions, keepComparison, keepingSql, keptRelation, type KeepingWay } from '../src/inventory/query/kept-comparison.js'
import { Params } from '../src/inventory/query/sql-filter.js'
import { applyLocalSettings } from '../src/shared/db/settings.js'
import { isProfileName } from '../src/inventory/simulator/index.js'
import { attachMaterialised, detachMaterialised } from '../src/inventory/storage/materialised.js'
import { ensureScaleData } from './scale-data.js'
import { narrowComparisonSql } from './narrow-comparison.js'
import { p50, timeIt } from './timing.js'

const PROFILE = process.argv[2] ?? 'large'
const ITERATIONS = Number(process.argv[3] ?? 1)
const base = { enable_mergejoin: 'off', jit: 'off' }
const merge = { enable_hashjoin: 'off', jit: 'off' }
/** Ways kept with a foreign key on the relation, as before migration 530 (added before the keeping, dropped after, neither timed). */
const WITH_FOREIGN_KEY = new Set(['foreign key', 'foreign key + hash 64MB'])
const narrow = narrowComparisonSql
const WAYS: Record<string, KeepingWay> = {
  current: KEEPING,
  'whole (before)': { ...KEEPING, whole: true },
  'work_mem 4MB (before)': { settings: base, whole: true },
  'foreign key': KEEPING,
  'foreign key + hash 64MB': { settings: { ...base, work_mem: '64MB' }, whole: true },
  'hash 32MB': { settings: { ...base, work_mem: '32MB' }, whole: true },
  'hash 64MB': { settings: { ...base, work_mem: '64MB' }, whole: true },
  'hash 256MB': { settings: { ...base, work_mem: '256MB' }, whole: true },
  merge: { settings: merge, whole: true },
  'merge 64MB': { settings: { ...merge, work_mem: '64MB' }, whole: true },
  narrow: { settings: base, sql: narrow, whole: true },
  'narrow 32MB': { settings: { ...base, work_mem: '32MB' }, sql: narrow, whole: true },
  'narrow 64MB': { settings: { ...base, work_mem: '64MB' }, sql: narrow, whole: true },
  'analyze 10': { ...KEEPING, statistics: 10 },
  'no analyze': { ...KEEPING, statistics: false },
  'no value counts': { ...KEEPING, values: false },
  'work_mem 256MB': { ...KEEPING, settings: { ...KEEPING.settings, work_mem: '256MB' } },
  'hash 64MB + analyze 10': { settings: { ...base, work_mem: '64MB' }, whole: true, statistics: 10 },
}
const chosen = (process.argv[4] ?? Object.keys(WAYS).join(',')).split(',')
const WORK_MEM = process.env.BENCH_WORK_MEM

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

async function forget(db: Db, pair: { older: string; newer: string }, table: TableDef): Promise<void> {
  await db.query('DELETE FROM inventory.snapshot_changes WHERE newer = $1 AND older = $2 AND table_path = $3', [pair.newer, pair.older, table.path])
  await dropForgottenPartitions(db, [table])
}

/** A digest of the kept rows of the pair's table, in a total order of their text. */
async function digest(db: Db, pair: { older: string; newer: string }, table: TableDef): Promise<string> {
  const relation = keptRelation(table).name
  const columns = [...table.columns.map((c) => `k."${storageName(c.name)}"`), 'k."change"', 'k."diff"::text']
  const r = await db.query<{ d: string; n: string }>(
    `SELECT md5(coalesce(string_agg(t, E'\\n' ORDER BY t), '')) AS d, count(*)::text AS n FROM (SELECT ROW(${columns.join(', ')})::text AS t FROM inventory."${relation}" k
       JOIN inventory.snapshot_changes p ON p.id = k._pair WHERE p.newer = $1 AND p.older = $2 AND p.table_path = $3) r`,
    [pair.newer, pair.older, table.path],
  )
  return `${r.rows[0]!.n}:${r.rows[0]!.d}`
}

/**
 * `BENCH_WHOLE=1,2`: every table kept as the end of a discovery keeps them (`keepChanges`), with
 * that many tables at once, the concurrencies interleaved per iteration; the wall time of each.
 */
async function whole(db: Db, pair: { older: string; newer: string }, concurrencies: number[]): Promise<void> {
  // with BENCH_MATERIALISED=1 each concurrency also with the materialised tables detached: read by their SQL, as before them
  const modes = process.env.BENCH_MATERIALISED === '1' ? ['kept rows', 'their SQL (before)'] : ['']
  const runs = concurrencies.flatMap((c) => modes.map((mode) => ({ c, mode, name: `${c} at once${mode ? `, materialised tables read from ${mode}` : ''}` })))
  const times = new Map<string, number[]>()
  for (let i = 0; i < ITERATIONS; i++) {
    const shift = i % runs.length
    for (const run of [...runs.slice(shift), ...runs.slice(0, shift)]) {
      await db.query('DELETE FROM inventory.snapshot_changes WHERE newer = $1 AND older = $2', [pair.newer, pair.older])
      for (const id of [pair.older, pair.newer]) {
        await db.transaction(async (tx) => {
          if (run.mode === modes[1]) await detachMaterialised(tx, id)
          else await attachMaterialised(tx, id)
        })
      }
      const before = load()
      const ms = await timeIt(() => keepChanges(db, pair, false, 3_600_000, undefined, run.c))
      times.set(run.name, [...(times.get(run.name) ?? []), ms])
      console.log(`keepChanges, ${run.name}: ${(ms / 1000).toFixed(1)} s (load ${before} → ${load()})`)
    }
  }
  for (const id of [pair.older, pair.newer]) await db.transaction((tx) => attachMaterialised(tx, id))
  for (const { name } of runs) console.log(`| ${name} | p50 ${(p50(times.get(name)!) / 1000).toFixed(1)} s | ${times.get(name)!.map((ms) => (ms / 1000).toFixed(1)).join(', ')} |`)
}

async function main(): Promise<void> {
  if (!isProfileName(PROFILE)) throw new Error(`unknown profile ${PROFILE}`)
  for (const way of chosen) if (!WAYS[way]) throw new Error(`unknown way ${way}: ${Object.keys(WAYS).join(', ')}`)
  const data = await ensureScaleData(PROFILE, 2)
  const pair = { older: data.snapshots[0]!, newer: data.snapshots[1]! }
  const options = WORK_MEM ? `-c work_mem=${WORK_MEM}` : undefined
  const url = new URL(data.url)
  if (options) url.searchParams.set('options', options)
  const db = createPostgresDb({ url: url.toString(), max: 4 })
  const counts = (await db.query<{ c: Record<string, number> }>('SELECT row_counts AS c FROM inventory.snapshots WHERE id = $1', [pair.older])).rows[0]!.c
  const wm = (await db.query<{ work_mem: string }>('SHOW work_mem')).rows[0]!.work_mem
  console.log(`${PROFILE}: ${data.interfaces} interfaces; ${ITERATIONS} iteration(s); session work_mem ${wm}; ${cpus().length} cores, load average ${load()}`)
  if (process.env.BENCH_WHOLE) {
    await whole(db, pair, process.env.BENCH_WHOLE.split(',').map(Number))
    await db.close()
    return
  }
  const times = new Map<string, number[]>()
  const rows: Array<{ table: TableDef; rows: number; kept: number; load: string }> = []
  const only = process.env.BENCH_TABLES?.split(',')
  const tables = COMPARABLE_TABLES.filter((table) => !only || only.includes(table.path))
  for (const [t, table] of tables.entries()) {
    let expected: string | undefined
    let kept = 0
    for (let i = 0; i < ITERATIONS; i++) {
      const shift = (t + i) % chosen.length
      for (const way of [...chosen.slice(shift), ...chosen.slice(0, shift)]) {
        await forget(db, pair, table)
        const relation = `inventory."${keptRelation(table).name}"`
        if (WITH_FOREIGN_KEY.has(way)) {
          if (!(await db.query<{ e: boolean }>('SELECT to_regclass($1) IS NOT NULL AS e', [relation])).rows[0]!.e) {
            await keepComparison(db, pair, false, table, Deadline.after(3_600_000)) // (to make the relation)
            await forget(db, pair, table)
          }
          await db.query(`ALTER TABLE ${relation} ADD CONSTRAINT bench_pair FOREIGN KEY (_pair) REFERENCES inventory.snapshot_changes (id) ON DELETE CASCADE`)
        }
        let got: Awaited<ReturnType<typeof keepComparison>>
        const ms = await timeIt(async () => (got = await keepComparison(db, pair, false, table, Deadline.after(3_600_000), WAYS[way])))
        if (WITH_FOREIGN_KEY.has(way)) await db.query(`ALTER TABLE ${relation} DROP CONSTRAINT bench_pair`)
        if (!got) throw new Error(`${table.path}: nothing kept (${way})`)
        kept = got.added + got.removed + got.changed
        times.set(`${table.path}|${way}`, [...(times.get(`${table.path}|${way}`) ?? []), ms])
        if (i === 0) {
          const d = await digest(db, pair, table)
          if (expected === undefined) expected = d
          else if (d !== expected) throw new Error(`${table.path}: ${way} kept other rows (${d} against ${expected})`)
        }
      }
    }
    rows.push({ table, rows: Number(counts[table.path] ?? 0), kept, load: load() })
    console.error(`${table.path}: ${chosen.map((w) => `${w} ${p50(times.get(`${table.path}|${w}`)!).toFixed(0)}`).join(', ')} ms (load ${load()})`)
  }
  console.log(`load average after: ${load()}`)
  const ms = (table: TableDef, way: string) => p50(times.get(`${table.path}|${way}`)!)
  const sorted = [...rows].sort((a, b) => ms(b.table, chosen[0]!) - ms(a.table, chosen[0]!))
  console.log(`| table | rows per snapshot | kept | ${chosen.join(' | ')} |`)
  console.log(`|---|---|---|${chosen.map(() => '---').join('|')}|`)
  for (const r of sorted.slice(0, 15)) console.log(`| ${r.table.path} | ${r.rows} | ${r.kept} | ${chosen.map((w) => ms(r.table, w).toFixed(0)).join(' | ')} |`)
  const rest = sorted.slice(15)
  console.log(`| ${rest.length} other tables | ${rest.reduce((a, r) => a + r.rows, 0)} | ${rest.reduce((a, r) => a + r.kept, 0)} | ${chosen.map((w) => rest.reduce((a, r) => a + ms(r.table, w), 0).toFixed(0)).join(' | ')} |`)
  console.log(`| all ${rows.length} tables | ${rows.reduce((a, r) => a + r.rows, 0)} | ${rows.reduce((a, r) => a + r.kept, 0)} | ${chosen.map((w) => rows.reduce((a, r) => a + ms(r.table, w), 0).toFixed(0)).join(' | ')} |`)

  const rollback = new Error('rollback')
  for (const r of sorted.slice(0, Number(process.env.BENCH_EXPLAIN ?? 2))) {
    for (const way of chosen) {
      const plan = await db
        .transaction(async (tx) => {
          await tx.query('DELETE FROM inventory.snapshot_changes WHERE newer = $1 AND older = $2 AND table_path = $3', [pair.newer, pair.older, r.table.path])
          const id = await tx.query<{ id: string }>(
            `INSERT INTO inventory.snapshot_changes (newer, older, volatile, table_path, added, removed, changed, relation) VALUES ($1, $2, false, $3, 0, 0, 0, $4) RETURNING id::text`,
            [pair.newer, pair.older, r.table.path, keptRelation(r.table).name],
          )
          if (WITH_FOREIGN_KEY.has(way)) {
            await tx.query(`ALTER TABLE inventory."${keptRelation(r.table).name}" ADD CONSTRAINT bench_pair FOREIGN KEY (_pair) REFERENCES inventory.snapshot_changes (id) ON DELETE CASCADE`)
          }
          await applyLocalSettings(tx, WAYS[way]!.settings)
          const params = new Params()
          const p = params.add(id.rows[0]!.id, 'int8')
          // (into a table like the pair's partition, as the keeping writes them; rolled back)
          await tx.query(`CREATE TABLE inventory.bench_kept (LIKE inventory."${keptRelation(r.table).name}")`)
          const e = await tx.query<{ 'QUERY PLAN': string }>(
            `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) INSERT INTO inventory.bench_kept SELECT ${p}, c.* FROM (${await keepingSql(tx, r.table, pair, false, params, WAYS[way])}) c`,
            params.values,
          )
          throw Object.assign(rollback, { plan: e.rows.map((x) => x['QUERY PLAN']).join('\n') })
        })
        .catch((err: unknown) => {
          if (err !== rollback) throw err
          return (err as Error & { plan: string }).plan
        })
      console.log(`\nEXPLAIN (ANALYZE, BUFFERS) keeping ${r.table.path}, ${way}:\n${plan}`)
    }
  }
  await db.close()
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
