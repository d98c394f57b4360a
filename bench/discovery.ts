/**
 * Discovery benchmark: builds a lab of real routers (FRR, lldpd, snmpd in network namespaces;
 * 52 by default), then discovers it from one seed address (1) with the collector alone at the
 * configured concurrency and at concurrency 1 (the baseline, same run), and (2) end to end
 * through the inventory's HTTP API into a fresh database (crawl, rows, COPY, indexes, attach).
 * For each: wall time, devices per second, collector CPU time per device, and the longest
 * event-loop delay meanwhile. The floor beside them, in the same run: Debian's `snmpbulkwalk` of
 * each discovered device's mib-2 subtree (its default), as many at once as the discovery's
 * concurrency, with the varbinds they returned. And the rows of each table the end-to-end
 * discovery filled. Prints one JSON line. Needs root and the lab's packages.
 *
 *   npm run bench:discovery -- [--routers 52] [--concurrency 16] [--engine postgres|pglite] [--keep]
 */
import { randomBytes } from 'node:crypto'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { Lab, labMissing } from '../src/lab/index.js'
import { generatedTopology } from '../src/lab/generate.js'
import { AddressPolicy } from '../src/inventory/discovery/network/address-policy.js'
import { collectNetwork } from '../src/inventory/discovery/network/source.js'
import { createInventoryApp } from '../src/inventory/app.js'
import { migrateInventory } from '../src/inventory/migrations/index.js'
import { compileConfig } from '../src/shared/config/index.js'
import { silentLogger } from '../src/shared/log.js'
import { INTERNAL_HEADER, encodeInternal, encodePrincipal } from '../src/shared/principal.js'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { openBenchDb } from './db.js'
import { spawn } from 'node:child_process'
import { NETWORK_TABLES } from '../src/inventory/discovery/network/source.js'

const { values } = parseArgs({
  options: {
    routers: { type: 'string', default: '52' },
    concurrency: { type: 'string', default: '16' },
    engine: { type: 'string', default: 'postgres' },
    prefix: { type: 'string', default: 'nibench' },
    keep: { type: 'boolean', default: false },
  },
})
const routers = Number(values.routers)
const concurrency = Number(values.concurrency)
const missing = labMissing()
if (missing) throw new Error(`the discovery benchmark builds a lab and needs ${missing}`)

interface Measure {
  wallMs: number
  devices: number
  devicesPerSecond: number
  cpuMsPerDevice: number
  eventLoopMaxMs: number
  /**
   * CPU time this process used within its longest-stalled event-loop turn: what our own code
   * blocked for. Event-loop delay beyond it is the process waiting for a core (on this machine the
   * lab's own routers and agents share the two cores with it).
   */
  eventLoopBusyMaxMs: number
}

/** Runs `fn` while measuring wall time, this process's CPU time and the event loop's longest delay. */
async function measure(fn: () => Promise<number>): Promise<Measure> {
  const loop = monitorEventLoopDelay({ resolution: 5 })
  loop.enable()
  let busyMax = 0
  let lastWall = performance.now()
  let lastCpu = process.cpuUsage()
  const ticker = setInterval(() => {
    const now = performance.now()
    const c = process.cpuUsage()
    if (now - lastWall > 5) busyMax = Math.max(busyMax, (c.user + c.system - lastCpu.user - lastCpu.system) / 1000)
    lastWall = now
    lastCpu = c
  }, 1)
  const cpu = process.cpuUsage()
  const t0 = performance.now()
  const devices = await fn()
  const wallMs = performance.now() - t0
  const used = process.cpuUsage(cpu)
  clearInterval(ticker)
  loop.disable()
  return {
    wallMs: Math.round(wallMs),
    devices,
    devicesPerSecond: Math.round((devices / (wallMs / 1000)) * 10) / 10,
    cpuMsPerDevice: Math.round(((used.user + used.system) / 1000 / Math.max(1, devices)) * 10) / 10,
    eventLoopMaxMs: Math.round((loop.max / 1e6) * 10) / 10,
    eventLoopBusyMaxMs: Math.round(busyMax * 10) / 10,
  }
}

/** The varbinds of one `snmpbulkwalk` of an agent's mib-2 subtree (its default), as it prints them one a line. */
function bulkwalk(address: string, community: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('snmpbulkwalk', ['-v2c', '-c', community, '-t', '2', '-r', '1', '-Cr25', '-On', '-Oq', address], { stdio: ['ignore', 'pipe', 'ignore'] })
    let lines = 0
    child.stdout.on('data', (chunk: Buffer) => {
      for (const b of chunk) if (b === 10) lines++
    })
    child.once('error', reject)
    child.once('close', (code) => (code === 0 ? resolve(lines) : reject(new Error(`snmpbulkwalk ${address} exited with ${code}`))))
  })
}

