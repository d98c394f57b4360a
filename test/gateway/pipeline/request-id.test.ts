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

t.test('a sane incoming id is kept, anything else replaced', async (t) => {
  t.equal(requestIdFrom('abc-123.X:y_z'), 'abc-123.X:y_z')
  for (const bad of [undefined, '', 'a b', 'x'.repeat(129), ['a', 'b'], 'é']) t.match(requestIdFrom(bad as string | undefined), UUID_V4, JSON.stringify(bad))
})
