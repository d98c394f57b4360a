/**
 * The gateway's readiness: its database, the health path of every upstream that has one, Redis
 * when configured, and whether it is draining. The gateway is ready when its database answers,
 * every upstream whose health is required answers its health path, and it is not draining. Redis
 * trouble only degrades it (the in-process limiter keeps every replica serving, so Redis must not
 * take all of them out of the load balancer at once), as does an upstream with
 * `healthRequired: false`. Probes are shared: /readyz calls while one runs, or within `reuseMs`
 * of its answer, get its result, so that a flood of /readyz (the public port answers it,
 * unauthenticated) cannot multiply the queries to the database, Redis and the upstreams. The
 * probes keep the gauges of /metrics (`netinv_gateway_upstream_up`, `..._redis_up`).
 */
import type { GatewayMetrics } from './metrics.js'
import type { Health } from './upstreams/pool.js'
import type { Upstream } from './upstreams/settings.js'

export interface Readiness {
  ok: boolean
  checks: Record<string, boolean>
  /** Each upstream's last probe, by name (those without a health path: not probed). */
  upstreams: Record<string, UpstreamReadiness>
  /** Checks that failed without failing readiness: "redis", "upstream:<name>". */
  degraded: string[]
}

export type UpstreamReadiness = (Health & { required: boolean }) | { probed: false }

export interface ReadinessDeps {
  database(): Promise<boolean>
  /** The upstreams of the route table in service. */
  upstreams(): Iterable<Upstream>
  health(upstream: Upstream, timeoutMs: number): Promise<Health>
  /** Undefined when no Redis is configured. */
  redisReady?: (() => Promise<boolean>) | undefined
  draining(): boolean
  metrics: GatewayMetrics
  /** How long (ms) a probe answers later calls too (default 1000). */
  reuseMs?: number | undefined
}

export interface ReadinessProbe {
  ready(): Promise<Readiness>
  /** Probes now (or shares the last probe): keeps the gauges current for a scrape. */
  refresh(): Promise<void>
}

/** database, upstreams, redis (undefined: no Redis configured). */
type Probed = [boolean, Record<string, UpstreamReadiness>, boolean | undefined]

const safe = (p: Promise<boolean>) => p.catch(() => false)

export function readinessProbe(deps: ReadinessDeps): ReadinessProbe {
  const reuseMs = deps.reuseMs ?? 1000
  const { metrics } = deps

  async function upstreamsReady(): Promise<Record<string, UpstreamReadiness>> {
    const out: Record<string, UpstreamReadiness> = {}
    await Promise.all(
      [...deps.upstreams()].map(async (up) => {
        if (up.healthPath === '') {
          out[up.name] = { probed: false }
          return
        }
        const health = await deps.health(up, Math.min(1000, up.timeoutMs))
        metrics.upstreamUp(up.name, health.ok)
        out[up.name] = { ...health, required: up.healthRequired }
      }),
    )
    return out
  }

  async function redisUp(): Promise<boolean | undefined> {
    if (!deps.redisReady) return undefined
    const up = await safe(deps.redisReady())
    metrics.redisUp(up)
    return up
  }

  let lastProbe: { settledAt: number | undefined; result: Promise<Probed> } | undefined
  function probe(): Promise<Probed> {
    const t = performance.now()
    if (lastProbe && (lastProbe.settledAt === undefined || t - lastProbe.settledAt < reuseMs)) return lastProbe.result
    // Never rejects: every part is caught.
    const entry: NonNullable<typeof lastProbe> = { settledAt: undefined, result: Promise.all([safe(deps.database()), upstreamsReady().catch(() => ({})), redisUp()]) }
    void entry.result.then(() => (entry.settledAt = performance.now()))
    lastProbe = entry
    return entry.result
  }

  return {
    async ready() {
      const [database, upstreams, redis] = await probe()
      const degraded: string[] = []
      let upstream = true
      for (const [name, u] of Object.entries(upstreams)) {
        if (!('ok' in u) || u.ok) continue
        if (u.required) upstream = false
        else degraded.push(`upstream:${name}`)
      }
      const checks: Record<string, boolean> = { database, upstream, accepting: !deps.draining() }
      const ok = Object.values(checks).every(Boolean)
      if (redis !== undefined) {
        checks.redis = redis
        if (!redis) degraded.push('redis')
      }
      return { ok, checks, upstreams, degraded }
    },
    async refresh() {
      // The Redis gauge is taken at scrape time even while a shared probe is reused.
      await Promise.all([redisUp(), probe()])
    },
  }
}

/** The body of /readyz. */
export function readyBody(r: Readiness): Record<string, unknown> {
  const status = !r.ok ? 'not ready' : r.degraded.length ? 'degraded' : 'ready'
  return { status, checks: r.checks, upstreams: r.upstreams, ...(r.ok && r.degraded.length ? { degraded: r.degraded } : {}) }
}
