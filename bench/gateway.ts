/**
 * Gateway hot-path benchmark, one run, one upstream, three ways in:
 *   direct   the upstream itself
 *   bare     a bare http-proxy passthrough with a keep-alive agent (the baseline)
 *   gateway  the full pipeline: API-key auth, Redis rate limiter with a high limit, version
 *            headers, access log (serialised to /dev/null), forwarding
 * Each server runs in its own process. Saturation throughput is measured with a closed loop;
 * added latency with an open loop at half of the bare passthrough's saturation rate.
 *
 *   npx tsx bench/gateway.ts [--seconds 3] [--rounds 3] [--concurrency 32] [--redis redis://127.0.0.1:6379 | none]
 *   (BENCH_LOG_LEVEL=warn drops the access log, to see its share)
 *
 * Targets: gateway/bare throughput >= 0.85; p99 added by the gateway (vs direct) <= 2 ms.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, request, Agent } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { readFileSync } from 'node:fs'

const args = process.argv.slice(2)
function opt(name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback
}

const PAYLOAD = JSON.stringify({ data: Array.from({ length: 10 }, (_, i) => ({ id: i, hostname: `host-${i}`, siteName: 'site' })), _meta: { count: 10 } })

async function listen(server: ReturnType<typeof createServer>): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return (server.address() as AddressInfo).port
}

async function roleUpstream(): Promise<number> {
  return listen(
    createServer({ keepAliveTimeout: 65000 }, (req, res) => {
      req.resume()
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(PAYLOAD) })
      res.end(PAYLOAD)
    }),
  )
}

async function roleBare(target: string): Promise<number> {
  const { default: httpProxy } = await import('http-proxy')
  const agent = new Agent({ keepAlive: true, maxSockets: 256 })
  const proxy = httpProxy.createProxyServer({ target, agent })
  proxy.on('error', (_err, _req, res) => {
    if ('writeHead' in res && !res.headersSent) res.writeHead(502)
    res.end()
  })
  return listen(createServer({ keepAliveTimeout: 65000 }, (req, res) => proxy.web(req, res)))
}

async function roleGateway(target: string, redisUrl: string): Promise<number> {
  const { pino } = await import('pino')
  const { compileConfig } = await import('../src/shared/config/index.js')
  const { createLogger } = await import('../src/shared/log.js')
  const { createMetrics } = await import('../src/gateway/metrics.js')
  const { createLimiter } = await import('../src/gateway/ratelimit/index.js')
  const { whenReady } = await import('../src/gateway/redis.js')
  const { startGateway } = await import('../src/gateway/server.js')
  const config = compileConfig({ rateLimit: { perSecond: 1_000_000 } })
  // The product's default destination (asynchronous, as pino writes to stdout), on /dev/null.
  const log = createLogger({ level: process.env.BENCH_LOG_LEVEL ?? 'info', stream: pino.destination({ dest: '/dev/null', sync: false }) })
  const metrics = createMetrics()
  const limits = createLimiter({ redisUrl: redisUrl === 'none' ? undefined : redisUrl, config: () => config, log, metrics, prefix: `netinv:bench:${process.pid}:` })
  if (limits.redis && !(await whenReady(limits.redis, 5000))) throw new Error(`Redis at ${redisUrl} is not ready`)
  const principal = { id: 'u1', username: 'bench', scopes: ['read' as const], isAdmin: false, method: 'apiKey' as const, apiKeyId: 'k1' }
  const gw = await startGateway({
    config,
    log,
    metrics,
    limiter: limits.limiter,
    auth: {
      async authenticate(ctx) {
        return ctx.req.headers['x-api-token'] === 'bench-key' ? principal : null
      },
      handlers: new Map(),
      ready: async () => true,
      close: async () => {},
    },
    inventoryUrl: target,
    internalSecret: 'bench-secret',
    port: 0,
    host: '127.0.0.1',
    adminPort: 0,
    adminHost: '127.0.0.1',
  })
  return Number(new URL(gw.url).port)
}

// ── load generation ────────────────────────────────────────────────────────────────────────

interface Result {
  requests: number
  errors: number
  seconds: number
  latenciesMs: number[]
}

function once(agent: Agent, port: number, path: string, headers: Record<string, string>): Promise<{ ok: boolean; ms: number }> {
  const t0 = process.hrtime.bigint()
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
      res.resume()
      res.on('end', () => resolve({ ok: res.statusCode === 200, ms: Number(process.hrtime.bigint() - t0) / 1e6 }))
    })
    req.on('error', () => resolve({ ok: false, ms: Number(process.hrtime.bigint() - t0) / 1e6 }))
    req.end()
  })
}

async function closedLoop(port: number, path: string, headers: Record<string, string>, concurrency: number, seconds: number): Promise<Result> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const end = Date.now() + seconds * 1000
  const r: Result = { requests: 0, errors: 0, seconds, latenciesMs: [] }
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        const x = await once(agent, port, path, headers)
        r.requests++
        if (!x.ok) r.errors++
        r.latenciesMs.push(x.ms)
      }
    }),
  )
  agent.destroy()
  return r
}

/**
 * Requests at a fixed rate whatever the answers (open loop), spread evenly: every millisecond
 * the requests due by then are sent, so arrivals come one or two at a time rather than in
 * bursts that would queue behind each other and measure the burst, not the server.
 */
