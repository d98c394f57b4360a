/** Routes of one background job: its progress, and stopping a discovery or a rediscovery of devices. */
import { ApiError } from '../../shared/errors.js'
import { sendJson, type Router } from '../../shared/http/index.js'
import type { InventoryRequest } from '../context.js'
import { STOPPABLE_JOBS, StopRequested, getJob, jobToApi, type InventoryServices } from '../discovery/index.js'

/** How long a stop request waits for the job to record its end before answering. */
const STOP_WAIT_MS = 10_000

export function registerJobRoutes(router: Router<InventoryRequest>, svc: InventoryServices): void {
  router.add('GET', 'jobs/:id', async (_ctx, m, _req, res) => {
    sendJson(res, 200, jobToApi(await getJob(svc.db, m.params.id!)))
  })

  router.add('POST', 'jobs/:id/stop', async (ctx, m, _req, res) => {
    const by = ctx.principal?.username ?? null
    // A job this replica runs (only stoppable jobs run under their id) is aborted before anything
    // else: on the embedded database the job's own transaction holds the database until it ends,
    // and the abort must reach it before its commit.
    const here = svc.runner.stop(m.params.id!, new StopRequested(by))
    const job = await getJob(svc.db, m.params.id!)
    if (!here && (job.status === 'done' || job.status === 'error')) throw new ApiError('API_CONFLICT', `Job ${job.id} has already finished (${job.status})`)
    if (!STOPPABLE_JOBS.includes(job.name)) throw new ApiError('API_CONFLICT', `Job ${job.id} is a ${job.name} job; only a discovery (${STOPPABLE_JOBS.join(', ')}) can be stopped`)
    // the row reaches the replica that runs the job
    await svc.db.query('UPDATE inventory.jobs SET stop_requested_by = $2, stop_requested_at = $3 WHERE id = $1', [job.id, by, svc.now()])
    const deadline = Date.now() + STOP_WAIT_MS
    let current = await getJob(svc.db, job.id)
    while ((current.status === 'running' || current.status === 'scheduled') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      current = await getJob(svc.db, job.id)
    }
    sendJson(res, current.status === 'error' || current.status === 'done' ? 200 : 202, jobToApi(current))
  })
}
