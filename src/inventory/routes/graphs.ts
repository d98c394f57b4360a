/**
 * `POST graphs`: the path lookups of IP Fabric's diagram clients (unicast, host to default
 * gateway) and their site topology diagrams over one loaded snapshot, answered as the graph they parse (path-lookup/graph.ts).
 * `graphs/svg` and `graphs/png` take the same body and answer the drawing of that graph
 * (path-lookup/draw.ts). A source the snapshot does not hold is a 422 naming it; the lookup runs
 * under the user's query admission like a table request.
 */
import type { IncomingMessage } from 'node:http'
import { invalidInput } from '../../shared/errors.js'
import { readJson, sendJson, type Router } from '../../shared/http/index.js'
import type { InventoryDeps, InventoryRequest } from '../context.js'
import { SourceNotFound, drawGraph, hostToGateway, lookupPath, parseGraphRequest, pathGraph, svgToPng, topologyGraph, type GraphAsk } from '../path-lookup/index.js'
import type { QueryAdmission } from '../query/index.js'
import { resolveSnapshot } from '../snapshots/index.js'

/** What a drawing is titled with: the question it answers. */
function titleOf(ask: GraphAsk): string {
  if (ask.kind === 'topology') return `netinv topology of ${ask.sites === null ? 'every site' : ask.sites.join(', ')}`
  if (ask.kind === 'hostToDefaultGW') return `netinv path from ${ask.src} to its default gateway`
  return `netinv path from ${ask.src} to ${ask.dst}${ask.vrf === undefined ? '' : ` in VRF ${ask.vrf}`}`
}

export function registerGraphRoutes(router: Router<InventoryRequest>, deps: InventoryDeps, admission: QueryAdmission): void {
  const graphOf = async (ctx: InventoryRequest, req: IncomingMessage) => {
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
    return { ask, answer }
  }
  router.add('POST', 'graphs', async (ctx, _m, req, res) => {
    sendJson(res, 200, (await graphOf(ctx, req)).answer)
  })
  router.add('POST', 'graphs/svg', async (ctx, _m, req, res) => {
    const { ask, answer } = await graphOf(ctx, req)
    const svg = Buffer.from(drawGraph(answer, titleOf(ask)))
    res.writeHead(200, { 'content-type': 'image/svg+xml; charset=utf-8', 'content-length': svg.length })
    res.end(svg)
  })
  router.add('POST', 'graphs/png', async (ctx, _m, req, res) => {
    const { ask, answer } = await graphOf(ctx, req)
    const png = await svgToPng(drawGraph(answer, titleOf(ask)))
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length })
    res.end(png)
  })
}
