/**
 * Gateway hot-path benchmark, one run, one upstream, four ways in:
 *   direct   the upstream itself
 *   bare     a bare http-proxy passthrough with a keep-alive agent (the baseline)
 *   gateway  the full pipeline as `netinv gateway` builds it from the build in dist/: a real API
 *            key verified by the identity module (identity in a throwaway PostgreSQL database),
 *            the Redis rate limiter with a high limit, version headers, access log (serialised
 *            to /dev/null), forwarding to netinv's inventory (the route GET snapshots, internal
 *            identity, header versioning)
 *   external the same gateway process forwarding to an external upstream the way a legacy backend
 *            is fronted: a route file's endpoint (GET devices), `credential` identity (the
 *            client's key replaced by a service key from a file) and `path` versioning (the
 *            request rewritten to /api/v6.0/devices); the same upstream process answers
 * All four get the same request headers (API key and X-API-Version). Each server runs in its own
 * process. Saturation throughput is measured with a closed loop;
 * added latency with an open loop at half of saturation. The load comes from bench/load.ts (raw
 * keep-alive sockets: a fraction of node:http's CPU per request).
 *
 * Where `taskset` exists and the machine has 2 or more CPUs, the server under test (bare or
 * gateway) runs alone on the last CPU and the load generator and upstream on the others, as a
 * gateway pod has its own CPU: otherwise the servers compete with the generator for the same
 * cores and the figures measure the scheduler as much as the server. `--no-pin` turns it off.
 * Redis is a private redis-server on the others too (`--redis own`, the default where
 * redis-server is installed; else REDIS_URL or the local one): a shared Redis that the scheduler
 * may run on the gateway's core takes the gateway's CPU and delays its answers, as Redis on
 * another host would not.
 *
 *   npm run bench:gateway -- [--seconds 3] [--rounds 5] [--latency-rounds 9] [--concurrency 32]
 *                            [--redis own | redis://host:port | none] [--db postgres://…/any-db | none] [--no-pin]
 *   npm run bench:gateway -- --instructions 1000 [--instruction-rounds 5] [--warmup-requests 4000] [--concurrency 1]
 *     counts instead of timing: the instructions per request of bare, gateway and external under
 *     valgrind (see instructionCounts), comparable between runs on a loaded machine
 *   npm run bench:gateway -- --syscalls 2000 [--warmup-requests 4000] [--concurrency 32]
 *     the system calls per request of each, counted by strace (see syscallCounts)
 *   (BENCH_LOG_LEVEL=warn drops the access log, to see its share; BENCH_ACCESS_LOG=<file> keeps it,
 *   with the gateway's own view of each request's duration; BENCH_DIAG=1 prints, for every
 *   latency round, each server's event-loop delay and GC pauses and the gateway's rate-limit
 *   decision times; BENCH_PROFILE and BENCH_NODE_ARGS: see startRole; BENCH_OTLP_URL=<url> turns
 *   tracing on in the gateway, every request sampled, spans posted to that OTLP/HTTP receiver)
 *
 * Before and after the run, bench/pauses.ts measures how much the machine itself stops its CPUs:
 * a p99 below that floor cannot be shown on that machine, whatever the server does.
 *
 * Targets: gateway/bare >= 1.10 in throughput and in CPU per request (bare's CPU over the
 * gateway's), 1.25 as the aim: the whole pipeline costs less than a bare passthrough, because the
 * gateway forwards with less work per request than http-proxy does (upstreams/request.ts); the
 * p99 the pipeline adds over the bare passthrough at half saturation <= 1 ms (with the machine's
 * pauses printed beside it); external/bare >= 1.0 as an aim.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createServer, Agent } from 'node:http'
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net'
import { availableParallelism } from 'node:os'
import { createInterface } from 'node:readline'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closedLoop, openLoop, percentile, countedLoop, type Target } from './load.js'
import { describePauses, machinePauses } from './pauses.js'
import { NODE_FLAGS } from '../src/shared/node-flags.js'
import type * as SharedConfigModule from '../src/shared/config/index.js'
import type * as SharedDbModule from '../src/shared/db/index.js'
import type * as SharedLogModule from '../src/shared/log.js'
import type * as SharedTracingModule from '../src/shared/tracing/index.js'
import type * as GatewayAuthModule from '../src/gateway/auth/index.js'
import type * as GatewayMetricsModule from '../src/gateway/metrics.js'
import type * as GatewayRatelimitModule from '../src/gateway/ratelimit/index.js'
import type * as GatewayRedisModule from '../src/gateway/redis.js'
import type * as GatewayServerModule from '../src/gateway/server.js'

const args = process.argv.slice(2)
function opt(name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback
}

const PAYLOAD = JSON.stringify({ data: Array.from({ length: 10 }, (_, i) => ({ id: i, hostname: `host-${i}`, siteName: 'site' })), _meta: { count: 10 } })
const ADMIN_PASSWORD = 'bench-admin-password'

async function listen(server: ReturnType<typeof createServer>): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return (server.address() as AddressInfo).port
}

interface Ready {
  port: number
  headers: Record<string, string>
}

async function roleUpstream(): Promise<Ready> {
  const port = await listen(
    createServer({ keepAliveTimeout: 65000 }, (req, res) => {
      req.resume()
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(PAYLOAD) })
      res.end(PAYLOAD)
    }),
  )
  return { port, headers: {} }
}

async function roleBare(target: string): Promise<Ready> {
  const { default: httpProxy } = await import('http-proxy')
  const agent = new Agent({ keepAlive: true, maxSockets: 256 })
  const proxy = httpProxy.createProxyServer({ target, agent })
  proxy.on('error', (_err, _req, res) => {
    if ('writeHead' in res && !res.headersSent) res.writeHead(502)
    res.end()
  })
  return { port: await listen(createServer({ keepAliveTimeout: 65000 }, (req, res) => proxy.web(req, res))), headers: {} }
}

/**
 * A module of the product as users run it: the build in dist/ (what `npm start` and the image
 * run), or the TypeScript source through tsx with BENCH_FROM_SOURCE=1. tsx compiles with names
 * kept, which wraps every closure the hot path creates in a naming call: measurably slower.
 */
