/**
 * Forwarding to the inventory: the ONLY module that touches http-proxy. It always uses a
 * keep-alive agent, a connect timeout (→ 502) and an answer timeout (→ 504) counted from the
 * request's arrival here, so that the time spent waiting for a free upstream connection counts
 * too; once the answer streams, the same timeout bounds each wait for more of it (a stalled
 * upstream gets the client connection cut, as the status line has gone out). It always handles
 * errors with our JSON body, owns header hygiene (hop-by-hop, client-sent identity and
 * forwarding headers stripped; ours set), streams bodies under a size limit (413) and releases
 * the upstream request when the client goes away.
 */
import { Agent, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import { Transform, type Stream, type TransformCallback } from 'node:stream'
import { parse as parseUrl } from 'node:url'
import httpProxy from 'http-proxy'
import type { Config } from '../shared/config/index.js'
import { ApiError } from '../shared/errors.js'
import { closeAfterBody } from '../shared/http/index.js'
import { INTERNAL_HEADER, INTERNAL_PREFIX, encodeInternal, encodePrincipal, type Principal } from '../shared/principal.js'
import { normalizeIp } from './client-ip.js'
import type { RequestContext } from './context.js'
import { DeadlineWatch, type Watched } from './deadlines.js'
import type { GatewayMetrics } from './metrics.js'

export interface ForwarderOptions {
  /** Base URL of the inventory, e.g. http://127.0.0.1:8081 */
  target: string
  internalSecret: string
  config(): Readonly<Config>
  metrics: GatewayMetrics
  /** Writes an error response for the request (with the request's decorated headers). */
  sendError(ctx: RequestContext, err: unknown): void
}

export interface Forwarder {
  forward(ctx: RequestContext): void
  close(): void
}

/**
 * Never forwarded: hop-by-hop, client-sent forwarding headers, and credentials the inventory does
 * not need; nor any name with the internal prefix (see forwardedHeaders).
 */
const STRIPPED: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'x-forwarded-port',
  'x-real-ip',
  'authorization',
  'x-api-token',
  'cookie',
])

const HOP_BY_HOP_RESPONSE: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authenticate'])

/** Connection options that name no header of their own to drop (keep-alive is one anyway). */
const CONNECTION_OPTIONS: ReadonlySet<string> = new Set(['keep-alive', 'close'])

/**
 * The header names a Connection header lists as hop-by-hop, lower case; null when it lists none
 * beyond keep-alive and close (what clients and node servers send: no Set, no split then).
 */
export function connectionListed(value: string | undefined): Set<string> | null {
  if (value === undefined) return null
  const v = value.length <= 10 ? value.toLowerCase() : ''
  if (v === 'keep-alive' || v === 'close') return null
  let listed: Set<string> | null = null
  for (const n of value.split(',')) {
    const token = n.trim().toLowerCase()
    if (token !== '' && !CONNECTION_OPTIONS.has(token)) (listed ??= new Set()).add(token)
  }
  return listed
}

/** Bit n set: some name of `names` has n characters (names of 31 or more share bit 31). */
function lengthMask(names: Iterable<string>): number {
  let mask = 0
  for (const name of names) mask |= 1 << Math.min(name.length, 31)
  return mask
}

const HOP_LENGTHS = lengthMask(HOP_BY_HOP_RESPONSE)

/**
 * The response headers as a flat [name, value, ...] list for writeHead: the upstream's raw
 * header lines minus hop-by-hop ones (and those its Connection names), then the gateway's own
 * (`ours`, lower-case names) that the upstream did not send itself: an upstream header replaces
 * ours of the same name. Works on `rawHeaders`, so node never builds the upstream response's
 * header object, and lower-cases a name only when its length could match a name it must be
 * compared with.
 */
export function responseHeaderList(proxyRes: IncomingMessage, ours?: Readonly<Record<string, string>>): string[] {
  const raw = proxyRes.rawHeaders
  let listed: Set<string> | null = null
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!
    if (name.length !== 10 || name.toLowerCase() !== 'connection') continue
    const more = connectionListed(raw[i + 1])
    if (more) for (const n of more) (listed ??= new Set()).add(n)
  }
  const oursMask = ours ? lengthMask(Object.keys(ours)) : 0
  const out: string[] = []
  let replaced: Set<string> | null = null
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!
    const bit = 1 << Math.min(name.length, 31)
    if (listed !== null || (bit & (HOP_LENGTHS | oursMask)) !== 0) {
      const lower = name.toLowerCase()
      if (HOP_BY_HOP_RESPONSE.has(lower) || listed?.has(lower)) continue
      if ((bit & oursMask) !== 0 && lower in ours!) (replaced ??= new Set()).add(lower)
    }
    out.push(name, raw[i + 1]!)
  }
  if (ours) for (const name in ours) if (replaced === null || !replaced.has(name)) out.push(name, ours[name]!)
  return out
}

