/**
 * The count of a compared request filtered on one counted column, or on the kind of change alone,
 * read from counts kept with the pair (`query/kept-values.ts`: the kept rows' value counts, the
 * pair's counts per kind) against the same count testing every kept row of the pair (the same
 * filter with a second condition that is always true, which the counts cannot answer), on
 * PostgreSQL, interleaved in the same run, on the scale benchmark's two generations (made and the
 * pair kept first when missing: `bench/scale-data.ts`, `keepChanges`). Prints the p50 of each way
 * and the machine's load; both ways must count the same.
 *
 *   DATABASE_URL=... npx tsx bench/compared-counts.ts [profile [iterations]]
 */
import { loadavg } from 'node:os'
import pg from 'pg'
import { findTable } from '../src/inventory/catalog/index.js'
import { createPostgresDb } from '../src/shared/db/index.js'
import { keepChanges, prepareTableQuery, type TableQueryDeps } from '../src/inventory/query/index.js'
import { COMPARISON_SETTINGS } from '../src/inventory/query/compare.js'
import { isProfileName } from '../src/inventory/simulator/index.js'
import { ensureScaleData } from './scale-data.js'
import { p50, timeIt } from './timing.js'

const PROFILE = process.argv[2] ?? 'large'
const ITERATIONS = Number(process.argv[3] ?? 7)
const FILTERS: Array<[string, Record<string, unknown>]> = [
  ['l1 like down', { l1: ['like', 'down'] }],
  ['intName like gi1/0/4', { intName: ['like', 'gi1/0/4'] }],
  ['change eq added', { change: ['eq', 'added'] }],
  ['change neq changed', { change: ['neq', 'changed'] }],
]

async function main(): Promise<void> {
  if (!isProfileName(PROFILE)) throw new Error(`unknown profile ${PROFILE}`)
  const data = await ensureScaleData(PROFILE, 2)
  const [older, newer] = data.snapshots as [string, string]
  const db = createPostgresDb({ url: data.url, max: 2 })
  await keepChanges(db, { newer, older }, false, 10 * 60_000)
  const deps: TableQueryDeps = {
    db,
    limits: { maxLimit: 10000, defaultLimit: 1000, statementTimeoutMs: 600_000 },
    resolveSnapshot: async (ref) => ref,
    rulesFor: async () => [],
  }
  const table = findTable('inventory/interfaces')!
  const count = async (filters: Record<string, unknown>) =>
    (await prepareTableQuery(deps, table, { snapshot: newer, compare: { snapshot: older }, columns: ['id'], filters, pagination: { start: 0, limit: 100 } })).plan.count
  const client = new pg.Client({ connectionString: data.url })
  await client.connect()
  // as the engine runs a comparison's statements: its settings for the statement only
  const settings = Object.entries(COMPARISON_SETTINGS).map(([k, v]) => `SET LOCAL ${k} = ${v}`).join('; ')
  const run = async (q: { sql: string; params: unknown[] }) => {
    await client.query(`BEGIN; ${settings}`)
    const r = await client.query<{ n: string }>(q.sql, q.params)
    await client.query('COMMIT')
    return Number(r.rows[0]!.n)
  }
  console.log(`${PROFILE}: compared interfaces of ${newer} and ${older}; ${ITERATIONS} iterations, p50 ms; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`)
  console.log('| filter | rows | from the kept counts | testing the kept rows | load before → after |')
  console.log('|---|---|---|---|---|')
  for (const [name, filters] of FILTERS) {
    const [fromCounts, fromRows] = [await count(filters), await count({ ...filters, id: ['empty', false] })]
    const [a, b] = [await run(fromCounts), await run(fromRows)]
    if (a !== b) throw new Error(`${name}: ${a} from the counts, ${b} from the rows`)
    const before = loadavg()[0]!.toFixed(1)
    const times = { counts: [] as number[], rows: [] as number[] }
    for (let i = 0; i < ITERATIONS; i++) {
      times.counts.push(await timeIt(() => run(fromCounts)))
      times.rows.push(await timeIt(() => run(fromRows)))
    }
    console.log(`| ${name} | ${a} | ${p50(times.counts).toFixed(1)} | ${p50(times.rows).toFixed(1)} | ${before} → ${loadavg()[0]!.toFixed(1)} |`)
  }
  await client.end()
  await db.close()
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