async function product(path: string): Promise<unknown> {
  const built = fileURLToPath(new URL(`../dist/src/${path}`, import.meta.url))
  if (process.env.BENCH_FROM_SOURCE) return import(`../src/${path}`)
  if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first (npm run bench:gateway does)`)
  return import(pathToFileURL(built).href)
}

async function roleGateway(target: string, redisUrl: string, dbUrl: string): Promise<Ready> {
  const { pino } = await import('pino')
  const { compileConfig } = (await product('shared/config/index.js')) as typeof SharedConfigModule
  const { createPgliteDb, createPostgresDb } = (await product('shared/db/index.js')) as typeof SharedDbModule
  const { createLogger } = (await product('shared/log.js')) as typeof SharedLogModule
  const { createAuthService } = (await product('gateway/auth/index.js')) as typeof GatewayAuthModule
  const { createMetrics } = (await product('gateway/metrics.js')) as typeof GatewayMetricsModule
  const { createLimiter } = (await product('gateway/ratelimit/index.js')) as typeof GatewayRatelimitModule
  const { whenReady } = (await product('gateway/redis.js')) as typeof GatewayRedisModule
  const { startGateway } = (await product('gateway/server.js')) as typeof GatewayServerModule
  if (process.env.BENCH_OTLP_URL) {
    // Tracing on, every request sampled, spans posted to this OTLP/HTTP receiver.
    const { startTracing } = (await product('shared/tracing/index.js')) as typeof SharedTracingModule
    await startTracing({ url: process.env.BENCH_OTLP_URL, serviceName: 'netinv-bench', trustTraceparent: false, sampleRatio: 1 })
  }
  // The external upstream: the bench's upstream again, fronted as a legacy backend is.
  const configDir = mkdtempSync(join(tmpdir(), 'netinv-bench-config-'))
  const serviceKeyFile = join(configDir, 'legacy-service-key')
  writeFileSync(serviceKeyFile, 'bench-legacy-service-key\n', { mode: 0o600 })
  mkdirSync(join(configDir, 'routes'))
  writeFileSync(
    join(configDir, 'routes', 'legacy.json'),
    JSON.stringify([{ path: 'devices', methods: { GET: 'read' }, releases: [['6.0', 1]], upstream: 'legacy', description: 'Devices of the external upstream.' }]),
  )
  const config = compileConfig({
    rateLimit: { perSecond: 1_000_000 },
    upstreams: { legacy: { url: target, versioning: 'path', identity: { mode: 'credential', header: 'X-API-Token', valueFile: serviceKeyFile } } },
  })
  // The product's default destination (asynchronous, as pino writes to stdout), on /dev/null
  // unless BENCH_ACCESS_LOG names a file to keep it in.
  const dest = process.env.BENCH_ACCESS_LOG ?? '/dev/null'
  const log = createLogger({ level: process.env.BENCH_LOG_LEVEL ?? 'info', stream: pino.destination({ dest, sync: false }) })
  const metrics = createMetrics()
  const limits = createLimiter({ redisUrl: redisUrl === 'none' ? undefined : redisUrl, config: () => config, log, metrics, prefix: `netinv:bench:${process.pid}:` })
  if (limits.redis && !(await whenReady(limits.redis, 5000))) throw new Error(`Redis at ${redisUrl} is not ready`)
  if (process.env.BENCH_DIAG) await diagnose('gateway', limits.limiter as never)
  // The identity store: a throwaway PostgreSQL database that the bench made (--db), as a gateway
  // is deployed beside its replicas; else an in-memory PGlite (see throwawayDatabase below).
  const db = dbUrl ? createPostgresDb({ url: dbUrl, max: 4 }) : await createPgliteDb()
  const auth = await createAuthService({
    db,
    config,
    log,
    dataDir: mkdtempSync(join(tmpdir(), 'netinv-bench-')),
    adminPassword: ADMIN_PASSWORD,
    limiter: limits.limiter,
    print: () => {},
  })
  const gw = await startGateway({
    config,
    log,
    metrics,
    limiter: limits.limiter,
    auth,
    inventoryUrl: target,
    internalSecret: 'bench-secret-bench-secret-bench-secret',
    routesDir: join(configDir, 'routes'),
    port: 0,
    host: '127.0.0.1',
    adminPort: 0,
    adminHost: '127.0.0.1',
  })
  // An API key with scope read, made through the gateway as a user would.
  const basic = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`
  const made = await fetch(`${gw.url}/api/api-tokens`, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/json' },
    body: JSON.stringify({ description: 'bench', scope: ['read'] }),
  })
  if (made.status !== 201 && made.status !== 200) throw new Error(`creating the bench API key: ${made.status} ${await made.text()}`)
  const { token } = (await made.json()) as { token: string }
  return { port: Number(new URL(gw.url).port), headers: { 'x-api-token': token, 'x-api-version': '1' } }
}

