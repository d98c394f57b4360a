/**
 * When a response ends (or the client goes away): one access-log line with listed fields (never
 * headers, bodies or the query string, which could hold secrets) and the request metrics.
 */
import { pino, type Logger } from 'pino'
import type { RequestContext } from '../context.js'
import type { GatewayMetrics } from '../metrics.js'

/** Writes the access line of a request; flush() writes out the lines still held. */
export interface AccessLog {
  (ctx: RequestContext, status: number, durationMs: number): void
  flush(): void
}

/** Held access lines are written once they reach this size (or after `flushMs`). */
const FLUSH_BYTES = 64 * 1024
/** Room for the held lines: a line that might not fit (UTF-8: up to 3 bytes per UTF-16 unit) flushes first. */
const HELD_BYTES = 2 * FLUSH_BYTES

/** Digits of 0..999, two and three wide. */
const TWO = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'))
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'))

/**
 * The ISO time of the current millisecond (lines written in the same millisecond share it): the
 * part up to the minute comes from Date once a minute, seconds and milliseconds are put together
 * from tables (toISOString per millisecond was a fifth of an access line's cost).
 */
let isoMs = 0
let isoText = ''
let minuteStart = -1
let minuteText = ''
export function isoNow(ms = Date.now()): string {
  if (ms === isoMs) return isoText
  const minute = ms - (ms % 60_000)
  if (minute !== minuteStart) {
    minuteStart = minute
    minuteText = new Date(minute).toISOString().slice(0, 17) // YYYY-MM-DDTHH:MM:
  }
  const inMinute = ms - minute
  isoMs = ms
  isoText = `${minuteText}${TWO[Math.floor(inMinute / 1000)]}.${THREE[inMinute % 1000]}Z`
  return isoText
}

/**
 * JSON text of a string. The values of an access line (ids, paths, addresses, methods) are
 * almost always printable ASCII without quotes or backslashes, which need no escaping: those
 * skip JSON.stringify (a call into the runtime per field).
 */
export function jsonString(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x20 || c === 0x22 || c === 0x5c || c > 0x7e) return JSON.stringify(s)
  }
  return `"${s}"`
}

const str = (v: string | undefined | null): string => (v === undefined || v === null ? 'null' : jsonString(v))
const num = (v: number | undefined | null): string => (v === undefined || v === null || !Number.isFinite(v) ? 'null' : String(v))
/** Milliseconds to the microsecond, as the line shows them. */
const roundMs = (ms: number): number => Math.round(ms * 1000) / 1000

/**
 * The JSON number of roundMs(ms), written with three decimals from integers ("1.500" for 1.5):
 * the shortest-form conversion of a fractional double is a slow runtime call.
 */
export function msText(ms: number): string {
  if (!Number.isFinite(ms)) return 'null'
  const us = Math.round(Math.abs(ms) * 1000)
  if (us > Number.MAX_SAFE_INTEGER) return String(roundMs(ms))
  const frac = us % 1000
  return `${ms < 0 && us !== 0 ? '-' : ''}${(us - frac) / 1000}.${THREE[frac]}`
}

/**
 * The access line, on the same destination as `log`. It is built from a whitelist of fields that
 * never hold a secret, so it skips pino's redaction, and since its shape is fixed it is written
 * as text directly: the same JSON line pino would write for `log.info({reqId, ...fields},
 * 'request')` (level, ISO time, the logger's bindings, the fields, msg) at a fraction of the
 * cost. Lines are held (encoded, off the JS heap) and go to the stream together, in one write
 * every `flushMs` (50 ms) or per 64 KB: each write to a file descriptor costs a system call or a
 * thread-pool round, which per line was a tenth of the gateway's time under load. flush() (at
 * shutdown) writes out what is held. Falls back to `log` when its stream is not reachable.
 */
