/**
 * THE order of the gateway's request pipeline. Cheap rejections first; rate limiting before
 * authentication so that a flood of bad credentials cannot burn CPU on password hashing;
 * identity before scope. The access-log line and metrics are written when the response ends
 * (see access-log.ts), whichever stage answered.
 */
import type { Logger } from 'pino'
import type { RequestContext } from '../context.js'
import { authenticateStage, authorizeStage } from './auth.js'
import { clientIpStage } from './client-ip.js'
import type { StageDeps } from './deps.js'
import { decorateStage, dispatchStage } from './dispatch.js'
import { apiKeyRateLimitStage, rateLimitStage } from './rate-limit.js'
import { requestIdStage } from './request-id.js'
import { routeStage } from './route.js'
import type { Stage } from './runner.js'
import { versionStage } from './version.js'

export function buildStages(deps: StageDeps, log: Logger): Stage<RequestContext>[] {
  return [
    requestIdStage(log), //       1. X-Request-Id in, child logger
    routeStage(), //              2. generation + endpoint (404 / 405 / 400 for path tricks)
    versionStage(deps), //        3. endpoint version, Deprecation/Sunset, 410
    clientIpStage(deps), //       4. client IP (trusted proxies)
    rateLimitStage(deps), //         and its rate limit (429)
    authenticateStage(deps), //   5. principal (401)
    apiKeyRateLimitStage(deps), //   optional per-API-key limit (429)
    authorizeStage(), //          6. scope (401 / 403)
    decorateStage(), //           7. response headers gathered so far
    dispatchStage(deps), //       8. local handler or forward
  ]
}
