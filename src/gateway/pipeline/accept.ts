/**
 * Stage 3b: content negotiation. The request's `Accept` must allow one of the media types its
 * endpoint answers in (the route's `produces`: JSON for the built-in table, JSON or CSV for
 * tables, the snapshot file for downloads), else 406, for every endpoint and method, before any
 * handler or upstream runs. Error bodies stay JSON whatever `Accept` says (RFC 9110 allows it).
 * A route file's entry that does not say what it produces is left to its upstream.
 */
import { ApiError } from '../../shared/errors.js'
import { acceptable } from '../../shared/http/index.js'
import type { RequestContext } from '../context.js'
import type { Stage } from './runner.js'

export function acceptStage(): Stage<RequestContext> {
  return {
    name: 'accept',
    run(ctx) {
      const produces = ctx.endpoint!.answersIn
      if (produces === null) return
      const accept = ctx.req.headers.accept
      if (acceptable(accept, produces)) return
      throw new ApiError('API_NOT_ACCEPTABLE', `The Accept header cannot be satisfied: ${ctx.endpoint!.path} answers ${produces.join(' or ')}`)
    },
  }
}
