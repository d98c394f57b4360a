/**
 * Forwarding to upstreams: the ONLY module that touches http-proxy. One connection pool per
 * upstream (a keep-alive agent and a proxy over it), kept across configuration reloads while the
 * upstream's connection settings stay the same. Per request: the path in the upstream's
 * versioning mode (upstreams/paths.ts), the headers and identity in its mode (upstreams/headers.ts),
 * a connect timeout (→ 502) and an answer timeout (→ 504) counted from the request's arrival here,
 * so that the time spent waiting for a free upstream connection counts too; once the answer
 * streams, the same timeout bounds each wait for more of it (a stalled upstream gets the client
 * connection cut, as the status line has gone out). Errors are answered with our JSON body;
 * bodies stream under a size limit (413); the upstream request is released when the client goes
 * away; a connection whose request body the upstream may not have read is never reused.
 *
 * A kept-alive connection can be closed by the upstream just as a request goes out on it (its
 * keep-alive timeout, a replica that went away): the request then fails before any answer, with
 * nothing the upstream did about it. An idempotent request without a body that failed that way
 * (its connection closed or reset after it went out, before any answer) is sent once more, on a
 * new connection (one the upstream's address balances anew); anything else is a 502. undici, which
 * sends requests without a body, does not say whether a connection was reused, so such a request
 * whose new connection closed under it is sent once more too (as nginx's proxy_next_upstream does
 * for an error): idempotent requests may be (RFC 9110, 9.2.2).
 *
 * Requests without a body go upstream through undici (upstreams/request.ts); those with a body or
 * with Expect, and the table listing the gateway completes, through http-proxy over node's agent.
 */
import type { Agent, ClientRequest, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import type { Stream } from 'node:stream'
import { parse as parseUrl } from 'node:url'
import httpProxy from 'http-proxy'
import type { Config } from '../shared/config/index.js'
import { ApiError } from '../shared/errors.js'
import { closeAfterBody } from '../shared/http/index.js'
import type { Maybe } from '../shared/maybe.js'
import type { Principal } from '../shared/principal.js'
import type { RequestContext } from './context.js'
import { DeadlineWatch } from './deadlines.js'
import { withGatewayTables } from './gateway-tables.js'
import { NO_BODY, Pending, UpstreamError, bodyLimiter, bodyOf, creating, dropUpstream, pending, relay, releaseUpstream, responseClosed, resumeLean, trailerPairs } from './forwarding.js'
import type { GatewayMetrics } from './metrics.js'
import type { Route } from './routes/table.js'
import { responseHeaderList, upstreamHeaders } from './upstreams/headers.js'
import { openForwardSpan } from './tracing.js'
import { upstreamPath } from './upstreams/paths.js'
import { LeanDispatcher, leanRequest, type LeanHooks, type LeanRequest } from './upstreams/request.js'
import { createAgent, getJson, probeHealth, type Health } from './upstreams/pool.js'
import type { Upstream, UpstreamPool } from './upstreams/settings.js'

/** Mints the tokens of `jwt` identity: one per caller and audience, reused until shortly before it expires. */
export interface UpstreamTokens {
  token(principal: Principal, audience: string, ttlSeconds: number): Maybe<string>
}

export interface ForwarderOptions {
  config(): Readonly<Config>
  metrics: GatewayMetrics
  /** For `jwt` identity. */
  tokens?: UpstreamTokens | undefined
  /** Writes an error response for the request (with the request's decorated headers). */
  sendError(ctx: RequestContext, err: unknown): void
}

export interface Forwarder {
  /** Forwards to the route's upstream; writes the response (or our error) itself. */
  forward(ctx: RequestContext): void | Promise<void>
  /** Gives every upstream of a route table its pool (made or kept); pools no table uses any more close once idle. */
  adopt(upstreams: Iterable<Upstream>): void
  /** Probes an upstream's health path over its pool. */
  health(upstream: Upstream, timeoutMs: number): Promise<Health>
  /** GET of an upstream's path over its pool, the answer as JSON; null when it fails (upstreams/pool.ts getJson). */
  readJson(upstream: Upstream, path: string, headers: OutgoingHttpHeaders, timeoutMs: number): Promise<unknown>
  close(): void
}

interface Pool extends UpstreamPool {
  readonly agent: Agent
  /** For requests with a body (those without go upstream through upstreams/request.ts). */
  readonly proxy: httpProxy
  /** For requests without a body. */
  readonly lean: LeanDispatcher
  /** New connections only, for a request sent again (made on the first retry). */
  fresh: Agent | undefined
  readonly upstream: Upstream
}

/** The largest `GET tables` answer the gateway reads whole to add its own tables to. */
const LISTING_LIMIT = 64 * 1024 * 1024

/** Methods a request of which may be sent twice (RFC 9110, 9.2.2). */
const IDEMPOTENT: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE'])

/** How a kept-alive connection the upstream closed under a request fails it (node's agent). */
const CLOSED_UNDER: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'ECONNREFUSED'])

