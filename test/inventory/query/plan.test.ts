import t from 'tap'
import { parseFilter, parseTableRequest, planQuery, validateFilter, validateRequest, type ColorRule } from '../../../src/inventory/query/index.js'
import { ITEMS, PLAIN } from './fixture.js'
import { INTERFACES } from '../../../src/inventory/catalog/inventory.js'

const plan = (body: Record<string, unknown>, rules: ColorRule[] = []) =>
  planQuery(ITEMS, validateRequest(ITEMS, parseTableRequest({ columns: ['id'], ...body }, 1000), { defaultLimit: 50, rules }), 'snap-1')

t.test('user input never becomes SQL text', async (t) => {
  const evil = "x'; DROP TABLE qt.items; --"
  const p = plan({ filters: { name: ['eq', evil], or: [{ site: ['like', evil] }, { name: ['reg', evil] }] } })
  t.notOk(p.select.sql.includes('DROP'), 'value is a parameter')
  t.ok(p.select.params.includes(evil))
  t.match(p.select.sql, /t\."name" = \$2::text/)
  t.match(p.select.sql, /t\."site" ILIKE \$3::text/)
  t.same(p.select.params.slice(0, 4), ['snap-1', evil, `%x'; DROP TABLE qt.items; --%`, evil])
})

t.test('page query shape', async (t) => {
  const p = plan({ columns: ['name', 'siteUpper'], sort: { column: 'count', order: 'desc' }, pagination: { start: 20, limit: 10 } })
  t.equal(
    p.select.sql,
    'SELECT t."name" AS c0, (upper(t.site)) AS c1 FROM qt.items t WHERE t.snapshot_id = $1::text ORDER BY t."count" DESC NULLS FIRST, t."id" DESC NULLS FIRST OFFSET $2::int8 LIMIT $3::int8',
  )
  t.same(p.select.params, ['snap-1', 20, 10])
  t.equal(p.count.sql, 'SELECT count(*)::int8 AS n FROM qt.items t WHERE t.snapshot_id = $1::text')
  t.same(p.columnNames, ['name', 'siteUpper'])
  const byId = plan({ sort: { column: 'id', order: 'asc' } })
  t.match(byId.select.sql, /ORDER BY t\."id" ASC NULLS LAST LIMIT/, 'no duplicate tie-break on id')
})

t.test('tables without snapshots and derived sources', async (t) => {
  const p = planQuery(PLAIN, validateRequest(PLAIN, parseTableRequest({ columns: ['name'] }, 100), { defaultLimit: 5, rules: [] }), undefined)
  t.equal(p.select.sql, 'SELECT t."name" AS c0 FROM (SELECT i.id, i.name, i.count FROM qt.items i) t ORDER BY t."count" DESC NULLS FIRST, t."id" DESC NULLS FIRST LIMIT $1::int8')
})

t.test('operators compile to null-safe SQL', async (t) => {
  const where = (filters: unknown) => plan({ filters }).count.sql.replace(/^.*snapshot_id = \$1::text AND /, '')
  t.equal(where({ name: ['neq', 'a'] }), '(NOT COALESCE(t."name" = $2::text, false))')
  t.equal(where({ name: ['eq', null] }), '(t."name" IS NULL)')
  t.equal(where({ ip: ['cidr', '10.0.0.0/8'] }), '(t."ip" <<= $2::inet)')
  t.equal(where({ ip: ['like', '10.'] }), '(host(t."ip") ILIKE $2::text)')
  t.equal(where({ tags: ['all', 'eq', 'x'] }), '(NOT EXISTS (SELECT 1 FROM unnest(t."tags") AS e(v) WHERE NOT COALESCE(e.v = $2::text, false)))')
  t.equal(where({ count: ['column', 'lt', 'other'] }), '(t."count" < t."other")')
  t.equal(where({ tags: ['empty', true] }), '((t."tags" IS NULL OR cardinality(t."tags") = 0))')
  t.equal(where({ and: [] }), 'true')
})

t.test('colour: severities in the select list and in the filter', async (t) => {
  const rule: ColorRule = {
    id: 'r', column: 'count', fallback: -1,
    checks: [{ severity: 30, filter: validateFilter(parseFilter({ count: ['gt', 3] }), { table: ITEMS }) }],
  }
  const p = plan({ columns: ['id', 'count'], reports: ['r'], filters: { count: ['color', 'eq', 30] } }, [rule])
  t.match(p.select.sql, /CASE WHEN \(t\."count" > \$1::int8\) THEN 30 ELSE -1 END AS s0/)
  t.match(p.select.sql, /\(CASE WHEN \(t\."count" > \$3::int8\) THEN 30 ELSE -1 END\) = \$4::int4/)
  t.same([...p.severityIndex], [['count', 0]])
})

t.test('a count filtered on one counted column sums its value counts, without JIT', async (t) => {
  const request = (filters: unknown) =>
    planQuery(INTERFACES, validateRequest(INTERFACES, parseTableRequest({ columns: ['id'], filters }, 1000), { defaultLimit: 50, rules: [] }), '00000000-0000-4000-8000-000000000001')
  const one = request({ intName: ['like', 'gi'], or: [{ intName: ['eq', 'Gi1/0/1'] }, { intName: ['empty', true] }] })
  t.match(one.count.sql, /FROM inventory\.interfaces_values v WHERE v\.snapshot_id = \$\d+::text AND v\.g = 2 AND \(\(\(v\."int_name"\) ILIKE/, 'the sum over the values of the column')
  t.match(one.count.sql, /^SELECT coalesce\(\(SELECT CASE WHEN EXISTS \(SELECT 1 FROM pg_catalog\.pg_class .* AND c\.relispartition\) THEN .* END\), \(SELECT count\(\*\)::int8 AS n FROM inventory\.interfaces t/, 'or the scan where they are not attached')
  t.ok(one.count.params.includes('interfaces_values_s_00000000000040008000000000000001'), 'attached: the snapshot\'s partition')
  t.same(one.count.settings, { jit: 'off' }, 'the count runs without JIT')
  t.equal(one.settings, undefined, 'the page keeps the server\'s settings')
  for (const filters of [{ intName: ['like', 'gi'], l1: ['eq', 'up'] }, { media: ['eq', 'copper'] }, { intName: ['like', 'gi'], nameOriginal: ['like', 'gi'] }]) {
    const other = request(filters)
    t.notMatch(other.count.sql, /interfaces_values/, `${JSON.stringify(filters)}: the scan counts`)
    t.equal(other.count.settings, undefined)
  }
})
