/**
 * When a response ends (or the client goes away): one access-log line with listed fields (never
 * headers, bodies or the query string, which could hold secrets) and the request metrics.
 */
import { pino, type Logger } from 'pino'
import type { RequestContext } from '../context.js'
import type { GatewayMetrics } from '../metrics.js'

/**
 * A logger for the access line on the same destination as `log`, without the redaction pass:
 * the line is built from a whitelist of fields that never hold a secret, and redaction is the
 * most expensive part of writing it. Falls back to `log` when its stream is not reachable.
 */
export function accessLogger(log: Logger): Logger {
  const stream = (log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as pino.DestinationStream | undefined
  if (!stream || typeof stream.write !== 'function') return log
  return pino({ level: log.level, base: log.bindings(), timestamp: pino.stdTimeFunctions.isoTime }, stream)
}

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

export function observeResponse(ctx: RequestContext, metrics: GatewayMetrics, log: Logger): void {
  let done = false
  const finish = () => {
    if (done) return
    done = true
    const durationMs = Number(process.hrtime.bigint() - ctx.startedAt) / 1e6
    // A response that never completed (client gone) is logged with status 499, as nginx does.
    const status = ctx.res.writableFinished ? ctx.res.statusCode : 499
    metrics.observeRequest(ctx.endpoint?.path ?? 'unmatched', ctx.method, status, durationMs / 1000)
    // The base logger with reqId inline: same line as the request's child logger would write.
    log.info({ reqId: ctx.requestId, ...accessLogFields(ctx, status, durationMs) }, 'request')
  }
  ctx.res.once('close', finish)
}