/** How a connection closed under a request that went out on it fails it (undici: `other side closed` and resets). */
const LEAN_CLOSED_UNDER: ReadonlySet<string> = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE'])

/**
 * Whether a failed forwarding may be sent again: the first failure, of an idempotent request
 * without a body, whose connection closed before any answer came: after the request went out
 * (undici), or on a connection reused from the pool (node's agent).
 */
function retryable(state: Pending, err: Error & { code?: string }): boolean {
  const lean = state.lean
  const closedUnder =
    lean !== undefined
      ? lean.sent && !lean.answered && LEAN_CLOSED_UNDER.has(err.code ?? '')
      : state.proxyRes === undefined && state.proxyReq?.reusedSocket === true && CLOSED_UNDER.has(err.code ?? '')
  return (
    !state.retried &&
    !state.hasBody &&
    closedUnder &&
    IDEMPOTENT.has(state.ctx.req.method ?? '') &&
    !state.ctx.res.headersSent &&
    !state.ctx.req.destroyed
  )
}

/** The table listing (`GET tables`), whose answer the gateway completes with its own tables. */
function isListing(ctx: RequestContext): boolean {
  return ctx.endpoint?.path === 'tables' && ctx.method === 'GET'
}

/** Removes one of http-proxy's request passes (by its function name) from a proxy instance. */
function withoutPass(proxy: httpProxy, name: string): void {
  const passes = (proxy as unknown as { webPasses: Array<(...args: unknown[]) => unknown> }).webPasses
  const at = passes.findIndex((pass) => pass.name === name)
  if (at < 0) throw new Error(`http-proxy has no web pass named ${name}: check the forwarder against this version`)
  passes.splice(at, 1)
}

/** No more reuse of a pool's connections: idle ones close now, busy ones when their request ends. */
function retire(pool: Pool): void {
  void pool.lean.pool.close().catch(() => {})
  pool.proxy.close()
  const agent = pool.agent as Agent & { keepAlive: boolean }
  agent.keepAlive = false
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy()
}

/**
 * A lean request's answer the client can no longer receive: the request is aborted, and its
 * forwarding is over (the error the abort brings is not answered).
 */
function abortLean(request: LeanRequest<Pending>): void {
  request.state.failed = true
  request.abort(new Error('the client response is over'))
}

/** An upstream response of node's http client the client can no longer receive: destroyed, unread. */
function destroyAnswer(proxyRes: IncomingMessage): void {
  proxyRes.destroy()
}

