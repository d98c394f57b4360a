/**
 * The gateway's authentication service: identity store (migrated at start, `admin` on first
 * start), RS256 access tokens, refresh tokens, the three authentication methods with their
 * caches, revocation broadcast, and the gateway's own endpoint handlers.
 */
import type { Cluster, Redis } from 'ioredis'
import type { Logger } from 'pino'
import type { Config } from '../../shared/config/index.js'
import type { Db } from '../../shared/db/index.js'
import { ApiError } from '../../shared/errors.js'
import type { Method } from '../../shared/manifest.js'
import { AuditRecorder, AuditStore, recordOf } from '../audit/index.js'
import { clientOf, type RequestContext } from '../context.js'
import type { Limiter } from '../ratelimit/types.js'
import { createHandlers } from '../handlers/index.js'
import { createIdentityStore, ensureAdmin, migrateIdentity, UsageRecorder, type Clock } from '../identity/index.js'
import { Authenticator } from './authenticate.js'
import { readCredentials } from './credentials.js'
import { HashGate } from './hash-gate.js'
import { AccessTokens } from './jwt.js'
import { loadSigningKey } from './keys.js'
import { DirectoryLogins } from './ldap/logins.js'
import { PasswordChecks } from './passwords.js'
import { createRevocationBus } from './revocation.js'
import { Sessions } from './sessions.js'
import { SsoLogins } from './sso/logins.js'
import { auditStateOf } from '../audit/states.js'
import type { AuthService } from './types.js'
import { UpstreamTokenMinter } from './upstream-tokens.js'

export type { AuthService } from './types.js'
export { REVOCATION_CHANNEL } from './revocation.js'
export { PLAIN_TEXT_ERROR_ENDPOINTS, sendUnauthorizedText } from '../handlers/index.js'

const PRUNE_INTERVAL_MS = 3_600_000

/** A bad credential on a public endpoint counts as none; anything else goes on. */
function ignoreOnPublic(err: unknown, isPublic = true): null {
  if (isPublic && err instanceof ApiError) return null
  throw err
}

