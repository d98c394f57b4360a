/**
 * Load and unload as jobs (`snapshotLoad`, `snapshotUnload`) that clients poll in `tables/jobs`.
 * The state check, the `loading` mark and the job row are written under the snapshot's row lock,
 * so two concurrent calls cannot both pass it; the attach or detach then runs as the job. Every
 * call records a job, also one with nothing to do (it is done at once): a client that unloads an
 * unloaded snapshot still finds the job it polls for.
 */
import { randomUUID } from 'node:crypto'
import { Type } from '@sinclair/typebox'
import { bodyValidator, defineFormat } from '../../shared/schema/index.js'
import { isSnapshotId } from '../catalog/index.js'
import { attachSnapshot, detachSnapshot } from '../storage/index.js'
import type { InventoryServices } from '../discovery/runner.js'
import { insertJob, jobFinished, type JobName } from '../discovery/jobs.js'
import { assertHasData, lockedSnapshot } from './lifecycle.js'
import { getSnapshot, updateSnapshot } from './store.js'
import { disabledActions, enabledActions, recordPostDiscoveryJobs } from './post-discovery.js'

export interface LoadJob {
  snapshotId: string
  jobId: string
  /** Runs the attach or detach and records the job's end; rejects when it failed (recorded). */
  run: () => Promise<void>
  /** Ends the job unrun (as error, with the reason) and clears the loading mark. */
  cancel: (reason: string) => Promise<void>
}

/** Checks the snapshot, marks it loading and writes the job row; the returned job has not run yet. */
export async function prepareLoadJob(svc: InventoryServices, id: string, load: boolean, username: string | null): Promise<LoadJob> {
  const jobId = randomUUID()
  const name: JobName = load ? 'snapshotLoad' : 'snapshotUnload'
  const untrack = svc.runner.track(jobId)
  let checked: { change: boolean; settings: Record<string, unknown> }
  try {
    checked = await svc.db.transaction(async (tx) => {
      const s = await lockedSnapshot(tx, id)
      assertHasData(s)
      const now = svc.now()
      const differs = s.loaded !== load
      if (differs) await updateSnapshot(tx, id, { loading: true })
      await insertJob(tx, { id: jobId, name, snapshotId: id, username, now, status: 'running', owner: svc.runner.instance })
      return { change: differs, settings: s.settings }
    })
  } catch (err) {
    untrack()
    throw err
  }
  const { change, settings } = checked
  const run = async () => {
    try {
      if (change) await toggle(svc, id, load, jobId)
      else await jobFinished(svc.db, jobId, svc.now())
      // the post-load jobs clients wait for by name (the 6.x SDK's load() polls for them), of the
      // actions the snapshot's settings leave enabled
      if (load) await recordPostDiscoveryJobs(svc.db, id, enabledActions(disabledActions(settings)), username, svc.now())
    } finally {
      untrack()
    }
  }
  const cancel = async (reason: string) => {
    try {
      if (change) await updateSnapshot(svc.db, id, { loading: false })
      await jobFinished(svc.db, jobId, svc.now(), reason)
    } finally {
      untrack()
    }
  }
  return { snapshotId: id, jobId, run, cancel }
}

async function toggle(svc: InventoryServices, id: string, load: boolean, jobId: string): Promise<void> {
  try {
    if (load) await attachSnapshot(svc.db, id)
    else await detachSnapshot(svc.db, id)
    await updateSnapshot(svc.db, id, { loaded: load, loading: false, ts_change: svc.now() })
  } catch (err) {
    await svc.runner.record(jobId, async () => {
      // the transaction of attach/detach rolled back: the snapshot is as it was
      const s = await getSnapshot(svc.db, id)
      if (s.loading) await updateSnapshot(svc.db, id, { loading: false })
      await jobFinished(svc.db, jobId, svc.now(), `${load ? 'load' : 'unload'} failed`)
    })
    throw err
  }
  await jobFinished(svc.db, jobId, svc.now())
}

/** Path-style load or unload: runs the job and answers when it has ended. */
export async function setLoaded(svc: InventoryServices, id: string, load: boolean, username: string | null = null): Promise<string> {
  const job = await prepareLoadJob(svc, id, load, username)
  await job.run()
  return job.jobId
}

/**
 * Body-style load or unload of several snapshots: every snapshot is checked (and marked) before
 * any job runs, so a refused request starts nothing; the jobs then run in the background, one
 * after the other.
 */
export async function startLoadJobs(svc: InventoryServices, ids: readonly string[], load: boolean, username: string | null): Promise<LoadJob[]> {
  for (const id of ids) assertHasData(await getSnapshot(svc.db, id))
  const jobs: LoadJob[] = []
  try {
    for (const id of ids) jobs.push(await prepareLoadJob(svc, id, load, username))
  } catch (err) {
    // another call changed a snapshot between the check and its job: start none of them
    for (const job of jobs) await job.cancel('not started: another snapshot of the same request was refused')
    throw err
  }
  svc.runner.run(load ? 'snapshotLoad' : 'snapshotUnload', async () => {
    for (const job of jobs) await job.run().catch((err: unknown) => svc.log.error({ err, job: job.jobId, snapshot: job.snapshotId }, 'snapshot load or unload failed'))
  })
  return jobs
}

/** Most snapshots one body-style request may load or unload. */
export const MAX_LOAD_BATCH = 100

const SNAPSHOT_ID = defineFormat('snapshot-id', (v) => (isSnapshotId(v) ? undefined : 'must be a snapshot id (a lower-case UUID)'))

/**
 * The body of `POST snapshots/load|unload`: `[{"jobDetail": <ms>, "id": "<uuid>"}, ...]`, the
 * ids distinct; `jobDetail` is the client's clock when it asked (it filters the jobs it polls
 * with it; netinv reads but does not need it). Every problem is listed (422).
 */
export const LoadRequest = Type.Array(
  Type.Object(
    {
      id: Type.String({ format: SNAPSHOT_ID, description: 'The snapshot to load or unload.' }),
      jobDetail: Type.Optional(
        Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: "The client's clock when it asked, in ms since the epoch.", 'x-message': 'must be a time in ms since the epoch (a non-negative integer)' }),
      ),
    },
    { additionalProperties: false, 'x-additional-message': 'is not allowed; allowed keys are [id, jobDetail]' },
  ),
  {
    minItems: 1,
    maxItems: MAX_LOAD_BATCH,
    description: 'The snapshots to load or unload, each once; each becomes a job.',
    'x-messages': { type: 'must be an array of {"id": "<snapshot id>", "jobDetail": <ms>}', minItems: 'must contain at least 1 item' },
  },
)
const loadRequest = bodyValidator(LoadRequest, { all: true })

/** The ids of a `POST snapshots/load|unload` body, or a 422 naming every problem. */
export function parseLoadRequest(body: unknown): string[] {
  const issues = loadRequest.problems(body)
  const ids: string[] = []
  if (Array.isArray(body)) {
    body.forEach((item: unknown, i) => {
      const id = (item as { id?: unknown } | null)?.id
      if (!isSnapshotId(id)) return
      if (ids.includes(id)) issues.push({ message: `"[${i}].id" repeats snapshot ${id}`, path: `[${i}].id` })
      else ids.push(id)
    })
  }
  loadRequest.assert(issues)
  return ids
}
