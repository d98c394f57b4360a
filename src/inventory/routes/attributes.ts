/**
 * Routes of device attributes, in the SDK's shapes: `attributes/global` (POST one, PUT a list,
 * DELETE by serial or id) and `attributes/local` (PUT, DELETE; the body names the snapshot).
 * Listing is a table: `tables/global-attributes`, `tables/snapshot-attributes`.
 */
import { ApiError } from '../../shared/errors.js'
import { readJsonObject, sendEmpty, sendJson, type Router } from '../../shared/http/index.js'
import type { InventoryRequest } from '../context.js'
import type { InventoryServices } from '../discovery/index.js'
import { addGlobal, deleteAttributes, parseDelete, parseList, parseOne, putAttributes, type AttributeScope } from '../attributes/index.js'
import { getSnapshot, resolveSnapshot } from '../snapshots/index.js'

export function registerAttributeRoutes(router: Router<InventoryRequest>, svc: InventoryServices): void {
  const limit = svc.config.server.bodyLimitBytes

  /** The snapshot a local change names: an id or a `$last`-style reference; not while locked. */
  async function localScope(ref: string | undefined): Promise<AttributeScope> {
    const id = ref!.startsWith('$') ? await resolveSnapshot(svc.db, ref!) : ref!
    const s = await getSnapshot(svc.db, id)
    if (s.locked) throw new ApiError('API_SNAPSHOT_LOCKED', `Snapshot ${s.id} is locked; unlock it before changing its attributes`)
    return { kind: 'local', snapshotId: s.id }
  }

  router.add('POST', 'attributes/global', async (_ctx, _m, req, res) => {
    sendJson(res, 201, await addGlobal(svc.db, parseOne(await readJsonObject(req, limit)), svc.now()))
  })

  for (const local of [false, true]) {
    const path = local ? 'attributes/local' : 'attributes/global'
    router.add('PUT', path, async (_ctx, _m, req, res) => {
      const { snapshot, attributes } = parseList(await readJsonObject(req, limit), local)
      const scope = local ? await localScope(snapshot) : ({ kind: 'global' } as const)
      sendJson(res, 200, await putAttributes(svc.db, scope, attributes, svc.now()))
    })
    router.add('DELETE', path, async (_ctx, _m, req, res) => {
      const { snapshot, selector } = parseDelete(await readJsonObject(req, limit), local)
      const scope = local ? await localScope(snapshot) : ({ kind: 'global' } as const)
      await deleteAttributes(svc.db, scope, selector)
      sendEmpty(res, 204)
    })
  }
}
