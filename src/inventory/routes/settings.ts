/** Routes of the global discovery settings. */
import { readJsonObject, sendJson, type Router } from '../../shared/http/index.js'
import type { InventoryRequest } from '../context.js'
import type { InventoryServices } from '../discovery/index.js'
import { getSettings, patchSettings } from '../settings/index.js'

export function registerSettingsRoutes(router: Router<InventoryRequest>, svc: InventoryServices): void {
  router.add('GET', 'settings', async (_ctx, _m, _req, res) => {
    sendJson(res, 200, await getSettings(svc.db))
  })
  router.add('PATCH', 'settings', async (_ctx, _m, req, res) => {
    const body = await readJsonObject(req, svc.config.server.bodyLimitBytes)
    sendJson(res, 200, await patchSettings(svc.db, body, svc.now()))
  })
}
