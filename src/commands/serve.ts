import { randomBytes } from 'node:crypto'
import { startInventory } from '../inventory/server.js'
import type { Command } from './index.js'
import { loadRuntime, onShutdown, openRuntimeDb } from './runtime.js'

export const serveCommand: Command = {
  summary: 'run gateway and inventory in one process on the embedded defaults',
  async run() {
    const rt = loadRuntime('netinv')
    const db = await openRuntimeDb(rt)
    const internalSecret = rt.env.internalSecret ?? randomBytes(32).toString('base64url')
    const inv = await startInventory({ db, config: rt.config, log: rt.log, internalSecret, port: rt.env.port, host: '0.0.0.0' })
    onShutdown(rt.log, async () => {
      await inv.close()
      await db.close()
    })
    return -1
  },
}
