/** The inventory's door: only requests that carry the gateway's internal header with the right secret get in. */
import t from 'tap'
import { INTERNAL_HEADER, encodeInternal, encodePrincipal } from '../../src/shared/principal.js'
import { RELEASE_VERSION } from '../../src/shared/product.js'
import { freshPglite } from '../helpers/db.js'
import { ALICE, SECRET, startApp } from './app.js'

t.test('without the internal header, or with a wrong secret, every API request is refused', async (t) => {
  const app = await startApp(t, await freshPglite(t))
  const forged = (secret: string) => encodeInternal({ secret, principal: encodePrincipal({ ...ALICE, isAdmin: true }), apiVersion: 1, generation: 'header' })
  const cases: Array<[string, Record<string, string>]> = [
    ['an empty header', { [INTERNAL_HEADER]: '' }],
    ['a wrong secret', { [INTERNAL_HEADER]: forged('guess') }],
    ['the secret with something after it', { [INTERNAL_HEADER]: forged(`${SECRET}x`) }],
    ['a malformed header', { [INTERNAL_HEADER]: SECRET }],
    ['the old separate headers', { [INTERNAL_HEADER]: '', 'x-netinv-internal-secret': SECRET, 'x-netinv-principal': encodePrincipal(ALICE) }],
  ]
  for (const [name, headers] of cases) {
    const r = await app.call('GET', 'snapshots', undefined, headers)
    t.equal(r.status, 401, name)
    t.match(r.body, { code: 'API_INTERNAL_AUTH_REQUIRED' }, name)
  }
  const ok = await app.call('GET', 'snapshots')
  t.equal(ok.status, 200, 'the gateway’s header gets in')
  t.same(ok.body, [])
})

t.test('a version the manifest does not list for the endpoint: 410 with the spec’s body, the handler never runs', async (t) => {
  const app = await startApp(t, await freshPglite(t))
  const header = (apiVersion: number) => ({ [INTERNAL_HEADER]: encodeInternal({ secret: SECRET, principal: encodePrincipal(ALICE), apiVersion, generation: 'header' }) })
  const r = await app.call('POST', 'snapshots', { name: 'never made' }, header(2))
  t.equal(r.status, 410)
  t.same(r.body, { message: 'Version 2 of snapshots is not supported (supported: 1)', release_version: RELEASE_VERSION, api_version: '1' })
  t.same((await app.call('GET', 'snapshots', undefined, header(1))).body, [], 'nothing was made')
})
