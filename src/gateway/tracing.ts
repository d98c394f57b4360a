/**
 * The gateway's spans, when tracing is on (shared/tracing): a server span per API request, a
 * child span for the stages worth seeing (authentication) and one for the forwarding, whose
 * `traceparent` goes to the upstream. With tracing off none of this runs.
 */
import type { IncomingHttpHeaders } from 'node:http'
import type { RequestContext } from './context.js'
import type { Stage } from './pipeline/runner.js'
import type { Tracing } from '../shared/tracing/index.js'
import { tracing } from '../shared/tracing/index.js'

/** Opens the request's server span (continuing the client's trace only when trusted). */
export function openRequestSpan(t: Tracing, ctx: RequestContext): void {
  const span = t.server(ctx.method, ctx.req.headers, t.settings.trustTraceparent)
  span.setAttribute('http.request.method', ctx.method)
  span.setAttribute('url.path', ctx.path)
  ctx.span = span
  ctx.traceId = span.spanContext().traceId
}

/** Ends the request's spans once its response is over (`status` 499: the client went away). */
export function closeRequestSpan(ctx: RequestContext, status: number): void {
  const span = ctx.span
  if (span === undefined) return
  ctx.span = undefined
  const route = ctx.endpoint?.path
  if (route !== undefined) {
    span.updateName(`${ctx.method} ${route}`)
    span.setAttribute('http.route', route)
  }
  span.setAttribute('netinv.upstream', ctx.endpoint?.upstream ?? 'gateway')
  if (ctx.apiVersion !== undefined) span.setAttribute('netinv.endpoint_version', ctx.apiVersion)
  span.setAttribute('http.response.status_code', status)
  if (status >= 500) span.setStatus({ code: 2 })
  const forward = ctx.forwardSpan
  if (forward !== undefined) {
    ctx.forwardSpan = undefined
    forward.setAttribute('http.response.status_code', status)
    if (status >= 500) forward.setStatus({ code: 2 })
    forward.end()
  }
  span.end()
}

/** Opens the forwarding's client span and writes its `traceparent` into the upstream's headers. */
export function openForwardSpan(ctx: RequestContext, headers: IncomingHttpHeaders, upstream: string): void {
  const t = tracing()
  if (t === undefined || ctx.span === undefined) return
  const span = t.child(`forward ${upstream}`, 'client', ctx.span)
  span.setAttribute('netinv.upstream', upstream)
  span.setAttribute('http.request.method', ctx.method)
  t.inject(span, headers)
  ctx.forwardSpan = span
}

/** The stage, in a span of its own under the request's when the request is traced. */
export function tracedStage(stage: Stage<RequestContext>): Stage<RequestContext> {
  return {
    name: stage.name,
    run(ctx) {
      const t = tracing()
      if (t === undefined || ctx.span === undefined) return stage.run(ctx)
      const span = t.child(`gateway ${stage.name}`, 'internal', ctx.span)
      const rejected = (err: unknown): never => {
        span.setAttribute('netinv.rejected', true)
        span.end()
        throw err
      }
      let result: ReturnType<typeof stage.run>
      try {
        result = t.within(span, () => stage.run(ctx))
      } catch (err) {
        return rejected(err)
      }
      if (result instanceof Promise) {
        return result.then((r) => {
          span.end()
          return r
        }, rejected)
      }
      span.end()
      return result
    },
  }
}
