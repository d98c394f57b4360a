import t from 'tap'
import pg from 'pg'
import { DATABASE_URL } from '../../helpers/db.js'
import { MAX_PATTERN_SIZE, PatternError, checkPattern } from '../../../src/inventory/query/pattern.js'

const refused = (pattern: string): string | null => {
  try {
    checkPattern(pattern)
    return null
  } catch (err) {
    if (err instanceof PatternError) return err.message
    throw err
  }
}

/** What inventory filters use: addresses, interface names, host naming schemes. */
const EVERYDAY = [
  '^a', 'b$', 'a.b', '[ab]x', '^$', 'x|B', '^1[0-5]\\.', '^(\\d{1,3}\\.){3}\\d{1,3}$', '([0-9a-f]{2}:){5}[0-9a-f]{2}',
  'ge-?\\d+/\\d+(/\\d+)?', '^(?:core|dist)-sw\\d{2}$', '(a|b)+', '(a{2,5})+', '(a+){3}', '[]a]', '[[:alpha:]]+', '(?i)abc',
  '***=(((', '(?x) a b # comment', 'a{,3}', 'a*?', 'a+?b', '\\mword\\M', '(?=a)b', '[\\d.]+', '\\x41\\u0042',
]

t.test('everyday patterns pass', async (t) => {
  for (const p of EVERYDAY) t.equal(refused(p), null, p)
})

t.test('costly shapes are refused in our words', async (t) => {
  t.match(refused('(\\w{1,255}){1,255}$'), /too complex/, 'the pattern that froze the embedded database')
  t.match(refused('a{1,255}b{1,255}c{1,255}d{1,255}'), /too complex/, 'expansions add up along a sequence')
  t.match(refused('(a+)+'), /nests unbounded repetitions/)
  t.match(refused('(\\w*\\s?)*$'), /nests unbounded repetitions/)
  t.match(refused('(a)\\1'), /back-reference/)
  t.match(refused('(?b)a'), /basic syntax/)
  t.equal(refused('x{4}'.repeat(MAX_PATTERN_SIZE / 4)), null, `exactly ${MAX_PATTERN_SIZE} elements`)
  t.match(refused(`${'x{4}'.repeat(MAX_PATTERN_SIZE / 4)}y`), /too complex/, 'one more is too many')
})

t.test('syntax errors are named; PostgreSQL refuses each of them too', async (t) => {
  const errors: Array<[string, RegExp]> = [
    ['(unclosed', /"\(" without "\)"/],
    ['a)', /"\)" without "\("/],
    ['[abc', /unterminated bracket/],
    ['*a', /nothing before it/],
    ['a**', /right after another/],
    ['x{100}{2}', /right after another/],
    ['a{3', /repetition count/],
    ['a{3,2}', /lower bound is above/],
    ['a{256}', /above 255/],
    ['\\', /ends with a backslash/],
    ['(?=a)*', /cannot be repeated/],
    ['(?<a>x)', /"\(\?" not followed/],
  ]
  const client = new pg.Client({ connectionString: DATABASE_URL })
  await client.connect()
  t.teardown(() => client.end())
  for (const [pattern, message] of errors) {
    t.match(refused(pattern), message, pattern)
    const pgAnswer = await client.query("SELECT 'abc' ~ $1", [pattern]).then(
      () => 'accepted',
      (e: { code?: string }) => e.code,
    )
    t.equal(pgAnswer, '2201B', `PostgreSQL refuses ${pattern} as well`)
  }
  for (const pattern of EVERYDAY) {
    await client.query("SELECT 'abc' ~ $1", [pattern])
  }
  t.pass('PostgreSQL accepts every everyday pattern')
})
