/** Route of one background job with its progress. */
import { sendJson, type Router } from '../../shared/http/index.js'
import type { InventoryRequest } from '../context.js'
import { getJob, jobToApi, type InventoryServices } from '../discovery/index.js'

export function registerJobRoutes(router: Router<InventoryRequest>, svc: InventoryServices): void {
  router.add('GET', 'jobs/:id', async (_ctx, m, _req, res) => {
    sendJson(res, 200, jobToApi(await getJob(svc.db, m.params.id!)))
  })
}
