/**
 * The inventory serves exactly what the API manifest says it serves: every manifest endpoint of
 * service "inventory" has a route for each of its methods, and no route exists outside the manifest.
 * (The gateway authorizes by the manifest, so a route missing from it could never be reached, and
 * a manifest entry without a route would forward into a 404.)
 */
import t from 'tap'
import { ENDPOINTS } from '../../src/shared/manifest.js'
import { compileConfig } from '../../src/shared/config/index.js'
import { silentLogger } from '../../src/shared/log.js'
import { createInventoryApp } from '../../src/inventory/app.js'
import { migrateInventory } from '../../src/inventory/migrations/index.js'
import { freshPglite } from '../helpers/db.js'

t.test('inventory routes and the manifest agree in both directions', async (t) => {
  const db = await freshPglite(t)
  await migrateInventory(db)
  const app = await createInventoryApp({ db, config: compileConfig({}), log: silentLogger(), internalSecret: 'x'.repeat(32) })
  t.teardown(() => app.close())

  const routes = new Set(app.router.list().map(([method, pattern]) => `${method} ${pattern}`))
  const manifest = new Set(
    ENDPOINTS.filter((e) => e.service === 'inventory').flatMap((e) => Object.keys(e.methods).map((m) => `${m} ${e.path}`)),
  )
  for (const entry of manifest) t.ok(routes.has(entry), `route for manifest entry ${entry}`)
  for (const route of routes) t.ok(manifest.has(route), `manifest entry for route ${route}`)
})
