/**
 * The inventory service as an HTTP request handler. It trusts identity only from the gateway:
 * every request must carry the internal secret; the principal travels in an internal header.
 */
import { tracing, type Span, type Tracing } from '../shared/tracing/index.js'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { randomUUID } from 'node:crypto'
import { ApiError } from '../shared/errors.js'
import { Router, acceptable, closeAfterBody, sendError, sendJson } from '../shared/http/index.js'
import { producesOf } from '../shared/manifest.js'
import { INTERNAL_HEADER, decodeInternal, decodePrincipal, safeEqual } from '../shared/principal.js'
import { RELEASE_VERSION } from '../shared/product.js'
import { assertRoutesMatchManifest, servedEndpoint } from './manifest.js'
import type { InventoryDeps, InventoryRequest } from './context.js'
import { registerRoutes } from './routes/index.js'
import { TABLES } from './catalog/index.js'
import { publishDocument } from './openapi/document.js'

export interface InventoryApp {
  handle(req: IncomingMessage, res: ServerResponse): void
  router: Router<InventoryRequest>
  close(): Promise<void>
}

export interface InventoryOptions extends InventoryDeps {
  /** Shared secret that proves a request came through the gateway. */
  internalSecret: string
}

const API_PREFIX = '/api/'

export async function createInventoryApp(options: InventoryOptions): Promise<InventoryApp> {
  const { internalSecret, ...deps } = options
  const router = new Router<InventoryRequest>()
  const lifecycle = await registerRoutes(router, deps)
  try {
    assertRoutesMatchManifest(router.list())
  } catch (err) {
    await lifecycle.close()
    throw err
  }

  // What it answers, for the gateway in front (and anyone on the internal network): public
  // knowledge, so no internal secret is asked for it.
  const published = publishDocument(deps.tables ?? TABLES)

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const t = tracing()
    if (t === undefined) serve(req, res)
    else t.within(requestSpan(t, req, res), () => serve(req, res))
  }

  function serve(req: IncomingMessage, res: ServerResponse): void {
    const requestId = (req.headers['x-request-id'] as string | undefined) ?? randomUUID()
    const log = deps.log.child({ reqId: requestId })
    void (async () => {
      try {
        const url = new URL(req.url ?? '/', 'http://inventory')
        if (url.pathname === '/healthz') return sendJson(res, 200, { status: 'ok' })
        if (url.pathname === '/openapi.json' && (req.method === 'GET' || req.method === 'HEAD')) {
          if (req.headers['if-none-match'] === published.etag) {
            res.writeHead(304, { etag: published.etag })
            return res.end()
          }
          res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(published.text), etag: published.etag, 'cache-control': 'no-cache' })
          return res.end(req.method === 'HEAD' ? undefined : published.text)
        }
        if (url.pathname === '/readyz') {
          const ok = await deps.db.ping()
          return sendJson(res, ok ? 200 : 503, { status: ok ? 'ready' : 'database unavailable' })
        }
        const internal = decodeInternal(req.headers[INTERNAL_HEADER])
        // The secret first: nothing else of the header is read unless the gateway sent it.
        if (internal === null || !safeEqual(internal.secret, internalSecret)) throw new ApiError('API_INTERNAL_AUTH_REQUIRED')
        if (!url.pathname.startsWith(API_PREFIX)) throw new ApiError('API_NOT_FOUND')
        const path = url.pathname.slice(API_PREFIX.length)
        const { handler, match, pattern } = router.resolve(req.method ?? 'GET', path)
        const served = servedEndpoint(pattern)
        if (served && !served.versions.has(internal.apiVersion)) {
          // The spec's body for version errors (the gateway answers these before forwarding).
          return sendJson(res, 410, {
            message: `Version ${internal.apiVersion} of ${served.endpoint.path} is not supported (supported: ${[...served.versions].join(',')})`,
            release_version: RELEASE_VERSION,
            api_version: String(served.latest),
          })
        }
        // What the gateway checks first (406), checked here too for whoever calls the service directly.
        if (served && !acceptable(req.headers.accept, producesOf(served.endpoint))) {
          throw new ApiError('API_NOT_ACCEPTABLE', `The Accept header cannot be satisfied: ${served.endpoint.path} answers ${producesOf(served.endpoint).join(' or ')}`)
        }
        const ctx: InventoryRequest = {
          deps,
          log,
          principal: decodePrincipal(internal.principal),
          apiVersion: internal.apiVersion,
          generation: internal.generation,
          query: url.searchParams,
        }
        await handler(ctx, match, req, res)
      } catch (err) {
        // Refused before its body was read whole (an upload whose first line is wrong): the rest
        // is read and thrown away within a bound, and the connection closes after the answer,
        // so that the next request on it never starts in the middle of this one's body.
        closeAfterBody(req, res)
        sendError(res, err, log)
      }
    })()
  }

  return { handle, router, close: lifecycle.close }
}

/**
 * The inventory's server span of a request: it continues the trace of the gateway's forwarding
 * (its `traceparent`); the statements the handler runs are its children. Ends with the response.
 */
function requestSpan(t: Tracing, req: IncomingMessage, res: ServerResponse): Span {
  const path = (req.url ?? '/').split('?')[0]!
  const span = t.server(`inventory ${req.method ?? 'GET'}`, req.headers, true)
  span.setAttribute('http.request.method', req.method ?? 'GET')
  span.setAttribute('url.path', path)
  res.once('close', () => {
    const status = res.writableFinished ? res.statusCode : 499
    span.setAttribute('http.response.status_code', status)
    if (status >= 500) span.setStatus({ code: 2 })
    span.end()
  })
  return span
}
