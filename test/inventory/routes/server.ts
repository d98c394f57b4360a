/**
 * The real inventory app on port 0, with the internal secret the gateway would send; or, for
 * tables defined in a test, a bare router with only the routes a test registers.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { compileConfig } from '../../../src/shared/config/index.js'
import type { Db } from '../../../src/shared/db/index.js'
import { silentLogger } from '../../../src/shared/log.js'
import { INTERNAL_HEADER, encodeInternal, encodePrincipal } from '../../../src/shared/principal.js'
import { createInventoryApp } from '../../../src/inventory/app.js'
import type { InventoryRequest } from '../../../src/inventory/context.js'
import { Router, sendError } from '../../../src/shared/http/index.js'

const SECRET = 'test-internal-secret'

interface Teardown {
  teardown(fn: () => unknown): void
}

export interface TestServer {
  url: string
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; text: string; json: unknown }>
}

type Handle = (req: IncomingMessage, res: ServerResponse) => void

const PRINCIPAL = encodePrincipal({ id: 'u1', username: 'alice', scopes: ['read', 'settings', 'write'], isAdmin: true, method: 'apiKey' })

/** The internal header of a request the gateway forwards from `generation` (for `request`'s headers). */
export function fromGeneration(generation: 'header' | 'original' | 'path', apiVersion = 1): Record<string, string> {
  return { [INTERNAL_HEADER]: encodeInternal({ secret: SECRET, principal: PRINCIPAL, apiVersion, generation }) }
}

/** The real inventory app (every route of the product). */
export async function startInventory(t: Teardown, db: Db, config: Record<string, unknown> = {}): Promise<TestServer> {
  const app = await createInventoryApp({ db, config: compileConfig(config), log: silentLogger(), internalSecret: SECRET })
  return listen(t, (req, res) => app.handle(req, res), () => app.close())
}

/** Only the routes `register` adds, served under /api/ (for tables defined in a test). */
export async function startRoutes(t: Teardown, db: Db, register: (router: Router<InventoryRequest>, deps: { db: Db; config: ReturnType<typeof compileConfig>; log: ReturnType<typeof silentLogger> }) => void): Promise<TestServer> {
  const deps = { db, config: compileConfig({}), log: silentLogger() }
  const router = new Router<InventoryRequest>()
  register(router, deps)
  return listen(t, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const ctx: InventoryRequest = { deps, log: deps.log, principal: null, apiVersion: 1, generation: 'header', query: url.searchParams }
    void (async () => {
      try {
        const { handler, match } = router.resolve(req.method ?? 'GET', url.pathname.replace(/^\/api\//, ''))
        await handler(ctx, match, req, res)
      } catch (err) {
        sendError(res, err, deps.log)
      }
    })()
  }, async () => {})
}

async function listen(t: Teardown, handle: Handle, close: () => Promise<void>): Promise<TestServer> {
  const server = createServer(handle)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    await close()
  })
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    async request(method, path, body, headers = {}) {
      const res = await fetch(`${url}/api/${path}`, {
        method,
        headers: {
          ...fromGeneration('header'),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
        signal: AbortSignal.timeout(20000),
      })
      const text = await res.text()
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch {
        json = undefined
      }
      return { status: res.status, headers: res.headers, text, json }
    },
  }
}
