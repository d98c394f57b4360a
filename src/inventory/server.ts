/** Runs the inventory service on a port: build the app, then listen (kept apart from the app). */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Logger } from 'pino'
import type { Config } from '../shared/config/index.js'
import type { Db } from '../shared/db/index.js'
import { drainable } from '../shared/http/drain.js'
import { sendJson } from '../shared/http/index.js'
import { METRICS_CONTENT_TYPE, renderWith } from '../shared/metrics/runtime.js'
import { inventoryRegistry } from './metrics.js'
import { migrateInventory } from './migrations/index.js'
import { createInventoryApp, type InventoryApp } from './app.js'

export interface RunningInventory {
  app: InventoryApp
  server: Server
  url: string
  /** The admin listener's (/metrics), when it has one. */
  adminUrl?: string
  /** Drains the listener (src/shared/http/drain.ts; in-flight requests get `graceMs`), then closes the app. */
  close(graceMs: number): Promise<void>
}

export async function startInventory(options: {
  db: Db
  config: Readonly<Config>
  log: Logger
  internalSecret: string
  port: number
  host?: string
  /** Key that seals SNMP credentials at rest. */
  credentialKey?: Buffer
  /** An admin listener (/metrics, /healthz) on this port (0: a free one); none when absent (`serve`: the gateway's renders its metrics). */
  adminPort?: number
  adminHost?: string
}): Promise<RunningInventory> {
  const { db, config, log, internalSecret, credentialKey } = options
  await migrateInventory(db)
  const app = await createInventoryApp({ db, config, log, internalSecret, ...(credentialKey ? { credentialKey } : {}) })
  // Only the gateway calls the inventory, and it bounds its clients' silence itself; node's
  // default limit on receiving a whole request (300 s) would cut a long snapshot upload.
  const server = createServer({ keepAliveTimeout: 65000, requestTimeout: 0, headersTimeout: 60000 }, app.handle)
  const draining = drainable(server)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`
  const admin = options.adminPort === undefined ? undefined : await listenAdmin(options.adminPort, options.adminHost ?? '127.0.0.1')
  log.info({ url, ...(admin ? { adminUrl: admin.url } : {}) }, 'inventory listening')
  return {
    app,
    server,
    url,
    ...(admin ? { adminUrl: admin.url } : {}),
    async close(graceMs) {
      await draining.drain(graceMs)
      await admin?.drain.drain(0)
      await app.close()
    },
  }
}

/** GET /metrics: the inventory's families, then the process's (runtime, database). */
export function inventoryAdminHandler(req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '/').split('?')[0]
  if (path === '/healthz') return sendJson(res, 200, { status: 'ok' })
  if (path === '/metrics' && (req.method === 'GET' || req.method === 'HEAD')) {
    renderWith(inventoryRegistry).then(
      (text) => {
        res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'content-length': Buffer.byteLength(text) })
        res.end(req.method === 'HEAD' ? undefined : text)
      },
      () => sendJson(res, 500, { code: 'API_INTERNAL_ERROR', message: 'Internal Server Error' }),
    )
    return
  }
  sendJson(res, 404, { code: 'API_NOT_FOUND', message: 'Requested Resource Not Found' })
}

async function listenAdmin(port: number, host: string): Promise<{ url: string; drain: ReturnType<typeof drainable> }> {
  const admin = createServer(inventoryAdminHandler)
  const drain = drainable(admin)
  await new Promise<void>((resolve, reject) => {
    admin.once('error', reject)
    admin.listen(port, host, () => resolve())
  })
  const bound = (admin.address() as AddressInfo).port
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`, drain }
}
