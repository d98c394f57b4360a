import t from 'tap'
import { acceptable, negotiate } from '../../../src/shared/http/index.js'

const JSON_ONLY = ['application/json']
const TABLE = ['application/json', 'text/csv']

t.test('what Accept allows: q-values, wildcards, the most specific range', async (t) => {
  const cases: Array<[string | undefined, readonly string[], string | null]> = [
    [undefined, JSON_ONLY, 'application/json'],
    ['', JSON_ONLY, 'application/json'],
    ['*/*', JSON_ONLY, 'application/json'],
    ['application/*', JSON_ONLY, 'application/json'],
    ['APPLICATION/JSON; charset=utf-8', JSON_ONLY, 'application/json'],
    ['text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.8', JSON_ONLY, 'application/json'],
    ['application/xml', JSON_ONLY, null],
    ['text/*', JSON_ONLY, null],
    ['application/json;q=0', JSON_ONLY, null],
    ['application/json; Q=0.000', JSON_ONLY, null],
    ['*/*;q=0', JSON_ONLY, null],
    ['*/*, application/json;q=0', JSON_ONLY, null],
    ['application/*;q=0, */*', JSON_ONLY, null],
    ['application/json;q=0, */*;q=0.1', TABLE, 'text/csv'],
    ['text/csv', TABLE, 'text/csv'],
    ['text/csv, application/json;q=0.5', TABLE, 'text/csv'],
    ['text/*', TABLE, 'text/csv'],
    ['*/*', TABLE, 'application/json'],
    ['json', JSON_ONLY, null],
    ['application/x-ndjson', ['application/x-ndjson'], 'application/x-ndjson'],
    ['application/json', ['application/x-ndjson'], null],
  ]
  for (const [accept, offered, expected] of cases) {
    t.equal(negotiate(accept, offered), expected, `${accept ?? '(none)'} → ${offered.join(', ')}`)
    t.equal(acceptable(accept, offered), expected !== null, `${accept ?? '(none)'} acceptable`)
  }
})

t.test('remembered verdicts stay right, past the number remembered and per list of types', async (t) => {
  for (let i = 0; i < 300; i++) {
    const ok = `application/json;q=0.${(i % 9) + 1}, x/y${i}`
    const refused = `application/xml, x/y${i}`
    t.equal(acceptable(ok, JSON_ONLY), true, ok)
    t.equal(acceptable(refused, JSON_ONLY), false, refused)
    t.equal(acceptable(`text/csv, x/y${i}`, TABLE), true)
    t.equal(acceptable(`text/csv, x/y${i}`, JSON_ONLY), false, 'the same header, another endpoint')
  }
})
