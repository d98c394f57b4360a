/**
 * Test fixtures for the gateway: an echo upstream on port 0, an API-key auth double, a gateway on
 * port 0 with injected clock and limiter, and a small HTTP client.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import { compileConfig, type Config } from '../../src/shared/config/index.js'
import { createLogger } from '../../src/shared/log.js'
import { ApiError } from '../../src/shared/errors.js'
import type { Principal } from '../../src/shared/principal.js'
import type { AuthService } from '../../src/gateway/auth/types.js'
import type { LocalHandlers } from '../../src/gateway/context.js'
import { createMemoryLimiter, type Limiter } from '../../src/gateway/ratelimit/index.js'
import { startGateway, type RunningGateway } from '../../src/gateway/server.js'
import type { GatewayMetrics } from '../../src/gateway/metrics.js'
import { publishDocument } from '../../src/inventory/openapi/document.js'
import { TABLES, type TableDef } from '../../src/inventory/catalog/index.js'

export interface Teardown {
  teardown(fn: () => unknown): void
}

export const SECRET = 'test-internal-secret'

/** An auth double: X-API-Token values mapped to principals. */
export function apiKeyAuth(keys: Record<string, Principal>, handlers: LocalHandlers = new Map()): AuthService {
  return {
    async authenticate(ctx) {
      const token = ctx.req.headers['x-api-token']
      if (typeof token !== 'string') return null
      const p = keys[token]
      if (!p) throw new ApiError('API_INVALID_API_TOKEN')
      return p
    },
    handlers,
    async ready() {
      return true
    },
    async close() {},
  }
}

export const READER: Principal = { id: 'u-reader', username: 'reader', scopes: ['read'], isAdmin: false, method: 'apiKey', apiKeyId: 'k-reader' }
export const WRITER: Principal = { id: 'u-writer', username: 'writer', scopes: ['read', 'write'], isAdmin: false, method: 'apiKey', apiKeyId: 'k-writer' }
export const KEYS = { 'reader-key': READER, 'writer-key': WRITER }

export type UpstreamHandler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void

/**
 * An upstream that echoes what it received as JSON, unless given a handler. Unless told
 * otherwise (`publishes: null`), it publishes the document netinv's inventory publishes at
 * GET /openapi.json (of the whole catalog, or of `publishes`): the gateway learns the tables from it.
 */
export async function startUpstream(t: Teardown, handler?: UpstreamHandler, publishes: readonly TableDef[] | null = TABLES): Promise<{ server: Server; url: string; port: number }> {
  const published = publishes === null ? null : publishDocument(publishes)
  const server = createServer((req, res) => {
    if (published !== null && req.url === '/openapi.json' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json', etag: published.etag })
      res.end(published.text)
      return
    }
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      if (handler) return handler(req, res, body)
      const text = JSON.stringify({ method: req.method, url: req.url, headers: req.headers, bodyLength: body.length })
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(text)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as AddressInfo).port
  t.teardown(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  )
  return { server, url: `http://127.0.0.1:${port}`, port }
}

/** A log sink whose lines can be inspected. */
export function memoryLog(level = 'info'): { log: ReturnType<typeof createLogger>; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = []
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>)
      cb()
    },
  })
  return { log: createLogger({ level, stream }), lines }
}

export interface StackOptions {
  config?: Record<string, unknown>
  auth?: AuthService
  limiter?: Limiter
  now?: () => number
  /** netinv's inventory (default: an echo upstream); null: none. */
  upstreamUrl?: string | null
  /** Route files of other upstreams (api.json `upstreams` in `config`). */
  routesDir?: string
  log?: ReturnType<typeof createLogger>
  redisReady?: () => Promise<boolean>
  /** Default 0 here: tests change a dependency and look at /readyz at once. */
  readyReuseMs?: number
  metrics?: GatewayMetrics
  /** Which paths under the built-in table's `*` endpoints exist (GatewayDeps.wildcards). */
  wildcards?: Readonly<Record<string, (rest: string) => boolean>>
  unknownPath?: (endpointPath: string) => string | undefined
  /** Folder of the built web interface (GatewayDeps.webDir). */
  webDir?: string
}

export async function startTestGateway(t: Teardown, options: StackOptions = {}): Promise<RunningGateway & { config: Readonly<Config> }> {
  const config = compileConfig(options.config ?? {})
  const now = options.now ?? Date.now
  const upstreamUrl = options.upstreamUrl === null ? undefined : (options.upstreamUrl ?? (await startUpstream(t)).url)
  const gw = await startGateway({
    config,
    log: options.log ?? createLogger({ level: 'silent' }),
    auth: options.auth ?? apiKeyAuth(KEYS),
    limiter: options.limiter ?? createMemoryLimiter({ now }),
    inventoryUrl: upstreamUrl,
    internalSecret: SECRET,
    ...(options.routesDir ? { routesDir: options.routesDir } : {}),
    now,
    port: 0,
    host: '127.0.0.1',
    adminPort: 0,
    adminHost: '127.0.0.1',
    ...(options.redisReady ? { redisReady: options.redisReady } : {}),
    readyReuseMs: options.readyReuseMs ?? 0,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.wildcards ? { wildcards: options.wildcards } : {}),
    ...(options.unknownPath ? { unknownPath: options.unknownPath } : {}),
    ...(options.webDir ? { webDir: options.webDir } : {}),
  })
  t.teardown(() => gw.close(0))
  return { ...gw, config }
}

export interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  json(): unknown
}

/** Sends a raw request path (no normalisation by a URL parser). */
export function send(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; localAddress?: string } = {},
): Promise<Reply> {
  const url = new URL(base)
  const headers = { ...(options.headers ?? {}) }
  if (options.body !== undefined && headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) {
    headers['content-length'] = String(Buffer.byteLength(options.body))
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers, ...(options.localAddress ? { localAddress: options.localAddress } : {}) },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) as unknown })
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(options.body)
  })
}
