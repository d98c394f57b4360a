/**
 * Authentication on the hot path: requests per second through the real gateway with an API key,
 * a Bearer token and Basic credentials, against the same route to the same upstream without
 * credential verification (baseline), all in one run; then login throughput (scrypt-bound).
 *
 *   npx tsx bench/auth.ts [secondsPerRound=1] [rounds=9] [connections=16]
 *
 * The load generator runs in a worker thread with keep-alive connections; scenarios are
 * interleaved round by round (the order rotates, so no scenario always runs first) and the median
 * round counts. On a shared machine the ratios move by ±0.1 between runs; the second table, the
 * cost of `authenticate` itself per call on a warm cache, is the stable figure. Targets: key and Bearer >= 0.9x of the
 * baseline, Basic >= 0.85x. DATABASE_URL selects PostgreSQL, else in-memory PGlite.
 *
 * Last, a login flood from many addresses (wrong passwords for random usernames, each request
 * from another X-Forwarded-For address through a trusted proxy, per-IP limits on) while one user
 * logs in every 250 ms from the address it signed in from before: the latency of the real logins with the hashing bound of the defaults
 * (auth.passwordChecks) against no bound (64 at once, queue 10,000), in the same run.
 */
import { createServer } from 'node:http'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { AddressInfo } from 'node:net'
import { compileConfig } from '../src/shared/config/index.js'
import { createPgliteDb, createPostgresDb } from '../src/shared/db/index.js'
import { silentLogger } from '../src/shared/log.js'
import type { Principal } from '../src/shared/principal.js'
import { ENDPOINTS } from '../src/shared/manifest.js'
import type { RequestContext } from '../src/gateway/context.js'
import { createAuthService, type AuthService } from '../src/gateway/auth/index.js'
import { createMemoryLimiter } from '../src/gateway/ratelimit/index.js'
import { startGateway } from '../src/gateway/server.js'

const [seconds = 1, rounds = 9, connections = 16] = process.argv.slice(2).map(Number)
const ADMIN_PASSWORD = 'bench-admin-password'

const LOAD = `
const { parentPort, workerData } = require('node:worker_threads')
const http = require('node:http')
const { url, headers, method, body, seconds, connections } = workerData
const agent = new http.Agent({ keepAlive: true, maxSockets: connections })
const target = new URL(url)
let done = 0, failed = 0
const end = Date.now() + seconds * 1000
function one() {
  return new Promise((resolve) => {
    const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, method, headers, agent }, (res) => {
      res.resume()
      res.on('end', () => { if (res.statusCode === 200) done++; else failed++; resolve() })
    })
    req.on('error', () => { failed++; resolve() })
    req.end(body)
  })
}
async function loop() { while (Date.now() < end) await one() }
Promise.all(Array.from({ length: connections }, loop)).then(() => { agent.destroy(); parentPort.postMessage({ done, failed }) })
`

function load(options: { url: string; headers: Record<string, string>; method?: string; body?: string; seconds: number; connections: number }): Promise<{ done: number; failed: number }> {
  return new Promise((resolve, reject) => {
    const w = new Worker(LOAD, { eval: true, workerData: { method: 'GET', body: undefined, ...options } })
    w.once('message', (m: { done: number; failed: number }) => resolve(m))
    w.once('error', reject)
  })
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}

