/**
 * What the audit trail costs a request: the time `AuditRecorder.record` takes on the request path
 * (queueing an event with its before/after masked; the write happens in batches after the
 * answer), against the time of one real request through the gateway measured in the same run
 * (GET users/me with a Bearer token, sequential, keep-alive), and how many events a second the
 * batched writer stores behind it; and what reading the state before a change costs the change
 * (settings and intent rules are read with a GET of the upstream before the change is forwarded):
 * `PATCH settings` against `PATCH snapshots/{id}` (audited, no state read) through the same
 * gateway to the same upstream, an in-process server that answers at once, so that the difference
 * is the gateway's read. DATABASE_URL selects PostgreSQL, else in-memory PGlite.
 *
 *   npx tsx bench/audit.ts [events=20000]
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { loadavg, cpus } from 'node:os'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AuditRecorder, AuditStore } from '../src/gateway/audit/index.js'
import { createAuthService } from '../src/gateway/auth/index.js'
import { migrateIdentity } from '../src/gateway/identity/index.js'
import { createMemoryLimiter } from '../src/gateway/ratelimit/index.js'
import { startGateway } from '../src/gateway/server.js'
import { compileConfig } from '../src/shared/config/index.js'
import { createPgliteDb, createPostgresDb } from '../src/shared/db/index.js'
import { silentLogger } from '../src/shared/log.js'

const [events = 20_000] = process.argv.slice(2).map(Number)

async function main(): Promise<void> {
  const db = process.env.DATABASE_URL ? createPostgresDb({ url: process.env.DATABASE_URL, max: 10 }) : await createPgliteDb()
  await migrateIdentity(db)
  const log = silentLogger()
  const config = compileConfig({ rateLimit: { enabled: false } })
  const limiter = createMemoryLimiter()
  const auth = await createAuthService({ db, config, log, dataDir: await mkdtemp(join(tmpdir(), 'netinv-bench-audit-')), adminPassword: 'bench-admin-password', limiter, print: () => {} })
  // The upstream: answers every request at once with a small JSON body.
  const upstream = createServer((req, res) => {
    req.resume()
    req.on('end', () => void res.writeHead(200, { 'content-type': 'application/json' }).end(req.method === 'GET' ? '{"state":"before"}' : '{"state":"after"}'))
  })
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r))
  const inventoryUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
  const gw = await startGateway({ config, log, auth, limiter, inventoryUrl, internalSecret: 'x'.repeat(64), port: 0, host: '127.0.0.1', adminPort: 0, adminHost: '127.0.0.1' })
  const login = await fetch(`${gw.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'bench-admin-password' }) })
  const { accessToken } = (await login.json()) as { accessToken: string }

  // Baseline: one real request through the gateway.
  const requests = 2000
  for (let i = 0; i < 200; i++) await (await fetch(`${gw.url}/api/users/me`, { headers: { authorization: `Bearer ${accessToken}` } })).text()
  let t0 = performance.now()
  for (let i = 0; i < requests; i++) await (await fetch(`${gw.url}/api/users/me`, { headers: { authorization: `Bearer ${accessToken}` } })).text()
  const requestUs = ((performance.now() - t0) * 1000) / requests

  // A change whose state is read before it is forwarded, against one whose is not.
  const change = async (path: string): Promise<number> => {
    const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', 'x-requested-with': 'bench' }
    for (let i = 0; i < 200; i++) await (await fetch(`${gw.url}/api/${path}`, { method: 'PATCH', headers, body: '{"note":"x"}' })).text()
    const t1 = performance.now()
    for (let i = 0; i < requests; i++) await (await fetch(`${gw.url}/api/${path}`, { method: 'PATCH', headers, body: '{"note":"x"}' })).text()
    return ((performance.now() - t1) * 1000) / requests
  }
  const plainUs = await change('snapshots/00000000-0000-4000-8000-000000000001')
  const readUs = await change('settings')

  // record() on the request path, with a real store writing behind it.
  const store = new AuditStore(db)
  const recorder = new AuditRecorder(store, log, Date.now, { flushMs: 200 })
  const principal = { id: 'u1', username: 'alice', scopes: ['read' as const, 'team' as const], isAdmin: false, method: 'bearer' as const }
  const view = { id: 'u2', username: 'bob', email: 'bob@example.org', scope: ['read'], isAdmin: false, eulaApproved: true, timezone: 'UTC', isLocal: true, createdAt: 1, updatedAt: 2 }
  t0 = performance.now()
  for (let i = 0; i < events; i++) {
    recorder.record({ requestId: `r${i}`, clientIp: '192.0.2.1', principal }, { action: 'user.update', target: 'bob (u2)', before: view, after: { ...view, scope: ['read', 'write'], password: 'changed' } })
  }
  const recordUs = ((performance.now() - t0) * 1000) / events
  await recorder.close()
  // From the first record to the last batch stored.
  const writeMs = performance.now() - t0
  const verified = await store.verify()

  console.log(`machine: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; database: ${db.kind}`)
  console.log(`one request through the gateway (GET users/me, Bearer): ${requestUs.toFixed(0)} µs`)
  console.log(`AuditRecorder.record on the request path: ${recordUs.toFixed(2)} µs per event = ${((100 * recordUs) / requestUs).toFixed(2)} % of that request`)
  console.log(`a change through the gateway: PATCH snapshots/{id} (no state read) ${plainUs.toFixed(0)} µs, PATCH settings (state read before) ${readUs.toFixed(0)} µs: the read adds ${(readUs - plainUs).toFixed(0)} µs (${((100 * (readUs - plainUs)) / plainUs).toFixed(0)} %)`)
  console.log(`batched writer: ${events} events stored in ${(writeMs / 1000).toFixed(2)} s = ${Math.round(events / (writeMs / 1000))} events/s; chain ${verified.ok ? 'verified' : 'BROKEN'}`)
  await gw.close(0)
  upstream.close()
  await auth.close()
  await db.close()
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
