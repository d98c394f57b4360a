import t from 'tap'
import { buildStages } from '../../../src/gateway/pipeline/stages.js'
import { stageNames } from '../../../src/gateway/pipeline/runner.js'
import { compileConfig } from '../../../src/shared/config/index.js'
import { silentLogger } from '../../../src/shared/log.js'
import { createMetrics } from '../../../src/gateway/metrics.js'
import { createMemoryLimiter } from '../../../src/gateway/ratelimit/index.js'
import { apiKeyAuth } from '../helpers.js'

t.test('the pipeline order: cheap rejections, rate limit before authentication, identity before scope', async (t) => {
  const config = compileConfig({})
  const stages = buildStages(
    {
      config: () => config,
      routes: () => {
        throw new Error('not routed here')
      },
      now: Date.now,
      auth: apiKeyAuth({}),
      limiter: createMemoryLimiter(),
      handlers: new Map(),
      forward: () => {},
      metrics: createMetrics(),
    },
    silentLogger(),
  )
  t.same(stageNames(stages), ['requestId', 'route', 'version', 'accept', 'clientIp', 'rateLimit', 'rejection', 'authenticate', 'apiKeyRateLimit', 'authorize', 'decorate', 'dispatch'])
})