class UpstreamError extends Error {
  constructor(readonly code: 'UPSTREAM_CONNECT_TIMEOUT' | 'UPSTREAM_TIMEOUT' | 'BODY_TOO_LARGE') {
    super(code)
  }
}

/** The forwarding of one request: what the timers and the response side need to know. */
class Pending implements Watched {
  watchSlot = -1
  /** The upstream request, from its creation (before it has a connection). */
  proxyReq: ClientRequest | undefined = undefined
  proxyRes: IncomingMessage | undefined = undefined
  /** Answered with an error already (a later error of the same forwarding is not answered again). */
  failed = false
  /** performance.now() by which a connecting upstream socket must be connected (0: not connecting). */
  connectBy = 0
  /** performance.now() by which the upstream must have begun to answer; then, more of its answer. */
  answerBy = 0
  /** performance.now() of the last chunk of the request body passed on (0: none yet, or no body). */
  bodyAt = 0
  /** The request has a body (declared length above 0, or chunked). */
  hasBody = false
  /** Chunks of the answer relayed so far, and as many at the last look of the deadline watch. */
  chunks = 0
  chunksSeen = 0

  constructor(
    readonly ctx: RequestContext,
    /** The watch that holds it while a deadline runs. */
    readonly watch: DeadlineWatch<Pending>,
  ) {}
}

const PENDING = Symbol('netinv.forward')
type Tagged = (IncomingMessage | ServerResponse) & { [PENDING]?: Pending }
/**
 * Per-request forwarding state, kept on the request and its response themselves (a WeakMap
 * entry per request costs GC time; a symbol lets shared listeners find it without a closure).
 */
const pending = {
  get: (of: IncomingMessage | ServerResponse): Pending | undefined => (of as Tagged)[PENDING],
  set: (of: IncomingMessage | ServerResponse, state: Pending): void => {
    ;(of as Tagged)[PENDING] = state
  },
}

/**
 * Counts streamed body bytes and notes when the last one passed; over the limit the upstream
 * request is abandoned with 413.
 */
function bodyLimiter(limit: number, state: Pending, onExceed: () => void): Transform {
  let size = 0
  return new Transform({
    transform(chunk: Buffer, _enc, cb: TransformCallback) {
      state.bodyAt = performance.now()
      size += chunk.length
      if (size > limit) {
        onExceed()
        cb()
        return
      }
      cb(null, chunk)
    },
  })
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(', ') : v
}

/**
 * The forwarding whose upstream request http-proxy is creating: set around its (synchronous)
 * `web` call, so that the body's `pipe`, which http-proxy calls right after creating the upstream
 * request, hands that request over before any connection is free for it (http-proxy's own
 * proxyReq event waits for a connection).
 */
let starting: Pending | undefined

/**
 * The body of a request that has none. http-proxy pipes its `buffer` option (else the request)
 * into the upstream request; piping an empty request stream sets up and tears down a dozen
 * listeners for nothing, this ends the upstream request at once.
 */
const NO_BODY = {
  pipe<T extends NodeJS.WritableStream>(dest: T): T {
    if (starting) starting.proxyReq = dest as unknown as ClientRequest
    dest.end()
    return dest
  },
} as unknown as Stream

/** The body of a request that has one, streamed through the size limiter. */
function bodyOf(limited: Transform): Stream {
  return {
    pipe<T extends NodeJS.WritableStream>(dest: T): T {
      if (starting) starting.proxyReq = dest as unknown as ClientRequest
      return limited.pipe(dest)
    },
  } as unknown as Stream
}

const RELAY_TO = Symbol('netinv.relayTo')
type Relayed = IncomingMessage & { [RELAY_TO]?: ServerResponse }

function relayChunk(this: Relayed, chunk: Buffer): void {
  const to = this[RELAY_TO]!
  const state = pending.get(to)
  if (state) state.chunks++
  if (!to.write(chunk) && !to.destroyed) {
    this.pause()
    to.once('drain', () => this.resume())
  }
}

function relayEnd(this: Relayed): void {
  this[RELAY_TO]!.end()
}

/** The upstream response failed midway: the client's response cannot be completed either. */
function relayError(this: Relayed): void {
  this[RELAY_TO]!.destroy()
}

/**
 * Streams the upstream response body to the client with backpressure: what `pipe` does for a
 * response, without its per-request listeners and closures (two shared listeners here).
 */
