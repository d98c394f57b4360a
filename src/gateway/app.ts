/**
 * The gateway as request handlers (public and admin), built from injected dependencies; the
 * server module listens. Every public request runs the pipeline of pipeline/stages.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from 'pino'
import type { Config } from '../shared/config/index.js'
import { ApiError, toErrorResponse } from '../shared/errors.js'
import { ENDPOINTS } from '../shared/manifest.js'
import type { Maybe } from '../shared/maybe.js'
import { closeAfterBody, sendJson } from '../shared/http/index.js'
import { METRICS_CONTENT_TYPE, renderWith } from '../shared/metrics/runtime.js'
import type { AuthService } from './auth/types.js'
import { handlerKey, type LocalHandler, type RequestContext } from './context.js'
import { PLAIN_TEXT_ERROR_ENDPOINTS, sendUnauthorizedText } from './handlers/index.js'
import { metaHandlers } from './meta.js'
import { openApiHandlers } from './openapi/index.js'
import { createMetrics, type GatewayMetrics } from './metrics.js'
import { accessLogger, observeResponse } from './pipeline/access-log.js'
import type { StageDeps } from './pipeline/deps.js'
import { applyResponseHeaders } from './pipeline/dispatch.js'
import { runStages } from './pipeline/runner.js'
import { buildStages } from './pipeline/stages.js'
import { closeRequestSpan, openRequestSpan } from './tracing.js'
import { tracing } from '../shared/tracing/index.js'
import { completeVersionHeaders, VersionGoneError } from './pipeline/version.js'
import { captureBefore, isAuditedChange } from './audit/states.js'
import { createForwarder } from './proxy.js'
import { readRouteFiles } from './routes/files.js'
import { compileRouteTable, type RouteTable } from './routes/table.js'
import { readinessProbe, readyBody, type Readiness } from './readiness.js'
import { resolveUpstreams } from './upstreams/settings.js'
import { GatewayRequest } from './request.js'
import { createUpstreamDocuments, type UpstreamDocuments } from './upstreams/documents.js'
import { unknownTableDetail } from './unknown-table.js'
import { isWebPath, webFiles } from './web.js'
import type { Limiter } from './ratelimit/types.js'

export interface GatewayDeps {
  config: Readonly<Config>
  log: Logger
  auth: AuthService
  limiter: Limiter
  /**
   * Base URL of netinv's inventory: the upstream "inventory" that the built-in table's inventory
   * endpoints go to, unless api.json `upstreams.inventory.url` names another. Absent (and not in
   * api.json): the gateway serves no inventory endpoints.
   */
  inventoryUrl?: string | undefined
  /** The shared secret of `internal` identity (INTERNAL_SECRET). */
  internalSecret?: string | undefined
  /** CONFIG_DIR/routes: operators' route files (none when absent). */
  routesDir?: string | undefined
  /** Wall clock in ms (sunsets, rate windows); injected in tests. */
  now?: () => number
  metrics?: GatewayMetrics
  /**
   * For the built-in table's inventory endpoints with a `*`, by path: which paths under it exist,
   * fixed (tests). Absent: what the upstream's document lists (upstreams/documents.ts).
   */
  wildcards?: Readonly<Record<string, (rest: string) => boolean>>
  /**
   * The `detail` of a 404 for an endpoint path no route matches. Absent: for a path under
   * `tables/`, the tables the upstreams publish that it may have meant (unknown-table.ts).
   */
  unknownPath?: (endpointPath: string) => string | undefined
  /**
   * More families for the admin /metrics, after the gateway's own and before the process's
   * (`netinv serve` passes the inventory's: one process, one scrape).
   */
  moreMetrics?: ReadonlyArray<{ metrics(): Promise<string> }>
  /**
   * The built web interface served outside `/api/` (web.ts); default: `dist/web` of the package
   * (WEB_DIR overrides it).
   */
  webDir?: string | undefined
  /** Readiness of Redis, when the rate limiter uses it. */
  redisReady?: () => Promise<boolean>
  /** How long (ms) a probe of the dependencies answers later /readyz calls too (default 1000). */
  readyReuseMs?: number
}

