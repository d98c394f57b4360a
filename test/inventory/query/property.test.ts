/**
 * Property: for random data, random filter trees, sorts and pages, the engine returns exactly what
 * a plain in-memory evaluation of the same request returns (rows, order, count, severities).
 */
import t from 'tap'
import fc from 'fast-check'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { parseFilter, queryTable, validateFilter, type ColorRule } from '../../../src/inventory/query/index.js'
import { ITEMS, createItems, insertItems, type Item } from './fixture.js'
import { testDeps } from './helpers.js'
import { matches, severityOf, sortRows } from './model.js'

const CHARS = ['a', 'b', 'A', 'B', '_', '%', 'x']
const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 4 }).map((cs) => cs.join(''))
const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 4 })
const IPS = ['10.0.0.1', '10.0.1.5', '10.1.0.1', '192.168.0.1', '172.16.5.4']
const CIDRS = ['10.0.0.0/8', '10.0.0.0/16', '10.0.0.0/24', '192.168.0.0/16', '0.0.0.0/0', '172.16.0.0/12']
const REGEXES = ['^a', 'b$', 'a.b', '[ab]x', 'A', '^$', 'x|B']
const RATIOS = [-2, -0.5, 0, 0.25, 1.5, 3]

const row = fc.record({
  name: nullable(text),
  count: nullable(fc.integer({ min: -4, max: 6 })),
  other: nullable(fc.integer({ min: -4, max: 6 })),
  ratio: nullable(fc.constantFrom(...RATIOS)),
  up: nullable(fc.boolean()),
  ip: nullable(fc.constantFrom(...IPS)),
  tags: nullable(fc.array(text, { maxLength: 3 })),
})

const number = fc.oneof(fc.integer({ min: -5, max: 7 }), fc.constantFrom(-1.5, 0.5, 2.5))
const condition: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ column: fc.constantFrom('name'), op: fc.constantFrom('eq', 'neq', 'ieq', 'nieq', 'like', 'notlike'), value: text }).map((c) => ({ [c.column]: [c.op, c.value] })),
  fc.record({ op: fc.constantFrom('eq', 'neq'), value: fc.constant(null) }).map((c) => ({ name: [c.op, c.value] })),
  fc.record({ op: fc.constantFrom('reg', 'nreg', 'ireg', 'nireg'), value: fc.constantFrom(...REGEXES) }).map((c) => ({ name: [c.op, c.value] })),
  fc.record({ column: fc.constantFrom('count', 'ratio'), op: fc.constantFrom('eq', 'neq', 'gt', 'gte', 'lt', 'lte'), value: number })
    .filter((c) => !(c.column === 'count' && (c.op === 'eq' || c.op === 'neq') && !Number.isInteger(c.value)))
    .map((c) => ({ [c.column]: [c.op, c.value] })),
  fc.record({ column: fc.constantFrom('name', 'count', 'tags', 'ip'), value: fc.boolean() }).map((c) => ({ [c.column]: ['empty', c.value] })),
  fc.record({ op: fc.constantFrom('eq', 'neq'), value: fc.boolean() }).map((c) => ({ up: [c.op, c.value] })),
  fc.constantFrom(...CIDRS).map((c) => ({ ip: ['cidr', c] })),
  fc.record({ op: fc.constantFrom('eq', 'neq', 'gt', 'gte', 'lt', 'lte') }).map((c) => ({ count: ['column', c.op, 'other'] })),
  fc.record({ q: fc.constantFrom('any', 'all'), op: fc.constantFrom('eq', 'neq', 'like', 'notlike', 'ieq'), value: text }).map((c) => ({ tags: [c.q, c.op, c.value] })),
  fc.record({ op: fc.constantFrom('eq', 'neq', 'gt', 'gte', 'lt', 'lte'), value: fc.constantFrom(-1, 0, 10, 20, 30) }).map((c) => ({ count: ['color', c.op, c.value] })),
)

const filterTree: fc.Arbitrary<Record<string, unknown>> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    condition,
    fc.array(tie('node'), { maxLength: 3 }).map((children) => ({ and: children })),
    fc.array(tie('node'), { maxLength: 3 }).map((children) => ({ or: children })),
    fc.tuple(condition, condition).map(([a, b]) => ({ ...a, ...b })),
  ),
})).node as fc.Arbitrary<Record<string, unknown>>

const request = fc.record({
  filters: fc.option(filterTree, { nil: undefined }),
  sort: fc.record({ column: fc.constantFrom('id', 'name', 'count', 'ratio', 'up'), order: fc.constantFrom('asc' as const, 'desc' as const) }),
  start: fc.integer({ min: 0, max: 30 }),
  limit: fc.integer({ min: 1, max: 25 }),
})

const RULE = { checks: { '30': { count: ['gt', 3] }, '20': { name: ['like', 'a'] }, '0': { count: ['lte', 0] } } }
const colorRule: ColorRule = {
  id: 'count-rule',
  column: 'count',
  fallback: -1,
  checks: (['30', '20', '0'] as const).map((s) => ({ severity: Number(s), filter: validateFilter(parseFilter(RULE.checks[s]), { table: ITEMS }) })),
}

for (const engine of ENGINES) {
  t.test(`engine agrees with the in-memory model on ${engine}`, async (t) => {
    const db = await freshDb(t, engine)
    await createItems(db)
    const snapshots: string[] = []
    const deps = testDeps(db, snapshots, () => [colorRule])
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 30 }), fc.array(request, { minLength: 1, maxLength: 6 }), async (rows, requests) => {
        const snapshot = `p${run++}`
        snapshots.push(snapshot)
        const items: Item[] = rows.map((r, i) => ({ ...r, id: `r${String(i).padStart(3, '0')}`, site: null, ts: null, net: null, mac: null, vlans: null, addrs: null, extra: null }))
        await insertItems(db, snapshot, items)
        for (const req of requests) {
          const body = { snapshot, columns: ['id', 'count'], filters: req.filters, sort: req.sort, pagination: { start: req.start, limit: req.limit }, reports: ['count-rule'] }
          const got = await queryTable(deps, ITEMS, body)
          const expected = sortRows(items.filter((it) => matches(it as never, req.filters ?? {})) as never[], req.sort.column, req.sort.order)
          const page = expected.slice(req.start, req.start + req.limit)
          const want = page.map((it: Item) => ({ id: it.id, count: { data: it.count, severity: severityOf(it as never) } }))
          if (JSON.stringify(got.data) !== JSON.stringify(want) || got._meta.count !== expected.length) {
            throw new Error(`mismatch for ${JSON.stringify(body)}\n got ${JSON.stringify(got)}\nwant ${JSON.stringify(want)} count ${expected.length}`)
          }
        }
      }),
      { numRuns: engine === 'postgres' ? 60 : 40 },
    )
    t.pass('engine and model agree')
  })
}
