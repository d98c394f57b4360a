import t from 'tap'
import { ApiError } from '../../../src/shared/errors.js'
import { MAX_FILTER_CONDITIONS, MAX_FILTER_DEPTH, MAX_FILTER_NODES, parseTableRequest, validateRequest, type ParsedRequest } from '../../../src/inventory/query/index.js'
import { ITEMS } from './fixture.js'

function error(fn: () => unknown): { status: number; body: { code: string; message: string; errors?: Array<{ message: string }> } } | 'ok' {
  try {
    fn()
    return 'ok'
  } catch (err) {
    if (!(err instanceof ApiError)) throw err
    return { status: err.status, body: { code: err.code, message: err.message, ...(err.errors ? { errors: err.errors } : {}) } }
  }
}

const parse = (body: unknown) => parseTableRequest(body, 100)
const validate = (body: unknown) => validateRequest(ITEMS, parse(body), { defaultLimit: 10, rules: [] })
const COLUMN_LIST = '[id, name, site, siteUpper, count, other, ratio, up, ts, ip, net, mac, tags, vlans, addrs, extra]'

t.test('unknown columns: the exact shape SDKs parse', async (t) => {
  t.same(error(() => validate({ snapshot: 's', columns: ['*'] })), {
    status: 422,
    body: { code: 'API_INVALID_INPUT', message: `"columns[0]" must be one of ${COLUMN_LIST}`, errors: [{ message: `"columns[0]" must be one of ${COLUMN_LIST}` }] },
  })
  const two = error(() => validate({ columns: ['id', 'nope', 'bad'] }))
  t.same(two !== 'ok' && two.body.errors, [{ message: `"columns[1]" must be one of ${COLUMN_LIST}` }, { message: `"columns[2]" must be one of ${COLUMN_LIST}` }])
  t.match(error(() => validate({ columns: ['id'], filters: { nope: ['eq', 1] } })), { status: 422, body: { errors: [{ message: `"filters.nope" must be one of ${COLUMN_LIST}` }] } })
  t.match(error(() => validate({ columns: ['id'], filters: { or: [{ name: ['column', 'eq', 'zz'] }] } })), { body: { message: `"filters.or[0].name[2]" must be one of ${COLUMN_LIST}` } })
  t.match(error(() => validate({ columns: ['id'], sort: { column: 'zz', order: 'asc' } })), { body: { message: `"sort.column" must be one of ${COLUMN_LIST}` } })
})

