/** Routes of snapshots: list, discovery, lifecycle, settings, export and import. */
import type { ServerResponse } from 'node:http'
import { ApiError, invalidInput, type ValidationIssue } from '../../shared/errors.js'
import { readJsonObject, sendEmpty, sendJson, type Router } from '../../shared/http/index.js'
import type { InventoryRequest } from '../context.js'
import { startDiscovery, startNetworkDiscovery, planDiscovery, type DiscoveryPlan, type InventoryServices } from '../discovery/index.js'
import { countCredentials } from '../settings/credential-store.js'
import { getNetworkSettings } from '../settings/network.js'
import { getSettings, mergeSettings, type DiscoverySettings } from '../settings/index.js'
import { updateSnapshot } from '../snapshots/store.js'
import {
  cloneSnapshot,
  deleteSnapshot,
  exportSnapshot,
  getSnapshot,
  importSnapshot,
  listSnapshots,
  patchSnapshot,
  setLoaded,
  setLocked,
  toApi,
} from '../snapshots/index.js'
import { isProfileName } from '../simulator/index.js'
import { bodyValidator } from '../../shared/schema/index.js'
import { SnapshotPatch, TEXT_LIMITS } from './schemas.js'

const patchBody = bodyValidator(SnapshotPatch, { all: true })

/** Validates optional text fields (string or null, bounded); collects issues. */
function textFields(body: Record<string, unknown>, keys: Record<string, keyof typeof TEXT_LIMITS>, issues: ValidationIssue[]): Record<string, string | null> {
  const out: Record<string, string | null> = {}
  for (const [key, kind] of Object.entries(keys)) {
    if (!(key in body)) continue
    const v = body[key]
    if (v === null || (typeof v === 'string' && v.length <= TEXT_LIMITS[kind])) out[kind] = v
    else issues.push({ message: `"${key}" must be a string of at most ${TEXT_LIMITS[kind]} characters, or null`, path: key })
  }
  return out
}


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

  router.add('GET', 'snapshots', async (_ctx, _m, _req, res) => {
    sendJson(res, 200, (await listSnapshots(svc.db)).map(toApi))
  })

  router.add('POST', 'snapshots', async (ctx, _m, req, res) => {
    const body = await readJsonObject(req, limit)
    const issues: ValidationIssue[] = []
    const text = textFields(body, { snapshotName: 'name', snapshotNote: 'note' }, issues)
    let plan: DiscoveryPlan | undefined
    try {
      plan = planDiscovery(body, await getSettings(svc.db), await getNetworkSettings(svc.db), await countCredentials(svc.db))
    } catch (err) {
      if (!(err instanceof ApiError) || !err.errors) throw err
      issues.push(...err.errors)
    }
    if (issues.length > 0 || !plan) throw invalidInput(issues)
    const common = { name: text.name ?? null, note: text.note ?? null, username: user(ctx) }
    const { id, jobId } = plan.source === 'network' ? await startNetworkDiscovery(svc, { run: plan.run, ...common }) : await startDiscovery(svc, { settings: plan.settings, ...common })
    sendJson(res, 201, { success: true, id, jobId })
  })

  router.add('POST', 'snapshots/upload', async (ctx, _m, req, res) => {
    const { id, jobId } = await importSnapshot(svc, req as AsyncIterable<Buffer>, user(ctx))
    sendJson(res, 201, { success: true, id, jobId })
  })

  router.add('GET', 'snapshots/:id', async (_ctx, m, _req, res) => {
    sendJson(res, 200, toApi(await getSnapshot(svc.db, m.params.id!)))
  })

  router.add('PATCH', 'snapshots/:id', async (_ctx, m, req, res) => {
    await getSnapshot(svc.db, m.params.id!)
    const body = patchBody.parse(await readJsonObject(req, limit))
    sendJson(res, 200, toApi(await patchSnapshot(svc, m.params.id!, body)))
  })

  router.add('DELETE', 'snapshots/:id', async (_ctx, m, _req, res) => {
    await deleteSnapshot(svc, m.params.id!)
    sendEmpty(res, 204)
  })

  for (const [action, lock] of [['lock', true], ['unlock', false]] as const) {
    router.add('POST', `snapshots/:id/${action}`, async (_ctx, m, _req, res) => {
      sendJson(res, 200, toApi(await setLocked(svc, m.params.id!, lock)))
    })
  }
  for (const [action, load] of [['load', true], ['unload', false]] as const) {
    router.add('POST', `snapshots/:id/${action}`, async (_ctx, m, _req, res) => {
      await setLoaded(svc, m.params.id!, load)
      sendEmpty(res, 204)
    })
  }

  router.add('POST', 'snapshots/:id/clone', async (ctx, m, _req, res) => {
    const cloneId = await cloneSnapshot(svc, m.params.id!, user(ctx))
    sendEmpty(res, 204, { location: `/api/snapshots/${cloneId}`, 'x-snapshot-id': cloneId })
  })

  router.add('GET', 'snapshots/:id/settings', async (_ctx, m, _req, res) => {
    const s = await getSnapshot(svc.db, m.params.id!)
    sendJson(res, 200, { ...s.settings, origin: s.origin })
  })

  router.add('PATCH', 'snapshots/:id/settings', async (_ctx, m, req, res) => {
    const s = await getSnapshot(svc.db, m.params.id!)
    const body = await readJsonObject(req, limit)
    if (s.locked) throw new ApiError('API_SNAPSHOT_LOCKED', `Snapshot ${s.id} is locked; unlock it before changing its settings`)
    if (s.origin === 'network') throw new ApiError('API_CONFLICT', `Snapshot ${s.id} is a discovery of the network; its settings record what was discovered and cannot change`)
    const current = s.settings
    const base: DiscoverySettings = {
      profile: isProfileName(current.profile) ? current.profile : 'lab',
      seed: typeof current.seed === 'number' ? current.seed : 1,
      sites: Array.isArray(current.sites) ? (current.sites as string[]) : [],
    }
    const next = { ...s.settings, ...mergeSettings(base, body) }
    await updateSnapshot(svc.db, s.id, { settings: next, ts_change: svc.now() })
    sendJson(res, 200, { ...next, origin: s.origin })
  })

  router.add('GET', 'snapshots/:id/download', async (_ctx, m, _req, res) => {
    const s = await getSnapshot(svc.db, m.params.id!)
    if (s.status !== 'done') throw new ApiError('API_SNAPSHOT_NOT_LOADED', `Snapshot ${s.id} has no data to export (status ${s.status})`)
    res.writeHead(200, {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'content-disposition': `attachment; filename="snapshot-${s.id}.ndjson"`,
    })
    await exportSnapshot(svc.db, s, (text) => writeOut(res, text))
    res.end()
  })
}
