/**
 * The upstream request of a forwarded GET or HEAD without a body, made with less work per request
 * than http-proxy's own `stream` pass, which it replaces in each pool's proxy (see `leanStream`):
 * http-proxy copies the header object, parses the path with url.parse, joins it with a regular
 * expression, and node then stores and validates every header through setHeader; here the
 * headers go to node as one flat [name, value, ...] list, written as they are (node still checks
 * each name and value), and the listeners are shared functions with the request's state on the
 * upstream request instead of five closures per request. The events are http-proxy's: `proxyReq`
 * once the upstream request has a connection, `proxyRes` with the answer, `error` and
 * `econnreset` as its error handler emits them. Anything else (a body, another method, options the
 * gateway does not use) goes through http-proxy's pass unchanged.
 */
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { createRequire } from 'node:module'
import { parse as parseUrl, type Url } from 'node:url'
import type { Agent } from 'node:http'
import type { EventEmitter } from 'node:events'

/** What http-proxy hands a web pass (the options of the proxy, merged with the call's). */
interface PassOptions {
  target?: Url | string
  agent?: Agent | false
  buffer?: { pipe(dest: ClientRequest): unknown }
  selfHandleResponse?: boolean
  forward?: unknown
  proxyTimeout?: number
  followRedirects?: boolean
  headers?: unknown
  auth?: unknown
  ssl?: unknown
  method?: string
  localAddress?: string
  toProxy?: boolean
  ignorePath?: boolean
  prependPath?: boolean
  changeOrigin?: boolean
  secure?: boolean
  ca?: unknown
}

type Pass = (req: IncomingMessage, res: ServerResponse, options: PassOptions, head: unknown, server: EventEmitter, callback?: unknown) => unknown

/** The forwarding an upstream request belongs to (read by the shared listeners). */
interface Lean {
  req: IncomingMessage
  res: ServerResponse
  options: PassOptions
  server: EventEmitter
  target: Url
  proxyReq: ClientRequest
}

const LEAN = Symbol('netinv.lean')
type Tagged<T> = T & { [LEAN]?: Lean }

/** Characters url.parse would escape (or cut at: `#`) in a path: such a path takes url.parse, as http-proxy does. */
const ESCAPED_BY_URL_PARSE = /[^!-~]|["#'<>\\^`{|}]/

/** http-proxy's own join of a target path and a request path (for the paths the fast way does not take). */
const { urlJoin } = createRequire(import.meta.url)('http-proxy/lib/http-proxy/common') as { urlJoin(...parts: string[]): string }

/**
 * The path http-proxy would send for `url` to a target whose path is `/`: url.parse's path,
 * joined to `/` with runs of slashes before the query made one. A path of one leading slash, no
 * run of slashes and nothing url.parse would change is that path itself (what the gateway sends).
 */
export function outgoingPath(url: string): string {
  if (url.charCodeAt(0) === 0x2f && !ESCAPED_BY_URL_PARSE.test(url)) {
    const q = url.indexOf('?')
    if (!(q < 0 ? url : url.slice(0, q)).includes('//')) return url
  }
  return urlJoin('/', parseUrl(url).path ?? '')
}

/** The headers as node writes them from a list: [name, value, ...], absent values left out. */
export function headerList(headers: IncomingHttpHeaders): Array<string | string[]> {
  const out: Array<string | string[]> = []
  for (const name in headers) {
    const value = headers[name]
    if (value !== undefined) out.push(name, value)
  }
  return out
}

function onSocket(this: Tagged<ClientRequest>): void {
  const lean = this[LEAN]!
  lean.server.emit('proxyReq', this, lean.req, lean.res, lean.options)
}

function onAborted(this: Tagged<IncomingMessage>): void {
  this[LEAN]?.proxyReq.destroy()
}

/** http-proxy's error handler, for the client request and the upstream request alike. */
function onError(this: Tagged<IncomingMessage | ClientRequest>, err: Error & { code?: string }): void {
  const lean = this[LEAN]!
  const { req, res, server, target, proxyReq } = lean
  if (req.socket.destroyed && err.code === 'ECONNRESET') {
    server.emit('econnreset', err, req, res, target)
    proxyReq.destroy()
    return
  }
  server.emit('error', err, req, res, target)
}

function emitEnd(this: Tagged<IncomingMessage>): void {
  const lean = this[LEAN]!
  lean.server.emit('end', lean.req, lean.res, this)
}

function onResponse(this: Tagged<ClientRequest>, proxyRes: Tagged<IncomingMessage>): void {
  const lean = this[LEAN]!
  const { req, res, server } = lean
  server.emit('proxyRes', proxyRes, req, res)
  if (server.listenerCount('end') === 0) return
  if (res.writableEnded) server.emit('end', req, res, proxyRes)
  else {
    proxyRes[LEAN] = lean
    proxyRes.on('end', emitEnd)
  }
}

/** Whether the lean request serves this forwarding; else http-proxy's own pass does. */
function leanServes(req: IncomingMessage, options: PassOptions, noBody: unknown): options is PassOptions & { target: Url; agent: Agent } {
  const target = options.target
  return (
    (req.method === 'GET' || req.method === 'HEAD') &&
    options.buffer === noBody &&
    options.selfHandleResponse === true &&
    !!options.agent &&
    typeof target === 'object' &&
    target.path === '/' &&
    options.forward === undefined &&
    !options.proxyTimeout &&
    !options.followRedirects &&
    options.headers === undefined &&
    options.auth === undefined &&
    options.ssl === undefined &&
    options.method === undefined &&
    options.localAddress === undefined &&
    options.ca === undefined &&
    !options.toProxy &&
    !options.ignorePath &&
    options.prependPath !== false &&
    !options.changeOrigin &&
    req.headers.expect === undefined
  )
}

/**
 * A `stream` pass for a proxy with selfHandleResponse whose body-less requests pipe `noBody`
 * (the forwarder's): the lean request for those, http-proxy's `original` pass for the rest.
 */
export function leanStream(original: Pass, noBody: unknown): Pass {
  return function stream(req, res, options, head, server, callback) {
    if (callback !== undefined || !leanServes(req, options, noBody)) return original(req, res, options, head, server, callback)
    server.emit('start', req, res, options.target)
    const target = options.target
    const https = target.protocol === 'https:'
    const proxyReq = (https ? httpsRequest : httpRequest)({
      hostname: target.hostname,
      port: target.port ?? (https ? 443 : 80),
      method: req.method,
      path: outgoingPath(req.url ?? ''),
      // A list: node writes it as it is instead of storing each header through setHeader.
      headers: headerList(req.headers) as unknown as IncomingHttpHeaders,
      agent: options.agent,
      ...(https ? { rejectUnauthorized: options.secure ?? true } : {}),
    }) as Tagged<ClientRequest>
    const lean: Lean = { req, res, options, server, target, proxyReq }
    proxyReq[LEAN] = lean
    ;(req as Tagged<IncomingMessage>)[LEAN] = lean
    proxyReq.on('socket', onSocket)
    req.on('aborted', onAborted)
    req.on('error', onError)
    proxyReq.on('error', onError)
    options.buffer!.pipe(proxyReq)
    proxyReq.on('response', onResponse)
  }
}

/** Replaces http-proxy's `stream` pass of `proxy` with the lean one. */
export function useLeanStream(proxy: object, noBody: unknown): void {
  const passes = (proxy as { webPasses: Pass[] }).webPasses
  const at = passes.findIndex((pass) => pass.name === 'stream')
  if (at < 0) throw new Error('http-proxy has no web pass named stream: check the forwarder against this version')
  passes[at] = leanStream(passes[at]!, noBody)
}
