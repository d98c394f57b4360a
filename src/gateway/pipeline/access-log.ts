/**
 * When a response ends (or the client goes away): one access-log line with listed fields (never
 * headers, bodies or the query string, which could hold secrets) and the request metrics.
 */
import type { RequestContext } from '../context.js'
import type { GatewayMetrics } from '../metrics.js'

export function accessLogFields(ctx: RequestContext, status: number, durationMs: number): Record<string, unknown> {
  return {
    method: ctx.method,
    path: ctx.path,
    generation: ctx.generation ?? null,
    endpoint: ctx.endpoint?.path ?? null,
    endpointVersion: ctx.apiVersion ?? null,
    status,
    durationMs: Math.round(durationMs * 1000) / 1000,
    clientIp: ctx.clientIp ?? ctx.req.socket.remoteAddress ?? null,
    principalId: ctx.principal?.id ?? null,
    requestId: ctx.requestId,
  }
}

export function observeResponse(ctx: RequestContext, metrics: GatewayMetrics): void {
  let done = false
  const finish = () => {
    if (done) return
    done = true
    const durationMs = Number(process.hrtime.bigint() - ctx.startedAt) / 1e6
    // A response that never completed (client gone) is logged with status 499, as nginx does.
    const status = ctx.res.writableFinished ? ctx.res.statusCode : 499
    metrics.observeRequest(ctx.endpoint?.path ?? 'unmatched', ctx.method, status, durationMs / 1000)
    ctx.log.info(accessLogFields(ctx, status, durationMs), 'request')
  }
  ctx.res.once('close', finish)
}
