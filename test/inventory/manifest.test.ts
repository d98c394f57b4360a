/** What the inventory reads of the API manifest: its routes, checked at start-up, and the versions it answers. */
import t from 'tap'
import { ENDPOINTS } from '../../src/shared/manifest.js'
import { assertRoutesMatchManifest, routeMismatches, servedEndpoint } from '../../src/inventory/manifest.js'

const listed = ENDPOINTS.filter((e) => e.service === 'inventory').flatMap((e) => Object.keys(e.methods).map((m) => [m, e.path] as const))

t.test('the routes must serve exactly the manifest’s inventory endpoints', async (t) => {
  t.same(routeMismatches(listed), { unrouted: [], unlisted: [] })
  t.doesNotThrow(() => assertRoutesMatchManifest(listed))
  const [first, ...rest] = listed
  const changed = [...rest, ['DELETE', 'snapshots/:id/everything'] as const]
  t.same(routeMismatches(changed), { unrouted: [`${first![0]} ${first![1]}`], unlisted: ['DELETE snapshots/:id/everything'] })
  t.throws(() => assertRoutesMatchManifest(changed), {
    message: `the inventory's routes and the API manifest disagree: no route for ${first![0]} ${first![1]}; not in the manifest: DELETE snapshots/:id/everything`,
  })
  t.throws(() => assertRoutesMatchManifest([...listed, ['GET', 'auth/me'] as const]), /not in the manifest: GET auth\/me/, 'a gateway endpoint is not the inventory’s')
})

t.test('servedEndpoint: the versions the manifest lists for a route pattern', async (t) => {
  const snapshots = servedEndpoint('snapshots')
  t.ok(snapshots)
  t.same([...snapshots!.versions], [1])
  t.equal(snapshots!.latest, 1)
  t.equal(servedEndpoint('auth/token'), undefined, 'not an inventory endpoint')
})
