/**
 * Table query benchmark on PostgreSQL: p50 of `POST /api/tables/inventory/interfaces` (through the
 * real inventory app over HTTP) against the same SQL typed by hand and run with pg directly, in the
 * same run, on a snapshot with >= 1M interface rows.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/query.ts [profile] [iterations]
 *   (BENCH_CASES=cidr,count runs only the cases whose names start so)
 *
 * The snapshot is simulated and loaded into a database of its own (`netinv_bench_query`) the first
 * time and reused afterwards. Profile "large" (~1,000 sites) holds over a million interfaces.
 */
import { Agent, createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import pg from 'pg'
import { keptBenchDatabase } from './db.js'
import { p50, timeIt } from './timing.js'
import { compileConfig } from '../src/shared/config/index.js'
import { createPostgresDb } from '../src/shared/db/index.js'
import { silentLogger } from '../src/shared/log.js'
import { INTERNAL_HEADER, encodeInternal } from '../src/shared/principal.js'
import { createInventoryApp } from '../src/inventory/app.js'
import { findTable } from '../src/inventory/catalog/index.js'
import { migrateInventory } from '../src/inventory/migrations/index.js'
import { registerTableRoutes } from '../src/inventory/routes/tables.js'
import { prepareTableQuery, runTableQuery } from '../src/inventory/query/index.js'
import { isProfileName, simulate } from '../src/inventory/simulator/index.js'
import { loadSnapshotRows } from '../src/inventory/storage/index.js'
import { countedRowsSql, recordMeasures } from '../src/inventory/snapshots/index.js'

const PROFILE = process.argv[2] ?? 'large'
const ITERATIONS = Number(process.argv[3] ?? 15)
const SNAPSHOT = '00000000-0000-4000-8000-00000000be01'
const SECRET = 'bench-secret'

async function ensureSnapshot(url: string): Promise<number> {
  const db = createPostgresDb({ url, max: 4 })
  await migrateInventory(db)
  const have = await db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM inventory.snapshots WHERE id = $1', [SNAPSHOT])
  if (Number(have.rows[0]?.n) === 0) {
    if (!isProfileName(PROFILE)) throw new Error(`unknown profile ${PROFILE}`)
    const started = Date.now()
    const counts = await loadSnapshotRows(db, SNAPSHOT, simulate({ profile: PROFILE, seed: 1, sites: [], generation: 0 }).tables())
    const rows = Object.values(counts).reduce((a, b) => a + b, 0)
    const seconds = (Date.now() - started) / 1000
    console.log(`loaded ${rows} rows (${counts['inventory/interfaces']} interfaces) in ${seconds.toFixed(1)} s: ${Math.round(rows / seconds)} rows/s`)
    await db.query(
      `INSERT INTO inventory.snapshots (id, status, loaded, origin, ts_start, ts_end, ts_change, version, initial_version)
       VALUES ($1, 'done', true, 'simulator', $2, $2, $2, 'v7.6', 'v7.6')`,
      [SNAPSHOT, Date.now()],
    )
    await db.exec('ANALYZE')
  }
  // the rows per table that a request without filters answers as its count (as a discovery does)
  const measured = await db.query<{ m: boolean }>('SELECT row_counts IS NOT NULL AS m FROM inventory.snapshots WHERE id = $1', [SNAPSHOT])
  if (!measured.rows[0]?.m) await recordMeasures(db, SNAPSHOT)
  const n = await db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM inventory.interfaces WHERE snapshot_id = $1', [SNAPSHOT])
  await db.close()
  return Number(n.rows[0]?.n)
}

interface Case {
  name: string
  body: Record<string, unknown>
  /** The hand-written SQL of the page and of the count (what one would type in psql). */
  page: string
  count: string
}

const COLS = 'id, hostname, int_name, l1, primary_ip'
const REQ_COLS = ['id', 'hostname', 'intName', 'l1', 'primaryIp']
const CASES: Case[] = [
  {
    name: 'like + sort + limit 1000',
    body: { columns: REQ_COLS, filters: { intName: ['like', 'gi1/0/4'] }, sort: { column: 'hostname', order: 'asc' }, pagination: { start: 0, limit: 1000 } },
    page: `SELECT ${COLS} FROM inventory.interfaces WHERE snapshot_id = $1 AND int_name ILIKE '%gi1/0/4%' ORDER BY hostname, id LIMIT 1000`,
    count: `SELECT count(*) FROM inventory.interfaces WHERE snapshot_id = $1 AND int_name ILIKE '%gi1/0/4%'`,
  },
  {
    name: 'cidr',
    body: { columns: REQ_COLS, filters: { primaryIp: ['cidr', '10.1.0.0/16'] }, pagination: { start: 0, limit: 1000 } },
    page: `SELECT ${COLS} FROM inventory.interfaces WHERE snapshot_id = $1 AND primary_ip <<= '10.1.0.0/16' ORDER BY hostname, id LIMIT 1000`,
    count: `SELECT count(*) FROM inventory.interfaces WHERE snapshot_id = $1 AND primary_ip <<= '10.1.0.0/16'`,
  },
  {
    name: 'page at start 500000',
    body: { columns: REQ_COLS, pagination: { start: 500000, limit: 1000 } },
    page: `SELECT ${COLS} FROM inventory.interfaces WHERE snapshot_id = $1 ORDER BY hostname, id OFFSET 500000 LIMIT 1000`,
    count: `SELECT count(*) FROM inventory.interfaces WHERE snapshot_id = $1`,
  },
  {
    name: 'count',
    body: { columns: ['id'], pagination: { start: 0, limit: 1 } },
    page: `SELECT id FROM inventory.interfaces WHERE snapshot_id = $1 ORDER BY hostname, id LIMIT 1`,
    count: `SELECT count(*) FROM inventory.interfaces WHERE snapshot_id = $1`,
  },
]

async function main(): Promise<void> {
  const url = await keptBenchDatabase(`query_${PROFILE}`)
  const interfaces = await ensureSnapshot(url)
  console.log(`profile ${PROFILE}: ${interfaces} interface rows; ${ITERATIONS} iterations per case (p50, ms)`)

  const db = createPostgresDb({ url, max: 10 })
  const config = compileConfig({})
  const app = await createInventoryApp({ db, config, log: silentLogger(), internalSecret: SECRET })
  if (!app.router.list().some(([m, p]) => m === 'POST' && p === 'tables/*')) {
    registerTableRoutes(app.router, { db, config, log: silentLogger() }, { findTable, resolveSnapshot: async (_db, ref) => ref })
  }
  const server = createServer((req, res) => app.handle(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/tables/inventory/interfaces`

  const table = findTable('inventory/interfaces')!
  const engineDeps = { db, limits: config.query, resolveSnapshot: async (ref: string) => ref, rulesFor: async () => [], countedRows: countedRowsSql }
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const post = (target: string, payload: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(target, { method: 'POST', agent, headers: { 'content-type': 'application/json', [INTERNAL_HEADER]: encodeInternal({ secret: SECRET, apiVersion: 1, generation: 'header' }) } }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }))
        res.on('error', reject)
      })
      req.on('error', reject)
      req.end(payload)
    })

  const hand = new pg.Client({ connectionString: url })
  const hand2 = new pg.Client({ connectionString: url })
  await hand.connect()
  await hand2.connect()

  const results: string[] = []
  const only = process.env.BENCH_CASES?.split(',')
  for (const c of CASES.filter((x) => !only || only.some((o) => x.name.startsWith(o)))) {
    const body = JSON.stringify({ snapshot: SNAPSHOT, ...c.body })
    const api = () => post(endpoint, body).then(({ status, text }) => {
      const json = JSON.parse(text) as { _meta?: { count: number; size: number } }
      if (status !== 200) throw new Error(`${c.name}: ${status} ${text}`)
      return json
    })
    const engine = async () => runTableQuery(engineDeps, await prepareTableQuery(engineDeps, table, JSON.parse(body)))
    const pageOnly = () => hand.query(c.page, [SNAPSHOT])
    const pageAndCount = () => Promise.all([hand.query(c.page, [SNAPSHOT]), hand2.query(c.count, [SNAPSHOT])])
    const first = await api()
    await pageOnly()
    await pageAndCount()
    await engine()
    const times = { api: [] as number[], engine: [] as number[], page: [] as number[], both: [] as number[] }
    for (let i = 0; i < ITERATIONS; i++) {
      times.api.push(await timeIt(api))
      times.engine.push(await timeIt(engine))
      times.page.push(await timeIt(pageOnly))
      times.both.push(await timeIt(pageAndCount))
    }
    const [a, e, p, b] = [p50(times.api), p50(times.engine), p50(times.page), p50(times.both)]
    results.push(
      `| ${c.name} | ${first._meta?.count} | ${a.toFixed(1)} | ${e.toFixed(1)} | ${p.toFixed(1)} | ${b.toFixed(1)} | ${(a / b).toFixed(2)}x | ${(e / b).toFixed(2)}x |`,
    )
  }
  console.log('| case | matching rows | endpoint (HTTP) | engine in-process | hand SQL page | hand SQL page + count | endpoint / hand | engine / hand |')
  console.log('|---|---|---|---|---|---|---|---|')
  for (const line of results) console.log(line)
  await hand.end()
  await hand2.end()
  agent.destroy()
  server.close()
  await app.close()
  await db.close()
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
