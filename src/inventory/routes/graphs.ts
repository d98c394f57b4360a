/**
 * `POST graphs`: the path lookups of IP Fabric's diagram clients (unicast, host to default
 * gateway) and their site topology diagrams over one loaded snapshot, answered as the graph they parse (path-lookup/graph.ts).
 * A source the snapshot does not hold is a 422 naming it; the lookup runs under the user's
 * query admission like a table request.
 */
import { invalidInput } from '../../shared/errors.js'
import { readJson, sendJson, type Router } from '../../shared/http/index.js'
import type { InventoryDeps, InventoryRequest } from '../context.js'
import { SourceNotFound, hostToGateway, lookupPath, parseGraphRequest, pathGraph, topologyGraph } from '../path-lookup/index.js'
import type { QueryAdmission } from '../query/index.js'
import { resolveSnapshot } from '../snapshots/index.js'

export function registerGraphRoutes(router: Router<InventoryRequest>, deps: InventoryDeps, admission: QueryAdmission): void {
  router.add('POST', 'graphs', async (ctx, _m, req, res) => {
    const ask = parseGraphRequest(await readJson(req, deps.config.server.bodyLimitBytes))
    const snapshot = await resolveSnapshot(deps.db, ask.snapshot)
    const answer = await admission.run(ctx.principal, async () => {
      try {
        if (ask.kind === 'topology') return topologyGraph(deps.db, snapshot, ask.sites)
        if (ask.kind === 'hostToDefaultGW') {
          const r = await hostToGateway(deps.db, snapshot, ask.src, ask.vrf)
          return pathGraph(r, { protocol: 'icmp', srcPorts: '', dstPorts: '', ttl: 128, flags: [], icmp: { type: 8, code: 0 } }, true)
        }
        const r = await lookupPath(deps.db, { snapshot, src: ask.src, dst: ask.dst, ...(ask.vrf !== undefined ? { vrf: ask.vrf } : {}) })
        return pathGraph(r, ask.packet, r.entry?.how === 'host gateway')
      } catch (err) {
        if (err instanceof SourceNotFound) throw invalidInput([{ message: `"parameters.startingPoint" ${err.message}` }])
        throw err
      }
    })
    sendJson(res, 200, answer)
  })
}
