import t from 'tap'
import { ENGINES, freshDb } from './db.js'

for (const engine of ENGINES) {
  t.test(`${engine}: numbers, addresses, arrays and jsonb come back typed the same way`, async (t) => {
    const db = await freshDb(t, engine)
    const { rows } = await db.query(
      `select 1::int8 as a, '10.0.0.1/24'::inet as b, array['1.1.1.1'::inet] as c, '{"x":1}'::jsonb as d, 1.5::numeric as e, 9007199254740993::int8 as f`,
    )
    // an int8 beyond 2^53 is a number too (the nearest double): a BigInt cannot go into a JSON answer
    t.same(rows[0], { a: 1, b: '10.0.0.1/24', c: ['1.1.1.1'], d: { x: 1 }, e: 1.5, f: 9007199254740992 })
  })
}