/** `snmpbulkwalk` of every address, `concurrency` at once: the varbinds in all. */
async function bulkwalkAll(addresses: readonly string[], community: string, concurrency: number): Promise<number> {
  let next = 0
  let varbinds = 0
  const worker = async () => {
    while (next < addresses.length) varbinds += await bulkwalk(addresses[next++]!, community)
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, addresses.length) }, worker))
  return varbinds
}

const topology = generatedTopology(routers)
const built = performance.now()
const lab = await Lab.up({ prefix: values.prefix!, topology, readyTimeoutMs: 180_000 })
const labBuildMs = Math.round(performance.now() - built)
const credentials = [{ id: 'bench', name: 'lab', networks: [], version: '2c' as const, community: topology.credentials.community }]
const run = (c: number) => ({ seeds: [lab.seed], include: [topology.supernet], exclude: [], allowedSpecialNetworks: [], limits: { concurrency: c, timeoutMs: 2000, retries: 1, maxDevices: 5000 }, siteRules: [], defaultSite: 'lab' })

try {
  let addresses: string[] = []
  const collect = (c: number) => async () => {
    const r = await collectNetwork({ run: run(c), policy: new AddressPolicy(run(c)), credentials, remembered: new Map(), signal: new AbortController().signal, taskKey: 'bench' })
    addresses = r.network.devices.map((d) => d.d.address)
    return r.network.devices.length
  }
  await collect(concurrency)() // warm-up: the agents' first answers (caches, AgentX) are slower
  const collector = await measure(collect(concurrency))
  const baseline = await measure(collect(1))
  let walked = 0
  const bulk = await measure(async () => {
    walked = await bulkwalkAll(addresses, topology.credentials.community, concurrency)
    return addresses.length
  })

  const { db, drop } = await openBenchDb(values.engine!)
  let endToEnd: Measure
  const rowsPerTable: Record<string, number> = {}
  try {
    await migrateInventory(db)
    const app = await createInventoryApp({ db, config: compileConfig({}), log: silentLogger(), internalSecret: 'bench-secret-0123456789', credentialKey: randomBytes(32) })
    const server = createServer(app.handle)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`
    const principal = encodePrincipal({ id: 'u', username: 'bench', scopes: ['read', 'write', 'settings'], isAdmin: true, method: 'apiKey' })
    const headers = { [INTERNAL_HEADER]: encodeInternal({ secret: 'bench-secret-0123456789', principal, apiVersion: 1, generation: 'header' }), 'content-type': 'application/json' }
    const call = async (method: string, path: string, body?: unknown) => (await fetch(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })).json() as Promise<Record<string, unknown>>
    await call('POST', 'settings/snmp', { name: 'lab', version: '2c', community: topology.credentials.community })
    await call('PATCH', 'settings', { include: [topology.supernet], limits: { concurrency } })
    await call('PUT', 'settings/seed', [lab.seed])
    let snapshot = ''
    endToEnd = await measure(async () => {
      const { id, jobId } = (await call('POST', 'snapshots', {})) as { id: string; jobId: string }
      for (;;) {
        const job = await call('GET', `jobs/${jobId}`)
        if (job.isDone) break
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      snapshot = id
      return Number((await call('GET', `snapshots/${id}`)).totalDevCount)
    })
    for (const [table] of NETWORK_TABLES) {
      const page = (await call('POST', `tables/${table.path}`, { snapshot, columns: ['id'], pagination: { limit: 1 } })) as { _meta?: { count?: number } }
      rowsPerTable[table.path] = Number(page._meta?.count)
    }
    await app.close()
    server.close()
  } finally {
    await drop()
  }
  console.log(
    JSON.stringify({
      bench: 'discovery',
      routers,
      namespaces: routers + topology.hosts.length,
      labBuildMs,
      concurrency,
      collector,
      baselineConcurrency1: baseline,
      speedup: Math.round((baseline.wallMs / collector.wallMs) * 10) / 10,
      snmpbulkwalk: { ...bulk, concurrency, subtree: 'mib-2', varbinds: walked },
      collectorOverBulkwalk: Math.round((collector.wallMs / bulk.wallMs) * 100) / 100,
      endToEnd: { ...endToEnd, engine: values.engine },
      rowsPerTable,
      target: { devices: 50, wallMs: 20_000, eventLoopMaxMs: 50 },
    }),
  )
} finally {
  if (!values.keep) await lab.down()
}
