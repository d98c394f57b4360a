/**
 * The gateway's Prometheus metrics, hand-written (text exposition format 0.0.4): requests by
 * upstream, endpoint, method and status; a latency histogram by upstream and endpoint; rate-limit
 * rejections; upstream errors and health by upstream; client errors at the connection level;
 * Redis fallbacks of the rate limiter and whether Redis is up. The upstream of a request the
 * gateway answers itself (its own endpoints, a path no route matches) is "gateway".
 */
const BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const

export type UpstreamErrorKind = 'unavailable' | 'timeout' | 'aborted' | 'retried'

/** Why the gateway refused or cut a client's connection before or outside the pipeline. */
export type ClientErrorKind = 'malformed' | 'headers_timeout' | 'headers_too_large' | 'body_timeout' | 'stopped_reading' | 'unsupported'

interface Histogram {
  counts: number[]
  sum: number
  count: number
}

export interface GatewayMetrics {
  observeRequest(endpoint: string, method: string, status: number, seconds: number, upstream: string): void
  rateLimited(endpoint: string): void
  upstreamError(kind: UpstreamErrorKind, upstream: string): void
  /** Whether an upstream's health path answered its last probe. */
  upstreamUp(upstream: string, up: boolean): void
  redisFallback(): void
  clientError(kind: ClientErrorKind): void
  /** Whether Redis answered its last check (rendered once set: Redis is configured). */
  redisUp(up: boolean): void
  /** Prometheus text. */
  render(): string
}

function escapeLabel(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
}

function labels(pairs: Record<string, string>): string {
  const parts = Object.entries(pairs).map(([k, v]) => `${k}="${escapeLabel(v)}"`)
  return parts.length ? `{${parts.join(',')}}` : ''
}