async function main(): Promise<void> {
  const db = process.env.DATABASE_URL ? createPostgresDb({ url: process.env.DATABASE_URL, max: 10 }) : await createPgliteDb()
  await db.exec('DROP SCHEMA IF EXISTS identity CASCADE')
  const config = compileConfig({ rateLimit: { enabled: false, loginPerUsernamePerMinute: 1_000_000 } })
  const limiter = createMemoryLimiter({})
  const real = await createAuthService({
    db,
    config,
    log: silentLogger(),
    dataDir: await mkdtemp(join(tmpdir(), 'netinv-bench-')),
    adminPassword: ADMIN_PASSWORD,
    limiter,
    print: () => {},
  })
  // Baseline: the same pipeline, the caller taken as given when no credentials are sent.
  const given: Principal = { id: 'bench', username: 'bench', scopes: ['read'], isAdmin: false, method: 'apiKey' }
  const auth: AuthService = {
    ...real,
    authenticate: async (ctx) => (await real.authenticate(ctx)) ?? given,
  }
  const upstream = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('[{"id":"1","name":"bench","state":"loaded"}]')
  })
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r))
  const gw = await startGateway({
    config,
    log: silentLogger(),
    auth,
    limiter,
    inventoryUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    internalSecret: 'bench-secret',
    port: 0,
    host: '127.0.0.1',
    adminPort: 0,
    adminHost: '127.0.0.1',
  })
  const basic = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`
  const login = await fetch(`${gw.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) })
  const { accessToken } = (await login.json()) as { accessToken: string }
  const key = await fetch(`${gw.url}/api/api-tokens`, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/json' }, body: JSON.stringify({ scope: ['read'] }) })
  const { token } = (await key.json()) as { token: string }

  const scenarios: Record<string, Record<string, string>> = {
    baseline: {},
    apiKey: { 'x-api-token': token },
    bearer: { authorization: `Bearer ${accessToken}` },
    basic: { authorization: basic },
  }
  const url = `${gw.url}/api/snapshots`
  await load({ url, headers: scenarios.apiKey!, seconds: 1, connections }) // warm-up
  const results: Record<string, number[]> = Object.fromEntries(Object.keys(scenarios).map((k) => [k, []]))
  const names = Object.keys(scenarios)
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length]!
      const headers = scenarios[name]!
      const r = await load({ url, headers, seconds, connections })
      if (r.failed > 0) throw new Error(`${name}: ${r.failed} requests failed`)
      results[name]!.push(r.done / seconds)
    }
  }
  const base = median(results.baseline!)
  const targets: Record<string, number> = { apiKey: 0.9, bearer: 0.9, basic: 0.85 }
  console.log(`requests/s through the gateway (median of ${rounds} rounds of ${seconds}s, ${connections} connections)`)
  for (const name of Object.keys(scenarios)) {
    const rps = median(results[name]!)
    const ratio = rps / base
    const target = targets[name]
    console.log(`  ${name.padEnd(9)} ${rps.toFixed(0).padStart(7)} req/s  ${ratio.toFixed(2)}x${target ? `  (target >= ${target}x: ${ratio >= target ? 'met' : 'MISSED'})` : ''}`)
  }
  console.log('authenticate() per call, warm cache (the whole verification cost on the hot path)')
  const snapshots = ENDPOINTS.find((e) => e.path === 'snapshots')!
  for (const name of ['apiKey', 'bearer', 'basic']) {
    const ctx = { req: { headers: scenarios[name]!, socket: {} }, method: 'GET', endpoint: snapshots } as unknown as RequestContext
    const n = 20_000
    const t0 = process.hrtime.bigint()
    for (let i = 0; i < n; i++) await real.authenticate(ctx)
    console.log(`  ${name.padEnd(9)} ${(Number(process.hrtime.bigint() - t0) / 1000 / n).toFixed(1).padStart(7)} µs`)
  }
  const logins = await load({
    url: `${gw.url}/api/auth/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    seconds: Math.max(seconds, 3),
    connections: 4,
  })
  console.log(`  login     ${(logins.done / Math.max(seconds, 3)).toFixed(1).padStart(7)} logins/s (scrypt N=16384, 4 connections; ${logins.failed} failed)`)
  await gw.close(0)
  await real.close()
  for (const [label, passwordChecks] of [
    ['bounded (defaults)', {}],
    ['unbounded (before)', { concurrency: 64, queue: 10_000 }],
  ] as const) {
    await loginFlood(db, label, passwordChecks, `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`)
  }
  upstream.close()
  await db.close()
}

const FLOOD = `
const { parentPort, workerData } = require('node:worker_threads')
const http = require('node:http')
const { url, seconds, connections } = workerData
const agent = new http.Agent({ keepAlive: true, maxSockets: connections })
const target = new URL(url)
const counts = {}
const end = Date.now() + seconds * 1000
let n = 0
function one() {
  return new Promise((resolve) => {
    n++
    const body = JSON.stringify({ username: 'flood-' + n + '-' + Math.random().toString(36).slice(2), password: 'wrong-password' })
    const ip = '10.' + (n >> 16 & 255) + '.' + (n >> 8 & 255) + '.' + (n & 255)
    const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip } }, (res) => {
      res.resume()
      res.on('end', () => { counts[res.statusCode] = (counts[res.statusCode] || 0) + 1; resolve() })
    })
    req.on('error', () => { counts.error = (counts.error || 0) + 1; resolve() })
    req.end(body)
  })
}
async function loop() { while (Date.now() < end) await one() }
Promise.all(Array.from({ length: connections }, loop)).then(() => { agent.destroy(); parentPort.postMessage(counts) })
`

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN
}

/** One user logs in every 250 ms (its address's per-IP limit of auth/login is 5/s) while 64 connections flood auth/login from ever new addresses. */
async function loginFlood(db: Awaited<ReturnType<typeof createPgliteDb>>, label: string, passwordChecks: Record<string, number>, inventoryUrl: string): Promise<void> {
  const config = compileConfig({ server: { trustedProxies: ['127.0.0.1'] }, auth: { passwordChecks } })
  const limiter = createMemoryLimiter({})
  const auth = await createAuthService({ db, config, log: silentLogger(), dataDir: await mkdtemp(join(tmpdir(), 'netinv-bench-')), adminPassword: ADMIN_PASSWORD, limiter, print: () => {} })
  const gw = await startGateway({ config, log: silentLogger(), auth, limiter, inventoryUrl, internalSecret: 'bench-secret', port: 0, host: '127.0.0.1', adminPort: 0, adminHost: '127.0.0.1' })
  const seconds = 8

  const flood = new Promise<Record<string, number>>((resolve, reject) => {
    const w = new Worker(FLOOD, { eval: true, workerData: { url: `${gw.url}/api/auth/login`, seconds, connections: 64 } })
    w.once('message', resolve)
    w.once('error', reject)
  })
  const ok: number[] = []
  const statuses: Record<string, number> = {}
  const end = Date.now() + seconds * 1000
  const realLogin = () =>
    fetch(`${gw.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.1' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) })
  const before = await realLogin() // the user signed in from this address before the flood
  await before.arrayBuffer()
  await new Promise((r) => setTimeout(r, 500)) // the flood is on
  const t1 = performance.now()
  const newcomer = await realLogin()
  await newcomer.arrayBuffer()
  const newcomerMs = performance.now() - t1
  while (Date.now() < end - 500) {
    const t0 = performance.now()
    const res = await realLogin()
    await res.arrayBuffer()
    const ms = performance.now() - t0
    statuses[res.status] = (statuses[res.status] ?? 0) + 1
    if (res.status === 200) ok.push(ms)
    await new Promise((r) => setTimeout(r, Math.max(0, 250 - ms)))
  }
  const floodCounts = await flood
  const tries = Object.values(statuses).reduce((a, b) => a + b, 0)
  console.log(`login flood, ${label}: flood answers ${JSON.stringify(floodCounts)} in ${seconds} s; a first login from a new address during it: ${newcomer.status} in ${newcomerMs.toFixed(0)} ms`)
  console.log(
    `  real logins: ${ok.length} of ${tries} succeeded (${JSON.stringify(statuses)}); successful login p50 ${percentile(ok, 50).toFixed(0)} ms, p99 ${percentile(ok, 99).toFixed(0)} ms, max ${Math.max(...ok).toFixed(0)} ms`,
  )
  await gw.close(0)
  await auth.close()
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
