/**
 * Every table on one loaded snapshot: p50 and max of the first page (all columns, default sort,
 * 100 rows, with the count) through the query engine, next to inventory/devices as the baseline
 * of a stored, indexed table measured in the same run. Shows which derived tables (views over
 * stored ones) stay fast on a large snapshot. Not a test: numbers depend on the machine.
 * With --materialised: the materialised tables only, each read from its kept rows and by its SQL
 * (as before it was materialised), the two interleaved; the snapshot's kept rows are computed
 * first where they are not, and how long that took is reported.
 *
 *   npx tsx bench/ingest.ts --profile large --keep     (prints databaseUrl and snapshotId)
 *   npx tsx bench/tables.ts --url <databaseUrl> --snapshot <snapshotId> [--iterations 5] [--only vlan/] [--materialised]
 *
 * Each statement may run `BENCH_STATEMENT_MS` (120 s); one past it counts as Infinity, printed null.
 */
import { parseArgs } from 'node:util'
import { compileConfig } from '../src/shared/config/index.js'
import { createPostgresDb } from '../src/shared/db/index.js'
import { loadavg } from 'node:os'
import { TABLES, type TableDef } from '../src/inventory/catalog/index.js'
import { isMaterialised } from '../src/inventory/catalog/materialised.js'
import { attachMaterialised, ensureMaterialisedParents } from '../src/inventory/storage/materialised.js'
import { prepareTableQuery, runTableQuery } from '../src/inventory/query/index.js'

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    snapshot: { type: 'string' },
    iterations: { type: 'string', default: '5' },
    only: { type: 'string', default: '' },
    materialised: { type: 'boolean', default: false },
  },
})
if (!values.url || !values.snapshot) throw new Error('--url and --snapshot are required (see bench/ingest.ts --keep)')
const iterations = Number(values.iterations)
const db = createPostgresDb({ url: values.url, max: 2 })
const limits = { ...compileConfig({}).query, statementTimeoutMs: Number(process.env.BENCH_STATEMENT_MS ?? 120_000) }
const deps = { db, limits, resolveSnapshot: async () => values.snapshot!, rulesFor: async () => [] }

/** p50 and max of each table's first page and count, the tables' rounds interleaved. */
async function time(...tables: TableDef[]): Promise<Array<{ p50: number; max: number; count: number }>> {
  const ms = tables.map((): number[] => [])
  const counts = tables.map(() => 0)
  for (let i = 0; i <= iterations; i++) {
    for (const [k, table] of tables.entries()) {
      const body = { ...(table.snapshotScoped ? { snapshot: values.snapshot } : {}), columns: table.columns.map((c) => c.name), pagination: { start: 0, limit: 100 } }
      const t0 = performance.now()
      try {
        const r = await runTableQuery(deps, await prepareTableQuery(deps, table, body))
        counts[k] = r._meta.count
      } catch (err) {
        // past the bench's statement limit: reported as such (Infinity), the other tables measured on
        if ((err as { code?: string }).code !== 'API_QUERY_TIMEOUT') throw err
        ms[k]!.push(Infinity)
        continue
      }
      if (i > 0) ms[k]!.push(performance.now() - t0) // the first round warms the caches
    }
  }
  return ms.map((list, k) => {
    list.sort((a, b) => a - b) // a statement past the limit counts as Infinity (printed as null)
    return { p50: Math.round(list[Math.floor(list.length / 2)]! * 10) / 10, max: Math.round(list.at(-1)! * 10) / 10, count: counts[k]! }
  })
}

const byPath = (path: string) => TABLES.find((x) => x.path === path)!

try {
  const [baseline] = await time(byPath('inventory/devices'))
  console.log(JSON.stringify({ bench: 'tables', table: 'inventory/devices', source: 'stored (baseline)', ...baseline, load: loadavg()[0] }))
  if (values.materialised) {
    await ensureMaterialisedParents(db)
    const t0 = performance.now()
    const built = await db.transaction((tx) => attachMaterialised(tx, values.snapshot!))
    console.log(JSON.stringify({ bench: 'tables', computed: built, seconds: Math.round((performance.now() - t0) / 100) / 10, load: loadavg()[0] }))
  }
  for (const table of TABLES) {
    if (!table.path.startsWith(values.only) || table.path === 'inventory/devices') continue
    if (!values.materialised) {
      const [figures] = await time(table)
      console.log(JSON.stringify({ bench: 'tables', table: table.path, source: table.source.kind, ...figures, baselineP50: baseline!.p50 }))
    } else if (isMaterialised(table)) {
      const [kept, view] = await time(table, { ...table, source: { kind: 'derived', sql: table.source.sql } })
      console.log(JSON.stringify({ bench: 'tables', table: table.path, kept, view, speedup: Math.round((view!.p50 / kept!.p50) * 10) / 10, load: loadavg()[0] }))
    }
  }
} finally {
  await db.close()
}
