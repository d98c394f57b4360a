/** Stage 1: accept a sane incoming X-Request-Id, else make one; bind the logger to it. */
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import { PRODUCT_VERSION } from '../../shared/product.js'
import type { RequestContext } from '../context.js'
import { GatewayRequest } from '../request.js'
import type { Stage } from './runner.js'

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/

export function requestIdFrom(value: string | string[] | undefined): string {
  return typeof value === 'string' && SANE_ID.test(value) ? value : randomUUID()
}

export function requestIdStage(baseLog: Logger): Stage<RequestContext> {
  return {
    name: 'requestId',
    run(ctx) {
      ctx.requestId = requestIdFrom(ctx.req.headers['x-request-id'])
      // A context built elsewhere (not a GatewayRequest, whose logger binds itself lazily).
      if (!(ctx instanceof GatewayRequest)) ctx.log = baseLog.child({ reqId: ctx.requestId })
      ctx.responseHeaders['x-request-id'] = ctx.requestId
      ctx.responseHeaders['x-product-version'] = PRODUCT_VERSION
    },
  }
}