/** CPU time (user and system, ms) a process has used so far, from /proc (Linux); NaN elsewhere. */
function cpuMs(pid: number | undefined): { user: number; sys: number } {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return { user: (Number(fields[11]) * 1000) / 100, sys: (Number(fields[12]) * 1000) / 100 }
  } catch {
    return { user: NaN, sys: NaN }
  }
}

function median(values: number[]): number {
  return percentile(values, 50)
}

/**
 * A database of its own on the PostgreSQL server of DATABASE_URL (default the tests' server),
 * dropped when the bench ends: the gateway's identity store as a deployed gateway has it. Null
 * when no server answers (or --db none): the gateway then keeps identity in an in-memory PGlite,
 * which is how a single embedded process runs, and which makes every request of that process
 * slower (the figures say which was used).
 */
async function throwawayDatabase(server: string): Promise<{ url: string; drop(): Promise<void> } | null> {
  if (server === 'none') return null
  const { default: pg } = await import('pg')
  const name = `netinv_bench_${process.pid}`
  const admin = new pg.Client({ connectionString: server, connectionTimeoutMillis: 3000 })
  try {
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${name}`)
  } catch (err) {
    console.log(`no PostgreSQL at ${server} (${(err as Error).message}): identity in an in-process PGlite`)
    return null
  } finally {
    await admin.end().catch(() => {})
  }
  const url = new URL(server)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: server })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
    },
  }
}

/** Resolves once something accepts connections on the port (a private redis-server starting). */
async function whenListening(port: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1', () => {
        s.destroy()
        resolve(true)
      })
      s.once('error', () => resolve(false))
    })
    if (ok) return
    if (Date.now() > until) throw new Error(`nothing listens on ${port} after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/**
 * A redis-server of the bench's own on a free port, keeping nothing on disk; it inherits the
 * bench's CPUs (the others than the server under test's). Null where redis-server is not installed.
 */
async function privateRedis(): Promise<{ url: string; child: ChildProcess } | null> {
  if (spawnSync('redis-server', ['--version']).status !== 0) return null
  const port = await new Promise<number>((resolve, reject) => {
    const s = createNetServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port
      s.close(() => resolve(p))
    })
  })
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmpdir()], { stdio: 'ignore' })
  await whenListening(port, 5000)
  return { url: `redis://127.0.0.1:${port}`, child }
}

// ── orchestration ──────────────────────────────────────────────────────────────────────────

/** CPU lists for the server under test and for everything else; null: no pinning. */
function cpuPlan(): { sut: string; rest: string; cpus: number[] } | null {
  if (args.includes('--no-pin') || process.platform !== 'linux') return null
  const n = availableParallelism()
  if (n < 2) return null
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' })
  } catch {
    return null
  }
  return { sut: String(n - 1), rest: n === 2 ? '0' : `0-${n - 2}`, cpus: Array.from({ length: n }, (_, i) => i) }
}

/** A command that runs node under another program (valgrind), and options of node's for that run. */
interface Wrapper {
  command: string[]
  nodeArgs: string[]
}

function startRole(cpus: string | undefined, role: string, ...rest: string[]): Promise<Ready & { child: ChildProcess }> {
  return startWrapped(undefined, cpus, role, ...rest)
}

function startWrapped(wrapper: Wrapper | undefined, cpus: string | undefined, role: string, ...rest: string[]): Promise<Ready & { child: ChildProcess }> {
  // Every server runs with the product's NODE_FLAGS, as the product does. BENCH_PROFILE=<dir>
  // writes a CPU profile of each server process there; BENCH_NODE_ARGS adds options of node's or
  // V8's after them (say, --trace-deopt, or --memory-reducer to see what NODE_FLAGS spares).
  const prof = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : []
  const extra = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []
  const node = [...NODE_FLAGS, ...prof, ...extra, ...(wrapper?.nodeArgs ?? []), '--import', 'tsx', fileURLToPath(import.meta.url), '--role', role, ...rest]
  const command = [...(cpus ? ['taskset', '-c', cpus] : []), ...(wrapper?.command ?? []), process.execPath, ...node]
  const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve({ ...(JSON.parse(line) as Ready), child }))
    child.once('exit', (code) => reject(new Error(`${role} exited with ${code}`)))
  })
}

