/**
 * `tables/management/configuration/download?hash=`: the text of a device configuration, as the
 * Python SDK's DeviceConfigs fetches it. netinv keeps only the fingerprint of each running
 * configuration (management/configuration/saved), never its text, so every request is answered
 * 404 with a `detail` that says which of the two it is: a fingerprint netinv knows (text not
 * kept) or one it has never seen.
 */
import { invalidInput, notFound } from '../../shared/errors.js'
import type { Router } from '../../shared/http/index.js'
import type { InventoryRequest } from '../context.js'
import type { InventoryServices } from '../discovery/index.js'

const HASH = /^[0-9a-f]{40}$/i

export function registerConfigurationRoutes(router: Router<InventoryRequest>, svc: InventoryServices): void {
  router.add('GET', 'tables/management/configuration/download', async (ctx) => {
    const hash = ctx.query.get('hash')
    if (hash === null || hash === '') throw invalidInput([{ message: '"hash" is required: the configuration fingerprint from management/configuration', path: 'hash' }])
    if (!HASH.test(hash)) throw invalidInput([{ message: `"hash" must be 40 hexadecimal digits (a configuration fingerprint): "${hash.slice(0, 60)}"`, path: 'hash' }])
    // httpx sends Python's True as "true", requests as "True"
    const sanitized = ctx.query.get('sanitized')?.toLowerCase() ?? null
    if (sanitized !== null && sanitized !== 'true' && sanitized !== 'false') throw invalidInput([{ message: `"sanitized" must be true or false: "${sanitized.slice(0, 60)}"`, path: 'sanitized' }])
    const known = await svc.db.query('SELECT 1 FROM inventory.config_saved WHERE hash = $1 LIMIT 1', [hash.toLowerCase()])
    throw notFound(
      known.rows.length > 0
        ? `configuration text of ${hash.toLowerCase()}: netinv keeps the fingerprint of each configuration, not its text`
        : `configuration ${hash.toLowerCase()}: no device configuration with this fingerprint in any snapshot`,
    )
  })
}