export function createForwarder(options: ForwarderOptions): Forwarder {
  const pools = new Map<string, Pool>()

  function createPool(up: Upstream): Pool {
    const agent = createAgent(up)
    // selfHandleResponse: the response side is ours too (http-proxy would copy the upstream's
    // hop-by-hop headers such as Connection to the client). The target (the origin: paths are
    // ours, see upstreams/paths.ts) is parsed once here and the proxy is called without
    // per-request options and callback whenever possible: http-proxy copies its options and
    // parses a string target on every call that passes either. `buffer: NO_BODY` is the
    // default; a request with a body passes its own (the size limiter). The upstream gets its own
    // name in Host (set with the other headers, see upstreams/headers.ts).
    const proxy = httpProxy.createProxyServer({ target: parseUrl(up.url.origin), agent, xfwd: false, changeOrigin: false, selfHandleResponse: true, buffer: NO_BODY })
    // http-proxy's first pass sets `content-length: 0` and drops Transfer-Encoding on any DELETE or
    // OPTIONS without a Content-Length, yet the body still streams: a chunked DELETE's body would
    // reach the shared upstream connection unframed, as the start of another request (smuggling).
    // The client's own framing is what goes upstream (a body-less DELETE goes without either).
    withoutPass(proxy, 'deleteLength')
    proxy.on('proxyRes', onProxyRes)
    proxy.on('proxyReq', onProxyReq)
    proxy.on('error', (err, req, res) => onError(err as Error & { code?: string }, req, res as ServerResponse))
    return { key: up.poolKey, agent, proxy, lean: new LeanDispatcher(up), fresh: undefined, upstream: up }
  }

  /** The steps of a request without a body, sent by upstreams/request.ts. */
  const lean: LeanHooks<Pending> = {
    response: leanAnswered,
    data(state, request, chunk) {
      state.chunks++
      const res = state.ctx.res
      if (res.write(chunk) || res.destroyed) return true
      res.once('drain', resumeLean)
      return false
    },
    end(state, _request, trailers) {
      const res = state.ctx.res
      if (trailers.length > 0) res.addTrailers(trailerPairs(trailers))
      res.end()
    },
    error(state, request, err) {
      // In the middle of the answer: the client's response cannot be completed either.
      if (request.answered) state.ctx.res.destroy()
      else onError(err, state.ctx.req, state.ctx.res)
    },
  }

  /** The lean request's answer has begun: status and headers to the client, with ours (see beginAnswer). */
  function leanAnswered(state: Pending, request: LeanRequest<Pending>, status: number, statusText: string, raw: string[]): boolean {
    return beginAnswer(state, state.ctx.res, status, statusText, raw, abortLean, request)
  }

  /**
   * An upstream's answer has begun, whichever kind of upstream request brought it (undici's or
   * node's http client's): from now on, the timeout bounds each wait for more of it. A client
   * response that is over already (our error went out, or the client went away) takes nothing
   * more: `drop` lets go of the `upstream` answer, and the result is false. Otherwise the status
   * and the upstream's header lines `raw` go to the client with the gateway's headers in one
   * writeHead (they were not set one by one, see the decorate stage), after what an answer to a
   * request with a body needs (answeredEarly: node's http client only, a lean request has none);
   * `raw` undefined leaves the head to the caller (the table listing writes it with its completed
   * body). `state` is absent only for an answer of http-proxy's the forwarder has no forwarding for.
   */
  function beginAnswer<U>(
    state: Pending | undefined,
    res: ServerResponse,
    status: number,
    statusText: string | undefined,
    raw: string[] | undefined,
    drop: (upstream: U) => void,
    upstream: U,
  ): boolean {
    if (state) state.answerBy = performance.now() + state.target.timeoutMs
    if (res.headersSent || res.destroyed) {
      drop(upstream)
      return false
    }
    if (state) {
      if (state.hasBody) answeredEarly(state, status)
      if (status === 401 && state.target.identity.mode === 'credential') {
        state.ctx.log.warn({ upstream: state.target.name }, 'the upstream refused the service credential of identity.valueFile')
      }
    }
    if (raw !== undefined) res.writeHead(status, statusText, responseHeaderList(raw, state?.ctx.responseHeaders, state?.target.headers))
    return true
  }

  /**
   * Sends the request upstream: without a body (and without Expect, whose 100 Continue
   * http-proxy's pass handles), unless it is the table listing, by upstreams/request.ts; else
   * through http-proxy with the body streamed from `buffer`. `fresh`: on a new connection of its
   * own (a retry). Errors reach onError either way.
   */
  function sendUpstream(state: Pending, pool: Pool, fresh: boolean, buffer: Stream | undefined): void {
    const { req, res } = state.ctx
    if (buffer === undefined && req.headers.expect === undefined && !isListing(state.ctx)) {
      state.lean = leanRequest(pool.lean, fresh, req, req.url ?? '/', req.headers, lean, state)
      return
    }
    const agent = fresh ? (pool.fresh ??= createAgent(pool.upstream, true)) : pool.agent
    creating.state = state
    try {
      if (agent !== pool.agent) pool.proxy.web(req, res, buffer ? { agent, buffer } : { agent })
      else if (buffer) pool.proxy.web(req, res, { buffer })
      else pool.proxy.web(req, res)
    } finally {
      creating.state = undefined
    }
  }

  /**
   * Abandons the upstream request with the error that becomes the client's answer: through the
   * request's 'error' event once it has a connection; answered here while it still waits for
   * one (no event would come before one is free, and destroyed, it gives that one back).
   */
  function abandon(state: Pending, err: UpstreamError): void {
    const request = state.lean
    if (request !== undefined) {
      const sent = request.sent
      request.abort(err)
      if (!sent) onError(err, state.ctx.req, state.ctx.res)
      return
    }
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
    if (state.lean !== undefined) return checkLeanDeadlines(state, state.lean, now)
    const { proxyReq, proxyRes } = state
    if (proxyReq === undefined || state.failed) return false
    const timeoutMs = state.target.timeoutMs
    if (proxyRes !== undefined) {
      if (proxyRes.complete || proxyRes.destroyed) return false
      if (streaming(state, proxyRes.isPaused(), now)) return true
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
    const due = state.bodyAt === 0 ? state.answerBy : Math.max(state.answerBy, state.bodyAt + timeoutMs)
    if (now >= due) {
      abandon(state, new UpstreamError('UPSTREAM_TIMEOUT'))
      return false
    }
    return true
  }

  /**
   * The deadline check of an answer that streams (either kind of upstream request): a chunk
   * since the last look, or an answer `paused` for the client to read (backpressure: it waits for
   * the client, not for the upstream), gives it another timeout; a whole timeout without either is
   * a stall, counted and logged, and false (the caller stops the answer).
   */
  function streaming(state: Pending, paused: boolean, now: number): boolean {
    if (state.chunks !== state.chunksSeen || paused) {
      state.chunksSeen = state.chunks
      state.answerBy = now + state.target.timeoutMs
      return true
    }
    if (now < state.answerBy) return true
    options.metrics.upstreamError('timeout', state.target.name)
    state.ctx.log.warn({ code: 'UPSTREAM_STALLED', upstream: state.target.name }, 'the upstream stopped in the middle of its answer')
    return false
  }

  /** checkDeadlines for a request sent by undici (its connect timeout is undici's: upstreams/request.ts). */
  function checkLeanDeadlines(state: Pending, request: LeanRequest<Pending>, now: number): boolean {
    if (state.failed || request.done) return false
    if (request.answered) {
      if (streaming(state, request.paused, now)) return true
      state.failed = true
      request.abort(new UpstreamError('UPSTREAM_TIMEOUT'))
      state.ctx.res.destroy()
      return false
    }
    if (now < state.answerBy) return true
    abandon(state, new UpstreamError('UPSTREAM_TIMEOUT'))
    return false
  }

  // A deadline is met within one tick: a twentieth of the shortest timeout in use, 5 to 100 ms.
  let shortestMs = Infinity
  const deadlines = new DeadlineWatch(checkDeadlines, () => Math.min(100, Math.max(5, shortestMs / 20)))

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
    const proxyReq = state.proxyReq
    if (proxyReq && (status >= 400 || !proxyReq.writableFinished || !req.complete)) proxyReq.shouldKeepAlive = false
    if (!req.complete) closeAfterBody(req, res)
  }

  function onProxyRes(proxyRes: IncomingMessage, req: IncomingMessage, res: ServerResponse): void {
    answered(pending.get(req), proxyRes, res)
  }

  /**
   * The answer of node's http client has begun (see beginAnswer): kept for the deadline watch and
   * the release, then relayed, or read whole when it is the table listing's.
   */
  function answered(state: Pending | undefined, proxyRes: IncomingMessage, res: ServerResponse): void {
    if (state) state.proxyRes = proxyRes
    const status = proxyRes.statusCode ?? 502
    const listing = state !== undefined && status === 200 && isListing(state.ctx)
    if (!beginAnswer(state, res, status, proxyRes.statusMessage, listing ? undefined : proxyRes.rawHeaders, destroyAnswer, proxyRes)) return
    if (listing) {
      listingAnswered(state, proxyRes, res)
      return
    }
    relay(proxyRes, res)
    // The client going away mid-response drops the upstream response too (through the
    // response's one 'close' listener, set when the upstream request began).
    if (!state) res.once('close', () => dropUpstream(res, undefined, proxyRes))
  }

  /**
   * The upstream's `GET tables` answer, read whole (at most LISTING_LIMIT bytes, else a 502) and
   * sent with the gateway's own tables the caller may read appended (gateway-tables.ts). An
   * answer that is encoded or no JSON list goes out as it came.
   */
  function listingAnswered(state: Pending, proxyRes: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = []
    let size = 0
    proxyRes.on('data', (chunk: Buffer) => {
      state.chunks++
      size += chunk.length
      if (size > LISTING_LIMIT) {
        proxyRes.destroy()
        if (!state.failed) {
          state.failed = true
          state.ctx.log.warn({ upstream: state.target.name, limit: LISTING_LIMIT }, 'the upstream\'s table listing is too large to add the gateway\'s tables to')
          options.sendError(state.ctx, new ApiError('API_UPSTREAM_UNAVAILABLE'))
        }
        return
      }
      chunks.push(chunk)
    })
    proxyRes.on('error', () => res.destroy())
    proxyRes.on('end', () => {
      if (state.failed || res.destroyed) return
      let body = Buffer.concat(chunks)
      if (proxyRes.headers['content-encoding'] === undefined) {
        try {
          body = Buffer.from(JSON.stringify(withGatewayTables(JSON.parse(body.toString('utf8')), state.ctx.principal)))
        } catch {
          // no JSON: the answer as it came
        }
      }
      const list = responseHeaderList(proxyRes.rawHeaders, state.ctx.responseHeaders, state.target.headers)
      const headers: string[] = []
      for (let i = 0; i < list.length; i += 2) {
        const name = list[i]!.toLowerCase()
        if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'etag') headers.push(list[i]!, list[i + 1]!)
      }
      headers.push('content-length', String(body.length))
      res.writeHead(200, proxyRes.statusMessage, headers)
      res.end(body)
    })
  }

  // http-proxy emits proxyReq from the upstream request's 'socket' event: it has a connection.
  function onProxyReq(proxyReq: ClientRequest, req: IncomingMessage): void {
    const state = pending.get(req)
    if (state) connected(state, proxyReq)
  }

  function connected(state: Pending, proxyReq: ClientRequest): void {
    state.proxyReq = proxyReq
    if (proxyReq.socket?.connecting) state.connectBy = performance.now() + state.target.connectTimeoutMs
  }

  /** Sends a forwarding again on a new connection (see retryable). */
  function retry(state: Pending, err: Error & { code?: string }): void {
    const log = state.ctx.log
    const pool = state.target.pool as Pool
    state.retried = true
    state.proxyReq = undefined
    state.lean = undefined
    state.connectBy = 0
    options.metrics.upstreamError('retried', state.target.name)
    log.debug({ code: err.code, upstream: state.target.name }, 'the upstream closed a connection under the request: sent again on a new one')
    // Only requests without a body are sent again: nothing to stream.
    sendUpstream(state, pool, true, undefined)
  }

  function onError(err: Error & { code?: string }, req: IncomingMessage, res: ServerResponse): void {
    const state = pending.get(req)
    if (!state || state.failed) return
    if (retryable(state, err)) {
      retry(state, err)
      return
    }
    state.failed = true
    deadlines.unwatch(state)
    const { ctx, target } = state
    if (req.destroyed && res.destroyed) {
      options.metrics.upstreamError('aborted', target.name)
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
    options.metrics.upstreamError(timeout ? 'timeout' : 'unavailable', target.name)
    ctx.log.warn({ code: err.code, message: err.message, upstream: target.name }, 'forwarding failed')
    options.sendError(ctx, new ApiError(timeout ? 'API_UPSTREAM_TIMEOUT' : 'API_UPSTREAM_UNAVAILABLE'))
  }

  /** Sends the request on, with `token` for `jwt` identity. */
  function send(ctx: RequestContext, route: Route, target: Upstream, token: string | undefined): void {
    const { req, res } = ctx
    const server = options.config().server
    const limit = route.upload ? server.uploadLimitBytes : server.bodyLimitBytes
    const declared = Number(req.headers['content-length'])
    if (Number.isFinite(declared) && declared > limit) {
      options.sendError(ctx, new ApiError('API_PAYLOAD_TOO_LARGE'))
      return
    }
    const pool = target.pool as Pool
    const state = new Pending(ctx, target, deadlines)
    pending.set(req, state)
    req.url = upstreamPath(ctx, route)
    const hasBody = req.headers['transfer-encoding'] !== undefined || (Number.isFinite(declared) && declared > 0)
    state.hasBody = hasBody
    const buffer = hasBody ? bodyOf(req.pipe(bodyLimiter(limit, state, () => abandon(state, new UpstreamError('BODY_TOO_LARGE'))))) : undefined
    req.headers = upstreamHeaders(ctx, target, token)
    if (ctx.span !== undefined) openForwardSpan(ctx, req.headers, target.name)
    state.answerBy = performance.now() + target.timeoutMs
    sendUpstream(state, pool, false, buffer)
    if (state.failed) return
    if (res.destroyed) {
      // The client went away while the pipeline ran: its 'close' has passed, release now.
      releaseUpstream(state)
      return
    }
    deadlines.watch(state)
    pending.set(res, state)
    res.on('close', responseClosed)
  }

  return {
    forward(ctx) {
      const route = ctx.endpoint!
      const target = route.target!
      const principal = ctx.principal
      if (target.identity.mode !== 'jwt' || !principal || !options.tokens) return send(ctx, route, target, undefined)
      const token = options.tokens.token(principal, target.name, target.identity.ttlSeconds)
      if (!(token instanceof Promise)) return send(ctx, route, target, token)
      return token.then((t) => {
        if (!ctx.res.destroyed) send(ctx, route, target, t)
      })
    },
    adopt(upstreams) {
      const inUse = new Set<string>()
      shortestMs = Infinity
      for (const up of upstreams) {
        let pool = pools.get(up.poolKey)
        if (!pool) pools.set(up.poolKey, (pool = createPool(up)))
        up.pool = pool
        // Upstreams sharing a pool share its connect timeout: the shortest of theirs.
        pool.lean.connectTimeoutMs = inUse.has(up.poolKey) ? Math.min(pool.lean.connectTimeoutMs, up.connectTimeoutMs) : up.connectTimeoutMs
        inUse.add(up.poolKey)
        shortestMs = Math.min(shortestMs, up.connectTimeoutMs, up.timeoutMs)
      }
      for (const [key, pool] of pools) {
        if (inUse.has(key)) continue
        pools.delete(key)
        retire(pool)
      }
    },
    readJson(upstream, path, headers, timeoutMs) {
      const pool = upstream.pool as Pool | undefined
      return pool ? getJson(upstream, pool.agent, path, headers, timeoutMs) : Promise.resolve(null)
    },
    health(upstream, timeoutMs) {
      const pool = upstream.pool as Pool | undefined
      if (!pool) return Promise.resolve({ ok: false, error: 'not in service' })
      return probeHealth(upstream, pool.agent, timeoutMs)
    },
    close() {
      deadlines.stop()
      for (const pool of pools.values()) {
        void pool.lean.pool.destroy().catch(() => {})
        pool.proxy.close()
        pool.agent.destroy()
        pool.fresh?.destroy()
      }
      pools.clear()
    },
  }
}
