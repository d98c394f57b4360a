import t from 'tap'
import fc from 'fast-check'
import { compileEndpoints } from '../../../src/gateway/pipeline/matcher.js'
import { ENDPOINTS, matchEndpoint } from '../../../src/shared/manifest.js'

const matcher = compileEndpoints()

t.test('the compiled matcher agrees with the manifest on its own patterns', async (t) => {
  for (const e of ENDPOINTS) {
    for (const path of [e.path, e.path.replace(/:[a-z]+/g, 'x1').replace('*', 'a/b'), e.path.replace('*', 'a'), `${e.path}/extra`, e.path.replace(/\/[^/]+$/, '')]) {
      t.same(matcher.match(path), matchEndpoint(path), path)
    }
  }
})

t.test('the compiled matcher agrees with the manifest on arbitrary paths', async (t) => {
  const segment = fc.constantFrom('snapshots', 'tables', 'inventory', 'devices', 'description', 'auth', 'token', 'users', 'me', 'x', '1', '', 'lock', 'reports', 'groups', 'settings')
  fc.assert(
    fc.property(fc.array(segment, { minLength: 0, maxLength: 6 }), (segs) => {
      const path = segs.join('/')
      t.same(matcher.match(path), matchEndpoint(path), path)
      return true
    }),
    { numRuns: 3000 },
  )
})
