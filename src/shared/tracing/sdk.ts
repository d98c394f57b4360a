/**
 * The OpenTelemetry SDK, loaded only when tracing is on (see index.ts): spans batched and posted
 * by OTLP/HTTP (JSON) to the configured URL, the context carried across awaits by
 * AsyncLocalStorage, W3C trace context on the wire.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http'
import { ROOT_CONTEXT, SpanKind, context, propagation, trace, type Span } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-base'
import { RELEASE_VERSION } from '../product.js'
import type { Tracing, TracingSettings } from './index.js'

/** How long finished spans wait before they are posted together. */
const EXPORT_DELAY_MS = 1000

export function createTracing(settings: TracingSettings): Tracing {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  const propagator = new W3CTraceContextPropagator()
  propagation.setGlobalPropagator(propagator)
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': RELEASE_VERSION }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.sampleRatio) }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: settings.url }), { scheduledDelayMillis: EXPORT_DELAY_MS })],
  })
  trace.setGlobalTracerProvider(provider)
  const tracer = provider.getTracer('netinv', RELEASE_VERSION)
  return {
    settings,
    server(name, headers, trust) {
      const parent = trust ? propagation.extract(ROOT_CONTEXT, headers) : ROOT_CONTEXT
      return tracer.startSpan(name, { kind: SpanKind.SERVER }, parent)
    },
    root(name) {
      return tracer.startSpan(name, { kind: SpanKind.INTERNAL, root: true }, ROOT_CONTEXT)
    },
    child(name, kind, parent?: Span) {
      const ctx = parent === undefined ? context.active() : trace.setSpan(ROOT_CONTEXT, parent)
      return tracer.startSpan(name, { kind: kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL }, ctx)
    },
    inSpan() {
      return trace.getSpan(context.active()) !== undefined
    },
    inject(span, headers: IncomingHttpHeaders | OutgoingHttpHeaders) {
      propagation.inject(trace.setSpan(ROOT_CONTEXT, span), headers)
    },
    within(span, fn) {
      return context.with(trace.setSpan(context.active(), span), fn)
    },
    async shutdown() {
      await provider.shutdown()
    },
  }
}
