/**
 * The request context that flows through the gateway pipeline (see pipeline/), and the contract
 * between its stages and the gateway's own endpoint handlers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from 'pino'
import type { Method } from '../shared/manifest.js'
import type { Principal } from '../shared/principal.js'
import type { Span } from '../shared/tracing/index.js'
import type { RateDecision } from './ratelimit/types.js'
import type { Route } from './routes/table.js'

/** Address generation of the request (spec, "Address shape"). */
export type Generation = 'header' | 'original' | 'path'

export interface RequestContext {
  readonly req: IncomingMessage
  readonly res: ServerResponse
  /** Set by the request-id stage (the first one), before any other stage runs. */
  requestId: string
  /** Child logger bound to the request id (set by the request-id stage). */
  log: Logger
  /** performance.now() at arrival (ms). */
  readonly startedAt: number
  readonly method: Method | string
  /** Path of the request as the client sent it (no query string). */
  readonly path: string
  /** Query string of the request (without '?'), passed on unchanged when forwarding. */
  readonly search: string

  // Set by the routing stage.
  generation?: Generation
  /** For the path generation: "major.minor" of the version segment. */
  release?: string
  /** The route table's entry: the endpoint and the upstream that answers it. */
  endpoint?: Route
  /** Endpoint path relative to the generation prefix, e.g. "snapshots/123/lock". */
  endpointPath?: string
  params?: Record<string, string>

  // Set by the version stage.
  apiVersion?: number

  // Set by the client-IP stage.
  /** The socket peer's address, normalised (IPv4-mapped IPv6 as IPv4, no zone). */
  peerIp?: string
  clientIp?: string
  /** Rate-limit key of the client (the IP, or its /64 for IPv6). */
  clientKey?: string
  /** Whether the socket peer is a configured trusted proxy (its X-Forwarded-* are believed). */
  peerTrusted?: boolean

  /** A rejection of the route or version stage, answered once the rate limit has counted the request. */
  rejection?: unknown

  // Set by the rate-limit stage.
  rate?: RateDecision

  // Set by the authentication stage (null: public endpoint or no credentials).
  principal?: Principal | null

  /** The request's server span and trace id, when tracing is on (see tracing.ts). */
  span?: Span | undefined
  traceId?: string | undefined
  /** The forwarding's span, ended with the response. */
  forwardSpan?: Span | undefined

  /** Headers every response of this request carries (versioning, rate limit, deprecation). */
  readonly responseHeaders: Record<string, string>
}

/** A gateway-owned endpoint implementation (auth/*, users*, api-tokens*, version). */
export type LocalHandler = (ctx: RequestContext) => Promise<void>

/** Handlers by "<METHOD> <endpoint path pattern>", e.g. "POST auth/login". */
export type LocalHandlers = ReadonlyMap<string, LocalHandler>

export function handlerKey(method: string, endpointPath: string): string {
  return `${method} ${endpointPath}`
}

/** The client's address as the rate limiter keys it (the socket's when no limit stage ran). */
export function clientOf(ctx: RequestContext): string {
  return ctx.clientKey ?? ctx.req.socket.remoteAddress ?? ''
}