function relay(from: IncomingMessage, to: ServerResponse): void {
  ;(from as Relayed)[RELAY_TO] = to
  // 'end' and 'error' come at most once: plain listeners, no once() wrappers.
  from.on('data', relayChunk)
  from.on('end', relayEnd)
  from.on('error', relayError)
}

/** The internal header of a caller, version, generation and secret, as last made. */
interface InternalValue {
  /** encodePrincipal() of the caller; undefined for requests without one. */
  principal: string | undefined
  apiVersion: number
  generation: string
  secret: string
  value: string
}

/** The memo's key for requests without a principal. */
const ANONYMOUS: object = {}

/**
 * Internal header values by principal: a principal the authenticator hands out again (it keeps
 * one frozen object per verified credential) costs no JSON, no base64 and no concatenation,
 * only a lookup, while its requests keep to one version and generation. (The secret is part of
 * the key: gateways with different secrets may share a process.)
 */
const internalValues = new WeakMap<object, InternalValue>()

export function internalValue(p: Principal | null | undefined, apiVersion: number, generation: string, secret: string): string {
  const key = p ?? ANONYMOUS
  const memo = internalValues.get(key)
  if (memo !== undefined && memo.apiVersion === apiVersion && memo.generation === generation && memo.secret === secret) return memo.value
  const principal = p ? (memo?.principal ?? encodePrincipal(p)) : undefined
  const made: InternalValue = { principal, apiVersion, generation, secret, value: encodeInternal({ apiVersion, generation, principal, secret }) }
  internalValues.set(key, made)
  return made.value
}

/**
 * The headers the inventory sees: everything the client may not set removed, ours set. Applied
 * to the incoming header object before http-proxy copies it (its proxyReq event may come after
 * the body started flowing, too late to change headers).
 */
export function forwardedHeaders(ctx: RequestContext, internalSecret: string): IncomingHttpHeaders {
  const incoming = ctx.req.headers
  const hop = connectionListed(headerValue(incoming.connection))
  // A fresh object with only the allowed names (deleting keys would slow every later lookup).
  const out: IncomingHttpHeaders = {}
  for (const name in incoming) {
    if (STRIPPED.has(name) || hop?.has(name) || name.startsWith(INTERNAL_PREFIX)) continue
    out[name] = incoming[name]
  }
  const peer = ctx.peerIp ?? normalizeIp(ctx.req.socket.remoteAddress ?? '')
  const trusted = ctx.peerTrusted === true
  const priorFor = trusted ? headerValue(incoming['x-forwarded-for']) : undefined
  out['x-forwarded-for'] = priorFor ? `${priorFor}, ${peer}` : peer
  out['x-forwarded-proto'] = (trusted && headerValue(incoming['x-forwarded-proto'])) || ('encrypted' in ctx.req.socket ? 'https' : 'http')
  const host = (trusted && headerValue(incoming['x-forwarded-host'])) || incoming.host
  if (host) out['x-forwarded-host'] = host
  out['x-request-id'] = ctx.requestId
  out[INTERNAL_HEADER] = internalValue(ctx.principal, ctx.apiVersion ?? 1, ctx.generation ?? 'header', internalSecret)
  return out
}

/**
 * The client's response is over, whole or not: release the upstream request and response unless
 * both completed (a response cut short, or answered before the request's body was all sent
 * upstream, leaves the upstream connection in the middle of a message).
 */
function dropUpstream(res: ServerResponse, proxyReq: ClientRequest | undefined, proxyRes: IncomingMessage | undefined): void {
  if (proxyReq && !proxyReq.destroyed && (!res.writableFinished || !proxyReq.writableFinished)) proxyReq.destroy()
  if (proxyRes && !proxyRes.complete) proxyRes.destroy()
}

/** The response's one 'close' listener while it is forwarded (shared: no closure per request). */
function responseClosed(this: ServerResponse): void {
  const state = pending.get(this)
  if (!state) return
  state.watch.unwatch(state)
  dropUpstream(this, state.proxyReq, state.proxyRes)
}

/** Removes one of http-proxy's request passes (by its function name) from a proxy instance. */
function withoutPass(proxy: httpProxy, name: string): void {
  const passes = (proxy as unknown as { webPasses: Array<(...args: unknown[]) => unknown> }).webPasses
  const at = passes.findIndex((pass) => pass.name === name)
  if (at < 0) throw new Error(`http-proxy has no web pass named ${name}: check the forwarder against this version`)
  passes.splice(at, 1)
}