/**
 * BENCH_DIAG=1: each server process keeps its event-loop delay, GC pauses and (gateway) the time
 * the rate limiter takes to decide; on SIGUSR2 it prints them to stderr and starts afresh.
 */
async function diagnose(role: string, limiter?: { consume: (...a: never[]) => unknown }): Promise<void> {
  const { monitorEventLoopDelay, PerformanceObserver, createHistogram } = await import('node:perf_hooks')
  const loop = monitorEventLoopDelay({ resolution: 1 })
  loop.enable()
  const gc = createHistogram()
  let major: number[] = []
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gc.record(Math.max(1, Math.round(e.duration * 1000)))
      // kind 4: a full (mark-compact) collection
      if (((e as { detail?: { kind?: number } }).detail)?.kind === 4) major.push(Math.round(e.duration * 1000))
    }
  }).observe({ entryTypes: ['gc'] })
  const decide = createHistogram()
  if (limiter) {
    const consume = limiter.consume.bind(limiter) as (...a: unknown[]) => unknown
    ;(limiter as { consume: (...a: unknown[]) => unknown }).consume = (...a: unknown[]) => {
      const t0 = performance.now()
      const d = consume(...a)
      if (d instanceof Promise) return d.finally(() => decide.record(Math.max(1, Math.round((performance.now() - t0) * 1000))))
      return d
    }
  }
  const us = (h: { percentile(p: number): number; max: number; count: number }) => `n ${h.count} p50 ${h.percentile(50)} p99 ${h.percentile(99)} max ${h.max} µs`
  process.on('SIGUSR2', () => {
    process.stderr.write(`  [${role}] loop delay p50 ${(loop.percentile(50) / 1000).toFixed(0)} p99 ${(loop.percentile(99) / 1000).toFixed(0)} max ${(loop.max / 1000).toFixed(0)} µs; gc ${us(gc)} total ${((gc.mean * gc.count) / 1000).toFixed(1)} ms, full [${major.join(' ')}] µs; heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB${limiter ? `; limiter ${us(decide)}` : ''}\n`)
    loop.reset()
    gc.reset()
    major = []
    decide.reset()
  })
}

/**
 * The instructions a server process executes: counting switched on now, and (after `n` requests)
 * the count since, read from callgrind's dump (which starts the next count from zero).
 */
