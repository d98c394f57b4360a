/**
 * A running gateway with the real authentication service on real PostgreSQL, an injected clock
 * and captured logs, for the behaviour tests of auth/*, users* and api-tokens*.
 */
import { createServer, type Server } from 'node:http'
import { randomBytes } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Test } from 'tap'
import type { Redis } from 'ioredis'
import { compileConfig } from '../../../src/shared/config/index.js'
import { createLogger } from '../../../src/shared/log.js'
import type { Db } from '../../../src/shared/db/index.js'
import { ApiError } from '../../../src/shared/errors.js'
import { sendError, sendJson } from '../../../src/shared/http/index.js'
import { matchEndpoint, versionForRelease, type Method } from '../../../src/shared/manifest.js'
import { handlerKey, type RequestContext } from '../../../src/gateway/context.js'
import { createAuthService, PLAIN_TEXT_ERROR_ENDPOINTS, sendUnauthorizedText, type AuthService } from '../../../src/gateway/auth/index.js'
import { toErrorResponse } from '../../../src/shared/errors.js'
import { freshPostgres } from '../../helpers/db.js'
import { memoryLimiter } from '../auth/limiter.js'

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
}

export const TEST_CONFIG = {
  app: { accessToken: { expiresIn: 60 }, refreshToken: { expiresIn: 100, reuseGraceSeconds: 5 } },
  rateLimit: { loginPerUsernamePerMinute: 1000 },
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)))
}

export async function startGateway(t: Test, options: GatewayOptions = {}): Promise<TestGateway> {
  const db = options.db ?? (await freshPostgres(t)).db
  const logs: string[] = []
  const log = createLogger({ level: 'trace', stream: { write: (line: string) => void logs.push(line) } })
  const clock = { now: 1_800_000_000_000 }
  const config = compileConfig(options.config ?? TEST_CONFIG)
  const auth = await createAuthService({
    db,
    config,
    log,
    dataDir: options.dataDir ?? (await mkdtemp(join(tmpdir(), 'netinv-auth-'))),
    adminPassword: ADMIN_PASSWORD,
    limiter: memoryLimiter(() => clock.now),
    clock: () => clock.now,
    redis: options.redis,
    revocationChannel: options.revocationChannel,
    print: () => {},
  })
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://gateway')
      const m = /^\/api\/(?:(v1)\/|v(\d+\.\d+)\/)?(.+)$/.exec(url.pathname)
      const ctx: RequestContext = {
        req,
        res,
        requestId: randomBytes(4).toString('hex'),
        log,
        startedAt: process.hrtime.bigint(),
        method: req.method ?? 'GET',
        path: url.pathname,
        search: url.search.slice(1),
        responseHeaders: {},
      }
      try {
        const match = m ? matchEndpoint(m[3]!) : null
        if (!m || !match) throw new ApiError('API_NOT_FOUND')
        ctx.endpoint = match.endpoint
        ctx.params = match.params
        ctx.generation = m[1] ? 'original' : m[2] ? 'path' : 'header'
        const header = req.headers['x-api-version']
        ctx.apiVersion =
          ctx.generation === 'original' ? 1 : ctx.generation === 'path' ? versionForRelease(match.endpoint, m[2]!) : header ? Number(header) : match.endpoint.defaultVersion
        const access = match.endpoint.methods[ctx.method as Method]
        if (!access) throw new ApiError('API_METHOD_NOT_ALLOWED')
        ctx.principal = await auth.authenticate(ctx)
        if (access !== 'public') {
          if (!ctx.principal) throw new ApiError('API_UNAUTHORIZED')
          if (access !== 'authenticated' && !ctx.principal.scopes.includes(access)) throw new ApiError('API_INSUFFICIENT_RIGHTS')
        }
        const handler = auth.handlers.get(handlerKey(ctx.method, match.endpoint.path))
        if (handler) await handler(ctx)
        else sendJson(res, 200, { upstream: true, principal: ctx.principal })
      } catch (err) {
        const status = toErrorResponse(err).status
        if (ctx.endpoint && status < 500 && PLAIN_TEXT_ERROR_ENDPOINTS.has(handlerKey(ctx.method, ctx.endpoint.path))) sendUnauthorizedText(res, status)
        else sendError(res, err, log)
      }
    })()
  })
  const port = await listen(server)
  t.teardown(async () => {
    await new Promise((resolve) => server.close(resolve))
    await auth.close()
  })
  const base = `http://127.0.0.1:${port}`
  return {
    url: base,
    db,
    auth,
    logs,
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
