import t from 'tap'
import pg from 'pg'
import { DATABASE_URL } from '../../helpers/db.js'
import { MAX_PATTERN_SIZE, MAX_PATTERN_TRANSITIONS, PatternError, checkPattern } from '../../../src/inventory/query/pattern.js'

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
  '^GigabitEthernet\\d+/\\d+/\\d+$', '(?i)^core-', '^10\\.1\\.', '[0-9]{1,3}(\\.[0-9]{1,3}){3}', '\\w{1,255}', '.{1,255}.{1,255}x',
  '^(Te|Gi|Fa)[0-9]+(/[0-9]+){1,3}(\\.[0-9]+)?$', '([a-z]*-){1,50}x', '(?=.{0,50}x)', '(?<=a+)b',
]

/** Patterns whose automaton explodes; the first is the attack of issue 30 (item 3). */
const EXPLOSIVE: Array<[string, RegExp]> = [
  ['(.*){1,255}(.*){1,255}x', new RegExp(`more than ${MAX_PATTERN_TRANSITIONS} transitions`)],
  ['(?:.*){1,255}x', /transitions/],
  ['(ab|.*){1,255}x', /transitions/],
  ['((a{1,100}){1,100}){1,100}', new RegExp(`more than ${MAX_PATTERN_SIZE} states`)],
  ['(a|a?)+', /can match nothing/],
  ['(a?)*b', /can match nothing/],
  ['(a|)+', /can match nothing/],
  // quadratic rather than explosive: PostgreSQL runs a lookahead again from every position
  ['(?=.*x)', /lookahead with an unbounded repetition/],
  ['^(?!.*(admin|root)).+$', /lookahead with an unbounded repetition/],
  ['a(?=b+)', /lookahead with an unbounded repetition/],
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

t.test('the attack and patterns like it are refused; everyday ones cost far below the budget', async (t) => {
  for (const [pattern, message] of EXPLOSIVE) t.match(refused(pattern), message, pattern)
  for (const p of EVERYDAY.filter((p) => !p.startsWith('(?') && !p.startsWith('***'))) {
    const cost = checkPattern(p)
    t.ok(cost.transitions <= MAX_PATTERN_TRANSITIONS / 2 && cost.states <= MAX_PATTERN_SIZE, `${p}: ${JSON.stringify(cost)}`)
  }
})

t.test('the bound cannot be hidden: a refused pattern stays refused wherever it is put', async (t) => {
  const wrappers = [
    (p: string) => `x${p}`,
    (p: string) => `${p}y`,
    (p: string) => `${p}|y`,
    (p: string) => `y|${p}`,
    (p: string) => `(?:${p})`,
    (p: string) => `(${p})`,
    (p: string) => `(?=${p})`,
    (p: string) => `(?!${p})z`,
    (p: string) => `(?<=${p})z`,
    (p: string) => `^(${p})$`,
    (p: string) => `(?i)${p}`,
    (p: string) => `(?x)${p}`,
    (p: string) => `***:${p}`,
    (p: string) => `(${p}){2}`,
    (p: string) => `(${p})?`,
  ]
  for (const [pattern] of EXPLOSIVE) {
    for (const wrap of wrappers) t.not(refused(wrap(pattern)), null, wrap(pattern))
  }
})

t.test('the cost grows with every repetition count and every piece added', async (t) => {
  for (const p of ['a', '.*', '(a|b)', 'a?', '[0-9]{1,3}\\.', '(x.*)']) {
    let before = { states: 0, transitions: 0 }
    for (let n = 1; n <= 60; n++) {
      const r = refused(`(${p}){1,${n}}`)
      if (r !== null) {
        t.match(r, /too complex/, `(${p}){1,${n}}`)
        for (const m of [n + 1, 120, 255]) t.not(refused(`(${p}){1,${m}}`), null, `(${p}){1,${m}} stays refused`)
        break
      }
      const cost = checkPattern(`(${p}){1,${n}}`)
      t.ok(cost.states >= before.states && cost.transitions >= before.transitions, `(${p}){1,${n}}`)
      const longer = checkPattern(`(${p}){1,${n}}z`)
      t.ok(longer.states > cost.states && longer.transitions >= cost.transitions, `(${p}){1,${n}}z`)
      before = cost
    }
  }
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
