/**
 * THE order of the gateway's request pipeline. Cheap checks first (route, version, Accept), but
 * their rejections (400, 404, 405, 410, 406) are answered only after the per-IP rate limit has
 * counted the request, so that a flood of bad requests is limited like any other; rate limiting
 * before authentication so that a flood of bad credentials cannot burn CPU on password hashing;
 * identity before scope. The access-log line and metrics are written when the response ends
 * (see access-log.ts), whichever stage answered.
 */
import type { Logger } from 'pino'
import type { RequestContext } from '../context.js'
import { acceptStage } from './accept.js'
import { authenticateStage, authorizeStage } from './auth.js'
import { clientIpStage } from './client-ip.js'
import type { StageDeps } from './deps.js'
import { decorateStage, dispatchStage } from './dispatch.js'
import { apiKeyRateLimitStage, rateLimitStage } from './rate-limit.js'
import { requestIdStage } from './request-id.js'
import { routeStage } from './route.js'
import { tagged, type Stage } from './runner.js'
import { versionStage } from './version.js'
import { tracedStage } from '../tracing.js'

/**
 * A check whose rejection is kept on the context (see `answerRejection`); it does not run once an
 * earlier check has rejected the request.
 */
function deferred(stage: Stage<RequestContext>): Stage<RequestContext> {
  const keep = (ctx: RequestContext, err: unknown): void => {
    ctx.rejection = tagged(err, stage) ?? new Error(`stage ${stage.name} threw nothing`)
  }
  return {
    name: stage.name,
    run(ctx) {
      if (ctx.rejection !== undefined) return
      let result: ReturnType<typeof stage.run>
      try {
        result = stage.run(ctx)
      } catch (err) {
        keep(ctx, err)
        return
      }
      if (result instanceof Promise) return result.then(undefined, (err: unknown) => keep(ctx, err))
      return result
    },
  }
}

/** Answers the rejection of a deferred check, once the request has been counted. */
const answerRejection: Stage<RequestContext> = {
  name: 'rejection',
  run(ctx) {
    if (ctx.rejection !== undefined) throw ctx.rejection
  },
}

export function buildStages(deps: StageDeps, log: Logger): Stage<RequestContext>[] {
  return [
    requestIdStage(log), //                1. X-Request-Id in, child logger
    deferred(routeStage(deps)), //             2. generation + endpoint (404 / 405 / 400 for path tricks)
    deferred(versionStage(deps)), //       3. endpoint version, Deprecation/Sunset, 410
    deferred(acceptStage()), //               and what Accept allows (406)
    clientIpStage(deps), //                4. client IP (trusted proxies)
    tracedStage(rateLimitStage(deps)), //     and its rate limit (429), bad requests counted too
    answerRejection, //                       then the rejection of 2, 3 or 3b, if any
    tracedStage(authenticateStage(deps)), //            5. principal (401)
    apiKeyRateLimitStage(deps), //   optional per-API-key limit (429)
    authorizeStage(), //          6. scope (401 / 403)
    decorateStage(), //           7. response headers gathered so far
    dispatchStage(deps), //       8. local handler or forward
  ]
}