async function openLoop(port: number, path: string, headers: Record<string, string>, rate: number, seconds: number): Promise<Result> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 })
  const r: Result = { requests: 0, errors: 0, seconds, latenciesMs: [] }
  const pending: Promise<void>[] = []
  let sent = 0
  const start = Date.now()
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const elapsed = Date.now() - start
      if (elapsed >= seconds * 1000) {
        clearInterval(timer)
        resolve()
        return
      }
      for (const due = Math.floor((elapsed * rate) / 1000); sent < due; sent++) {
        pending.push(
          once(agent, port, path, headers).then((x) => {
            r.requests++
            if (!x.ok) r.errors++
            r.latenciesMs.push(x.ms)
          }),
        )
      }
    }, 1)
  })
  await Promise.all(pending)
  agent.destroy()
  return r
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); NaN elsewhere. */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return NaN
  }
}

function median(values: number[]): number {
  return pct(values, 50)
}

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN
}

// ── orchestration ──────────────────────────────────────────────────────────────────────────

function startRole(role: string, ...rest: string[]): Promise<{ port: number; child: ChildProcess }> {
  // BENCH_PROFILE=<dir> writes a CPU profile of each server process there.
  const prof = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE] : []
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', fileURLToPath(import.meta.url), '--role', role, ...rest], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve({ port: Number(line), child }))
    child.once('exit', (code) => reject(new Error(`${role} exited with ${code}`)))
  })
}

async function main(): Promise<void> {
  const role = opt('role', '')
  if (role) {
    const port = role === 'upstream' ? await roleUpstream() : role === 'bare' ? await roleBare(opt('target', '')) : await roleGateway(opt('target', ''), opt('redis', ''))
    console.log(port)
    process.on('SIGINT', () => process.exit(0))
    return
  }
  const seconds = Number(opt('seconds', '3'))
  const concurrency = Number(opt('concurrency', '32'))
  const rounds = Number(opt('rounds', '3'))
  const redis = opt('redis', process.env.REDIS_URL ?? 'redis://127.0.0.1:6379')
  const up = await startRole('upstream')
  const target = `http://127.0.0.1:${up.port}`
  const bare = await startRole('bare', '--target', target)
  const gw = await startRole('gateway', '--target', target, '--redis', redis)
  const children = [up.child, bare.child, gw.child]
  try {
    const targets = {
      direct: { port: up.port, pid: up.child.pid, path: '/api/snapshots', headers: {} },
      bare: { port: bare.port, pid: bare.child.pid, path: '/api/snapshots', headers: {} },
      gateway: { port: gw.port, pid: gw.child.pid, path: '/api/snapshots', headers: { 'x-api-token': 'bench-key', 'x-api-version': '1' } },
    }
    for (const t of Object.values(targets)) await closedLoop(t.port, t.path, t.headers, concurrency, 0.5) // warm-up
    // Rounds interleave the three targets so that a noisy neighbour hits all of them alike;
    // medians are reported.
    const names = Object.keys(targets) as Array<keyof typeof targets>
    const rpsOf: Record<string, number[]> = {}
    const cpuOf: Record<string, number[]> = {}
    const p99Of: Record<string, number[]> = {}
    for (let round = 0; round < rounds; round++) {
      for (const name of names) {
        const t = targets[name]
        const before = cpuMs(t.pid)
        const r = await closedLoop(t.port, t.path, t.headers, concurrency, seconds)
        ;(rpsOf[name] ??= []).push(r.requests / r.seconds)
        ;(cpuOf[name] ??= []).push(((cpuMs(t.pid) - before) * 1000) / r.requests)
        ;(p99Of[name] ??= []).push(pct(r.latenciesMs, 99))
      }
    }
    console.log(`saturation (closed loop, ${concurrency} connections, ${rounds} rounds of ${seconds}s, medians):`)
    for (const name of names) {
      console.log(
        `  ${name.padEnd(8)} ${median(rpsOf[name]!).toFixed(0).padStart(7)} req/s  p99 ${median(p99Of[name]!).toFixed(2)} ms  server CPU ${median(cpuOf[name]!).toFixed(0)} µs/req`,
      )
    }
    const ratio = median(rpsOf.gateway!) / median(rpsOf.bare!)
    // On a shared machine throughput swings with the neighbours; CPU per request much less so.
    const cpuRatio = median(cpuOf.bare!) / median(cpuOf.gateway!)
    // Half of saturation: half the rate the slower of bare and gateway sustains, so that all
    // three run at or below half load and the difference is the added latency, not queueing.
    const rate = Math.round(Math.min(median(rpsOf.bare!), median(rpsOf.gateway!)) / 2)
    const lat: Record<string, number[]> = {}
    for (let round = 0; round < rounds; round++) {
      for (const name of names) {
        const t = targets[name]
        const r = await openLoop(t.port, t.path, t.headers, rate, seconds)
        ;(lat[name] ??= []).push(pct(r.latenciesMs, 99))
      }
    }
    console.log(`half saturation (open loop, ${rate} req/s, ${rounds} rounds of ${seconds}s, median p99):`)
    for (const name of names) console.log(`  ${name.padEnd(8)} p99 ${median(lat[name]!).toFixed(2)} ms`)
    const added = median(lat.gateway!) - median(lat.direct!)
    const addedBare = median(lat.bare!) - median(lat.direct!)
    console.log(`throughput ratio gateway/bare: ${ratio.toFixed(3)} (target >= 0.85) ${ratio >= 0.85 ? 'OK' : 'MISSED'}`)
    console.log(`CPU-per-request ratio bare/gateway (the throughput ratio on a dedicated core): ${cpuRatio.toFixed(3)}`)
    console.log(`p99 added vs direct: gateway ${added.toFixed(2)} ms (target <= 2 ms) ${added <= 2 ? 'OK' : 'MISSED'}; bare ${addedBare.toFixed(2)} ms`)
  } finally {
    for (const c of children) c.kill(process.env.BENCH_PROFILE ? 'SIGINT' : 'SIGKILL')
  }
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
