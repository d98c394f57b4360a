/**
 * Event-loop stalls of the inventory while it works for one user: a simulated discovery of a
 * profile through the HTTP API into a fresh database, then the rediscovery of one device of it
 * (`POST snapshots/{id}/devices {"snList": [...]}`). For each: wall time, the longest gap between
 * two turns of a 1 ms timer (what another user's request waited at worst), and the largest CPU
 * time this process used within one gap (what our own code held the loop for; the rest is the
 * process waiting for a core), with the machine's load average. Prints one JSON line.
 *
 *   npx tsx bench/stalls.ts [--profile medium] [--engine postgres|pglite]
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { createInventoryApp } from '../src/inventory/app.js'
import { migrateInventory } from '../src/inventory/migrations/index.js'
import { compileConfig } from '../src/shared/config/index.js'
import { silentLogger } from '../src/shared/log.js'
import { INTERNAL_HEADER, encodeInternal, encodePrincipal } from '../src/shared/principal.js'
import { stalls } from '../test/helpers/event-loop.js'
import { openBenchDb } from './db.js'

const { values } = parseArgs({ options: { profile: { type: 'string', default: 'medium' }, engine: { type: 'string', default: 'postgres' } } })

/** A run's wall time and its longest stalls (test/helpers/event-loop.ts), with the machine's load. */
async function measure(fn: () => Promise<void>) {
  const start = performance.now()
  const { wallMs, cpuMs } = await stalls(fn)
  return { wallMs: Math.round(performance.now() - start), longestStallMs: wallMs, longestStallCpuMs: cpuMs, load: loadavg().map((l) => Math.round(l * 100) / 100) }
}

const { db, drop } = await openBenchDb(values.engine!)
try {
  await migrateInventory(db)
  const secret = 'bench-secret-0123456789'
  const app = await createInventoryApp({ db, config: compileConfig({}), log: silentLogger(), internalSecret: secret })
  const server = createServer(app.handle)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`
  const principal = encodePrincipal({ id: 'u', username: 'bench', scopes: ['read', 'write', 'settings'], isAdmin: true, method: 'apiKey' })
  const headers = { [INTERNAL_HEADER]: encodeInternal({ secret, principal, apiVersion: 1, generation: 'header' }), 'content-type': 'application/json' }
  const call = async (method: string, path: string, body?: unknown) => (await fetch(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })).json() as Promise<Record<string, unknown>>
  const finish = async (jobId: string) => {
    for (;;) {
      const job = await call('GET', `jobs/${jobId}`)
      if (job.isDone) return job
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  let id = ''
  const discovery = await measure(async () => {
    const r = (await call('POST', 'snapshots', { profile: values.profile })) as { id: string; jobId: string }
    id = r.id
    const job = await finish(r.jobId)
    if (job.status !== 'done') throw new Error(`discovery: ${JSON.stringify(job)}`)
  })
  const devices = (await call('POST', 'tables/inventory/devices', { snapshot: id, columns: ['sn'], filters: { devType: ['eq', 'switch'] }, pagination: { limit: 1 } })) as { data: Array<{ sn: string }> }
  const rediscovery = await measure(async () => {
    const r = (await call('POST', `snapshots/${id}/devices`, { snList: [devices.data[0]!.sn] })) as { jobId: string }
    const job = await finish(r.jobId)
    if (job.status !== 'done') throw new Error(`rediscovery: ${JSON.stringify(job)}`)
  })
  console.log(JSON.stringify({ profile: values.profile, engine: values.engine, discovery, rediscovery }))
  await app.close()
  server.close()
} finally {
  await drop()
}