export function createForwarder(options: ForwarderOptions): Forwarder {
  const initial = options.config().upstream
  const agent = new Agent({ keepAlive: true, maxSockets: initial.maxSockets, maxFreeSockets: initial.maxSockets })
  // selfHandleResponse: the response side is ours too (http-proxy would copy the upstream's
  // hop-by-hop headers such as Connection to the client).
  // The target is parsed once here and the proxy is called without per-request options and
  // callback whenever possible: http-proxy copies its options and parses a string target on
  // every call that passes either.
  // `buffer: NO_BODY` is the default; a request with a body passes its own (the size limiter).
  const proxy = httpProxy.createProxyServer({ target: parseUrl(options.target), agent, xfwd: false, changeOrigin: false, selfHandleResponse: true, buffer: NO_BODY })
  // http-proxy's first pass sets `content-length: 0` and drops Transfer-Encoding on any DELETE or
  // OPTIONS without a Content-Length, yet the body still streams: a chunked DELETE's body would
  // reach the shared upstream connection unframed, as the start of another request (smuggling).
  // The client's own framing is what goes upstream (a body-less DELETE goes without either).
  withoutPass(proxy, 'deleteLength')

  const { connectTimeoutMs: firstConnect, timeoutMs: firstTimeout } = initial

  /**
   * Abandons the upstream request with the error that becomes the client's answer: through the
   * request's 'error' event once it has a connection; answered here while it still waits for
   * one (no event would come before one is free, and destroyed, it gives that one back).
   */
  function abandon(state: Pending, err: UpstreamError): void {
    const proxyReq = state.proxyReq
    if (proxyReq?.socket) {
      proxyReq.destroy(err)
      return
    }
    proxyReq?.destroy()
    onError(err, state.ctx.req, state.ctx.res)
  }

  /**
   * The deadline check of a forwarding (see DeadlineWatch): true while it must still be watched.
   * Past the connect deadline its upstream request is destroyed with the error that becomes 502;
   * past the answer deadline with the one that becomes 504, or, still waiting for a connection
   * (no error would come before one is free), answered 504 here. While the answer streams, a
   * wait of a whole timeout for more of it cuts the client connection.
   */
  function checkDeadlines(state: Pending, now: number): boolean {
    const { proxyReq, proxyRes } = state
    if (proxyReq === undefined || state.failed) return false
    if (proxyRes !== undefined) {
      if (proxyRes.complete || proxyRes.destroyed) return false
      // Paused, it waits for the client to read (backpressure), not for the upstream.
      if (state.chunks !== state.chunksSeen || proxyRes.isPaused()) {
        state.chunksSeen = state.chunks
        state.answerBy = now + options.config().upstream.timeoutMs
        return true
      }
      if (now < state.answerBy) return true
      options.metrics.upstreamError('timeout')
      state.ctx.log.warn({ code: 'UPSTREAM_STALLED' }, 'the upstream stopped in the middle of its answer')
      proxyRes.destroy()
      state.ctx.res.destroy()
      return false
    }
    if (proxyReq.destroyed) return false
    if (state.connectBy !== 0 && now >= state.connectBy && proxyReq.socket?.connecting) {
      proxyReq.destroy(new UpstreamError('UPSTREAM_CONNECT_TIMEOUT'))
      return false
    }
    // A body still streaming (a large upload) does not use up the upstream's time to answer:
    // that counts from its last byte.
    const due = state.bodyAt === 0 ? state.answerBy : Math.max(state.answerBy, state.bodyAt + options.config().upstream.timeoutMs)
    if (now >= due) {
      abandon(state, new UpstreamError('UPSTREAM_TIMEOUT'))
      return false
    }
    return true
  }

  // A deadline is met within one tick: a twentieth of the shortest timeout, 5 to 100 ms.
  const deadlines = new DeadlineWatch(checkDeadlines, () => {
    const { connectTimeoutMs, timeoutMs } = options.config().upstream
    return Math.min(100, Math.max(5, Math.min(connectTimeoutMs, timeoutMs, firstConnect, firstTimeout) / 20))
  })

  proxy.on('proxyRes', (proxyRes, req, res) => {
    const state = pending.get(req)
    // The answer has begun: from now on, the timeout bounds each wait for more of it.
    if (state) {
      state.proxyRes = proxyRes
      state.answerBy = performance.now() + options.config().upstream.timeoutMs
    }
    if (res.headersSent || res.destroyed) {
      proxyRes.destroy()
      return
    }
    if (state) answeredEarly(state, proxyRes.statusCode ?? 502)
    // The gateway's headers were not set one by one (see the decorate stage): they go out with
    // the upstream's in this one writeHead.
    res.writeHead(proxyRes.statusCode ?? 502, proxyRes.statusMessage, responseHeaderList(proxyRes, state?.ctx.responseHeaders))
    relay(proxyRes, res)
    // The client going away mid-response drops the upstream response too (through the
    // response's one 'close' listener, set when the upstream request began).
    if (!state) res.once('close', () => dropUpstream(res, undefined, proxyRes))
  })

  /**
   * An upstream connection is reused only when the upstream surely read the whole request body:
   * not when it answered before the gateway had sent it all, nor when it refused a request that
   * had one (an upstream that answers 4xx or 5xx to a body often does so without reading it, and
   * a connection holding the unread rest would hand it to the next request as the start of its
   * own: that request would wait for its answer until the upstream gave up on the connection).
   * The client's connection, when its own body has not all arrived, closes after the answer,
   * lingering to read the rest.
   */
  function answeredEarly(state: Pending, status: number): void {
    const { req, res } = state.ctx
    if (!state.hasBody) return
    const proxyReq = state.proxyReq
    if (proxyReq && (status >= 400 || !proxyReq.writableFinished || !req.complete)) proxyReq.shouldKeepAlive = false
    if (!req.complete) closeAfterBody(req, res)
  }

  // http-proxy emits proxyReq from the upstream request's 'socket' event: it has a connection.
  proxy.on('proxyReq', (proxyReq, req) => {
    const state = pending.get(req)
    if (!state) return
    state.proxyReq = proxyReq
    if (proxyReq.socket?.connecting) state.connectBy = performance.now() + options.config().upstream.connectTimeoutMs
  })

  proxy.on('error', (err, req, res) => onError(err as Error & { code?: string }, req, res as ServerResponse))

  function onError(err: Error & { code?: string }, req: IncomingMessage, res: ServerResponse): void {
    const state = pending.get(req)
    if (!state || state.failed) return
    state.failed = true
    deadlines.unwatch(state)
    const { ctx } = state
    if (req.destroyed && res.destroyed) {
      options.metrics.upstreamError('aborted')
      return
    }
    // Answered already (408 to a client that stopped sending its body): its upstream request was
    // released, the error that brings is no news.
    if (res.writableEnded) return
    if (err.code === 'BODY_TOO_LARGE') {
      options.sendError(ctx, new ApiError('API_PAYLOAD_TOO_LARGE'))
      return
    }
    const timeout = err.code === 'UPSTREAM_TIMEOUT'
    options.metrics.upstreamError(timeout ? 'timeout' : 'unavailable')
    ctx.log.warn({ code: err.code, message: err.message }, 'forwarding failed')
    options.sendError(ctx, new ApiError(timeout ? 'API_UPSTREAM_TIMEOUT' : 'API_UPSTREAM_UNAVAILABLE'))
  }

  return {
    forward(ctx) {
      const { req, res } = ctx
      const server = options.config().server
      const limit = ctx.endpoint?.path === 'snapshots/upload' ? server.uploadLimitBytes : server.bodyLimitBytes
      const declared = Number(req.headers['content-length'])
      if (Number.isFinite(declared) && declared > limit) {
        options.sendError(ctx, new ApiError('API_PAYLOAD_TOO_LARGE'))
        return
      }
      const state = new Pending(ctx, deadlines)
      pending.set(req, state)
      // Path seen by the inventory: /api/<endpoint path>?<query>, the generation prefix removed.
      req.url = `/api/${ctx.endpointPath}${ctx.search ? `?${ctx.search}` : ''}`
      const hasBody = req.headers['transfer-encoding'] !== undefined || (Number.isFinite(declared) && declared > 0)
      state.hasBody = hasBody
      const buffer = hasBody
        ? bodyOf(req.pipe(bodyLimiter(limit, state, () => abandon(state, new UpstreamError('BODY_TOO_LARGE')))))
        : undefined
      req.headers = forwardedHeaders(ctx, options.internalSecret)
      state.answerBy = performance.now() + options.config().upstream.timeoutMs
      // Errors reach the proxy's 'error' listener (onError above).
      starting = state
      try {
        if (buffer) proxy.web(req, res, { buffer })
        else proxy.web(req, res)
      } finally {
        starting = undefined
      }
      if (state.failed) return
      if (res.destroyed) {
        // The client went away while the pipeline ran: its 'close' has passed, release now.
        dropUpstream(res, state.proxyReq, undefined)
        return
      }
      deadlines.watch(state)
      pending.set(res, state)
      res.on('close', responseClosed)
    },
    close() {
      deadlines.stop()
      proxy.close()
      agent.destroy()
    },
  }
}