t.test('shapes', async (t) => {
  const bad: Array<[unknown, RegExp]> = [
    [null, /"value" must be of type object/],
    [[], /"value" must be of type object/],
    [{}, /"columns" is required/],
    [{ columns: 'id' }, /"columns" must be an array/],
    [{ columns: [] }, /at least 1/],
    [{ columns: [1] }, /"columns\[0\]" must be a string/],
    [{ columns: ['id'], extra: 1 }, /"extra" is not allowed/],
    [{ columns: ['id'], snapshot: 5 }, /"snapshot" must be a string/],
    [{ columns: ['id'], pagination: { limit: 101 } }, /"pagination.limit" must be less than or equal to 100/],
    [{ columns: ['id'], pagination: { limit: -1 } }, /greater than or equal to 0/],
    [{ columns: ['id'], pagination: { start: 1.5 } }, /"pagination.start" must be an integer/],
    [{ columns: ['id'], pagination: { limit: '5' } }, /must be an integer/],
    [{ columns: ['id'], pagination: [] }, /"pagination" must be an object/],
    [{ columns: ['id'], sort: { column: 'id', order: 'up' } }, /"sort.order" must be one of \[asc, desc\]/],
    [{ columns: ['id'], sort: { order: 'asc' } }, /"sort.column" must be a string/],
    [{ columns: ['id'], filters: [] }, /"filters" must be an object/],
    [{ columns: ['id'], filters: { name: 'x' } }, /"filters.name" must be an array/],
    [{ columns: ['id'], filters: { name: ['eq'] } }, /must be an array \[operator, value\]/],
    [{ columns: ['id'], filters: { name: ['equals', 'x'] } }, /"filters.name\[0\]" must be one of \[eq, neq/],
    [{ columns: ['id'], filters: { and: {} } }, /"filters.and" must be an array/],
    [{ columns: ['id'], filters: { name: ['column', 'like', 'site'] } }, /"filters.name\[1\]" must be one of \[eq, neq, gt, gte, lt, lte\]/],
    [{ columns: ['id'], filters: { name: ['any', 'empty', 'x'] } }, /must be one of/],
    [{ columns: ['id'], reports: 5 }, /"reports" must be/],
    [{ columns: ['id'], format: { dataType: 'xml' } }, /"format.dataType" must be one of/],
    [{ columns: ['id'], attributeFilters: { siteName: 'x' } }, /"attributeFilters.siteName" must be a non-empty array/],
    [{ columns: ['id'], attributeFilters: { siteName: [] } }, /"attributeFilters.siteName" must be a non-empty array/],
    [{ columns: ['id'], attributeFilters: { 'bad-name': ['x'] } }, /"attributeFilters.bad-name" is not an attribute name/],
    [{ columns: ['id'], attributeFilters: ['siteName'] }, /"attributeFilters" must be an object/],
  ]
  for (const [body, re] of bad) {
    const e = error(() => parse(body))
    t.ok(e !== 'ok' && e.status === 422 && re.test(e.body.message), `${JSON.stringify(body)} → ${JSON.stringify(e)}`)
  }
})

t.test('depth and size are bounded', async (t) => {
  let deep: Record<string, unknown> = { name: ['eq', 'x'] }
  for (let i = 0; i <= MAX_FILTER_DEPTH; i++) deep = { and: [deep] }
  t.match(error(() => parse({ columns: ['id'], filters: deep })), { status: 422, body: { message: /deeper than/ } })
  const wide = { or: Array.from({ length: MAX_FILTER_CONDITIONS + 1 }, () => ({ name: ['eq', 'x'] })) }
  t.match(error(() => parse({ columns: ['id'], filters: wide })), { status: 422, body: { message: /at most 500 conditions/ } })
  const nodes = /at most 2000 filter objects and conditions/
  t.match(error(() => parse({ columns: ['id'], filters: { and: Array.from({ length: 340_000 }, () => ({})) } })), { status: 422, body: { message: nodes } }, 'empty objects count')
  t.match(error(() => parse({ columns: ['id'], filters: { or: Array.from({ length: 100 }, () => ({ and: Array.from({ length: 20 }, () => ({})) })) } })), { body: { message: nodes } }, 'nested empties add up')
  t.equal(error(() => parse({ columns: ['id'], filters: { and: Array.from({ length: MAX_FILTER_NODES - 1 }, () => ({})) } })), 'ok', 'up to the bound')
})

t.test('text values the database cannot hold, and costly patterns, are refused naming the condition', async (t) => {
  t.match(error(() => validate({ columns: ['id'], filters: { name: ['eq', 'a\u0000'] } })), { status: 422, body: { message: '"filters.name" value of "eq" must not contain the character U+0000 (column name)' } })
  t.match(error(() => validate({ columns: ['id'], filters: { mac: ['like', '\u0000'] } })), { status: 422, body: { message: /U\+0000/ } })
  t.match(error(() => validate({ columns: ['id'], filters: { tags: ['any', 'ireg', '(a+)+'] } })), { status: 422, body: { message: /"filters.tags" regular expression nests unbounded repetitions.*\(column tags\)$/ } })
  t.match(error(() => validate({ columns: ['id'], filters: { name: ['nreg', '(\\w{1,255}){1,255}$'] } })), { body: { message: /"filters.name" regular expression is too complex/ } })
  t.equal(error(() => validate({ columns: ['id'], filters: { name: ['like', '(a+)+'] } })), 'ok', 'like patterns are text, not regular expressions')
})

t.test('a long list of problems is cut after ten, with the count of the rest', async (t) => {
  const e = error(() => validate({ columns: Array.from({ length: 500 }, (_, i) => `bad${i}`) }))
  t.ok(e !== 'ok')
  if (e === 'ok') return
  t.equal(e.body.errors?.length, 11)
  t.equal(e.body.errors?.[0]?.message, `"columns[0]" must be one of ${COLUMN_LIST}`)
  t.equal(e.body.errors?.[10]?.message, '490 more problems of the same request not listed')
})

t.test('operators that do not fit the column type name column and operator', async (t) => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ count: ['like', 'x'] }, /operator "like" does not fit column count of type integer/],
    [{ name: ['gt', 1] }, /operator "gt" does not fit column name of type string/],
    [{ up: ['like', 'x'] }, /operator "like" does not fit column up of type boolean/],
    [{ name: ['cidr', '10.0.0.0/8'] }, /operator "cidr" does not fit column name/],
    [{ tags: ['eq', 'x'] }, /operator "eq" does not fit column tags of type stringArray/],
    [{ name: ['any', 'eq', 'x'] }, /"any" needs an array column/],
    [{ vlans: ['any', 'like', 'x'] }, /operator "like" does not fit the elements of column vlans/],
    [{ count: ['column', 'eq', 'name'] }, /cannot compare column count \(integer\) with column name \(string\)/],
    [{ name: ['column', 'gt', 'site'] }, /operator "gt" does not fit column name/],
    [{ count: ['color', 'eq', 30] }, /needs a report on column count/],
    [{ count: ['eq', 'abc'] }, /must be a number \(column count\)/],
    [{ count: ['eq', 1.5] }, /must be an integer/],
    [{ up: ['eq', 'yes'] }, /must be true or false/],
    [{ ip: ['eq', '300.1.1.1'] }, /must be an IP address/],
    [{ ip: ['cidr', '10.0.0.0/33'] }, /"cidr" must be a network/],
    [{ name: ['like', null] }, /must not be null/],
    [{ name: ['empty', 'maybe'] }, /true or false/],
    [{ name: ['reg', 'x'.repeat(1001)] }, /at most 1000 characters/],
  ]
  for (const [filters, re] of cases) {
    const e = error(() => validate({ columns: ['id'], filters }))
    t.ok(e !== 'ok' && e.status === 422 && re.test(e.body.message), `${JSON.stringify(filters)} → ${JSON.stringify(e)}`)
  }
})

