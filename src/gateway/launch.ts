/**
 * Start-up of the gateway shared by `netinv gateway` and `netinv serve`: rate limiter (Redis or
 * in-process), identity module, listeners, config reload, and the matching shutdown.
 */
import { join } from 'node:path'
import type { Db } from '../shared/db/index.js'
import type { Runtime } from '../commands/runtime.js'
import { createAuthService } from './auth/index.js'
import type { AuthService } from './auth/types.js'
import type { RedisClient } from './redis.js'
import { watchConfig } from './config-watch.js'
import { createMetrics } from './metrics.js'
import { createLimiter, type Limiter } from './ratelimit/index.js'
import { startGateway, type RunningGateway } from './server.js'

export interface GatewayLaunch {
  db: Db
  /** netinv's inventory (the upstream "inventory"); absent: only api.json `upstreams`. */
  inventoryUrl?: string | undefined
  internalSecret?: string | undefined
  port: number
  host?: string
  /** More families for the admin /metrics (`serve`: the inventory's). */
  moreMetrics?: ReadonlyArray<{ metrics(): Promise<string> }>
}

/**
 * ── IDENTITY WIRING ──────────────────────────────────────────────────────────────────────
 * The identity module (src/gateway/auth/index.ts, `createAuthService(...)`) is constructed
 * here, with the shared limiter for per-username login limits and the limiter's Redis connection
 * for the revocation broadcast (the service subscribes on a duplicate of it).
 */
async function buildAuthService(rt: Runtime, db: Db, limiter: Limiter, redis: RedisClient | undefined): Promise<AuthService> {
  return createAuthService({
    db,
    config: rt.config,
    log: rt.log,
    dataDir: rt.env.dataDir,
    jwtPrivateKeyFile: rt.env.jwtPrivateKeyFile,
    jwtPreviousPublicKeysDir: rt.env.jwtPreviousPublicKeysDir,
    adminPassword: rt.env.adminPassword,
    redis,
    limiter,
  })
}

export async function launchGateway(rt: Runtime, options: GatewayLaunch): Promise<RunningGateway & { stop(): Promise<void> }> {
  const metrics = createMetrics()
  let current = rt.config
  const limits = createLimiter({ redisUrl: rt.env.redisUrl, config: () => current, log: rt.log, metrics })
  const limiter = limits.limiter
  const auth = await buildAuthService(rt, options.db, limiter, limits.redis)
  const running = await startGateway({
    config: rt.config,
    log: rt.log,
    auth,
    limiter,
    metrics,
    inventoryUrl: options.inventoryUrl,
    internalSecret: options.internalSecret,
    routesDir: join(rt.env.configDir, 'routes'),
    webDir: rt.env.webDir,
    port: options.port,
    host: options.host ?? rt.env.host,
    ...(options.moreMetrics ? { moreMetrics: options.moreMetrics } : {}),
    adminPort: rt.env.adminPort ?? rt.config.server.adminPort,
    adminHost: rt.env.adminHost,
    ...(limits.redisReady ? { redisReady: limits.redisReady } : {}),
  })
  const watch = watchConfig({
    configDir: rt.env.configDir,
    log: rt.log,
    // The new route table is compiled first: a configuration it refuses is not applied at all.
    apply: (c) => {
      running.gateway.setConfig(c)
      current = c
    },
  })
  return {
    ...running,
    async stop() {
      watch.stop()
      await running.close()
      await auth.close()
      await limits.close()
    },
  }
}
