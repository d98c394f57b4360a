/**
 * The state of one forwarded request and the streams around it, for the forwarder (proxy.ts):
 * the request body through a size limiter, the upstream's answer relayed to the client with
 * backpressure, and the release of the upstream request when the client's response is over.
 * Everything here is shared code with no closure per request: state travels on the request and
 * response objects themselves.
 */
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http'
import { Transform, type Stream, type TransformCallback } from 'node:stream'
import type { RequestContext } from './context.js'
import type { DeadlineWatch, Watched } from './deadlines.js'
import type { LeanRequest } from './upstreams/request.js'
import type { Upstream } from './upstreams/settings.js'

export class UpstreamError extends Error {
  constructor(readonly code: 'UPSTREAM_CONNECT_TIMEOUT' | 'UPSTREAM_TIMEOUT' | 'BODY_TOO_LARGE') {
    super(code)
  }
}

/** The forwarding of one request: what the timers and the response side need to know. */
export class Pending implements Watched {
  watchSlot = -1
  /** The upstream request of a request without a body (sent by undici: upstreams/request.ts). */
  lean: LeanRequest<Pending> | undefined = undefined
  /** The upstream request through http-proxy, from its creation (before it has a connection). */
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
  /** Sent again once already (see retryable in proxy.ts). */
  retried = false
  /** Chunks of the answer relayed so far, and as many at the last look of the deadline watch. */
  chunks = 0
  chunksSeen = 0

  constructor(
    readonly ctx: RequestContext,
    /** The upstream it goes to (its timeouts as of the request's arrival). */
    readonly target: Upstream,
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
export const pending = {
  get: (of: IncomingMessage | ServerResponse): Pending | undefined => (of as Tagged)[PENDING],
  set: (of: IncomingMessage | ServerResponse, state: Pending): void => {
    ;(of as Tagged)[PENDING] = state
  },
}

/**
 * Counts streamed body bytes and notes when the last one passed; over the limit the upstream
 * request is abandoned with 413.
 */
export function bodyLimiter(limit: number, state: Pending, onExceed: () => void): Transform {
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

/**
 * The forwarding whose upstream request http-proxy is creating: set around its (synchronous)
 * `web` call, so that the body's `pipe`, which http-proxy calls right after creating the upstream
 * request, hands that request over before any connection is free for it (http-proxy's own
 * proxyReq event waits for a connection).
 */
export const creating: { state: Pending | undefined } = { state: undefined }

/**
 * The body of a request that has none. http-proxy pipes its `buffer` option (else the request)
 * into the upstream request; piping an empty request stream sets up and tears down a dozen
 * listeners for nothing, this ends the upstream request at once.
 */
export const NO_BODY = {
  pipe<T extends NodeJS.WritableStream>(dest: T): T {
    if (creating.state) creating.state.proxyReq = dest as unknown as ClientRequest
    dest.end()
    return dest
  },
} as unknown as Stream

/** The body of a request that has one, streamed through the size limiter. */
export function bodyOf(limited: Transform): Stream {
  return {
    pipe<T extends NodeJS.WritableStream>(dest: T): T {
      if (creating.state) creating.state.proxyReq = dest as unknown as ClientRequest
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

/** Raw trailer lines [name, value, ...] as the pairs addTrailers takes. */
export function trailerPairs(raw: readonly string[]): Array<[string, string]> {
  const trailers: Array<[string, string]> = []
  for (let i = 0; i + 1 < raw.length; i += 2) trailers.push([raw[i]!, raw[i + 1]!])
  return trailers
}

/** The upstream's trailer fields go after the body too (a client over HTTP/1.0 gets none). */
function relayEnd(this: Relayed): void {
  const to = this[RELAY_TO]!
  const raw = this.rawTrailers
  if (raw.length > 0) to.addTrailers(trailerPairs(raw))
  to.end()
}

/** The client read what was waiting: a lean request's paused answer goes on ('drain' listener, shared). */
export function resumeLean(this: ServerResponse): void {
  pending.get(this)?.lean?.resume()
}

/** The upstream response failed midway: the client's response cannot be completed either. */
function relayError(this: Relayed): void {
  this[RELAY_TO]!.destroy()
}

/**
 * Streams the upstream response body to the client with backpressure: what `pipe` does for a
 * response, without its per-request listeners and closures (two shared listeners here).
 */
export function relay(from: IncomingMessage, to: ServerResponse): void {
  ;(from as Relayed)[RELAY_TO] = to
  // 'end' and 'error' come at most once: plain listeners, no once() wrappers.
  from.on('data', relayChunk)
  from.on('end', relayEnd)
  from.on('error', relayError)
}

/**
 * The client's response is over, whole or not: release the upstream request and response unless
 * both completed (a response cut short, or answered before the request's body was all sent
 * upstream, leaves the upstream connection in the middle of a message).
 */
export function dropUpstream(res: ServerResponse, proxyReq: ClientRequest | undefined, proxyRes: IncomingMessage | undefined): void {
  if (proxyReq && !proxyReq.destroyed && (!res.writableFinished || !proxyReq.writableFinished)) proxyReq.destroy()
  if (proxyRes && !proxyRes.complete) proxyRes.destroy()
}

/**
 * The client's response is over, whole or not: a lean request not over yet is aborted (never sent,
 * if it is still waiting for a connection), quietly: nobody is left to answer. Else dropUpstream.
 */
export function releaseUpstream(state: Pending): void {
  const lean = state.lean
  if (lean === undefined) {
    dropUpstream(state.ctx.res, state.proxyReq, state.proxyRes)
    return
  }
  if (lean.done) return
  state.failed = true
  lean.abort(new Error('the client response is over'))
}

/** The response's one 'close' listener while it is forwarded (shared: no closure per request). */
export function responseClosed(this: ServerResponse): void {
  const state = pending.get(this)
  if (!state) return
  state.watch.unwatch(state)
  releaseUpstream(state)
}
