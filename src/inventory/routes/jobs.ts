/** Routes of one background job: its progress, and stopping a discovery. */
import { ApiError } from '../../shared/errors.js'
import { sendJson, type Router } from '../../shared/http/index.js'
import type { InventoryRequest } from '../context.js'
import { StopRequested, getJob, jobToApi, type InventoryServices } from '../discovery/index.js'

/** How long a stop request waits for the job to record its end before answering. */
const STOP_WAIT_MS = 10_000

export function registerJobRoutes(router: Router<InventoryRequest>, svc: InventoryServices): void {
  router.add('GET', 'jobs/:id', async (_ctx, m, _req, res) => {
    sendJson(res, 200, jobToApi(await getJob(svc.db, m.params.id!)))
  })

  router.add('POST', 'jobs/:id/stop', async (ctx, m, _req, res) => {
    const job = await getJob(svc.db, m.params.id!)
    if (job.status === 'done' || job.status === 'error') throw new ApiError('API_CONFLICT', `Job ${job.id} has already finished (${job.status})`)
    if (job.name !== 'discoveryNew') throw new ApiError('API_CONFLICT', `Job ${job.id} is a ${job.name} job; only a discovery (discoveryNew) can be stopped`)
    const by = ctx.principal?.username ?? null
    // the row reaches the replica that runs the job; this replica aborts its own at once
    await svc.db.query('UPDATE inventory.jobs SET stop_requested_by = $2, stop_requested_at = $3 WHERE id = $1', [job.id, by, svc.now()])
    svc.runner.stop(job.id, new StopRequested(by))
    const deadline = Date.now() + STOP_WAIT_MS
    let current = await getJob(svc.db, job.id)
    while ((current.status === 'running' || current.status === 'scheduled') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      current = await getJob(svc.db, job.id)
    }
    sendJson(res, current.status === 'error' || current.status === 'done' ? 200 : 202, jobToApi(current))
  })
}
