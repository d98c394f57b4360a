import { startInventory } from '../inventory/server.js'
import type { Command } from './index.js'
import { checkPorts } from './ports.js'
import { credentialKey, loadRuntime, onShutdown, openRuntimeDb, startRuntimeTracing } from './runtime.js'

export const inventoryCommand: Command = {
  summary: 'run the inventory service alone (INTERNAL_SECRET required)',
  async run(_args, io) {
    const rt = loadRuntime('inventory', io.env)
    if (!rt.env.internalSecret) throw new Error('INTERNAL_SECRET must be set for a standalone inventory')
    await checkPorts([{ setting: 'INVENTORY_PORT', host: rt.env.inventoryHost, port: rt.env.inventoryPort }])
    await startRuntimeTracing(rt)
    const db = await openRuntimeDb(rt)
    const inv = await startInventory({
      credentialKey: credentialKey(rt),
      db,
      config: rt.config,
      log: rt.log,
      internalSecret: rt.env.internalSecret,
      port: rt.env.inventoryPort,
      host: rt.env.inventoryHost,
      adminPort: rt.env.inventoryAdminPort,
      adminHost: rt.env.adminHost,
    })
    onShutdown(rt.log, async () => {
      await inv.close(rt.config.server.shutdownGraceMs)
      await db.close()
    }, rt.config.server.shutdownGraceMs)
    return -1
  },
}
