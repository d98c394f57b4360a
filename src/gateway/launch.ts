/**
 * Start-up of the gateway shared by `netinv gateway` and `netinv serve`: rate limiter (Redis or
 * in-process), identity module, listeners, config reload, and the matching shutdown.
 */
import type { Db } from '../shared/db/index.js'
import type { Runtime } from '../commands/runtime.js'
import { Redis } from 'ioredis'
import { createAuthService, type AuthService } from './auth/index.js'
import { watchConfig } from './config-watch.js'
import { createMetrics } from './metrics.js'
import { createLimiter, type Limiter } from './ratelimit/index.js'
import { clusterNodes, isClusterUrl } from './redis.js'
import { startGateway, type RunningGateway } from './server.js'

export interface GatewayLaunch {
  db: Db
  inventoryUrl: string
  internalSecret: string
  port: number
  host?: string
}

/**
 * The identity module, with the shared limiter (per-username login limits) and, when Redis is
 * configured, a connection of its own for the revocation broadcast (pub/sub reaches every node
 * of a Cluster, so a standalone connection to one seed node is enough there).
 */
async function buildAuthService(rt: Runtime, db: Db, limiter: Limiter): Promise<{ auth: AuthService; pubsub?: Redis }> {
  const url = rt.env.redisUrl
  const pubsub = url ? (isClusterUrl(url) ? new Redis(clusterNodes(url)[0]!) : new Redis(url)) : undefined
  pubsub?.on('error', () => {}) // reported by the revocation bus and the limiter's own connection
  const auth = await createAuthService({
    db,
    config: rt.config,
    log: rt.log,
    dataDir: rt.env.dataDir,
    jwtPrivateKeyFile: rt.env.jwtPrivateKeyFile,
    adminPassword: rt.env.adminPassword,
    redis: pubsub,
    limiter,
  })
  return pubsub ? { auth, pubsub } : { auth }
}

export async function launchGateway(rt: Runtime, options: GatewayLaunch): Promise<RunningGateway & { stop(): Promise<void> }> {
  const metrics = createMetrics()
  let current = rt.config
  const limits = createLimiter({ redisUrl: rt.env.redisUrl, config: () => current, log: rt.log, metrics })
  const limiter = limits.limiter
  const { auth, pubsub } = await buildAuthService(rt, options.db, limiter)
  const running = await startGateway({
    config: rt.config,
    log: rt.log,
    auth,
    limiter,
    metrics,
    inventoryUrl: options.inventoryUrl,
    internalSecret: options.internalSecret,
    port: options.port,
    host: options.host ?? '0.0.0.0',
    adminPort: rt.env.adminPort ?? rt.config.server.adminPort,
    ...(limits.redisReady ? { redisReady: limits.redisReady } : {}),
  })
  const watch = watchConfig({
    configDir: rt.env.configDir,
    log: rt.log,
    apply: (c) => {
      current = c
      running.gateway.setConfig(c)
    },
  })
  return {
    ...running,
    async stop() {
      watch.stop()
      await running.close()
      await auth.close()
      await limits.close()
      pubsub?.disconnect()
    },
  }
}