export interface Gateway {
  /** Public listener: /api/** through the pipeline, plus /healthz and /readyz. */
  handle(req: IncomingMessage, res: ServerResponse): void
  /** Admin listener: /metrics, /healthz, /readyz. */
  handleAdmin(req: IncomingMessage, res: ServerResponse): void
  /**
   * Answers 408 to the API request of `res` whose client stopped sending its body (see
   * connections.ts); false when `res` is not an API request's.
   */
  answerTimeout(res: ServerResponse): boolean
  config(): Readonly<Config>
  /** The route table in service. */
  routes(): RouteTable
  /**
   * Applies a new (validated) configuration, with the route files as they are now, to the
   * following requests: a new route table is compiled and swapped in whole. Throws (and keeps
   * the running configuration and table) when the table cannot be compiled.
   */
  setConfig(config: Readonly<Config>): void
  metrics: GatewayMetrics
  /** The documents the upstreams publish (what the public document is composed from). */
  documents: UpstreamDocuments
  /** Resolves once every upstream's document was asked for once (the listeners wait for it). */
  documentsRead(): Promise<void>
  /** From now on /readyz answers 503 (the listener's drain closes connections: server.ts). */
  startDrain(): void
  ready(): Promise<Readiness>
  close(): Promise<void>
}

export type { Readiness, UpstreamReadiness } from './readiness.js'