function callgrindControl(pid: number, ...what: string[]): string {
  return execFileSync('callgrind_control', [...what, String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

/** What a callgrind dump counted: every instruction, and those of V8's compilers (see compilerShare). */
interface Dumped {
  total: number
  compiler: number
}

/**
 * Functions of V8's compilers: the optimising ones (TurboFan, Turboshaft, Maglev), the baseline
 * one (Sparkplug), and the bytecode compiler and parser (lazy functions and flushed bytecode).
 */
const COMPILER_FN = /v8::internal::(?:compiler::|maglev::|turboshaft::|baseline::|interpreter::|Parser|Scanner|Compiler::|[A-Za-z]*CompilationJob|BytecodeGenerator|AstNode|Ast[A-Z])|Maglev|Turbofan/

/**
 * The instructions of a dump spent in V8's compilers: a function's own cost lines (after `fn=`),
 * not the inclusive cost lines that follow a `calls=` line. Warm-up does not settle every
 * optimisation and the compiler runs on the main thread here, so a round may count a compile
 * of some hot function: a run-to-run difference the code under test did not make.
 */
function compilerShare(text: string): number {
  const names = new Map<string, string>()
  let inCompiler = false
  let skipNext = false
  let sum = 0
  for (const line of text.split('\n')) {
    if (skipNext) {
      skipNext = false
      continue
    }
    // Names are compressed to a number at their first use, by a function's or a callee's line.
    if (line.startsWith('fn=') || line.startsWith('cfn=')) {
      const callee = line.charCodeAt(0) === 0x63
      const m = /^c?fn=\((\d+)\)(?: (.*))?$/.exec(line)
      if (m?.[2] !== undefined) names.set(m[1]!, m[2])
      if (!callee) inCompiler = COMPILER_FN.test(m ? (names.get(m[1]!) ?? '') : line.slice(3))
      continue
    }
    if (line.startsWith('calls=')) {
      skipNext = true
      continue
    }
    if (!inCompiler) continue
    const c = line.charCodeAt(0)
    // Cost lines: a position (a number, +n, -n or *) then the count.
    if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2a) {
      const count = Number(line.slice(line.lastIndexOf(' ') + 1))
      if (Number.isFinite(count)) sum += count
    }
  }
  return sum
}

function dumpedInstructions(dir: string, pid: number, before: Set<string>): Dumped {
  callgrindControl(pid, '-d')
  const fresh = readdirSync(dir).filter((f) => f.startsWith(`callgrind.out.${pid}.`) && !before.has(f))
  if (fresh.length !== 1) throw new Error(`expected one new callgrind dump of ${pid}, found ${fresh.join(', ') || 'none'}`)
  before.add(fresh[0]!)
  const text = readFileSync(join(dir, fresh[0]!), 'utf8')
  const m = /^(?:totals|summary): (\d+)/m.exec(text)
  if (!m) throw new Error(`no totals in callgrind dump ${fresh[0]}`)
  return { total: Number(m[1]), compiler: compilerShare(text) }
}

/**
 * --instructions N: what each server executes per request, counted instead of timed, so that runs
 * compare on a loaded or shared machine too (timed there, they measure the neighbours). Each
 * server (bare, then the gateway) runs under valgrind's callgrind with counting off while it
 * starts and warms up (--warmup-requests, default 4000, sent one after the other); then counting
 * goes on for --instruction-rounds rounds (default 5) of N requests one after the other on one
 * keep-alive connection, the gateway's two routes in turns, and each round's count is read.
 * Node runs with --single-threaded there: the optimising compiler and the collector work on the
 * main thread, so that their work is counted in the process (with helper threads it lands where
 * the scheduler puts it). A warm-up of some thousand requests does not settle every optimisation:
 * a round that compiles a hot function counts the compile too (about half of a 300-request round
 * of 2026-11-27), so each round's count is printed with V8's compilers' share taken out, and the
 * median over the rounds of that is the figure compared (the rounds' totals are printed too).
 * The figure is instructions, not time (a cache miss or a system call costs more than its
 * instructions say), and one request at a time is the gateway's worst case for Redis (each
 * decision its own round trip; under load the decisions of a turn share one). The dumps are kept
 * (the directory is printed): `callgrind_annotate` says where the instructions went, and with
 * BENCH_NODE_ARGS=--perf-basic-prof the addresses of JavaScript functions in it are named in
 * /tmp/perf-<pid>.map.
 */
async function instructionCounts(n: number, plan: ReturnType<typeof cpuPlan>, target: string, redis: string, db: string, children: ChildProcess[]): Promise<void> {
  if (spawnSync('valgrind', ['--version']).status !== 0) throw new Error('--instructions needs valgrind (apt-get install valgrind)')
  const warm = Number(opt('warmup-requests', '4000'))
  const rounds = Number(opt('instruction-rounds', '5'))
  // One connection unless --concurrency says otherwise (the timed run's 32 do not apply here).
  const concurrency = Number(opt('concurrency', '1'))
  const dir = mkdtempSync(join(tmpdir(), 'netinv-bench-callgrind-'))
  const wrapper: Wrapper = {
    command: ['valgrind', '--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${join(dir, 'callgrind.out.%p')}`, '--log-file=/dev/null'],
    nodeArgs: ['--single-threaded'],
  }
  const counted: Record<string, Array<{ total: number; rest: number }>> = {}
  const progress = (line: string) => process.stderr.write(`  (${line})\n`)
  const warmUp = async (name: string, t: Target) => {
    const t0 = performance.now()
    const warmed = await countedLoop(t, concurrency, warm)
    progress(`${name}: ${warm} warm-up requests in ${((performance.now() - t0) / 1000).toFixed(0)} s`)
    if (warmed.errors > 0) throw new Error(`${name}: ${warmed.errors} warm-up requests failed`)
  }
  const round = async (name: string, t: Target, pid: number, dumps: Set<string>) => {
    const t0 = performance.now()
    callgrindControl(pid, '-i', 'on')
    dumpedInstructions(dir, pid, dumps) // from zero, now
    const r = await countedLoop(t, concurrency, n)
    if (r.errors > 0) throw new Error(`${name}: ${r.errors} requests failed`)
    const d = dumpedInstructions(dir, pid, dumps)
    callgrindControl(pid, '-i', 'off')
    const one = { total: d.total / n, rest: (d.total - d.compiler) / n }
    ;(counted[name] ??= []).push(one)
    progress(`${name}: ${n} requests in ${((performance.now() - t0) / 1000).toFixed(0)} s, ${Math.round(one.rest)} instructions per request besides V8's compilers' ${Math.round(one.total - one.rest)}`)
  }
  const path = '/api/snapshots'
  const bare = await startWrapped(wrapper, plan?.sut, 'bare', '--target', target)
  children.push(bare.child)
  const gw = await startWrapped(wrapper, plan?.sut, 'gateway', '--target', target, '--redis', redis, '--db', db)
  children.push(gw.child)
  const headers = gw.headers
  const bareTarget = { port: bare.port, path, headers }
  await warmUp('bare', bareTarget)
  const bareDumps = new Set<string>()
  for (let i = 0; i < rounds; i++) await round('bare', bareTarget, bare.child.pid!, bareDumps)
  bare.child.kill('SIGKILL')
  const gwDumps = new Set<string>()
  const gwTarget = { port: gw.port, path, headers }
  const extTarget = { port: gw.port, path: '/api/devices', headers }
  // Both of the gateway's routes are warm before either is counted, as in the timed run.
  await warmUp('external', extTarget)
  await warmUp('gateway', gwTarget)
  for (let i = 0; i < rounds; i++) {
    await round('gateway', gwTarget, gw.child.pid!, gwDumps)
    await round('external', extTarget, gw.child.pid!, gwDumps)
  }
  console.log(`instructions per request (callgrind, ${rounds} rounds of ${n} requests on ${concurrency} connection(s) after ${warm} of warm-up, node --single-threaded; dumps in ${dir}):`)
  console.log('  median besides V8\'s compilers [each round]; median of the totals [each round]')
  const med: Record<string, number> = {}
  for (const [name, list] of Object.entries(counted)) {
    med[name] = median(list.map((c) => c.rest))
    const totals = list.map((c) => c.total)
    const k = (v: number) => `${Math.round(v / 1000)}k`
    console.log(`  ${name.padEnd(8)} ${Math.round(med[name]!).toString().padStart(9)} [${list.map((c) => k(c.rest)).join(' ')}]; ${Math.round(median(totals)).toString().padStart(9)} [${totals.map(k).join(' ')}]`)
  }
  console.log(`instruction ratio bare/gateway: ${(med.bare! / med.gateway!).toFixed(3)}; bare/external: ${(med.bare! / med.external!).toFixed(3)}`)
}

/**
 * --syscalls N: the system calls each server makes per request, counted by strace attached for N
 * requests after a warm-up (--warmup-requests, default 4000), on --concurrency connections
 * (default 32, as the timed run). A count, not a time: it says where a server asks the kernel for
 * more than another (writes per answer, wake-ups, timers), which the CPU time of a machine whose
 * kernel calls are dear (a microVM's loopback) then multiplies. strace slows each call, so the
 * batching of a loaded process (several requests per wake-up) is fewer than in the timed run.
 */
async function syscallCounts(n: number, plan: ReturnType<typeof cpuPlan>, target: string, redis: string, db: string, children: ChildProcess[]): Promise<void> {
  if (spawnSync('strace', ['-V']).status !== 0) throw new Error('--syscalls needs strace (apt-get install strace)')
  const warm = Number(opt('warmup-requests', '4000'))
  const concurrency = Number(opt('concurrency', '32'))
  const dir = mkdtempSync(join(tmpdir(), 'netinv-bench-strace-'))
  const counts: Record<string, Map<string, number>> = {}
  const count = async (name: string, t: Target, pid: number) => {
    const warmed = await countedLoop(t, concurrency, warm)
    if (warmed.errors > 0) throw new Error(`${name}: ${warmed.errors} warm-up requests failed`)
    const out = join(dir, `${name}.txt`)
    const strace = spawn('strace', ['-c', '-f', '-q', '-p', String(pid), '-o', out], { stdio: 'ignore' })
    await new Promise((resolve) => setTimeout(resolve, 1000)) // attached to every thread
    const r = await countedLoop(t, concurrency, n)
    if (r.errors > 0) throw new Error(`${name}: ${r.errors} requests failed`)
    strace.kill('SIGINT')
    await new Promise((resolve) => strace.once('exit', resolve))
    const calls = new Map<string, number>()
    for (const line of readFileSync(out, 'utf8').split('\n')) {
      const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?([a-z_0-9]+)\s*$/.exec(line)
      if (m && m[2] !== 'total') calls.set(m[2]!, Number(m[1]) / n)
    }
    counts[name] = calls
  }
  const path = '/api/snapshots'
  const bare = await startRole(plan?.sut, 'bare', '--target', target)
  children.push(bare.child)
  const gw = await startRole(plan?.sut, 'gateway', '--target', target, '--redis', redis, '--db', db)
  children.push(gw.child)
  await count('bare', { port: bare.port, path, headers: gw.headers }, bare.child.pid!)
  await count('gateway', { port: gw.port, path, headers: gw.headers }, gw.child.pid!)
  await count('external', { port: gw.port, path: '/api/devices', headers: gw.headers }, gw.child.pid!)
  const names = [...new Set(Object.values(counts).flatMap((m) => [...m.keys()]))]
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0)
  names.sort((a, b) => (counts.gateway?.get(b) ?? 0) - (counts.gateway?.get(a) ?? 0))
  console.log(`system calls per request (strace -c, ${n} requests on ${concurrency} connections after ${warm} of warm-up; summaries in ${dir}):`)
  console.log(`  ${'call'.padEnd(16)} ${Object.keys(counts).map((k) => k.padStart(9)).join(' ')}`)
  for (const name of names) console.log(`  ${name.padEnd(16)} ${Object.values(counts).map((m) => (m.get(name) ?? 0).toFixed(2).padStart(9)).join(' ')}`)
  console.log(`  ${'all'.padEnd(16)} ${Object.values(counts).map((m) => total(m).toFixed(2).padStart(9)).join(' ')}`)
}

async function main(): Promise<void> {
  const role = opt('role', '')
  if (role) {
    if (process.env.BENCH_DIAG && role !== 'gateway') await diagnose(role)
    const ready = role === 'upstream' ? await roleUpstream() : role === 'bare' ? await roleBare(opt('target', '')) : await roleGateway(opt('target', ''), opt('redis', ''), opt('db', ''))
    console.log(JSON.stringify(ready))
    process.on('SIGINT', () => process.exit(0))
    return
  }
  const seconds = Number(opt('seconds', '3'))
  const concurrency = Number(opt('concurrency', '32'))
  const rounds = Number(opt('rounds', '5'))
  const latencyRounds = Number(opt('latency-rounds', '9'))
  const warmup = Number(opt('warmup', '8'))
  const plan = cpuPlan()
  // Before anything runs: how much the machine itself stops its CPUs (see bench/pauses.ts).
  if (plan && !args.includes('--instructions') && !args.includes('--syscalls')) console.log(`machine pauses before the run: ${describePauses(await machinePauses(plan.cpus))}`)
  if (plan) execFileSync('taskset', ['-cp', plan.rest, String(process.pid)], { stdio: 'ignore' })
  const up = await startRole(plan?.rest, 'upstream')
  const target = `http://127.0.0.1:${up.port}`
  const instructions = Number(opt('instructions', '0'))
  const syscalls = Number(opt('syscalls', '0'))
  const bare = instructions > 0 || syscalls > 0 ? null : await startRole(plan?.sut, 'bare', '--target', target)
  const database = await throwawayDatabase(opt('db', process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'))
  const redisOption = opt('redis', 'own')
  const ownRedis = redisOption === 'own' ? await privateRedis() : null
  const redis = ownRedis?.url ?? (redisOption === 'own' ? (process.env.REDIS_URL ?? 'redis://127.0.0.1:6379') : redisOption)
  const children: ChildProcess[] = [up.child, ...(bare ? [bare.child] : []), ...(ownRedis ? [ownRedis.child] : [])]
  try {
    if (syscalls > 0) {
      await syscallCounts(syscalls, plan, target, redis, database?.url ?? '', children)
      return
    }
    if (!bare) {
      await instructionCounts(instructions, plan, target, redis, database?.url ?? '', children)
      return
    }
    const gw = await startRole(plan?.sut, 'gateway', '--target', target, '--redis', redis, '--db', database?.url ?? '')
    children.push(gw.child)
    const path = '/api/snapshots'
    // One request for all four: the client's API key and version header reach the upstream
    // through the bare proxy too, as they would through any passthrough.
    const headers = gw.headers
    const targets: Record<'direct' | 'bare' | 'gateway' | 'external', Target & { pid: number | undefined }> = {
      direct: { port: up.port, pid: up.child.pid, path, headers },
      bare: { port: bare.port, pid: bare.child.pid, path, headers },
      gateway: { port: gw.port, pid: gw.child.pid, path, headers },
      external: { port: gw.port, pid: gw.child.pid, path: '/api/devices', headers },
    }
    console.log(`gateway identity store: ${database ? 'PostgreSQL (a throwaway database)' : 'in-process PGlite'}`)
    console.log(`rate limiter: ${redis === 'none' ? 'in-process' : ownRedis ? `Redis, a private redis-server (${redis})` : `Redis at ${redis}`}`)
    console.log(
      plan
        ? `pinned: bare and gateway on CPU ${plan.sut}; load generator, upstream${ownRedis ? ', Redis' : ''} on CPU ${plan.rest}`
        : 'not pinned: servers and load generator share the CPUs',
    )
    // Warm-up: the gateway runs far more code than the bare proxy, and V8 is still optimising it
    // for the first ~10 s of load; the figures are of the steady state.
    for (const t of Object.values(targets)) await closedLoop(t, concurrency, warmup)
    // Rounds interleave the three targets so that a noisy neighbour hits all of them alike;
    // medians are reported.
    const names = Object.keys(targets) as Array<keyof typeof targets>
    const rpsOf: Record<string, number[]> = {}
    const cpuOf: Record<string, number[]> = {}
    const userOf: Record<string, number[]> = {}
    const p99Of: Record<string, number[]> = {}
    for (let round = 0; round < rounds; round++) {
      for (const name of names) {
        const t = targets[name]
        const before = cpuMs(t.pid)
        const r = await closedLoop(t, concurrency, seconds)
        if (r.errors > 0) throw new Error(`${name}: ${r.errors} requests failed`)
        ;(rpsOf[name] ??= []).push(r.requests / r.seconds)
        const after = cpuMs(t.pid)
        const user = after.user - before.user
        ;(cpuOf[name] ??= []).push(((user + after.sys - before.sys) * 1000) / r.requests)
        ;(userOf[name] ??= []).push((user * 1000) / r.requests)
        ;(p99Of[name] ??= []).push(percentile(r.latenciesMs, 99))
      }
    }
    console.log(`saturation (closed loop, ${concurrency} connections, ${rounds} rounds of ${seconds}s, medians; each round's req/s in brackets):`)
    for (const name of names) {
      console.log(
        `  ${name.padEnd(8)} ${median(rpsOf[name]!).toFixed(0).padStart(7)} req/s  p99 ${median(p99Of[name]!).toFixed(2)} ms  server CPU ${median(cpuOf[name]!).toFixed(0)} µs/req (user ${median(userOf[name]!).toFixed(0)})  [${rpsOf[name]!.map((v) => v.toFixed(0)).join(' ')}]`,
      )
    }
    const ratio = median(rpsOf.gateway!) / median(rpsOf.bare!)
    const externalRatio = median(rpsOf.external!) / median(rpsOf.bare!)
    const cpuRatio = median(cpuOf.bare!) / median(cpuOf.gateway!)
    // Half of saturation: half the rate the slower of bare and gateway sustains, so that all
    // three run at or below half load and the difference is the added latency, not queueing.
    const rate = Math.round(Math.min(median(rpsOf.bare!), median(rpsOf.gateway!), median(rpsOf.external!)) / 2)
    const lat: Record<string, number[]> = {}
    const p50: Record<string, number[]> = {}
    const servers = [up.child, bare.child, gw.child]
    for (let round = 0; round < latencyRounds; round++) {
      for (const name of names) {
        if (process.env.BENCH_DIAG) for (const c of servers) c.kill('SIGUSR2')
        const r = await openLoop(targets[name], rate, seconds)
        if (process.env.BENCH_DIAG) {
          console.error(`${name} round ${round}: ${[50, 90, 99, 99.9].map((p) => `p${p} ${percentile(r.latenciesMs, p).toFixed(2)}`).join(' ')} ms`)
          for (const c of servers) c.kill('SIGUSR2')
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
        if (r.errors > 0) throw new Error(`${name}: ${r.errors} requests failed`)
        ;(lat[name] ??= []).push(percentile(r.latenciesMs, 99))
        ;(p50[name] ??= []).push(percentile(r.latenciesMs, 50))
      }
    }
    console.log(`half saturation (open loop, ${rate} req/s, ${latencyRounds} rounds of ${seconds}s, medians; the p99 of each round in brackets):`)
    for (const name of names) {
      console.log(`  ${name.padEnd(8)} p50 ${median(p50[name]!).toFixed(2)} ms  p99 ${median(lat[name]!).toFixed(2)} ms  [${lat[name]!.map((v) => v.toFixed(1)).join(' ')}]`)
    }
    const added = median(lat.gateway!) - median(lat.direct!)
    const addedBare = median(lat.bare!) - median(lat.direct!)
    if (plan) console.log(`machine pauses after the run: ${describePauses(await machinePauses(plan.cpus))}`)
    const verdict = (v: number, target: number, aim: number) => `(target >= ${target.toFixed(2)}, aim ${aim.toFixed(2)}) ${v >= aim ? 'OK, aim reached' : v >= target ? 'OK' : 'MISSED'}`
    console.log(`throughput ratio gateway/bare: ${ratio.toFixed(3)} ${verdict(ratio, 1.1, 1.25)}`)
    console.log(`CPU-per-request ratio bare/gateway: ${cpuRatio.toFixed(3)} ${verdict(cpuRatio, 1.1, 1.25)}; bare/external: ${(median(cpuOf.bare!) / median(cpuOf.external!)).toFixed(3)}`)
    console.log(`throughput ratio external/bare (credential + path): ${externalRatio.toFixed(3)} (aim >= 1.0) ${externalRatio >= 1 ? 'OK' : 'MISSED'}; inventory route in the same run: ${ratio.toFixed(3)}`)
    console.log(`p99 added vs direct: gateway ${added.toFixed(2)} ms; bare passthrough ${addedBare.toFixed(2)} ms`)
    const pipelineAdds = added - addedBare
    console.log(
      `p99 the pipeline adds over the bare passthrough: ${pipelineAdds.toFixed(2)} ms (target <= 1 ms) ${pipelineAdds <= 1 ? 'OK' : 'MISSED'} (external upstream: ${(median(lat.external!) - median(lat.direct!) - addedBare).toFixed(2)} ms; the machine's pauses above)`,
    )
  } finally {
    for (const c of children) c.kill(process.env.BENCH_PROFILE ? 'SIGINT' : 'SIGKILL')
    if (database) {
      await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : undefined)))
      await database.drop().catch((err: unknown) => console.error(`dropping the bench database: ${(err as Error).message}`))
    }
  }
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
