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
import { routeMismatches } from '../../src/inventory/manifest.js'
import { migrateInventory } from '../../src/inventory/migrations/index.js'
import { freshPglite } from '../helpers/db.js'

t.test('inventory routes and the manifest agree in both directions', async (t) => {
  const db = await freshPglite(t)
  await migrateInventory(db)
  const app = await createInventoryApp({ db, config: compileConfig({}), log: silentLogger(), internalSecret: 'x'.repeat(32) })
  t.teardown(() => app.close())

  // The same comparison the app makes at start-up (src/inventory/manifest.ts), shown whole here.
  const { unrouted, unlisted } = routeMismatches(app.router.list())
  t.same(unrouted, [], 'a route for every manifest entry')
  t.same(unlisted, [], 'a manifest entry for every route')
  t.ok(app.router.list().length >= ENDPOINTS.filter((e) => e.service === 'inventory').length, 'the inventory serves routes at all')
})