export function accessLogger(log: Logger, options: { flushMs?: number } = {}): AccessLog {
  const stream = (log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as pino.DestinationStream | undefined
  if (!stream || typeof stream.write !== 'function') {
    const direct = (ctx: RequestContext, status: number, durationMs: number) =>
      log.info({ reqId: ctx.requestId, ...accessLogFields(ctx, status, durationMs) }, 'request')
    return Object.assign(direct, { flush() {} })
  }
  const bindings = JSON.stringify(log.bindings()).slice(1, -1)
  const head = `,${bindings ? `${bindings},` : ''}"reqId":`
  const level = log.levels.values.info!
  const enabled = log.isLevelEnabled('info')
  const flushMs = options.flushMs ?? 50
  // Lines are encoded into this buffer as they are made: held as strings until the flush, most
  // of them would outlive a young-generation collection and be copied by it, and then be
  // flattened and measured once more by the destination.
  const held = Buffer.allocUnsafe(HELD_BYTES)
  let used = 0
  let timer: NodeJS.Timeout | undefined
  function flush(): void {
    clearTimeout(timer)
    timer = undefined
    if (used === 0) return
    const lines = held.toString('utf8', 0, used)
    used = 0
    stream!.write(lines)
  }
  // The parts of the last line that repeat from request to request (the same request again, the
  // same client, the same caller): reused while their inputs are the same, not escaped again.
  const route = { method: '', path: '', generation: undefined as string | undefined, endpoint: undefined as RequestContext['endpoint'], text: '' }
  const client = { ip: undefined as string | undefined, principal: undefined as RequestContext['principal'], text: '' }
  const write = (ctx: RequestContext, status: number, durationMs: number) => {
    if (!enabled) return
    // The fields of accessLogFields, written straight from the context (no object per line).
    const requestId = str(ctx.requestId)
    if (ctx.endpoint !== route.endpoint || ctx.generation !== route.generation || ctx.method !== route.method || ctx.path !== route.path || route.text === '') {
      route.endpoint = ctx.endpoint
      route.generation = ctx.generation
      route.method = ctx.method
      route.path = ctx.path
      route.text = `,"method":${str(ctx.method)},"path":${str(ctx.path)},"generation":${str(ctx.generation)},"endpoint":${str(ctx.endpoint?.path)},"upstream":${str(upstreamOf(ctx))}`
    }
    const ip = ctx.clientIp ?? ctx.req.socket.remoteAddress
    if (ip !== client.ip || ctx.principal !== client.principal || client.text === '') {
      client.ip = ip
      client.principal = ctx.principal
      client.text = `,"clientIp":${str(ip)},"principalId":${str(ctx.principal?.id)},"requestId":`
    }
    const line =
      `{"level":${level},"time":"${isoNow()}"${head}${requestId}${route.text}` +
      `,"endpointVersion":${num(ctx.apiVersion)},"status":${num(status)},"durationMs":${msText(durationMs)}` +
      `${client.text}${requestId}${ctx.traceId === undefined ? '' : `,"traceId":"${ctx.traceId}"`},"msg":"request"}\n`
    if (used + line.length * 3 > HELD_BYTES) {
      flush()
      // Longer than the whole buffer could be (a path of tens of KB): on its own.
      if (line.length * 3 > HELD_BYTES) {
        stream!.write(line)
        return
      }
    }
    used += held.write(line, used)
    if (used >= FLUSH_BYTES) flush()
    else if (timer === undefined) timer = setTimeout(flush, flushMs).unref()
  }
  return Object.assign(write, { flush })
}

/** The upstream that answered: the route's, or "gateway" for what the gateway answers itself. */
export function upstreamOf(ctx: RequestContext): string {
  return ctx.endpoint?.upstream ?? 'gateway'
}

export interface AccessLogFields {
  method: string
  path: string
  generation: string | null
  endpoint: string | null
  upstream: string
  endpointVersion: number | null
  status: number
  durationMs: number
  clientIp: string | null
  principalId: string | null
  requestId: string
  /** The request's trace (only when tracing is on). */
  traceId?: string
}

export function accessLogFields(ctx: RequestContext, status: number, durationMs: number): AccessLogFields {
  return {
    method: ctx.method,
    path: ctx.path,
    generation: ctx.generation ?? null,
    endpoint: ctx.endpoint?.path ?? null,
    upstream: upstreamOf(ctx),
    endpointVersion: ctx.apiVersion ?? null,
    status,
    durationMs: roundMs(durationMs),
    clientIp: ctx.clientIp ?? ctx.req.socket.remoteAddress ?? null,
    principalId: ctx.principal?.id ?? null,
    requestId: ctx.requestId,
    ...(ctx.traceId === undefined ? {} : { traceId: ctx.traceId }),
  }
}

/**
 * When the response of `ctx` has closed (the gateway's one 'close' listener calls it once per
 * request): the request metrics and the access line.
 */
export function observeResponse(ctx: RequestContext, metrics: GatewayMetrics, access: AccessLog): void {
  const durationMs = performance.now() - ctx.startedAt
  // A response that never completed (client gone) is logged with status 499, as nginx does.
  const status = ctx.res.writableFinished ? ctx.res.statusCode : 499
  metrics.observeRequest(ctx.endpoint?.path ?? 'unmatched', ctx.method, status, durationMs / 1000, upstreamOf(ctx))
  // reqId inline: the same line as the request's child logger would write.
  access(ctx, status, durationMs)
}
