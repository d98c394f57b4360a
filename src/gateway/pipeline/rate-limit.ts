/**
 * Stage 4b: requests per client IP per second (per-endpoint overrides in
 * `rateLimit.endpoints`), and after authentication the optional per-API-key limit. The decision
 * is data first; the IETF RateLimit-Policy / RateLimit headers are written from it. Over the
 * limit: 429 with Retry-After in whole seconds, unless `rateLimit.shadow` only counts it.
 */
import type { Config } from '../../shared/config/index.js'
import { ApiError } from '../../shared/errors.js'
import type { RequestContext } from '../context.js'
import type { GatewayMetrics } from '../metrics.js'
import type { Limiter, RateDecision } from '../ratelimit/types.js'
import type { Stage } from './runner.js'

interface RateDeps {
  config(): Readonly<Config>
  limiter: Limiter
  metrics: GatewayMetrics
}

/** The last `RateLimit-Policy` value of each policy (its limit changes only with the configuration). */
const policyValues = new Map<string, { limit: number; windowSeconds: number; value: string }>()

function policyValue(policy: string, limit: number, windowSeconds: number): string {
  const known = policyValues.get(policy)
  if (known !== undefined && known.limit === limit && known.windowSeconds === windowSeconds) return known.value
  const value = `"${policy}";q=${limit};w=${windowSeconds}`
  policyValues.set(policy, { limit, windowSeconds, value })
  return value
}

/** The IETF RateLimit-Policy / RateLimit headers of a decision, written onto the response's headers. */
export function setRateHeaders(headers: Record<string, string>, policy: string, d: RateDecision, windowSeconds: number): void {
  const reset = Math.max(1, Math.ceil(d.resetMs / 1000))
  headers['ratelimit-policy'] = policyValue(policy, d.limit, windowSeconds)
  headers['ratelimit'] = `"${policy}";r=${Math.max(0, d.remaining)};t=${reset}`
}

/** Consumes one hit; continues, or throws 429 (synchronously when the limiter answered at once). */
function enforce(ctx: RequestContext, deps: RateDeps, policy: string, key: string, limit: number): void | Promise<void> {
  const d = deps.limiter.consume(key, limit, 1)
  if (d instanceof Promise) return d.then((decided) => decide(ctx, deps, policy, key, limit, decided))
  decide(ctx, deps, policy, key, limit, d)
}

function decide(ctx: RequestContext, deps: RateDeps, policy: string, key: string, limit: number, d: RateDecision): void {
  setRateHeaders(ctx.responseHeaders, policy, d, 1)
  ctx.rate = d
  if (d.allowed) return
  const endpoint = ctx.endpoint?.path ?? 'unmatched'
  deps.metrics.rateLimited(endpoint)
  if (deps.config().rateLimit.shadow) {
    ctx.log.info({ policy, key, limit }, 'rate limit exceeded (shadow mode: let through)')
    return
  }
  const retryAfter = String(Math.max(1, Math.ceil(d.resetMs / 1000)))
  throw new ApiError('API_TOO_MANY_REQUESTS', `Too many requests: at most ${limit} per second`, { headers: { 'retry-after': retryAfter } })
}

export function rateLimitStage(deps: RateDeps): Stage<RequestContext> {
  return {
    name: 'rateLimit',
    run(ctx) {
      const cfg = deps.config().rateLimit
      if (!cfg.enabled) return
      // A request the route stage rejected has no endpoint: it counts in the general limit.
      const endpoint = ctx.endpoint?.path
      const override = endpoint === undefined ? undefined : cfg.endpoints[endpoint]
      if (override !== undefined) return enforce(ctx, deps, `ip:${endpoint}`, `ip:${ctx.clientKey}:${endpoint}`, override)
      return enforce(ctx, deps, 'ip', `ip:${ctx.clientKey}`, cfg.perSecond)
    },
  }
}

/** After authentication: the optional per-API-key limit across all client IPs. */
export function apiKeyRateLimitStage(deps: RateDeps): Stage<RequestContext> {
  return {
    name: 'apiKeyRateLimit',
    // Not async: without a per-key limit the stage costs no promise.
    run(ctx) {
      const cfg = deps.config().rateLimit
      const keyId = ctx.principal?.apiKeyId
      if (!cfg.enabled || cfg.apiKeyPerSecond <= 0 || keyId === undefined) return
      return enforce(ctx, deps, 'api-key', `key:${keyId}`, cfg.apiKeyPerSecond)
    },
  }
}
