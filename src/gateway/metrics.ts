/**
 * The gateway's Prometheus metrics, hand-written (text exposition format 0.0.4): requests by
 * endpoint, method and status; a latency histogram by endpoint; rate-limit rejections; upstream
 * errors; client errors at the connection level; Redis fallbacks of the rate limiter and whether
 * Redis is up.
 */
const BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const

export type UpstreamErrorKind = 'unavailable' | 'timeout' | 'aborted'

/** Why the gateway refused or cut a client's connection before or outside the pipeline. */
export type ClientErrorKind = 'malformed' | 'headers_timeout' | 'headers_too_large' | 'body_timeout' | 'stopped_reading' | 'unsupported'

interface Histogram {
  counts: number[]
  sum: number
  count: number
}

export interface GatewayMetrics {
  observeRequest(endpoint: string, method: string, status: number, seconds: number): void
  rateLimited(endpoint: string): void
  upstreamError(kind: UpstreamErrorKind): void
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
  /** Request counts by endpoint, method and status: nested, so that counting builds no key string. */
  const requests = new Map<string, Map<string, Map<number, number>>>()
  const latency = new Map<string, Histogram>()
  const limited = new Map<string, number>()
  const upstream = new Map<UpstreamErrorKind, number>()
  const clients = new Map<ClientErrorKind, number>()
  let fallbacks = 0
  let redis: boolean | undefined

  function inc<K>(map: Map<K, number>, key: K): void {
    map.set(key, (map.get(key) ?? 0) + 1)
  }

  return {
    observeRequest(endpoint, method, status, seconds) {
      let byMethod = requests.get(endpoint)
      if (!byMethod) requests.set(endpoint, (byMethod = new Map()))
      let byStatus = byMethod.get(method)
      if (!byStatus) byMethod.set(method, (byStatus = new Map()))
      inc(byStatus, status)
      let h = latency.get(endpoint)
      if (!h) {
        h = { counts: BUCKETS_SECONDS.map(() => 0), sum: 0, count: 0 }
        latency.set(endpoint, h)
      }
      for (let i = 0; i < BUCKETS_SECONDS.length; i++) if (seconds <= BUCKETS_SECONDS[i]!) h.counts[i]!++
      h.sum += seconds
      h.count++
    },
    rateLimited(endpoint) {
      inc(limited, endpoint)
    },
    upstreamError(kind) {
      inc(upstream, kind)
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
      for (const [endpoint, byMethod] of requests) {
        for (const [method, byStatus] of byMethod) {
          for (const [status, n] of byStatus) out.push(`netinv_gateway_requests_total${labels({ endpoint, method, status: String(status) })} ${n}`)
        }
      }
      out.push('# HELP netinv_gateway_request_duration_seconds Time from arrival to the end of the response.')
      out.push('# TYPE netinv_gateway_request_duration_seconds histogram')
      for (const [endpoint, h] of latency) {
        BUCKETS_SECONDS.forEach((le, i) => {
          out.push(`netinv_gateway_request_duration_seconds_bucket${labels({ endpoint, le: String(le) })} ${h.counts[i]}`)
        })
        out.push(`netinv_gateway_request_duration_seconds_bucket${labels({ endpoint, le: '+Inf' })} ${h.count}`)
        out.push(`netinv_gateway_request_duration_seconds_sum${labels({ endpoint })} ${h.sum}`)
        out.push(`netinv_gateway_request_duration_seconds_count${labels({ endpoint })} ${h.count}`)
      }
      out.push('# HELP netinv_gateway_rate_limited_total Requests over a rate limit: answered 429, or let through in shadow mode.')
      out.push('# TYPE netinv_gateway_rate_limited_total counter')
      for (const [endpoint, n] of limited) out.push(`netinv_gateway_rate_limited_total${labels({ endpoint })} ${n}`)
      out.push('# HELP netinv_gateway_upstream_errors_total Forwarding failures by kind.')
      out.push('# TYPE netinv_gateway_upstream_errors_total counter')
      for (const [kind, n] of upstream) out.push(`netinv_gateway_upstream_errors_total${labels({ kind })} ${n}`)
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
