import { launchGateway } from '../gateway/launch.js'
import type { Command } from './index.js'
import { loadRuntime, onShutdown, openRuntimeDb } from './runtime.js'

export const gatewayCommand: Command = {
  summary: 'run the gateway alone (INVENTORY_URL and INTERNAL_SECRET required)',
  async run() {
    const rt = loadRuntime('gateway')
    if (!rt.env.inventoryUrl) throw new Error('INVENTORY_URL must be set for a standalone gateway')
    if (!rt.env.internalSecret) throw new Error('INTERNAL_SECRET must be set for a standalone gateway')
    const db = await openRuntimeDb(rt)
    const gw = await launchGateway(rt, { db, inventoryUrl: rt.env.inventoryUrl, internalSecret: rt.env.internalSecret, port: rt.env.port })
    onShutdown(rt.log, async () => {
      await gw.stop()
      await db.close()
    }, rt.config.server.shutdownGraceMs)
    return -1
  },
}
