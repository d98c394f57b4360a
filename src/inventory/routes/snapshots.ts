/** Routes of snapshots: list, discovery, lifecycle (load/unload, clone as jobs), settings, export and import. */
import type { ServerResponse } from 'node:http'
import { ApiError } from '../../shared/errors.js'
import { bodyChunks, readJson, readJsonObject, sendEmpty, sendJson, type Router } from '../../shared/http/index.js'
import type { InventoryRequest } from '../context.js'
import { reportedSnapshotVersion } from '../../shared/product.js'
import { multipartBoundary, multipartFile } from '../../shared/http/multipart.js'
import { startDiscovery, startNetworkDiscovery, planDiscovery, type InventoryServices } from '../discovery/index.js'
import { countCredentials } from '../settings/credential-store.js'
import { getNetworkSettings } from '../settings/network.js'
import { getSettings, mergeSettings, type DiscoverySettings } from '../settings/index.js'
import { updateSnapshot } from '../snapshots/store.js'
import {
  cloneSnapshot,
  deleteSnapshot,
  downloadOfJob,
  exportSnapshot,
  getSnapshot,
  importSnapshot,
  listSnapshots,
  parseLoadRequest,
  patchSnapshot,
  setLoaded,
  setLocked,
  startDownload,
  startLoadJobs,
  toApi,
} from '../snapshots/index.js'
import { isProfileName } from '../simulator/index.js'
import { DISABLED_ACTIONS_KEY, POST_DISCOVERY_ACTIONS, disabledActions, recordPostDiscoveryJobs, reenabled } from '../snapshots/post-discovery.js'
import type { Static } from '@sinclair/typebox'
import { bodyValidator } from '../../shared/schema/index.js'
import { DiscoveryStart, SnapshotPatch, SnapshotSettingsPatch } from './schemas.js'

const patchBody = bodyValidator(SnapshotPatch, { all: true })
const discoveryBody = bodyValidator(DiscoveryStart, { all: true })
const settingsBody = bodyValidator(SnapshotSettingsPatch, { all: true })

async function writeOut(res: ServerResponse, text: string): Promise<void> {
  if (res.destroyed) throw new Error('the client went away')
  if (res.write(text)) return
  await new Promise<void>((resolve, reject) => {
    const done = (err?: Error) => {
      res.off('drain', onDrain)
      res.off('close', onClose)
      if (err) reject(err)
      else resolve()
    }
    const onDrain = () => done()
    const onClose = () => done(new Error('the client went away'))
    res.on('drain', onDrain)
    res.on('close', onClose)
  })
}

