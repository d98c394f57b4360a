/**
 * The upstream request of a forwarded request without a body, made by the forwarder itself with
 * node's http.request instead of through http-proxy (whose `web` call copies its arguments,
 * runs its passes and emits each event through its emitter, and whose `stream` pass copies the
 * header object, parses the path with url.parse, joins it with a regular expression, and lets
 * node store and validate every header through setHeader). Here the headers go to node as one
 * flat [name, value, ...] list, written as they are (node still checks each name and value), the
 * path is the one http-proxy would send (`outgoingPath`), and the listeners are three shared
 * functions that find the forwarding on the upstream request (`LEAN`): no closure and no emitter
 * event per request. What happens then is the forwarder's (`LeanHooks`): the connection is
 * there, the answer has begun, the request failed. A request with a body goes through
 * http-proxy (proxy.ts).
 */
import { request as httpRequest, type Agent, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { createRequire } from 'node:module'
import { parse as parseUrl } from 'node:url'

/** Characters url.parse would escape (or cut at: `#`) in a path besides those outside `!`..`~`: such a path takes url.parse, as http-proxy does. */
const ESCAPED_BY_URL_PARSE = new Uint8Array(128)
for (const c of '"#\'<>\\^`{|}') ESCAPED_BY_URL_PARSE[c.charCodeAt(0)] = 1

/** http-proxy's own join of a target path and a request path (for the paths the fast way does not take). */
const { urlJoin } = createRequire(import.meta.url)('http-proxy/lib/http-proxy/common') as { urlJoin(...parts: string[]): string }

/**
 * The path http-proxy would send for `url` to a target whose path is `/`: url.parse's path,
 * joined to `/` with runs of slashes before the query made one. A path of one leading slash, no
 * run of slashes and nothing url.parse would change is that path itself (what the gateway sends).
 */
export function outgoingPath(url: string): string {
  return plainPath(url) ? url : urlJoin('/', parseUrl(url).path ?? '')
}

/** One leading slash, no run of slashes before the query, nothing url.parse would change (one pass, no regular expression). */
function plainPath(url: string): boolean {
  if (url.charCodeAt(0) !== 0x2f) return false
  let inPath = true
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i)
    if (c < 0x21 || c > 0x7e || ESCAPED_BY_URL_PARSE[c] === 1) return false
    if (c === 0x3f) inPath = false
    else if (inPath && c === 0x2f && url.charCodeAt(i + 1) === 0x2f) return false
  }
  return true
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

/** What the forwarder does at each step of a lean request (one set per forwarder, shared by its requests). */
export interface LeanHooks<S> {
  /** The upstream request has a connection (maybe still connecting). */
  socket(state: S, proxyReq: ClientRequest): void
  /** The upstream's answer has begun. */
  response(state: S, proxyRes: IncomingMessage): void
  /** The upstream request failed (see `onError` for the error http-proxy would not report). */
  error(state: S, err: Error & { code?: string }): void
}

/** Where a lean request goes: an upstream's origin, parsed once. */
export interface LeanOrigin {
  readonly hostname: string
  readonly port: number
  readonly https: boolean
}

export function leanOrigin(url: URL): LeanOrigin {
  const https = url.protocol === 'https:'
  // A bracketed IPv6 literal goes to node without its brackets.
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  return { hostname, port: url.port === '' ? (https ? 443 : 80) : Number(url.port), https }
}

const LEAN = Symbol('netinv.lean')

/** The forwarding a lean upstream request belongs to, and the hooks of its forwarder. */
interface Lean<S> {
  readonly state: S
  readonly hooks: LeanHooks<S>
  /** The client's request: gone with its connection, its upstream request's reset is no failure to answer. */
  readonly client: IncomingMessage
}

type Tagged<S> = ClientRequest & { [LEAN]?: Lean<S> }

function onSocket(this: Tagged<unknown>): void {
  const lean = this[LEAN]!
  lean.hooks.socket(lean.state, this)
}

function onResponse(this: Tagged<unknown>, proxyRes: IncomingMessage): void {
  const lean = this[LEAN]!
  lean.hooks.response(lean.state, proxyRes)
}

/**
 * As http-proxy's error handler: a reset of the upstream request after the client's connection
 * is gone only releases the upstream request (nobody is left to answer); anything else is the
 * forwarder's to answer.
 */
function onError(this: Tagged<unknown>, err: Error & { code?: string }): void {
  const lean = this[LEAN]!
  if (lean.client.socket.destroyed && err.code === 'ECONNRESET') {
    this.destroy()
    return
  }
  lean.hooks.error(lean.state, err)
}

/**
 * Sends `client`'s request (method, `path` as the gateway rewrote it, `headers` as the upstream
 * must see them) to `origin` over `agent`, without a body, and answers the upstream request.
 * `secure`: whether an HTTPS upstream's certificate is checked (the agent's own settings, such as
 * its certificate authorities, apply too).
 */
export function leanRequest<S>(
  origin: LeanOrigin,
  agent: Agent,
  client: IncomingMessage,
  path: string,
  headers: IncomingHttpHeaders,
  hooks: LeanHooks<S>,
  state: S,
): ClientRequest {
  const options = {
    hostname: origin.hostname,
    port: origin.port,
    method: client.method,
    path: outgoingPath(path),
    // A list: node writes it as it is instead of storing each header through setHeader.
    headers: headerList(headers) as unknown as IncomingHttpHeaders,
    agent,
  }
  const proxyReq = (origin.https ? httpsRequest(options) : httpRequest(options)) as Tagged<S>
  proxyReq[LEAN] = { state, hooks, client }
  proxyReq.on('socket', onSocket)
  proxyReq.on('error', onError)
  proxyReq.on('response', onResponse)
  proxyReq.end()
  return proxyReq
}
