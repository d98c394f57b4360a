/**
 * Tracing (OpenTelemetry), off unless OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set. When off, the SDK is never loaded and the request
 * paths see `tracing()` answer undefined: one comparison per request. When on, `startTracing`
 * loads the SDK (sdk.ts) once for the process; the gateway and the inventory of one `serve`
 * share it.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http'
import type { Span, SpanKind } from '@opentelemetry/api'

export type { Span } from '@opentelemetry/api'

export interface TracingSettings {
  /** Full URL the OTLP/HTTP (JSON) exporter posts spans to, e.g. http://collector:4318/v1/traces. */
  url: string
  serviceName: string
  /** Whether the gateway continues a client's `traceparent` (else every request starts a trace). */
  trustTraceparent: boolean
  /** Share of new traces kept (0..1); a continued trace follows its parent's decision. */
  sampleRatio: number
}

export interface Tracing {
  readonly settings: TracingSettings
  /** A server span, continuing the `traceparent` of `headers` when `trust`, else a new trace. */
  server(name: string, headers: IncomingHttpHeaders, trust: boolean): Span
  /** The first span of a trace of its own (a background job), whatever is active here. */
  root(name: string): Span
  /** A span under `parent` (or under the active span when no parent is given). */
  child(name: string, kind: 'internal' | 'client', parent?: Span): Span
  /** Whether a span is active here (statements outside any request or job are not traced). */
  inSpan(): boolean
  /** Writes `span`'s `traceparent` (and `tracestate`) into `headers`. */
  inject(span: Span, headers: IncomingHttpHeaders | OutgoingHttpHeaders): void
  /** Runs `fn` with `span` active (spans started within, across awaits, are its children). */
  within<T>(span: Span, fn: () => T): T
  /** Exports what is held and stops. */
  shutdown(): Promise<void>
}

export type { SpanKind }

let current: Tracing | undefined

/** The process's tracing, or undefined when it is off. */
export function tracing(): Tracing | undefined {
  return current
}

/** Reads the tracing settings of the environment: undefined (off) unless an OTLP endpoint is set. */
export function tracingSettings(source: NodeJS.ProcessEnv): TracingSettings | undefined {
  const traces = source.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || undefined
  const base = source.OTEL_EXPORTER_OTLP_ENDPOINT || undefined
  if (traces === undefined && base === undefined) return undefined
  const url = traces ?? `${base!.replace(/\/+$/, '')}/v1/traces`
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new Error(`OTEL_EXPORTER_OTLP_${traces === undefined ? '' : 'TRACES_'}ENDPOINT must be a URL (http or https), got "${traces ?? base}"`)
  }
  const ratioText = source.OTEL_TRACES_SAMPLER_ARG || '1'
  const sampleRatio = Number(ratioText)
  if (!Number.isFinite(sampleRatio) || sampleRatio < 0 || sampleRatio > 1) throw new Error(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got "${ratioText}"`)
  const trust = source.NETINV_TRUST_TRACEPARENT || 'false'
  if (trust !== 'true' && trust !== 'false') throw new Error(`NETINV_TRUST_TRACEPARENT must be true or false, got "${trust}"`)
  return { url, serviceName: source.OTEL_SERVICE_NAME || 'netinv', trustTraceparent: trust === 'true', sampleRatio }
}

/** Turns tracing on for the process (loads the SDK) when `settings` are given; idempotent. */
export async function startTracing(settings: TracingSettings | undefined): Promise<Tracing | undefined> {
  if (settings === undefined) return current
  if (current === undefined) {
    const { createTracing } = await import('./sdk.js')
    current ??= createTracing(settings)
  }
  return current
}

/** Exports the spans still held and turns tracing off (at shutdown). */
export async function stopTracing(): Promise<void> {
  const t = current
  current = undefined
  await t?.shutdown()
}