export interface AuthServiceOptions {
  db: Db
  config: Readonly<Config>
  log: Logger
  dataDir: string
  jwtPrivateKeyFile?: string | undefined
  /** Public keys of earlier signing keys that still verify (rotation). */
  jwtPreviousPublicKeysDir?: string | undefined
  adminPassword?: string | undefined
  /** Revocation broadcast to other replicas (a duplicate connection subscribes). */
  redis?: Redis | Cluster | undefined
  /** For per-username login limits. */
  limiter: Limiter
  /** Milliseconds since the epoch; tests inject one to drive expiry. */
  clock?: Clock
  /** Pub/sub channel of the revocation broadcast (tests use one of their own). */
  revocationChannel?: string
  /** Where the generated admin password is printed once (default: stderr, never the log). */
  print?: (line: string) => void
  /** How often API-key usage is written (ms). */
  usageFlushMs?: number
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Requests the gateway forwards that change state (snapshots, discovery, settings, reports):
 * everything but reads, and but table queries (POST tables/... reads).
 */
function changesState(ctx: RequestContext): boolean {
  const route = ctx.endpoint
  if (!route || route.target === null || READ_METHODS.has(ctx.method)) return false
  return !route.path.startsWith('tables/')
}

export async function createAuthService(opts: AuthServiceOptions): Promise<AuthService> {
  const clock = opts.clock ?? Date.now
  const { db, config, log } = opts
  await migrateIdentity(db)
  const bus = createRevocationBus({ redis: opts.redis, log, ...(opts.revocationChannel ? { channel: opts.revocationChannel } : {}) })
  const store = createIdentityStore(db, { clock, refresh: config.app.refreshToken, notify: (e) => bus.publish(e) })
  await ensureAdmin(db, store.users, {
    adminPassword: opts.adminPassword,
    print: opts.print ?? ((line) => void process.stderr.write(`${line}\n`)),
  })
  const signingKey = await loadSigningKey({
    file: opts.jwtPrivateKeyFile,
    dataDir: opts.dataDir,
    log,
    previousPublicKeysDir: opts.jwtPreviousPublicKeysDir,
  })
  const ttlMs = () => Math.min(config.auth.cacheTtlMs, bus.ttlCap())
  const tokens = new AccessTokens(
    signingKey,
    { issuer: config.app.jwt.issuer, audience: config.app.jwt.audience, expiresIn: config.app.accessToken.expiresIn },
    clock,
    { max: config.auth.cacheMax, ttlMs },
  )
  const usage = new UsageRecorder(store.apiKeys, clock, log, opts.usageFlushMs)
  const gate = new HashGate(() => config.auth.passwordChecks)
  const passwords = new PasswordChecks({ store, limiter: opts.limiter, config, gate, clock })
  const authenticator = new Authenticator({ store, tokens, usage, passwords, config, clock, ttlMs })
  bus.onEvent((e) => {
    if (e.type === 'user') {
      authenticator.invalidateUser(e.id)
      tokens.invalidateUser(e.id)
    } else authenticator.invalidateApiKey(e.id)
  })
  const directory = new DirectoryLogins({ store, config, log })
  const sso = new SsoLogins({ store, config, log, clock, redis: opts.redis })
  const sessions = new Sessions({ store, tokens, config, passwords, directory, sso, log, clock })
  const prune = setInterval(() => {
    store.refreshTokens
      .prune()
      .then(() => store.providerSessions.prune())
      .catch((err: unknown) => log.warn({ err }, 'pruning refresh tokens failed'))
    pruneAudit().catch((err: unknown) => log.warn({ err }, 'pruning audit events failed'))
  }, PRUNE_INTERVAL_MS)
  prune.unref()
  const auditStore = new AuditStore(db)
  const audit = new AuditRecorder(auditStore, log, clock, { flushMs: config.audit.flushMs })
  const pruneAudit = async () => {
    if (config.audit.retentionDays === 0) return
    const pruned = await auditStore.prune(clock() - config.audit.retentionDays * 86_400_000)
    if (pruned > 0) log.info({ pruned }, 'audit events past their retention removed')
  }
  void pruneAudit().catch((err: unknown) => log.warn({ err }, 'pruning audit events failed'))
  const handlers = createHandlers({ store, sessions, sso, authenticator, tokens, signingKey, usage, config, clock, audit, auditStore })
  const upstreamTokens = new UpstreamTokenMinter(signingKey, config.app.jwt.issuer, clock, config.auth.cacheMax)

  return {
    authenticate(ctx) {
      // A public endpoint (login, refresh) must work even with stale credentials attached.
      const isPublic = ctx.endpoint?.methods[ctx.method as Method] === 'public'
      try {
        const credentials = readCredentials(ctx.req.headers)
        if (!credentials) return null
        const principal = authenticator.principal(credentials, clientOf(ctx), ctx.req.socket)
        return isPublic && principal instanceof Promise ? principal.catch(ignoreOnPublic) : principal
      } catch (err) {
        return ignoreOnPublic(err, isPublic)
      }
    },
    handlers,
    upstreamTokens,
    observe(ctx, status) {
      if (!changesState(ctx)) return
      const fields = {
        action: `${ctx.method} ${ctx.endpoint!.path}`,
        target: ctx.endpointPath ?? null,
        outcome: status < 400 ? ('success' as const) : ('failure' as const),
        reason: status < 400 ? null : `HTTP ${status}`,
      }
      const state = auditStateOf(ctx)
      if (!state) return recordOf(audit, ctx, fields)
      // A settings change: its state read again once it succeeded, off the request path.
      const after = status < 400 ? state.after() : Promise.resolve(null)
      void after.then((read) => recordOf(audit, ctx, { ...fields, before: state.before, after: read }))
    },
    ready: () => db.ping(),
    async close() {
      clearInterval(prune)
      await audit.close()
      await usage.close()
      await bus.close()
    },
  }
}
