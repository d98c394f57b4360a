import t from 'tap'
import fc from 'fast-check'
import { decodeInternal, decodePrincipal, encodeInternal, encodePrincipal, type Principal } from '../../src/shared/principal.js'

const ALICE: Principal = { id: 'u1', username: 'alice', scopes: ['read', 'write'], isAdmin: false, method: 'apiKey', apiKeyId: 'k1' }

t.test('the internal header carries version, generation, principal and secret, and reads back the same', async (t) => {
  const parts = { apiVersion: 2, generation: 'path', principal: encodePrincipal(ALICE), secret: 'a;b c=d;' }
  const decoded = decodeInternal(encodeInternal(parts))
  t.same(decoded, parts, 'a secret may hold any character, semicolons too')
  t.same(decodePrincipal(decoded!.principal), ALICE)
  t.same(decodeInternal(encodeInternal({ apiVersion: 1, generation: 'header', secret: 's' })), { apiVersion: 1, generation: 'header', principal: '', secret: 's' }, 'anonymous')
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 1000 }), fc.constantFrom('header', 'original', 'path'), fc.string({ unit: 'binary' }), (apiVersion, generation, secret) => {
      const p = { apiVersion, generation, principal: encodePrincipal(ALICE), secret }
      const d = decodeInternal(encodeInternal(p))
      return d !== null && d.secret === secret && d.apiVersion === apiVersion && d.generation === generation && d.principal === p.principal
    }),
  )
})

t.test('a malformed internal header reads as none', async (t) => {
  for (const bad of [undefined, '', 'secret', '1;header;', '1;header', 'x;header;;s', '0;header;;s', '-1;header;;s', '1.5;header;;s', ['1;header;;s']]) {
    t.equal(decodeInternal(bad as string | undefined), null, JSON.stringify(bad))
  }
})