export function createGateway(deps: GatewayDeps): Gateway {
  let config = deps.config
  let draining = false
  const now = deps.now ?? Date.now
  const metrics = deps.metrics ?? createMetrics()
  const log = deps.log
  const access = accessLogger(log)

  function sendGatewayError(ctx: RequestContext, err: unknown): void {
    const { req, res } = ctx
    // The client went away (a reset while its body was read, say): nobody to answer, and no
    // fault of the gateway's. Its access line says 499.
    if (res.destroyed || req.socket.destroyed) {
      ctx.log.debug({ message: err instanceof Error ? err.message : String(err) }, 'the client went away')
      return
    }
    if (res.headersSent) {
      ctx.log.warn({ err }, 'error after the response started')
      res.destroy()
      return
    }
    // Answered before its body arrived whole: the connection ends with this answer, after
    // reading the rest of the body within a bound (a lingering close), so that the client,
    // still sending, reads the answer instead of a reset.
    closeAfterBody(req, res)
    completeVersionHeaders(ctx, config, err)
    applyResponseHeaders(ctx)
    if (err instanceof VersionGoneError) {
      ctx.log.debug({ code: err.code }, 'request rejected')
      sendJson(res, 410, err.body())
      return
    }
    const { status, body, headers } = toErrorResponse(err)
    if (status >= 500 && !(err instanceof ApiError)) ctx.log.error({ err }, 'request failed')
    else ctx.log.debug({ code: body.code }, 'request rejected')
    // The spec's one exception to the JSON error body: DELETE auth/token refuses in text/plain.
    if ((status === 401 || status === 403) && ctx.endpoint && PLAIN_TEXT_ERROR_ENDPOINTS.has(handlerKey(ctx.method, ctx.endpoint.path))) {
      sendUnauthorizedText(res, status, headers)
      return
    }
    sendJson(res, status, body, headers)
  }

  const forwarder = createForwarder({ config: () => config, metrics, tokens: deps.auth.upstreamTokens, sendError: sendGatewayError })

  /** The route table of a configuration: the built-in table and the route files, bound to its upstreams. */
  function compile(next: Readonly<Config>): RouteTable {
    const upstreams = resolveUpstreams(next, { inventoryUrl: deps.inventoryUrl, internalSecret: deps.internalSecret, readFiles: true })
    const files = deps.routesDir === undefined ? [] : readRouteFiles(deps.routesDir)
    return compileRouteTable({
      builtIn: ENDPOINTS,
      files,
      upstreams,
      canMintTokens: deps.auth.upstreamTokens !== undefined,
      ...(deps.wildcards ? { wildcards: deps.wildcards } : {}),
      published: (upstream, pattern) => documents.exists(upstream, pattern),
    })
  }

  const documents = createUpstreamDocuments({ log, refreshMs: () => config.upstream.documentRefreshMs })

  function putInService(next: RouteTable): void {
    forwarder.adopt(next.upstreams.values())
    documents.follow(next.upstreams.values())
    table = next
    for (const note of next.notes) log.info(note)
  }

  let table: RouteTable = compile(config)
  putInService(table)

  const handlers = new Map<string, LocalHandler>([...metaHandlers(() => config), ...openApiHandlers({ config: () => config, routes: () => table, documents }), ...deps.auth.handlers])
  const stageDeps: StageDeps = {
    config: () => config,
    routes: () => table,
    now,
    auth: deps.auth,
    limiter: deps.limiter,
    handlers,
    // A settings change has its state read first, for the audit trail's before (audit/states.ts).
    forward: (ctx) => (isAuditedChange(ctx) ? captureBefore(ctx, forwarder.readJson).then(() => forwarder.forward(ctx)) : forwarder.forward(ctx)),
    metrics,
    unknownPath: deps.unknownPath ?? ((endpointPath) => unknownTableDetail(endpointPath, documents.paths(), documents.uncollected())),
  }
  const stages = buildStages(stageDeps, log)
  const web = webFiles(deps.webDir)

  const readiness = readinessProbe({
    database: () => deps.auth.ready(),
    upstreams: () => table.upstreams.values(),
    health: (up, timeoutMs) => forwarder.health(up, timeoutMs),
    redisReady: deps.redisReady,
    draining: () => draining,
    metrics,
    reuseMs: deps.readyReuseMs,
  })

  function health(path: string, res: ServerResponse): boolean {
    if (path === '/healthz') {
      sendJson(res, 200, { status: 'ok' })
      return true
    }
    if (path === '/readyz') {
      readiness.ready().then(
        (r) => sendJson(res, r.ok ? 200 : 503, readyBody(r)),
        () => sendJson(res, 503, { status: 'not ready' }),
      )
      return true
    }
    return false
  }

  /** The request of a response in flight (read by the shared 'close' listener). */
  const REQUEST = Symbol('netinv.request')
  type Observed = ServerResponse & { [REQUEST]?: GatewayRequest }

  /** The one 'close' listener of every API response (shared: no closure per request). */
  function closed(this: Observed): void {
    const ctx = this[REQUEST]
    if (ctx === undefined) return
    this[REQUEST] = undefined
    observeResponse(ctx, metrics, access)
    deps.auth.observe?.(ctx, ctx.res.writableFinished ? ctx.res.statusCode : 499)
    if (ctx.span !== undefined) closeRequestSpan(ctx, ctx.res.writableFinished ? ctx.res.statusCode : 499)
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/'
    const q = url.indexOf('?')
    const path = q < 0 ? url : url.slice(0, q)
    if (health(path, res)) return
    if (isWebPath(path)) {
      web.handle(req, res, path)
      return
    }
    const ctx = new GatewayRequest(req, res, log, req.method ?? 'GET', path, q < 0 ? '' : url.slice(q + 1))
    ;(res as Observed)[REQUEST] = ctx
    res.on('close', closed)
    const traces = tracing()
    if (traces !== undefined) openRequestSpan(traces, ctx)
    let outcome: Maybe<string | null>
    try {
      outcome = runStages(stages, ctx)
    } catch (err) {
      sendGatewayError(ctx, err)
      return
    }
    if (outcome instanceof Promise) outcome.then((finishedBy) => finished(ctx, finishedBy), (err: unknown) => sendGatewayError(ctx, err))
    else finished(ctx, outcome)
  }

  /** Every stage continued and none answered: nothing serves the request. */
  function finished(ctx: GatewayRequest, finishedBy: string | null): void {
    if (finishedBy === null && !ctx.res.headersSent) sendGatewayError(ctx, new ApiError('API_NOT_FOUND'))
  }

  function handleAdmin(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0]!
    if (health(path, res)) return
    if (path === '/metrics' && (req.method === 'GET' || req.method === 'HEAD')) {
      // The Redis and upstream gauges are taken at scrape time (the upstreams' from the last
      // probe of the dependencies, shared with /readyz).
      void readiness
        .refresh()
        .then(() => renderWith(...(deps.moreMetrics ?? [])))
        .then(
          (more) => {
            const text = metrics.render() + more
            res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'content-length': Buffer.byteLength(text) })
            res.end(req.method === 'HEAD' ? undefined : text)
          },
          (err: unknown) => {
            log.error({ err }, 'metrics could not be rendered')
            sendJson(res, 500, { code: 'API_INTERNAL_ERROR', message: 'Internal Server Error' })
          },
        )
      return
    }
    sendJson(res, 404, { code: 'API_NOT_FOUND', message: 'Requested Resource Not Found' })
  }

  function answerTimeout(res: ServerResponse): boolean {
    const ctx = (res as Observed)[REQUEST]
    if (ctx === undefined) return false
    sendGatewayError(ctx, new ApiError('API_REQUEST_TIMEOUT', 'The request body did not arrive in time'))
    return true
  }

  return {
    handle,
    handleAdmin,
    answerTimeout,
    config: () => config,
    routes: () => table,
    setConfig(next) {
      const compiled = compile(next)
      putInService(compiled)
      config = next
    },
    metrics,
    documents,
    documentsRead: () => documents.ready(),
    startDrain() {
      draining = true
    },
    ready: () => readiness.ready(),
    async close() {
      documents.close()
      forwarder.close()
      access.flush()
    },
  }
}
