/**
 * Stage 4b: requests per client IP per second, every request counted; an endpoint listed in
 * `rateLimit.endpoints` has a limit of its own on top; after authentication, the optional
 * per-API-key limit. The decision is data first; the IETF RateLimit-Policy / RateLimit headers
 * are written from it. Over the limit: 429 with Retry-After in whole seconds, unless
 * `rateLimit.shadow` only counts it.
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

/** The RateLimit header's item of a decision. */
function limitValue(policy: string, d: RateDecision): string {
  return `"${policy}";r=${Math.max(0, d.remaining)};t=${Math.max(1, Math.ceil(d.resetMs / 1000))}`
}

/** The IETF RateLimit-Policy / RateLimit headers of a decision, written onto the response's headers. */
export function setRateHeaders(headers: Record<string, string>, policy: string, d: RateDecision, windowSeconds: number): void {
  headers['ratelimit-policy'] = policyValue(policy, d.limit, windowSeconds)
  headers['ratelimit'] = limitValue(policy, d)
}

/** Consumes one hit; continues, or throws 429 (synchronously when the limiter answered at once). */
function enforce(ctx: RequestContext, deps: RateDeps, policy: string, key: string, limit: number): void | Promise<void> {
  const d = deps.limiter.consume(key, limit, 1)
  if (d instanceof Promise) return d.then((decided) => decide(ctx, deps, policy, limit, decided))
  decide(ctx, deps, policy, limit, d)
}

function decide(ctx: RequestContext, deps: RateDeps, policy: string, limit: number, d: RateDecision): void {
  setRateHeaders(ctx.responseHeaders, policy, d, 1)
  ctx.rate = d
  if (!d.allowed) refuse(ctx, deps, policy, limit, d)
}

/** Over a limit: counted, then 429 with Retry-After (or, in shadow mode, logged and let through). */
function refuse(ctx: RequestContext, deps: RateDeps, policy: string, limit: number, d: RateDecision): void {
  const endpoint = ctx.endpoint?.path ?? 'unmatched'
  deps.metrics.rateLimited(endpoint)
  if (deps.config().rateLimit.shadow) {
    ctx.log.info({ policy, limit }, 'rate limit exceeded (shadow mode: let through)')
    return
  }
  const retryAfter = String(Math.max(1, Math.ceil(d.resetMs / 1000)))
  throw new ApiError('API_TOO_MANY_REQUESTS', `Too many requests: at most ${limit} per second`, { headers: { 'retry-after': retryAfter } })
}

/**
 * An endpoint with a limit of its own: the hit counts in the general per-IP limit and in the
 * endpoint's (both asked at once, so a Redis limiter sends them in one round trip); the request
 * passes only under both, and both policies are in the headers.
 */
function enforceBoth(ctx: RequestContext, deps: RateDeps, endpoint: string, general: number, own: number): void | Promise<void> {
  const policy = `ip:${endpoint}`
  const g = deps.limiter.consume(`ip:${ctx.clientKey}`, general, 1)
  const e = deps.limiter.consume(`ip:${ctx.clientKey}:${endpoint}`, own, 1)
  if (g instanceof Promise || e instanceof Promise) return Promise.all([g, e]).then(([gd, ed]) => decideBoth(ctx, deps, policy, general, own, gd, ed))
  decideBoth(ctx, deps, policy, general, own, g, e)
}

function decideBoth(ctx: RequestContext, deps: RateDeps, policy: string, general: number, own: number, g: RateDecision, e: RateDecision): void {
  const h = ctx.responseHeaders
  h['ratelimit-policy'] = `${policyValue('ip', g.limit, 1)}, ${policyValue(policy, e.limit, 1)}`
  h['ratelimit'] = `${limitValue('ip', g)}, ${limitValue(policy, e)}`
  // The decision that binds: a refusal, else the one with less left.
  const binding = !e.allowed || (g.allowed && e.remaining <= g.remaining) ? e : g
  ctx.rate = binding
  if (!binding.allowed) refuse(ctx, deps, binding === e ? policy : 'ip', binding === e ? own : general, binding)
}

export function rateLimitStage(deps: RateDeps): Stage<RequestContext> {
  // The limiter key of the last client (the client-IP stage hands out one string per
  // connection): requests in a row from one client build no key.
  let lastClient: string | undefined
  let lastKey = ''
  return {
    name: 'rateLimit',
    run(ctx) {
      const cfg = deps.config().rateLimit
      if (!cfg.enabled) return
      // A request the route stage rejected has no endpoint: it counts in the general limit.
      const endpoint = ctx.endpoint?.path
      const own = endpoint === undefined ? undefined : cfg.endpoints[endpoint]
      if (own !== undefined) return enforceBoth(ctx, deps, endpoint!, cfg.perSecond, own)
      if (ctx.clientKey !== lastClient || lastClient === undefined) {
        lastClient = ctx.clientKey
        lastKey = `ip:${ctx.clientKey}`
      }
      return enforce(ctx, deps, 'ip', lastKey, cfg.perSecond)
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
