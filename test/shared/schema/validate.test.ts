/** Body validators compiled from JSON Schemas answer with the 422 messages clients parse. */
import { Type } from '@sinclair/typebox'
import t from 'tap'
import { ApiError } from '../../../src/shared/errors.js'
import { bodyValidator, defineFormat, issuePath, shown } from '../../../src/shared/schema/index.js'

function problems(fn: () => unknown): string[] {
  try {
    fn()
  } catch (err) {
    if (err instanceof ApiError && err.status === 422) return (err.errors ?? []).map((e) => e.message)
    throw err
  }
  return []
}

const Body = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 8 }),
    password: Type.String({ minLength: 4 }),
    scope: Type.Optional(Type.Array(Type.Union([Type.Literal('read'), Type.Literal('write')]))),
    email: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
    page: Type.Optional(Type.Object({ limit: Type.Integer({ minimum: 0, maximum: 10 }) })),
    expires: Type.Optional(Type.Union([Type.Integer(), Type.Null()], { 'x-message': 'must be a timestamp or null' })),
  },
  { additionalProperties: false },
)

t.test('messages in the shape and order clients parse', async (t) => {
  const first = bodyValidator(Body)
  const all = bodyValidator(Body, { all: true })
  t.same(problems(() => first.parse({ username: 'a', password: 'abcd' })), [], 'a valid body passes')
  t.same(first.parse({ username: 'a', password: 'abcd' }), { username: 'a', password: 'abcd' })
  t.same(problems(() => first.parse({})), ['"username" is required'], 'declared order: username before password')
  t.same(problems(() => all.parse({})), ['"username" is required', '"password" is required'])
  t.same(problems(() => first.parse({ username: null, password: 'abcd' })), ['"username" is required'], 'null is missing')
  t.same(problems(() => first.parse({ username: 5, password: 'abcd' })), ['"username" must be a string'])
  t.same(problems(() => first.parse({ username: '', password: 'abcd' })), ['"username" is not allowed to be empty'])
  t.same(problems(() => first.parse({ username: 'a', password: 'abc' })), ['"password" length must be at least 4 characters long'])
  t.same(problems(() => first.parse({ username: 'aaaaaaaaa', password: 'abcd' })), ['"username" length must be less than or equal to 8 characters long'])
  t.same(problems(() => first.parse({ username: 'a', password: 'abcd', scope: ['read', 'x'] })), ['"scope[1]" must be one of [read, write]'])
  t.same(problems(() => first.parse({ username: 'a', password: 'abcd', scope: 'read' })), ['"scope" must be an array'])
  t.same(problems(() => first.parse({ username: 'a', password: 'abcd', email: '' })), ['"email" is not allowed to be empty'], 'string-or-null: the string branch speaks')
  t.same(problems(() => first.parse({ username: 'a', password: 'abcd', page: { limit: 11 } })), ['"page.limit" must be less than or equal to 10'])
  t.same(problems(() => first.parse({ username: 'a', password: 'abcd', expires: 1.5 })), ['"expires" must be a timestamp or null'], 'x-message')
  t.same(problems(() => first.parse({ bogus: 1, username: 'a', password: 'abcd' })), ['"bogus" is not allowed'], 'unknown keys first')
  t.same(problems(() => first.parse([])), ['"value" must be of type object'])
})

t.test('paths as clients read them', async (t) => {
  t.equal(issuePath(''), 'value')
  t.equal(issuePath('/columns/0'), 'columns[0]')
  t.equal(issuePath('/a/b/2/c'), 'a.b[2].c')
  t.equal(issuePath('/a~1b'), 'a/b')
})

const EVEN = defineFormat('even-digits', (v) => (typeof v === 'string' && /^\d*[02468]$/.test(v) ? undefined : `must be an even number in digits: ${shown(v)}`))

const Settings = Type.Object(
  {
    list: Type.Optional(Type.Array(Type.String({ format: EVEN }), { uniqueItems: true, 'x-messages': { uniqueItems: 'must not repeat a value' } })),
    limits: Type.Optional(
      Type.Object({ low: Type.Optional(Type.Integer({ minimum: 1, 'x-message': 'must be an integer of 1 or more' })), high: Type.Optional(Type.Integer()) }, { additionalProperties: false }),
    ),
    rule: Type.Optional(
      Type.String({ minLength: 1, format: 'regex', 'x-message': 'must be a regular expression of 1 or more characters', 'x-messages': { format: 'is not a valid regular expression' } }),
    ),
  },
  { additionalProperties: false },
)

t.test('formats and per-keyword messages', async (t) => {
  const all = bodyValidator(Settings, { all: true })
  t.same(problems(() => all.parse({ list: ['12', '12'] })), ['"list" must not repeat a value'], 'x-messages by keyword')
  t.same(problems(() => all.parse({ list: ['13', 7] })), ['"list[0]" must be an even number in digits: "13"', '"list[1]" must be an even number in digits: 7'], 'the format describes a value that is not one, and one of another type')
  t.same(problems(() => all.parse({ rule: '(' })), ['"rule" is not a valid regular expression'], 'the format keyword before x-message')
  t.same(problems(() => all.parse({ rule: '' })), ['"rule" must be a regular expression of 1 or more characters'])
  t.same(problems(() => all.parse({ limits: { high: 1, speed: 2, low: 0 } })), ['"limits.low" must be an integer of 1 or more', '"limits.speed" is not allowed'], 'nested: declared keys in schema order, then unknown ones')
})

t.test('checks after the schema join its problems in one answer, in schema order', async (t) => {
  const all = bodyValidator(Settings, { all: true })
  const first = bodyValidator(Settings)
  const body = { rule: '(', color: 1, list: ['2'] }
  const issues = all.problems(body)
  t.same(issues.map((i) => i.path), ['color', 'rule'])
  issues.push({ message: 'no room for more' }, { message: '"list[0]" is taken', path: 'list[0]' }, { message: '"rule" is something else', path: 'rule' })
  t.same(problems(() => all.assert(issues)), ['"color" is not allowed', '"list[0]" is taken', '"rule" is not a valid regular expression', 'no room for more'], 'unknown key first, then schema order, one per path, pathless last')
  t.same(problems(() => first.assert(issues)), ['"color" is not allowed'], 'the first only, unless all')
  t.same(all.problems({ list: ['2'] }), [], 'none for a conforming body')
  t.doesNotThrow(() => all.assert([]))
})

t.test('a key named "value" is reported in its place, not as the body itself', async (t) => {
  const v = bodyValidator(Type.Object({ name: Type.String(), value: Type.String({ minLength: 1 }) }, { additionalProperties: false }), { all: true })
  t.same(problems(() => v.parse({ name: 1, value: '', color: 1 })), ['"color" is not allowed', '"name" must be a string', '"value" is not allowed to be empty'])
  t.same(problems(() => bodyValidator(Type.Object({ a: Type.String() }), { all: true }).parse([])), ['"value" must be of type object'], 'the body itself, where no key has that name')
})
