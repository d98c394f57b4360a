/**
 * What the embedded database's worker thread costs per query: the same statements through the
 * product's `Db` (PGlite in its worker thread, `src/shared/db/pglite.ts`) and through PGlite
 * called directly in this thread (the baseline), in the same run, on copies of one data directory;
 * then a table request through the engine and over HTTP, for scale. Prints p50 per case in µs.
 *
 *   npx tsx bench/embedded.ts [profile] [iterations]      (default: medium 200)
 *
 * The snapshot is simulated and loaded into a data directory under the system's temporary
 * directory the first time (netinv-bench-embedded-<profile>) and reused afterwards.
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { p50 } from './timing.js'
import { compileConfig } from '../src/shared/config/index.js'
import { createPgliteDb } from '../src/shared/db/index.js'
import { silentLogger } from '../src/shared/log.js'
import { INTERNAL_HEADER, encodeInternal, encodePrincipal } from '../src/shared/principal.js'
import { createInventoryApp } from '../src/inventory/app.js'
import { findTable } from '../src/inventory/catalog/index.js'
import { migrateInventory } from '../src/inventory/migrations/index.js'
import { prepareTableQuery, runTableQuery } from '../src/inventory/query/index.js'
import { isProfileName, simulate } from '../src/inventory/simulator/index.js'
import { loadSnapshotRows } from '../src/inventory/storage/index.js'

const PROFILE = process.argv[2] ?? 'medium'
const ITERATIONS = Number(process.argv[3] ?? 200)
const SNAPSHOT = '00000000-0000-4000-8000-00000000be02'
const SECRET = 'bench-secret-0123456789abcdef0123456789'

async function ensureDataDir(): Promise<string> {
  const dir = join(tmpdir(), `netinv-bench-embedded-${PROFILE}`)
  if (existsSync(join(dir, 'PG_VERSION'))) return dir
  if (!isProfileName(PROFILE)) throw new Error(`unknown profile ${PROFILE}`)
  const db = await createPgliteDb({ dataDir: dir })
  await migrateInventory(db)
  const counts = await loadSnapshotRows(db, SNAPSHOT, simulate({ profile: PROFILE, seed: 1, sites: [], generation: 0 }).tables())
  await db.query(
    `INSERT INTO inventory.snapshots (id, status, loaded, origin, ts_start, ts_end, ts_change, version, initial_version) VALUES ($1, 'done', true, 'simulator', 1, 1, 1, 'v7.6', 'v7.6')`,
    [SNAPSHOT],
  )
  await db.exec('ANALYZE')
  await db.close()
  console.log(`loaded ${counts['inventory/interfaces']} interfaces into ${dir}`)
  return dir
}

async function timeEach(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(20, ITERATIONS); i++) await fn()
  const times: number[] = []
  for (let i = 0; i < ITERATIONS; i++) {
    const t0 = performance.now()
    await fn()
    times.push((performance.now() - t0) * 1000)
  }
  return p50(times)
}

const PAGE = `SELECT id, hostname, int_name, l1, primary_ip FROM inventory.interfaces WHERE snapshot_id = $1 ORDER BY hostname, id LIMIT $2`

async function main(): Promise<void> {
  const source = await ensureDataDir()
  const copy = mkdtempSync(join(tmpdir(), 'netinv-bench-embedded-copy-'))
  cpSync(source, copy, { recursive: true })
  rmSync(join(copy, 'netinv.lock'), { force: true })
  const direct = await PGlite.create({ dataDir: copy })
  const db = await createPgliteDb({ dataDir: source })

  const cases: Array<[string, string, unknown[]]> = [
    ['SELECT 1', 'SELECT 1', []],
    ['page of 10 interfaces', PAGE, [SNAPSHOT, 10]],
    ['page of 1000 interfaces', PAGE, [SNAPSHOT, 1000]],
  ]
  console.log(`profile ${PROFILE}; ${ITERATIONS} iterations per case; p50 in µs`)
  console.log('| statement | PGlite in this thread (baseline) | through the worker | worker cost |')
  console.log('|---|---|---|---|')
  for (const [name, sql, params] of cases) {
    const base = await timeEach(() => direct.query(sql, params))
    const worker = await timeEach(() => db.query(sql, params))
    console.log(`| ${name} | ${base.toFixed(0)} | ${worker.toFixed(0)} | ${(worker - base).toFixed(0)} |`)
  }

  const config = compileConfig({})
  const app = await createInventoryApp({ db, config, log: silentLogger(), internalSecret: SECRET })
  const server = createServer(app.handle)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const table = findTable('inventory/interfaces')!
  const deps = { db, limits: config.query, resolveSnapshot: async (ref: string) => ref, rulesFor: async () => [] }
  const body = JSON.stringify({ snapshot: SNAPSHOT, columns: ['id', 'hostname', 'intName', 'l1', 'primaryIp'], pagination: { start: 0, limit: 10 }, filters: { l1: ['eq', 'up'] } })
  const header = encodeInternal({ secret: SECRET, principal: encodePrincipal({ id: 'bench', username: 'bench', scopes: ['read'], isAdmin: false, method: 'apiKey' }), apiVersion: 1, generation: 'header' })
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/tables/inventory/interfaces`
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', [INTERNAL_HEADER]: header } }, (res) => {
        res.resume()
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`))))
      })
      req.on('error', reject)
      req.end(body)
    })
  const engine = await timeEach(async () => runTableQuery(deps, await prepareTableQuery(deps, table, JSON.parse(body))))
  const http = await timeEach(post)
  console.log(`table request (filter, 10 rows): engine ${engine.toFixed(0)} µs, over HTTP ${http.toFixed(0)} µs`)

  server.close()
  await app.close()
  await db.close()
  await direct.close()
  rmSync(copy, { recursive: true, force: true })
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
