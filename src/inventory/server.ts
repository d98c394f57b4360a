/** Runs the inventory service on a port: build the app, then listen (kept apart from the app). */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Logger } from 'pino'
import type { Config } from '../shared/config/index.js'
import type { Db } from '../shared/db/index.js'
import { drainable } from '../shared/http/drain.js'
import { migrateInventory } from './migrations/index.js'
import { createInventoryApp, type InventoryApp } from './app.js'

export interface RunningInventory {
  app: InventoryApp
  server: Server
  url: string
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
  log.info({ url }, 'inventory listening')
  return {
    app,
    server,
    url,
    async close(graceMs) {
      await draining.drain(graceMs)
      await app.close()
    },
  }
}
