/**
 * `snapshots/{id}/devices`: POST rediscovers devices (by `snList` or `ipList`) as a job clients
 * poll; DELETE removes devices (a bare array of serials) from every table of the snapshot.
 */
import { readJson, readJsonObject, sendEmpty, sendJson, type Router } from '../../shared/http/index.js'
import type { InventoryRequest } from '../context.js'
import type { InventoryServices } from '../discovery/index.js'
import { startRediscovery } from '../discovery/rediscover.js'
import { parseSelection, parseSerials } from '../snapshots/device-input.js'
import { removeDevices } from '../snapshots/devices.js'
import { getSnapshot } from '../snapshots/index.js'

export function registerSnapshotDeviceRoutes(router: Router<InventoryRequest>, svc: InventoryServices): void {
  const limit = svc.config.server.bodyLimitBytes

  router.add('POST', 'snapshots/:id/devices', async (ctx, m, req, res) => {
    const s = await getSnapshot(svc.db, m.params.id!)
    const selection = parseSelection(await readJsonObject(req, limit))
    const { jobId, name } = await startRediscovery(svc, s.id, selection, ctx.principal?.username ?? null)
    // version 1 (original and path generations) answered 200; version 2 says what it is: accepted
    sendJson(res, ctx.apiVersion === 1 ? 200 : 202, { success: true, id: s.id, jobId, jobName: name })
  })

  router.add('DELETE', 'snapshots/:id/devices', async (_ctx, m, req, res) => {
    const s = await getSnapshot(svc.db, m.params.id!)
    await removeDevices(svc.db, s.id, parseSerials(await readJson(req, limit)), svc.now)
    sendEmpty(res, 204)
  })
}
