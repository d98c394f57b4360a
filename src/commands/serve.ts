import { randomBytes } from 'node:crypto'
import { launchGateway } from '../gateway/launch.js'
import { inventoryRegistry } from '../inventory/metrics.js'
import { startInventory } from '../inventory/server.js'
import type { Command } from './index.js'
import { checkPorts } from './ports.js'
import { credentialKey, gatewayPorts, loadRuntime, onShutdown, openRuntimeDb, startRuntimeTracing } from './runtime.js'

export const serveCommand: Command = {
  summary: 'run gateway (on PORT) and inventory (internal, 127.0.0.1) in one process on the embedded defaults',
  async run(_args, io) {
    const rt = loadRuntime('netinv', io.env)
    await checkPorts(gatewayPorts(rt))
    await startRuntimeTracing(rt)
    const db = await openRuntimeDb(rt)
    const internalSecret = rt.env.internalSecret ?? randomBytes(32).toString('base64url')
    // The inventory listens on loopback only, on a free port: the gateway is the only public door.
    const inv = await startInventory({
      credentialKey: credentialKey(rt),
      db,
      config: rt.config,
      log: rt.log,
      internalSecret,
      port: 0,
      host: '127.0.0.1',
    })
    // One process: the gateway's admin /metrics renders the inventory's families too.
    const gw = await launchGateway(rt, { db, inventoryUrl: inv.url, internalSecret, port: rt.env.port, moreMetrics: [inventoryRegistry] })
    const graceMs = rt.config.server.shutdownGraceMs
    // The gateway drains first (its requests in flight still need the inventory), then the
    // inventory, which by then has no connection left, within what is left of the grace.
    onShutdown(rt.log, async () => {
      const until = Date.now() + graceMs
      await gw.stop()
      await inv.close(Math.max(0, until - Date.now()))
      await db.close()
    }, graceMs)
    return -1
  },
}
