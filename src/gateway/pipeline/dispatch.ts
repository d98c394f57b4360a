/**
 * Stages 7 and 8: response decoration (every header gathered so far goes onto the response
 * before anyone writes it) and dispatch: a gateway-owned endpoint runs its local handler,
 * everything else is forwarded to its route's upstream.
 */
import { notFound } from '../../shared/errors.js'
import { handlerKey, type LocalHandlers, type RequestContext } from '../context.js'
import { DONE, type Stage } from './runner.js'

/**
 * What every answer of the gateway's own (handlers, the document, the explorer) says to browsers:
 * take the declared media type as it is, and show it in no frame of another page.
 */
export const LOCAL_ANSWER_HEADERS: Readonly<Record<string, string>> = { 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' }

export function applyResponseHeaders(ctx: RequestContext): void {
  if (ctx.res.headersSent) return
  for (const [name, value] of Object.entries(ctx.responseHeaders)) ctx.res.setHeader(name, value)
}

export function decorateStage(): Stage<RequestContext> {
  return {
    name: 'decorate',
    run(ctx) {
      // A forwarded request's headers go out with the upstream's in one writeHead (proxy.ts),
      // and an error response applies them itself (sendGatewayError): setting them one by one
      // here would only cost time.
      if (ctx.endpoint?.target) return
      if (ctx.endpoint) Object.assign(ctx.responseHeaders, LOCAL_ANSWER_HEADERS)
      applyResponseHeaders(ctx)
    },
  }
}

export function dispatchStage(deps: { handlers: LocalHandlers; forward(ctx: RequestContext): void | Promise<void> }): Stage<RequestContext> {
  return {
    name: 'dispatch',
    // Not async: forwarding finishes the request synchronously (no promise, no microtask), unless
    // a token must be minted first (`jwt` identity, once per caller and token lifetime).
    run(ctx) {
      const endpoint = ctx.endpoint!
      if (endpoint.target) {
        const sent = deps.forward(ctx)
        return sent === undefined ? DONE : sent.then(() => DONE)
      }
      const method = ctx.method === 'HEAD' ? 'GET' : ctx.method
      const handler = deps.handlers.get(handlerKey(method, endpoint.path))
      if (!handler) throw notFound(`${endpoint.path} is not available on this gateway`)
      return handler(ctx).then(() => DONE)
    },
  }
}