t.test('defaults and normalisation', async (t) => {
  const v = validate({ columns: ['id', 'id', 'name'], filters: { mac: ['eq', 'AABB.CCDD.EEFF'], count: ['gt', '2.5'] } })
  t.same(v.columns.map((c) => c.name), ['id', 'name'], 'duplicates dropped')
  t.equal(v.limit, 10)
  t.equal(v.start, 0)
  t.same([v.sort.column.name, v.sort.order], ['name', 'asc'], 'table default sort')
  t.match(v.filter, { kind: 'and', children: [{ cond: { value: 'aa:bb:cc:dd:ee:ff' } }, { cond: { op: 'gt', value: 2 } }] })
  const csv = validateRequest(ITEMS, { ...parse({ columns: ['id'] }), csv: true } as ParsedRequest, { defaultLimit: 10, rules: [] })
  t.equal(csv.limit, undefined, 'a CSV export without pagination has no limit')
  t.equal(validate({ columns: ['id'], sort: { column: 'id', order: 'DESC' } }).sort.order, 'desc')
})

t.test('eq on a value an enumerated column never holds is valid (it matches no row), not a 422', async (t) => {
  const table = { ...ITEMS, columns: ITEMS.columns.map((c) => (c.name === 'site' ? { ...c, values: ['paris', 'berlin'] } : c)) }
  const check = (filters: unknown) => error(() => validateRequest(table, parse({ columns: ['id'], filters }), { defaultLimit: 10, rules: [] }))
  t.equal(check({ site: ['eq', 'Paris'] }), 'ok')
  t.equal(check({ site: ['neq', 'rome'] }), 'ok')
  t.equal(check({ site: ['eq', 'paris'] }), 'ok')
  t.equal(check({ site: ['eq', null] }), 'ok')
  t.equal(check({ site: ['ieq', 'PARIS'] }), 'ok', 'case-insensitive operators are not restricted')
})
