/** Stage 1: accept a sane incoming X-Request-Id, else make one; bind the logger to it. */
import { randomInt, randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import { PRODUCT_VERSION } from '../../shared/product.js'
import type { RequestContext } from '../context.js'
import { GatewayRequest } from '../request.js'
import type { Stage } from './runner.js'

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * Ids for requests that come without one: UUID-shaped (8-4-4-4-12 hex digits, version 4 and the
 * RFC 4122 variant), a random head drawn once per process and a counter as the last group.
 * Unique across replicas (74 random bits) and within a process (2^48 ids), without a call into
 * the random generator per request. The counter is kept as two 24-bit halves, both small
 * integers: hex of a number past 2^31 takes the runtime's slow path for doubles.
 */
export function requestIdSource(start = randomInt(2 ** 47)): () => string {
  const head = randomUUID().slice(0, 24)
  let high = Math.floor(start / 2 ** 24) % 2 ** 24
  let low = start % 2 ** 24
  let prefix = head + hex6(high)
  return () => {
    low = (low + 1) & 0xffffff
    if (low === 0) {
      high = (high + 1) & 0xffffff
      prefix = head + hex6(high)
    }
    return prefix + hex6(low)
  }
}

function hex6(n: number): string {
  return n.toString(16).padStart(6, '0')
}

const newRequestId = requestIdSource()

export function requestIdFrom(value: string | string[] | undefined): string {
  return typeof value === 'string' && SANE_ID.test(value) ? value : newRequestId()
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
