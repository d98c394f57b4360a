import t from 'tap'
import { requestIdFrom, requestIdSource } from '../../../src/gateway/pipeline/request-id.js'

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

t.test('made ids are UUID-shaped (version 4, RFC 4122 variant) and never repeat', async (t) => {
  const next = requestIdSource()
  const seen = new Set<string>()
  for (let i = 0; i < 10_000; i++) {
    const id = next()
    if (!UUID_V4.test(id)) t.fail(`not a v4 UUID: ${id}`)
    seen.add(id)
  }
  t.equal(seen.size, 10_000)
  t.not(requestIdSource()().slice(0, 24), next().slice(0, 24), 'each process draws its own random head')
})

t.test('the counter carries from its low half into its high half and wraps at 2^48', async (t) => {
  const next = requestIdSource(2 ** 24 - 2)
  t.same(
    [next(), next(), next()].map((id) => id.slice(24)),
    ['000000ffffff', '000001000000', '000001000001'],
  )
  const wrap = requestIdSource(2 ** 48 - 2)
  t.same(
    [wrap(), wrap()].map((id) => id.slice(24)),
    ['ffffffffffff', '000000000000'],
  )
})

t.test('a sane incoming id is kept, anything else replaced', async (t) => {
  t.equal(requestIdFrom('abc-123.X:y_z'), 'abc-123.X:y_z')
  for (const bad of [undefined, '', 'a b', 'x'.repeat(129), ['a', 'b'], 'é']) t.match(requestIdFrom(bad as string | undefined), UUID_V4, JSON.stringify(bad))
})