export function createMetrics(): GatewayMetrics {
  /** Request counts by upstream, endpoint, method and status: nested, so that counting builds no key string. */
  const requests = new Map<string, Map<string, Map<string, Map<number, number>>>>()
  const latency = new Map<string, Map<string, Histogram>>()
  const limited = new Map<string, number>()
  const upstreamErrors = new Map<string, Map<UpstreamErrorKind, number>>()
  const upstreamHealth = new Map<string, boolean>()
  const clients = new Map<ClientErrorKind, number>()
  let fallbacks = 0
  let redis: boolean | undefined

  function inc<K>(map: Map<K, number>, key: K): void {
    map.set(key, (map.get(key) ?? 0) + 1)
  }

  /** The series of the last request's upstream, endpoint and method: the next one is often the same. */
  const last = { upstream: '', endpoint: '', method: '', byStatus: new Map<number, number>(), histogram: { counts: [], sum: 0, count: 0 } as Histogram }

  function series(endpoint: string, method: string, upstream: string): void {
    let byEndpoint = requests.get(upstream)
    if (!byEndpoint) requests.set(upstream, (byEndpoint = new Map()))
    let byMethod = byEndpoint.get(endpoint)
    if (!byMethod) byEndpoint.set(endpoint, (byMethod = new Map()))
    let byStatus = byMethod.get(method)
    if (!byStatus) byMethod.set(method, (byStatus = new Map()))
    let histograms = latency.get(upstream)
    if (!histograms) latency.set(upstream, (histograms = new Map()))
    let h = histograms.get(endpoint)
    if (!h) {
      h = { counts: BUCKETS_SECONDS.map(() => 0), sum: 0, count: 0 }
      histograms.set(endpoint, h)
    }
    last.upstream = upstream
    last.endpoint = endpoint
    last.method = method
    last.byStatus = byStatus
    last.histogram = h
  }

  return {
    observeRequest(endpoint, method, status, seconds, upstream) {
      if (upstream !== last.upstream || endpoint !== last.endpoint || method !== last.method || last.upstream === '') series(endpoint, method, upstream)
      inc(last.byStatus, status)
      const h = last.histogram
      for (let i = 0; i < BUCKETS_SECONDS.length; i++) if (seconds <= BUCKETS_SECONDS[i]!) h.counts[i]!++
      h.sum += seconds
      h.count++
    },
    rateLimited(endpoint) {
      inc(limited, endpoint)
    },
    upstreamError(kind, upstream) {
      let byKind = upstreamErrors.get(upstream)
      if (!byKind) upstreamErrors.set(upstream, (byKind = new Map()))
      inc(byKind, kind)
    },
    upstreamUp(upstream, up) {
      upstreamHealth.set(upstream, up)
    },
    redisFallback() {
      fallbacks++
    },
    clientError(kind) {
      inc(clients, kind)
    },
    redisUp(up) {
      redis = up
    },
    render() {
      const out: string[] = []
      out.push('# HELP netinv_gateway_requests_total Requests answered by the gateway.')
      out.push('# TYPE netinv_gateway_requests_total counter')
      for (const [upstream, byEndpoint] of requests) {
        for (const [endpoint, byMethod] of byEndpoint) {
          for (const [method, byStatus] of byMethod) {
            for (const [status, n] of byStatus) out.push(`netinv_gateway_requests_total${labels({ upstream, endpoint, method, status: String(status) })} ${n}`)
          }
        }
      }
      out.push('# HELP netinv_gateway_request_duration_seconds Time from arrival to the end of the response.')
      out.push('# TYPE netinv_gateway_request_duration_seconds histogram')
      for (const [upstream, histograms] of latency) {
        for (const [endpoint, h] of histograms) {
          BUCKETS_SECONDS.forEach((le, i) => {
            out.push(`netinv_gateway_request_duration_seconds_bucket${labels({ upstream, endpoint, le: String(le) })} ${h.counts[i]}`)
          })
          out.push(`netinv_gateway_request_duration_seconds_bucket${labels({ upstream, endpoint, le: '+Inf' })} ${h.count}`)
          out.push(`netinv_gateway_request_duration_seconds_sum${labels({ upstream, endpoint })} ${h.sum}`)
          out.push(`netinv_gateway_request_duration_seconds_count${labels({ upstream, endpoint })} ${h.count}`)
        }
      }
      out.push('# HELP netinv_gateway_rate_limited_total Requests over a rate limit: answered 429, or let through in shadow mode.')
      out.push('# TYPE netinv_gateway_rate_limited_total counter')
      for (const [endpoint, n] of limited) out.push(`netinv_gateway_rate_limited_total${labels({ endpoint })} ${n}`)
      out.push('# HELP netinv_gateway_upstream_errors_total Forwarding failures by upstream and kind.')
      out.push('# TYPE netinv_gateway_upstream_errors_total counter')
      for (const [upstream, byKind] of upstreamErrors) {
        for (const [kind, n] of byKind) out.push(`netinv_gateway_upstream_errors_total${labels({ upstream, kind })} ${n}`)
      }
      if (upstreamHealth.size > 0) {
        out.push('# HELP netinv_gateway_upstream_up Whether the upstream\'s health path answered 2xx at the last probe (upstreams with a health path only).')
        out.push('# TYPE netinv_gateway_upstream_up gauge')
        for (const [upstream, up] of upstreamHealth) out.push(`netinv_gateway_upstream_up${labels({ upstream })} ${up ? 1 : 0}`)
      }
      out.push('# HELP netinv_gateway_client_errors_total Connections refused or cut for what the client sent or failed to do: malformed requests, header and body timeouts, clients that stopped reading.')
      out.push('# TYPE netinv_gateway_client_errors_total counter')
      for (const [kind, n] of clients) out.push(`netinv_gateway_client_errors_total${labels({ kind })} ${n}`)
      out.push('# HELP netinv_gateway_ratelimit_redis_fallbacks_total Rate-limit decisions taken in process because Redis failed.')
      out.push('# TYPE netinv_gateway_ratelimit_redis_fallbacks_total counter')
      out.push(`netinv_gateway_ratelimit_redis_fallbacks_total ${fallbacks}`)
      if (redis !== undefined) {
        out.push('# HELP netinv_gateway_ratelimit_redis_up Whether Redis answered (0: rate limits are per replica, readiness is degraded).')
        out.push('# TYPE netinv_gateway_ratelimit_redis_up gauge')
        out.push(`netinv_gateway_ratelimit_redis_up ${redis ? 1 : 0}`)
      }
      return out.join('\n') + '\n'
    },
  }
}
