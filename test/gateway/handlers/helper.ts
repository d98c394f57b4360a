/**
 * A running gateway with the real authentication service on real PostgreSQL, an injected clock
 * and captured logs, for the behaviour tests of auth/*, users* and api-tokens*.
 */
import { mkdtemp } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Test } from 'tap'
import type { Redis } from 'ioredis'
import { compileConfig } from '../../../src/shared/config/index.js'
import type { Db } from '../../../src/shared/db/index.js'
import { decodeInternal, decodePrincipal, INTERNAL_HEADER } from '../../../src/shared/principal.js'
import { createAuthService, type AuthService } from '../../../src/gateway/auth/index.js'
import { createMemoryLimiter } from '../../../src/gateway/ratelimit/index.js'
import { startGateway as startRealGateway } from '../../../src/gateway/server.js'
import { freshPostgres } from '../../helpers/db.js'
import { memoryLog, SECRET, startUpstream } from '../helpers.js'

export const ADMIN_PASSWORD = 'admin-password-for-tests'

export interface TestGateway {
  url: string
  db: Db
  auth: AuthService
  logs: string[]
  clock: { now: number }
  advance(ms: number): void
  fetch(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>
}

export interface GatewayOptions {
  config?: Record<string, unknown>
  db?: Db
  dataDir?: string
  redis?: Redis
  revocationChannel?: string
  /** Folder of a built web interface to serve outside /api/. */
  webDir?: string
  /** What the upstream answers (by default: the identity the gateway forwarded, as JSON). */
  upstream?: (req: IncomingMessage, res: ServerResponse) => void
  /** The port to listen on (0, any free one, unless a test must name its address beforehand). */
  port?: number
}

export const TEST_CONFIG = {
  app: { accessToken: { expiresIn: 60 }, refreshToken: { expiresIn: 100, reuseGraceSeconds: 5 } },
  rateLimit: { enabled: false, loginPerUsernamePerMinute: 1000 },
}

export async function startGateway(t: Test, options: GatewayOptions = {}): Promise<TestGateway> {
  const db = options.db ?? (await freshPostgres(t)).db
  const { log, lines } = memoryLog('trace')
  const clock = { now: 1_760_000_000_000 } // 2025-10: before the path generation's sunset
  const now = () => clock.now
  const config = compileConfig(options.config ?? TEST_CONFIG)
  const limiter = createMemoryLimiter({ now })
  const auth = await createAuthService({
    db,
    config,
    log,
    dataDir: options.dataDir ?? (await mkdtemp(join(tmpdir(), 'netinv-auth-'))),
    adminPassword: ADMIN_PASSWORD,
    limiter,
    clock: now,
    redis: options.redis,
    revocationChannel: options.revocationChannel,
    print: () => {},
  })
  // The upstream answers with the identity the gateway forwarded.
  const upstream = await startUpstream(t, options.upstream ?? ((req, res) => {
    const text = JSON.stringify({ upstream: true, principal: decodePrincipal(decodeInternal(req.headers[INTERNAL_HEADER])?.principal) })
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(text)
  }))
  const gw = await startRealGateway({
    config,
    log,
    auth,
    limiter,
    inventoryUrl: upstream.url,
    internalSecret: SECRET,
    now,
    port: options.port ?? 0,
    host: '127.0.0.1',
    adminPort: 0,
    adminHost: '127.0.0.1',
    ...(options.webDir ? { webDir: options.webDir } : {}),
  })
  t.teardown(async () => {
    await gw.close(0)
    await auth.close()
  })
  const logs = { get all() { return lines.map((l) => JSON.stringify(l)) } }
  const base = gw.url
  return {
    url: base,
    db,
    auth,
    get logs() {
      return logs.all
    },
    clock,
    advance: (ms) => void (clock.now += ms),
    fetch(path, init = {}) {
      const { json, ...rest } = init
      const headers = new Headers(rest.headers)
      if (json !== undefined) headers.set('content-type', 'application/json')
      return fetch(base + path, { ...rest, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) })
    },
  }
}

export function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`
}

export async function login(gw: TestGateway, username: string, password: string, path = '/api/auth/login') {
  const res = await gw.fetch(path, { method: 'POST', json: { username, password } })
  return { res, body: (await res.json()) as Record<string, unknown> }
}

/** Creates a user through the API as admin. */
export async function createUser(gw: TestGateway, user: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await gw.fetch('/api/users', {
    method: 'POST',
    headers: { authorization: basic('admin', ADMIN_PASSWORD) },
    json: { eulaApproved: true, ...user },
  })
  if (res.status !== 201) throw new Error(`create user: ${res.status} ${await res.text()}`)
  return (await res.json()) as Record<string, unknown>
}
