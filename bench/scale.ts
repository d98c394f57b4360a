/**
 * Scale benchmark on PostgreSQL: the requests of the README's user story through the inventory's
 * HTTP app, each against the SQL a user would type for the same answer without anything
 * precomputed, interleaved in the same run, for snapshots of about 25 k ("small"), 1.1 M
 * ("large") and 10 M ("huge") interface rows (bench/scale-data.ts makes and keeps them).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:scale -- [profiles] [iterations]
 *   e.g. npm run bench:scale -- small,large 9     (default: small,large; "huge" takes hours to make)
 *   BENCH_GENERATIONS=2 also makes the next discovery of each network, for the comparison cases
 *   BENCH_CASES=page,count runs only the cases whose names start so
 *
 * Prints the p50 of each, the machine's load average before and after each case, and the rows
 * each answered (the same for both, or the run fails).
 */
import { Agent, createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { loadavg } from 'node:os'
import pg from 'pg'
import { p50, timeIt } from './timing.js'
import { ensureScaleData } from './scale-data.js'
import { compileConfig } from '../src/shared/config/index.js'
import { createPostgresDb } from '../src/shared/db/index.js'
import { silentLogger } from '../src/shared/log.js'
import { INTERNAL_HEADER, encodeInternal } from '../src/shared/principal.js'
import { createInventoryApp } from '../src/inventory/app.js'
import { isProfileName } from '../src/inventory/simulator/index.js'
import { keepChanges } from '../src/inventory/query/change-counts.js'

const PROFILES = (process.argv[2] ?? 'small,large').split(',')
const ITERATIONS = Number(process.argv[3] ?? 9)
const GENERATIONS = Number(process.env.BENCH_GENERATIONS ?? 1)
const SECRET = 'bench-secret'

interface Case {
  name: string
  method: 'POST' | 'GET'
  path: string
  body?: Record<string, unknown>
  /** The hand-written SQL: the page and the count (run at once on two connections), or one statement. */
  hand: string[]
  /** The number the answer and the hand SQL must agree on. */
  answer(json: Record<string, unknown>): number
  handAnswer(rows: Array<Array<Record<string, unknown>>>): number
  needsPair?: boolean
}

const COLS = 'id, hostname, int_name, l1, primary_ip'
const REQ_COLS = ['id', 'hostname', 'intName', 'l1', 'primaryIp']
const count = (json: Record<string, unknown>) => (json._meta as { count: number }).count
const handCount = (rows: Array<Array<Record<string, unknown>>>) => Number(rows[1]![0]!.count)

function cases(snapshot: string, older: string | undefined, interfaces: number): Case[] {
  const half = Math.floor(interfaces / 2)
  const s = `'${snapshot}'`
  const list: Case[] = [
    {
      name: 'like + sort + page 100 with count',
      method: 'POST',
      path: 'tables/inventory/interfaces',
      body: { snapshot, columns: REQ_COLS, filters: { intName: ['like', 'gi1/0/4'] }, sort: { column: 'hostname', order: 'asc' }, pagination: { start: 0, limit: 100 } },
      hand: [
        `SELECT ${COLS} FROM inventory.interfaces WHERE snapshot_id = ${s} AND int_name ILIKE '%gi1/0/4%' ORDER BY hostname, id LIMIT 100`,
        `SELECT count(*) FROM inventory.interfaces WHERE snapshot_id = ${s} AND int_name ILIKE '%gi1/0/4%'`,
      ],
      answer: count,
      handAnswer: handCount,
    },
    {
      name: 'cidr on ARP, page 100 with count',
      method: 'POST',
      path: 'tables/addressing/arp',
      body: { snapshot, columns: ['id', 'hostname', 'ip', 'mac'], filters: { ip: ['cidr', '10.1.0.0/16'] }, pagination: { start: 0, limit: 100 } },
      hand: [
        `SELECT id, hostname, ip, mac FROM inventory.arp WHERE snapshot_id = ${s} AND ip <<= '10.1.0.0/16' ORDER BY hostname, id LIMIT 100`,
        `SELECT count(*) FROM inventory.arp WHERE snapshot_id = ${s} AND ip <<= '10.1.0.0/16'`,
      ],
      answer: count,
      handAnswer: handCount,
    },
    {
      name: `page 100 at half the table (${half})`,
      method: 'POST',
      path: 'tables/inventory/interfaces',
      body: { snapshot, columns: REQ_COLS, pagination: { start: half, limit: 100 } },
      hand: [
        `SELECT ${COLS} FROM inventory.interfaces WHERE snapshot_id = ${s} ORDER BY hostname, id OFFSET ${half} LIMIT 100`,
        `SELECT count(*) FROM inventory.interfaces WHERE snapshot_id = ${s}`,
      ],
      answer: (json) => (json.data as Array<{ id: string }>).length * 1e9 + count(json),
      handAnswer: (rows) => rows[0]!.length * 1e9 + handCount(rows),
    },
    {
      name: 'count only',
      method: 'POST',
      path: 'tables/inventory/interfaces',
      body: { snapshot, columns: ['id'], pagination: { start: 0, limit: 0 } },
      hand: [`SELECT 1`, `SELECT count(*) FROM inventory.interfaces WHERE snapshot_id = ${s}`],
      answer: count,
      handAnswer: handCount,
    },
  ]
  if (older !== undefined) {
    const o = `'${older}'`
    // what one would write to compare: a full join on the natural key, rows that differ in any
    // column but the management address (which the comparison leaves out unless asked: volatile)
    const compared = ['hostname', 'site_name', 'name_original', 'dscr', 'l1', 'l2', 'reason', 'err_disabled', 'speed', 'speed_value', 'speed_type', 'duplex', 'media', 'mtu', 'mac', 'primary_ip', 'has_transceiver', 'transceiver_type']
    const diff = `FROM (SELECT * FROM inventory.interfaces WHERE snapshot_id = ${s}) n FULL JOIN (SELECT * FROM inventory.interfaces WHERE snapshot_id = ${o}) o ON o.sn = n.sn AND o.int_name = n.int_name
      WHERE (n.id IS NULL OR o.id IS NULL OR (${compared.map((c) => `n.${c}`).join(', ')}) IS DISTINCT FROM (${compared.map((c) => `o.${c}`).join(', ')}))`
    list.push(
      {
        name: 'comparison: first page 100 with count',
        method: 'POST',
        path: 'tables/inventory/interfaces',
        body: { snapshot, compare: { snapshot: older }, columns: REQ_COLS, pagination: { start: 0, limit: 100 } },
        hand: [`SELECT coalesce(n.hostname, o.hostname) AS h, coalesce(n.id, o.id) AS id ${diff} ORDER BY 1, 2 LIMIT 100`, `SELECT count(*) ${diff}`],
        answer: count,
        handAnswer: handCount,
        needsPair: true,
      },
      {
        name: 'comparison: filtered page (l1 like down) with count',
        method: 'POST',
        path: 'tables/inventory/interfaces',
        body: { snapshot, compare: { snapshot: older }, columns: REQ_COLS, filters: { l1: ['like', 'down'] }, pagination: { start: 0, limit: 100 } },
        hand: [
          `SELECT coalesce(n.hostname, o.hostname) AS h, coalesce(n.id, o.id) AS id ${diff} AND coalesce(n.l1, o.l1) ILIKE '%down%' ORDER BY 1, 2 LIMIT 100`,
          `SELECT count(*) ${diff} AND coalesce(n.l1, o.l1) ILIKE '%down%'`,
        ],
        answer: count,
        handAnswer: handCount,
        needsPair: true,
      },
      {
        name: 'comparison: page of the added rows (change eq added) with count',
        method: 'POST',
        path: 'tables/inventory/interfaces',
        body: { snapshot, compare: { snapshot: older }, columns: REQ_COLS, filters: { change: ['eq', 'added'] }, pagination: { start: 0, limit: 100 } },
        hand: [`SELECT n.hostname AS h, n.id ${diff} AND o.id IS NULL ORDER BY 1, 2 LIMIT 100`, `SELECT count(*) ${diff} AND o.id IS NULL`],
        answer: count,
        handAnswer: handCount,
        needsPair: true,
      },
      {
        name: 'changes (every table)',
        method: 'GET',
        path: `snapshots/${snapshot}/changes?against=${older}`,
        hand: [`SELECT 1`, `SELECT count(*) ${diff}`],
        answer: (json) => {
          const row = (json.tables as Array<{ table: string; added: number; removed: number; changed: number }>).find((x) => x.table === 'inventory/interfaces')!
          return row.added + row.removed + row.changed
        },
        handAnswer: handCount,
        needsPair: true,
      },
    )
  }
  return list
}

async function benchProfile(profile: string): Promise<void> {
  if (!isProfileName(profile)) throw new Error(`unknown profile ${profile}`)
  const data = await ensureScaleData(profile, GENERATIONS)
  for (const load of data.loads) {
    const ingest = load.rows > 0 ? `ingest ${load.rows} rows in ${load.seconds.toFixed(1)} s (${Math.round(load.rows / load.seconds)} rows/s), ` : ''
    console.log(`${profile} ${load.id}: ${ingest}sort positions and materialised rows computed after ${load.positionsSeconds.toFixed(1)} s`)
  }
  const [snapshot, older] = [data.snapshots.at(-1)!, data.snapshots.length > 1 ? data.snapshots[0] : undefined]
  const db = createPostgresDb({ url: data.url, max: 10 })
  const config = compileConfig({})
  const app = await createInventoryApp({ db, config, log: silentLogger(), internalSecret: SECRET })
  const server = createServer((req, res) => app.handle(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const call = (c: Case) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = request(base + c.path, { method: c.method, agent, headers: { 'content-type': 'application/json', [INTERNAL_HEADER]: encodeInternal({ secret: SECRET, apiVersion: 1, generation: 'header' }) } }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (b: Buffer) => chunks.push(b))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          if (res.statusCode !== 200) reject(new Error(`${c.name}: ${res.statusCode} ${text}`))
          else resolve(JSON.parse(text) as Record<string, unknown>)
        })
        res.on('error', reject)
      })
      req.on('error', reject)
      req.end(c.body ? JSON.stringify(c.body) : undefined)
    })
  if (older) {
    // what the end of a discovery does in the background (discover.ts, keepChangesSincePrevious):
    // the comparison with the previous snapshot kept, every table, before users ask for it
    const started = performance.now()
    const tables = await keepChanges(db, { newer: snapshot, older }, false, 10 * 60_000)
    console.log(`${profile}: kept the comparison with the previous snapshot (${tables} tables) in ${((performance.now() - started) / 1000).toFixed(1)} s, as the end of a discovery does in the background`)
  }
  const hands = [new pg.Client({ connectionString: data.url }), new pg.Client({ connectionString: data.url })]
  for (const h of hands) await h.connect()
  const hand = (c: Case) => Promise.all(c.hand.map((sql, i) => hands[i]!.query(sql).then((r) => r.rows as Array<Record<string, unknown>>)))

  console.log(`\n${profile}: ${data.interfaces} interface rows in ${snapshot}${older ? ` (compared with ${older})` : ''}; ${ITERATIONS} iterations, p50 ms`)
  console.log('| case | answer | endpoint first call | endpoint | hand SQL | hand / endpoint | load before → after |')
  console.log('|---|---|---|---|---|---|---|')
  const only = process.env.BENCH_CASES?.split(',')
  for (const c of cases(snapshot, older, data.interfaces)) {
    if (only && !only.some((o) => c.name.startsWith(o))) continue
    const before = loadavg()[0]!.toFixed(1)
    // the first call makes what is kept (a comparison's changed rows): its time is the one-time work
    const started = performance.now()
    const answer = c.answer(await call(c))
    const first = performance.now() - started
    const expected = c.handAnswer(await hand(c))
    if (answer !== expected) throw new Error(`${c.name}: the endpoint answers ${answer}, the hand SQL ${expected}`)
    const t = { api: [] as number[], hand: [] as number[] }
    for (let i = 0; i < ITERATIONS; i++) {
      t.api.push(await timeIt(() => call(c)))
      t.hand.push(await timeIt(() => hand(c)))
    }
    const [a, h] = [p50(t.api), p50(t.hand)]
    console.log(`| ${c.name} | ${answer % 1e9} | ${first.toFixed(1)} | ${a.toFixed(1)} | ${h.toFixed(1)} | ${(h / a).toFixed(1)}x | ${before} → ${loadavg()[0]!.toFixed(1)} |`)
  }
  for (const h of hands) await h.end()
  agent.destroy()
  server.close()
  await app.close()
  await db.close()
}

async function main(): Promise<void> {
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on this machine`)
  for (const profile of PROFILES) await benchProfile(profile)
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
