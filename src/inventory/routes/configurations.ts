/**
 * `tables/management/configuration/download?hash=`: the text of a device configuration, as the
 * Python SDK's DeviceConfigs fetches it: the running configuration network discovery read over
 * SSH, secrets masked before it was stored (network/ssh/mask.ts), as text/plain. A fingerprint
 * whose text is not kept (a simulated or uploaded snapshot's) or that no snapshot has is a 404
 * whose `detail` says which. `tables/management/configuration/compare?from=&to=` compares two
 * kept texts line by line (network/ssh/diff.ts), as the product's configuration comparison
 * compares two versions of management/configuration.
 */
import { ApiError, invalidInput, notFound } from '../../shared/errors.js'
import type { Router } from '../../shared/http/index.js'
import type { InventoryRequest } from '../context.js'
import type { InventoryServices } from '../discovery/index.js'
import { configText } from '../discovery/network/ssh/texts.js'
import { startConfigBackup } from '../discovery/config-backup.js'
import { configBackupRequest } from '../settings/bodies.js'
import { negotiate, readJson, sendJson } from '../../shared/http/index.js'
import { DIFF_TIMEOUT_MS, diffConfigs, MAX_EDIT_LINES } from '../discovery/network/ssh/diff.js'
import type { Queryable } from '../../shared/db/index.js'


export function registerConfigurationRoutes(router: Router<InventoryRequest>, svc: InventoryServices): void {
  router.add('POST', 'discovery/trigger-config-backup', async (ctx, _m, req, res) => {
    const body = configBackupRequest.parse(await readJson(req, svc.config.server.bodyLimitBytes))
    const job = await startConfigBackup(svc, body, ctx.principal?.username ?? null)
    sendJson(res, 202, job)
  })
  router.add('GET', 'tables/management/configuration/download', async (ctx, _m, _req, res) => {
    const hash = hashParam(ctx.query, 'hash')
    // httpx sends Python's True as "true", requests as "True"
    const sanitized = ctx.query.get('sanitized')?.toLowerCase() ?? null
    if (sanitized !== null && sanitized !== 'true' && sanitized !== 'false') throw invalidInput([{ message: `"sanitized" must be true or false: "${sanitized.slice(0, 60)}"`, path: 'sanitized' }])
    // masked before it was stored: `sanitized` false cannot bring a secret back
    const text = await keptText(svc.db, hash)
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) })
    res.end(text)
  })
  router.add('GET', 'tables/management/configuration/compare', async (ctx, _m, req, res) => {
    const from = hashParam(ctx.query, 'from')
    const to = hashParam(ctx.query, 'to')
    const raw = ctx.query.get('context')
    const context = raw === null || raw === '' ? 3 : Number(raw)
    if (!/^\d{1,4}$/.test(raw ?? '3') || !Number.isInteger(context) || context > 1000) throw invalidInput([{ message: `"context" must be a whole number of lines from 0 to 1000: "${(raw ?? '').slice(0, 60)}"`, path: 'context' }])
    const type = negotiate(req.headers.accept, ['application/json', 'text/plain'])
    if (type === null) throw new ApiError('API_NOT_ACCEPTABLE')
    const [a, b] = [await keptText(svc.db, from), await keptText(svc.db, to)]
    const d = await diffConfigs({ name: from, text: a }, { name: to, text: b }, context)
    if (d === null) {
      throw invalidInput([{ message: `the configurations ${from} and ${to} differ in more than ${MAX_EDIT_LINES} lines (or their difference took more than ${DIFF_TIMEOUT_MS / 1000} s): download both and compare them locally`, path: 'to' }])
    }
    if (type === 'text/plain') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(d.diff) })
      res.end(d.diff)
      return
    }
    sendJson(res, 200, { from, to, ...d })
  })
}

const HASH_FORMAT = /^[0-9a-f]{40}$/i

/** A configuration fingerprint from the query (lower case), or a 422 naming the parameter. */
function hashParam(query: URLSearchParams, name: string): string {
  const hash = query.get(name)
  if (hash === null || hash === '') throw invalidInput([{ message: `"${name}" is required: the configuration fingerprint from management/configuration`, path: name }])
  if (!HASH_FORMAT.test(hash)) throw invalidInput([{ message: `"${name}" must be 40 hexadecimal digits (a configuration fingerprint): "${hash.slice(0, 60)}"`, path: name }])
  return hash.toLowerCase()
}

/** The kept text of a fingerprint, or a 404 whose detail says whether the fingerprint is known. */
async function keptText(db: Queryable, hash: string): Promise<string> {
  const text = await configText(db, hash)
  if (text !== null) return text
  const known = await db.query('SELECT 1 FROM inventory.config_saved WHERE hash = $1 LIMIT 1', [hash])
  throw notFound(
    known.rows.length > 0
      ? `configuration text of ${hash}: not kept (only configurations read over SSH by network discovery have a text; this fingerprint comes from a simulated or uploaded snapshot)`
      : `configuration ${hash}: no device configuration with this fingerprint in any snapshot`,
  )
}