export function registerSnapshotRoutes(router: Router<InventoryRequest>, svc: InventoryServices): void {
  const limit = svc.config.server.bodyLimitBytes
  const user = (ctx: InventoryRequest) => ctx.principal?.username ?? null

  // the version of a snapshot this product wrote, as the caller's generation is told it
  const view = (ctx: InventoryRequest) => (stored: string) => reportedSnapshotVersion(stored, ctx.generation, svc.config.versioning.apiVersion)
  router.add('GET', 'snapshots', async (ctx, _m, _req, res) => {
    const versionView = view(ctx)
    sendJson(res, 200, (await listSnapshots(svc.db)).map((s) => toApi(s, versionView)))
  })

  router.add('POST', 'snapshots', async (ctx, _m, req, res) => {
    const body = await readJsonObject(req, limit)
    // the schema's problems and those of the rules after it (which keys a source takes, seeds, credentials) in one answer
    const issues = discoveryBody.problems(body)
    const plan = planDiscovery(body, await getSettings(svc.db), await getNetworkSettings(svc.db), await countCredentials(svc.db), issues)
    discoveryBody.assert(issues)
    if (!plan) throw new Error('a discovery without problems has a plan')
    const { snapshotName, snapshotNote } = body as Static<typeof DiscoveryStart>
    const common = { name: snapshotName ?? null, note: snapshotNote ?? null, username: user(ctx) }
    const { id, jobId } = plan.source === 'network' ? await startNetworkDiscovery(svc, { run: plan.run, ...common }) : await startDiscovery(svc, { settings: plan.settings, ...common })
    sendJson(res, 201, { success: true, id, jobId })
  })

  router.add('POST', 'snapshots/upload', async (ctx, _m, req, res) => {
    // the file as the raw body, or as the file part of a form (the Python SDK's snapshot_upload)
    const boundary = multipartBoundary(req.headers['content-type'])
    const file = boundary === undefined ? bodyChunks(req) : multipartFile(bodyChunks(req), boundary)
    const { id, jobId } = await importSnapshot(svc, file, user(ctx))
    sendJson(res, 201, { success: true, id, jobId })
  })

  router.add('GET', 'snapshots/:id', async (ctx, m, _req, res) => {
    sendJson(res, 200, toApi(await getSnapshot(svc.db, m.params.id!), view(ctx)))
  })

  router.add('PATCH', 'snapshots/:id', async (ctx, m, req, res) => {
    await getSnapshot(svc.db, m.params.id!)
    const body = patchBody.parse(await readJsonObject(req, limit))
    sendJson(res, 200, toApi(await patchSnapshot(svc, m.params.id!, body), view(ctx)))
  })

  router.add('DELETE', 'snapshots/:id', async (_ctx, m, _req, res) => {
    await deleteSnapshot(svc, m.params.id!)
    sendEmpty(res, 204)
  })

  for (const [action, lock] of [['lock', true], ['unlock', false]] as const) {
    router.add('POST', `snapshots/:id/${action}`, async (ctx, m, _req, res) => {
      sendJson(res, 200, toApi(await setLocked(svc, m.params.id!, lock), view(ctx)))
    })
  }
  for (const [action, load] of [['load', true], ['unload', false]] as const) {
    // path style: the job runs, then 204
    router.add('POST', `snapshots/:id/${action}`, async (ctx, m, _req, res) => {
      await setLoaded(svc, m.params.id!, load, user(ctx))
      sendEmpty(res, 204)
    })
    // body style, as the SDKs send it: the jobs are recorded, answered at once, polled in tables/jobs
    router.add('POST', `snapshots/${action}`, async (ctx, _m, req, res) => {
      const ids = parseLoadRequest(await readJson(req, limit))
      const jobs = await startLoadJobs(svc, ids, load, user(ctx))
      sendJson(res, 200, { success: true, jobs: jobs.map((j) => ({ snapshot: j.snapshotId, jobId: j.jobId })) })
    })
  }

  router.add('POST', 'snapshots/:id/clone', async (ctx, m, _req, res) => {
    const clone = await cloneSnapshot(svc, m.params.id!, user(ctx))
    const headers = { location: `/api/snapshots/${clone.id}`, 'x-snapshot-id': clone.id }
    // Version 1 (original and path generations): 204, as their clients test; version 2: a POST
    // that created a resource, 201 with the new snapshot's id (the spec's status table).
    if (ctx.apiVersion === 1) sendEmpty(res, 204, headers)
    else sendJson(res, 201, { success: true, id: clone.id, jobId: clone.jobId }, headers)
  })

  router.add('GET', 'snapshots/:id/settings', async (_ctx, m, _req, res) => {
    const s = await getSnapshot(svc.db, m.params.id!)
    sendJson(res, 200, { ...s.settings, [DISABLED_ACTIONS_KEY]: disabledActions(s.settings), origin: s.origin })
  })

  router.add('PATCH', 'snapshots/:id/settings', async (ctx, m, req, res) => {
    const s = await getSnapshot(svc.db, m.params.id!)
    const { [DISABLED_ACTIONS_KEY]: chosen, ...body } = settingsBody.parse(await readJsonObject(req, limit))
    const actions = chosen === undefined ? disabledActions(s.settings) : POST_DISCOVERY_ACTIONS.filter((a) => chosen.includes(a))
    if (s.locked) throw new ApiError('API_SNAPSHOT_LOCKED', `Snapshot ${s.id} is locked; unlock it before changing its settings`)
    // a body of only the post-discovery actions is allowed whatever the snapshot's origin
    const other = Object.keys(body).length > 0
    if (other && s.origin === 'network') throw new ApiError('API_CONFLICT', `Snapshot ${s.id} is a discovery of the network; its settings record what was discovered and cannot change`)
    const current = s.settings
    const base: DiscoverySettings = {
      profile: isProfileName(current.profile) ? current.profile : 'lab',
      seed: typeof current.seed === 'number' ? current.seed : 1,
      sites: Array.isArray(current.sites) ? (current.sites as string[]) : [],
    }
    const next = { ...s.settings, ...(other ? mergeSettings(base, body) : {}), [DISABLED_ACTIONS_KEY]: actions }
    await updateSnapshot(svc.db, s.id, { settings: next, ts_change: svc.now() })
    if (s.loaded) await recordPostDiscoveryJobs(svc.db, s.id, reenabled(s.settings, actions), user(ctx), svc.now())
    sendJson(res, 200, { ...next, origin: s.origin })
  })

  router.add('GET', 'snapshots/:id/download', async (ctx, m, _req, res) => {
    const download = await startDownload(svc, m.params.id!, user(ctx))
    res.writeHead(200, { ...fileHeaders(download.file), 'x-job-id': download.jobId })
    await download.run((text) => writeOut(res, text))
    res.end()
  })

  router.add('GET', 'jobs/:id/download', async (_ctx, m, _req, res) => {
    const { snapshot, file } = await downloadOfJob(svc, m.params.id!)
    res.writeHead(200, fileHeaders(file))
    await exportSnapshot(svc.db, snapshot, (text) => writeOut(res, text))
    res.end()
  })
}

function fileHeaders(file: string): Record<string, string> {
  return { 'content-type': 'application/x-ndjson; charset=utf-8', 'content-disposition': `attachment; filename="${file}"` }
}
