/**
 * The gateway's request context as a class: every field exists from the start (one object
 * shape for V8 on the hot path), and the per-request child logger is made on first use only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from 'pino'
import type { Principal } from '../shared/principal.js'
import type { Span } from '../shared/tracing/index.js'
import type { Generation, RequestContext } from './context.js'
import type { RateDecision } from './ratelimit/types.js'
import type { Route } from './routes/table.js'

export class GatewayRequest implements RequestContext {
  requestId = ''
  generation: Generation | undefined = undefined
  release: string | undefined = undefined
  endpoint: Route | undefined = undefined
  endpointPath: string | undefined = undefined
  params: Record<string, string> | undefined = undefined
  apiVersion: number | undefined = undefined
  peerIp: string | undefined = undefined
  clientIp: string | undefined = undefined
  clientKey: string | undefined = undefined
  peerTrusted: boolean | undefined = undefined
  rejection: unknown = undefined
  rate: RateDecision | undefined = undefined
  principal: Principal | null | undefined = undefined
  span: Span | undefined = undefined
  traceId: string | undefined = undefined
  forwardSpan: Span | undefined = undefined
  readonly responseHeaders: Record<string, string> = {}
  readonly startedAt: number = performance.now()
  #log: Logger | undefined = undefined

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    private readonly baseLog: Logger,
    readonly method: string,
    readonly path: string,
    readonly search: string,
  ) {}

  /** Child logger bound to the request id, and trace id when traced (made when first asked for). */
  get log(): Logger {
    if (this.#log) return this.#log
    if (!this.requestId) return this.baseLog
    return (this.#log = this.baseLog.child(this.traceId === undefined ? { reqId: this.requestId } : { reqId: this.requestId, traceId: this.traceId }))
  }

  set log(value: Logger) {
    this.#log = value
  }
}
