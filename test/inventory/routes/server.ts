/**
 * The real inventory app on port 0, with the internal secret the gateway would send. Until the
 * snapshot routes exist in the wiring, tests may add the table and report routes with their own
 * snapshot resolver (`resolveSnapshot`).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { compileConfig } from '../../../src/shared/config/index.js'
import type { Db } from '../../../src/shared/db/index.js'
import { silentLogger } from '../../../src/shared/log.js'
import { INTERNAL_HEADERS, encodePrincipal } from '../../../src/shared/principal.js'
import { createInventoryApp } from '../../../src/inventory/app.js'

const SECRET = 'test-internal-secret'

interface Teardown {
  teardown(fn: () => unknown): void
}

export interface TestServer {
  url: string
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; text: string; json: unknown }>
}

export async function startInventory(t: Teardown, db: Db, config: Record<string, unknown> = {}, setup?: (app: Awaited<ReturnType<typeof createInventoryApp>>, deps: { db: Db; config: ReturnType<typeof compileConfig> }) => void): Promise<TestServer> {
  const compiled = compileConfig(config)
  const app = await createInventoryApp({ db, config: compiled, log: silentLogger(), internalSecret: SECRET })
  setup?.(app, { db, config: compiled })
  const server = createServer((req, res) => app.handle(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    await app.close()
  })
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const principal = encodePrincipal({ id: 'u1', username: 'alice', scopes: ['read', 'settings', 'write'], isAdmin: true, method: 'apiKey' })
  return {
    url,
    async request(method, path, body, headers = {}) {
      const res = await fetch(`${url}/api/${path}`, {
        method,
        headers: {
          [INTERNAL_HEADERS.secret]: SECRET,
          [INTERNAL_HEADERS.principal]: principal,
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
