import { launchGateway } from '../gateway/launch.js'
import type { Command } from './index.js'
import { checkPorts } from './ports.js'
import { gatewayPorts, loadRuntime, onShutdown, openRuntimeDb, startRuntimeTracing } from './runtime.js'

export const gatewayCommand: Command = {
  summary: 'run the gateway alone, in front of the inventory at INVENTORY_URL and/or the upstreams of api.json',
  async run(_args, io) {
    const rt = loadRuntime('gateway', io.env)
    if (!rt.env.inventoryUrl && Object.keys(rt.config.upstreams).length === 0) {
      throw new Error('nothing to forward to: set INVENTORY_URL (netinv\'s inventory) or name upstreams in api.json')
    }
    await checkPorts(gatewayPorts(rt))
    await startRuntimeTracing(rt)
    const db = await openRuntimeDb(rt)
    const gw = await launchGateway(rt, { db, inventoryUrl: rt.env.inventoryUrl, internalSecret: rt.env.internalSecret, port: rt.env.port })
    onShutdown(rt.log, async () => {
      await gw.stop()
      await db.close()
    }, rt.config.server.shutdownGraceMs)
    return -1
  },
}
