/**
 * Path lookups per second on PostgreSQL: `lookupPath` (src/inventory/path-lookup) between end
 * hosts of different sites, against the same walk done with hand-written SQL in the same run
 * (what one would type in psql: the gateway from the hosts table, each router's longest-prefix
 * match as `network >>= dst ORDER BY masklen(network) DESC LIMIT 1`, the owner of the next hop
 * from managed_devs, first next hop only), interleaved round by round; the machine's load is
 * printed with the figures.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/path.ts [profile=large] [lookups=200] [rounds=5]
 *
 * The snapshot is simulated and loaded into a database of its own (`netinv_bench_path_<profile>`)
 * the first time and reused afterwards.
 */
import { loadavg } from 'node:os'
import { keptBenchDatabase } from './db.js'
import { p50 } from './timing.js'
import { createPostgresDb, type Db } from '../src/shared/db/index.js'
import { migrateInventory } from '../src/inventory/migrations/index.js'
import { lookupPath } from '../src/inventory/path-lookup/index.js'
import { isProfileName, simulate } from '../src/inventory/simulator/index.js'
import { loadSnapshotRows } from '../src/inventory/storage/index.js'

const PROFILE = process.argv[2] ?? 'large'
const LOOKUPS = Number(process.argv[3] ?? 200)
const ROUNDS = Number(process.argv[4] ?? 5)
const SNAPSHOT = '00000000-0000-4000-8000-00000000be02'

async function ensureSnapshot(db: Db): Promise<void> {
  await migrateInventory(db)
  const have = await db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM inventory.snapshots WHERE id = $1', [SNAPSHOT])
  if (Number(have.rows[0]?.n) > 0) return
  if (!isProfileName(PROFILE)) throw new Error(`unknown profile ${PROFILE}`)
  const started = Date.now()
  const counts = await loadSnapshotRows(db, SNAPSHOT, simulate({ profile: PROFILE, seed: 1, sites: [], generation: 0 }).tables())
  console.log(`loaded ${Object.values(counts).reduce((a, b) => a + b, 0)} rows (${counts['networks/routes']} routes) in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  await db.query(
    `INSERT INTO inventory.snapshots (id, status, loaded, origin, ts_start, ts_end, ts_change, version, initial_version) VALUES ($1, 'done', true, 'simulator', $2, $2, $2, 'v7.6', 'v7.6')`,
    [SNAPSHOT, Date.now()],
  )
  await db.exec('ANALYZE')
}

/** The walk by hand: one branch (first next hop), no ARP, no switches. Returns the routers crossed. */
async function byHand(db: Db, src: string, dst: string): Promise<number> {
  const gw = await db.query<{ sn: string }>(`SELECT g->>'sn' AS sn FROM inventory.hosts, jsonb_array_elements(gateways) g WHERE snapshot_id = $1 AND ip = $2::inet LIMIT 1`, [SNAPSHOT, src])
  let sn = gw.rows[0]?.sn
  let hops = 0
  const seen = new Set<string>()
  while (sn && !seen.has(sn) && hops < 64) {
    seen.add(sn)
    hops++
    const r = await db.query<{ ip: string | null }>(
      `SELECT nexthop->0->>'ip' AS ip FROM inventory.routes WHERE snapshot_id = $1 AND sn = $2 AND network >>= $3::inet ORDER BY masklen(network) DESC LIMIT 1`,
      [SNAPSHOT, sn, dst],
    )
    const ip = r.rows[0]?.ip
    if (!ip) break
    const o = await db.query<{ sn: string }>(`SELECT sn FROM inventory.managed_devs WHERE snapshot_id = $1 AND ip = $2::inet LIMIT 1`, [SNAPSHOT, ip])
    sn = o.rows[0]?.sn
  }
  return hops
}

async function main(): Promise<void> {
  const url = await keptBenchDatabase(`path_${PROFILE}`)
  const db = createPostgresDb({ url, max: 4 })
  try {
    await ensureSnapshot(db)
    const hosts = (
      await db.query<{ ip: string; site: string }>(
        `SELECT DISTINCT ON (site_name) host(ip) AS ip, site_name AS site FROM inventory.hosts WHERE snapshot_id = $1 ORDER BY site_name, ip LIMIT $2`,
        [SNAPSHOT, LOOKUPS + 1],
      )
    ).rows
    const pairs = hosts.slice(0, -1).map((h, i) => [h.ip, hosts[i + 1]!.ip] as const)
    console.log(`${pairs.length} lookups between hosts of different sites, ${ROUNDS} rounds, profile ${PROFILE}`)
    const rates: Record<string, number[]> = { lookupPath: [], 'hand-written SQL': [] }
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? ['lookupPath', 'hand-written SQL'] : ['hand-written SQL', 'lookupPath']
      for (const name of order) {
        const t0 = performance.now()
        for (const [src, dst] of pairs) {
          if (name === 'lookupPath') await lookupPath(db, { snapshot: SNAPSHOT, src, dst })
          else await byHand(db, src, dst)
        }
        rates[name]!.push(pairs.length / ((performance.now() - t0) / 1000))
      }
    }
    const base = p50(rates['hand-written SQL']!)
    for (const [name, r] of Object.entries(rates)) console.log(`${name.padEnd(18)} ${p50(r).toFixed(1).padStart(8)} lookups/s  (${(p50(r) / base).toFixed(2)}x of hand-written SQL)`)
    console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} on ${(await import('node:os')).cpus().length} cores`)
  } finally {
    await db.close()
  }
}

await main()
