/**
 * The upstream request of a forwarded request without a body, dispatched on the upstream's
 * undici pool (the lowest of undici's interfaces: a handler object called at each step, no
 * stream and no event emitter per request) instead of through http-proxy (whose `web` call copies
 * its arguments, runs its passes and emits each event through its emitter, and whose `stream` pass
 * copies the header object, parses the path with url.parse, joins it with a regular expression,
 * and lets node store and validate every header through setHeader) or node's http client (a
 * ClientRequest, an agent's queue and an IncomingMessage stream per request: about a fifth more
 * instructions per forwarded request than this, measured with callgrind). The headers go as one
 * flat [name, value, ...] list, the path is the one http-proxy would send (`outgoingPath`), and
 * the answer comes as raw header lines and chunks, relayed by the forwarder (`LeanHooks`).
 * undici is the line that runs on Node 20 (7.x; 8 needs Node 22). A request with a body, one
 * with Expect, and the table listing the gateway completes go through http-proxy (proxy.ts).
 */
import { Client, Pool, buildConnector, type Dispatcher } from 'undici'
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import { createRequire } from 'node:module'
import { parse as parseUrl } from 'node:url'
import type { Upstream } from './settings.js'

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
  /** The upstream's answer has begun: its status and raw header lines. False pauses the answer until `resume`. */
  response(state: S, lean: LeanRequest<S>, status: number, statusText: string, raw: string[]): boolean
  /** A chunk of the answer's body; false pauses the answer until `resume`. */
  data(state: S, lean: LeanRequest<S>, chunk: Buffer): boolean
  /** The answer is complete, with its trailer fields as raw lines. */
  end(state: S, lean: LeanRequest<S>, trailers: string[]): void
  /** The upstream request failed: before the answer began, or in the middle of it. */
  error(state: S, lean: LeanRequest<S>, err: Error & { code?: string }): void
}

/** Raw header lines as strings (undici gives them as bytes). */
function rawLines(raw: readonly Buffer[] | readonly string[] | null): string[] {
  const out: string[] = []
  if (raw) for (const line of raw) out.push(typeof line === 'string' ? line : line.toString('latin1'))
  return out
}

/** One forwarded request on an undici dispatcher: its handler, and what the forwarder asks of it. */
export class LeanRequest<S> implements Dispatcher.DispatchHandler {
  /** Has a connection: the request is being written (undici's onConnect). */
  sent = false
  /** The answer has begun. */
  answered = false
  /** Over: answered whole, failed, or aborted. */
  done = false
  /** The answer waits for the client to read (a hook returned false). */
  paused = false
  private abortFn: ((err?: Error) => void) | undefined = undefined
  private resumeFn: (() => void) | undefined = undefined
  /** Aborted before it had a connection: aborted with this once it gets one, never sent. */
  private abandoned: Error | undefined = undefined

  constructor(
    private readonly hooks: LeanHooks<S>,
    readonly state: S,
  ) {}

  /** Ends the request with `err` (reported through the error hook unless it was over already). */
  abort(err: Error): void {
    if (this.done) return
    if (this.abortFn) this.abortFn(err)
    else this.abandoned ??= err
  }

  /** Goes on reading a paused answer. */
  resume(): void {
    if (!this.paused) return
    this.paused = false
    this.resumeFn?.()
  }

  onConnect(abort: (err?: Error) => void): void {
    if (this.abandoned) {
      abort(this.abandoned)
      return
    }
    this.abortFn = abort
    this.sent = true
  }

  onHeaders(status: number, raw: Buffer[], resume: () => void, statusText: string): boolean {
    if (status < 200) return true // 1xx: not relayed
    this.answered = true
    this.resumeFn = resume
    const go = this.hooks.response(this.state, this, status, statusText, rawLines(raw))
    if (!go) this.paused = true
    return go
  }

  onData(chunk: Buffer): boolean {
    const go = this.hooks.data(this.state, this, chunk)
    if (!go) this.paused = true
    return go
  }

  onComplete(trailers: string[] | null): void {
    this.done = true
    this.hooks.end(this.state, this, rawLines(trailers))
  }

  onError(err: Error): void {
    if (this.done) return
    this.done = true
    this.hooks.error(this.state, this, err)
  }
}

/**
 * The connections of one upstream for lean requests: a pool of kept-alive connections to `up`, at
 * most `maxSockets`, an unused one closed after `idleTimeoutMs` or a second before the upstream's
 * `Keep-Alive: timeout` hint (undici's threshold; a hint of a second or less: not kept), HTTPS with
 * the upstream's certificate authorities, client certificate and server name. undici's own
 * timeouts for an answer are off: the forwarder's deadlines bound it (proxy.ts), and a new
 * connection gets the upstream's current connect timeout (`connectTimeoutMs`, set again when a
 * configuration is adopted), through a connector per timeout.
 */
export class LeanDispatcher {
  /** The connect timeout new connections get. */
  connectTimeoutMs: number
  /** The TLS server name requests announce, when the upstream sets one. */
  readonly servername: string | undefined
  readonly origin: string
  /** The options of each connection (a one-off connection gets them too). */
  readonly options: Client.Options
  readonly pool: Pool
  private readonly connectors = new Map<number, buildConnector.connector>()

  constructor(private readonly up: Upstream) {
    this.connectTimeoutMs = up.connectTimeoutMs
    this.servername = up.tls?.servername
    this.origin = up.url.origin
    this.options = {
      pipelining: 1,
      keepAliveTimeout: up.idleTimeoutMs,
      keepAliveMaxTimeout: up.idleTimeoutMs,
      keepAliveTimeoutThreshold: 1000,
      headersTimeout: 0,
      bodyTimeout: 0,
      connect: (opts, callback) => this.connect(opts, callback),
    }
    this.pool = new Pool(this.origin, { ...this.options, connections: up.maxSockets })
  }

  private connect(opts: buildConnector.Options, callback: buildConnector.Callback): void {
    let connector = this.connectors.get(this.connectTimeoutMs)
    if (!connector) this.connectors.set(this.connectTimeoutMs, (connector = buildConnector({ ...(this.up.tls ?? {}), timeout: this.connectTimeoutMs })))
    connector(opts, callback)
  }
}

/**
 * Sends `client`'s request (method, `path` as the gateway rewrote it, `headers` as the upstream
 * must see them) without a body on `via` (the upstream's pool, else a one-off connection: see
 * `freshClient`), and answers through `hooks`.
 */
export function leanRequest<S>(
  via: LeanDispatcher,
  fresh: boolean,
  client: IncomingMessage,
  path: string,
  headers: IncomingHttpHeaders,
  hooks: LeanHooks<S>,
  state: S,
): LeanRequest<S> {
  const lean = new LeanRequest(hooks, state)
  const options = {
    path: outgoingPath(path),
    method: (client.method ?? 'GET') as Dispatcher.HttpMethod,
    headers: headerList(headers) as unknown as string[],
    servername: via.servername,
  }
  if (!fresh) {
    via.pool.dispatch(options, lean)
    return lean
  }
  // One connection for this request alone, closed once it is over.
  const one = new Client(via.origin, via.options)
  one.dispatch(options, lean)
  void one.close().catch(() => {})
  return lean
}
