/**
 * Every table on one loaded snapshot: p50 and max of the first page (all columns, default sort,
 * 100 rows, with the count) through the query engine, next to inventory/devices as the baseline
 * of a stored, indexed table measured in the same run. Shows which derived tables (views over
 * stored ones) stay fast on a large snapshot. Not a test: numbers depend on the machine.
 *
 *   npx tsx bench/ingest.ts --profile large --keep     (prints databaseUrl and snapshotId)
 *   npx tsx bench/tables.ts --url <databaseUrl> --snapshot <snapshotId> [--iterations 5] [--only vlan/]
 */
import { parseArgs } from 'node:util'
import { compileConfig } from '../src/shared/config/index.js'
import { createPostgresDb } from '../src/shared/db/index.js'
import { TABLES } from '../src/inventory/catalog/index.js'
import { prepareTableQuery, runTableQuery } from '../src/inventory/query/index.js'

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    snapshot: { type: 'string' },
    iterations: { type: 'string', default: '5' },
    only: { type: 'string', default: '' },
  },
})
if (!values.url || !values.snapshot) throw new Error('--url and --snapshot are required (see bench/ingest.ts --keep)')
const iterations = Number(values.iterations)
const db = createPostgresDb({ url: values.url, max: 2 })
const limits = { ...compileConfig({}).query, statementTimeoutMs: 120_000 }
const deps = { db, limits, resolveSnapshot: async () => values.snapshot!, rulesFor: async () => [] }

async function time(path: string): Promise<{ p50: number; max: number; count: number }> {
  const table = TABLES.find((x) => x.path === path)!
  const body = { ...(table.snapshotScoped ? { snapshot: values.snapshot } : {}), columns: table.columns.map((c) => c.name), pagination: { start: 0, limit: 100 } }
  const ms: number[] = []
  let count = 0
  for (let i = 0; i <= iterations; i++) {
    const t0 = performance.now()
    const r = await runTableQuery(deps, await prepareTableQuery(deps, table, body))
    if (i > 0) ms.push(performance.now() - t0) // the first round warms the caches
    count = r._meta.count
  }
  ms.sort((a, b) => a - b)
  return { p50: Math.round(ms[Math.floor(ms.length / 2)]! * 10) / 10, max: Math.round(ms.at(-1)! * 10) / 10, count }
}

try {
  const baseline = await time('inventory/devices')
  console.log(JSON.stringify({ bench: 'tables', table: 'inventory/devices', source: 'stored (baseline)', ...baseline }))
  for (const table of TABLES) {
    if (!table.path.startsWith(values.only) || table.path === 'inventory/devices') continue
    console.log(JSON.stringify({ bench: 'tables', table: table.path, source: table.source.kind, ...(await time(table.path)), baselineP50: baseline.p50 }))
  }
} finally {
  await db.close()
}
