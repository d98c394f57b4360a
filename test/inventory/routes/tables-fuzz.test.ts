/**
 * Fuzz: random and malformed table requests through the real HTTP app never produce a 500 and
 * never hang (each request must answer within the client timeout).
 */
import t from 'tap'
import fc from 'fast-check'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { VALUE_OPERATORS } from '../../../src/inventory/query/types.js'
import { LAB_ID, labSnapshot } from '../reports/lab.js'
import { startInventory } from './server.js'

const PATHS = ['inventory/devices', 'inventory/interfaces', 'networks/routes', 'addressing/hosts', 'neighbors/all', 'management/snapshots', 'jobs', 'nope', 'inventory', '']
const COLUMNS = ['id', 'hostname', 'uptime', 'loginIp', 'memoryUtilization', 'network', 'nexthop', 'protocols', 'edges', 'intName', 'l1', 'tsEnd', 'status', '*', '', 'x y']
const OPS = [...VALUE_OPERATORS, 'column', 'color', 'any', 'all', 'EQ', 'between']

const anyValue = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom('10.0.0.0/8', '::/0', '10.0.0.1/33', '(', '[[:alpha:]', '\\', '%_', 'a{1000000}', '\u0000', 'x'.repeat(2000), '1e400'),
  fc.integer(),
  fc.double(),
  fc.constantFrom(1e300, -1e300, 2 ** 63, Number.MAX_SAFE_INTEGER, -1, 0, 30),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
)

const condition = fc.oneof(
  fc.tuple(fc.constantFrom(...OPS), anyValue),
  fc.tuple(fc.constantFrom('column', 'color', 'any', 'all'), fc.constantFrom(...OPS), anyValue),
  fc.array(anyValue, { maxLength: 4 }),
  anyValue,
)

const filters: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  f: fc.oneof(
    { depthSize: 'small' },
    fc.dictionary(fc.constantFrom(...COLUMNS), condition, { maxKeys: 3 }),
    fc.record({ and: fc.array(tie('f'), { maxLength: 3 }) }),
    fc.record({ or: fc.array(tie('f'), { maxLength: 3 }) }),
    anyValue,
  ),
})).f

const body = fc.oneof(
  fc.record(
    {
      snapshot: fc.oneof(fc.constantFrom(LAB_ID, '$last', '$prev', 'nope'), anyValue),
      columns: fc.oneof(fc.array(fc.constantFrom(...COLUMNS), { maxLength: 5 }), anyValue),
      filters,
      pagination: fc.oneof(fc.record({ start: anyValue, limit: anyValue }, { requiredKeys: [] }), anyValue),
      sort: fc.oneof(fc.record({ column: fc.constantFrom(...COLUMNS), order: fc.constantFrom('asc', 'desc', 'ASC', 'sideways') }), anyValue),
      reports: fc.oneof(fc.constantFrom('/inventory/devices', '/inventory/interfaces'), fc.array(fc.constantFrom('device-uptime', 'interface-l1-state', 'nope')), anyValue),
      format: fc.oneof(fc.record({ exportToFile: fc.boolean(), dataType: fc.constantFrom('csv', 'json', 'xml') }), anyValue),
    },
    { requiredKeys: [] },
  ).map((b) => JSON.stringify(b)),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 50 }),
  fc.constantFrom('', '{', '[]', 'null', '{"columns":["id"],"snapshot":"$last","filters":' + '{"and":['.repeat(200) + ']}'.repeat(200) + '}'),
)

const headers = fc.record(
  {
    accept: fc.constantFrom('application/json', 'text/csv', '*/*', 'text/*', 'application/xml', 'text/csv;q=0', 'garbage;;;q=x', ''),
    'content-type': fc.constantFrom('application/json', 'text/plain', 'application/vnd.api+json', 'application/json; charset=utf-8'),
  },
  { requiredKeys: [] },
)

for (const engine of ENGINES) t.test(`fuzzed table requests on ${engine}: never 500, never a hang`, async (t) => {
  const db = await freshDb(t, engine)
  await labSnapshot(db)
  const server = await startInventory(t, db, { query: { statementTimeoutMs: 2000 } })
  const seen = new Map<number, number>()
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...PATHS), fc.constantFrom('POST', 'POST', 'POST', 'GET'), body, headers, async (path, method, text, hdrs) => {
      const r = await server.request(method, method === 'GET' ? `tables/${path}/description` : `tables/${path}`, method === 'GET' ? undefined : text, hdrs)
      seen.set(r.status, (seen.get(r.status) ?? 0) + 1)
      if (r.status >= 500) throw new Error(`${r.status} for ${method} ${path} ${JSON.stringify(hdrs)} ${text.slice(0, 500)}: ${r.text.slice(0, 300)}`)
      if (r.status >= 400 && !r.headers.get('content-type')?.startsWith('application/json')) throw new Error(`error without JSON body: ${r.status}`)
    }),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 400) },
  )
  t.ok((seen.get(200) ?? 0) > 0 && (seen.get(422) ?? 0) > 0, `statuses seen: ${JSON.stringify([...seen])}`)
})

t.test('fuzzed custom rules: never 500', async (t) => {
  const db = await freshDb(t, 'postgres')
  await labSnapshot(db)
  const server = await startInventory(t, db)
  const rule = fc.record(
    {
      name: fc.oneof(fc.string({ maxLength: 10 }), anyValue),
      apiEndpoint: fc.oneof(fc.constantFrom('/v1/tables/inventory/devices', 'tables/inventory/interfaces', 'vlan/device', '/v1/tables/nope'), anyValue),
      column: fc.oneof(fc.constantFrom(...COLUMNS), anyValue),
      checks: fc.oneof(fc.dictionary(fc.constantFrom('0', '10', '20', '30', '40'), filters, { maxKeys: 3 }), anyValue),
      defaultColor: fc.oneof(fc.constantFrom(-1, 0, 10, 20, 30, 5, null), anyValue),
      groups: fc.oneof(fc.array(fc.constantFrom('custom', 'routing', 'nope')), anyValue),
      descriptions: fc.oneof(fc.record({ general: anyValue }), anyValue),
    },
    { requiredKeys: [] },
  )
  const validCheck = fc.oneof(
    fc.string({ maxLength: 6 }).map((v) => ({ hostname: ['like', v] })),
    fc.integer().map((v) => ({ uptime: ['gt', v] })),
    fc.constantFrom('10.0.0.0/8', '::/0').map((v) => ({ or: [{ loginIp: ['cidr', v] }, { memoryUtilization: ['lte', 50] }] })),
  )
  const nearlyValid = fc.dictionary(fc.constantFrom('0', '10', '20', '30'), validCheck, { minKeys: 1, maxKeys: 3 }).map((checks) => ({
    name: 'fuzzed',
    apiEndpoint: '/v1/tables/inventory/devices',
    column: 'hostname',
    checks,
  }))
  const seen = new Map<number, number>()
  await fc.assert(
    fc.asyncProperty(fc.oneof(rule, nearlyValid), fc.constantFrom('POST', 'PATCH'), async (body, method) => {
      const r = await server.request(method, method === 'POST' ? 'reports' : 'reports/device-uptime', body)
      seen.set(r.status, (seen.get(r.status) ?? 0) + 1)
      if (r.status >= 500) throw new Error(`${r.status} for ${method} ${JSON.stringify(body).slice(0, 500)}: ${r.text.slice(0, 300)}`)
      if (r.status === 201) {
        const id = (r.json as { id: string }).id
        const q = await server.request('POST', 'tables/inventory/devices', { snapshot: LAB_ID, columns: ['id'], reports: [id], pagination: { limit: 1 } })
        if (q.status >= 500) throw new Error(`rule ${id} breaks queries: ${q.text}`)
        const list = await server.request('GET', `reports?snapshot=${LAB_ID}`)
        if (list.status !== 200) throw new Error(`rule ${id} breaks GET reports: ${list.text}`)
        await server.request('DELETE', `reports/${id}`)
      }
    }),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
  )
  t.ok((seen.get(422) ?? 0) > 0 && (seen.get(201) ?? 0) > 0, `statuses seen: ${JSON.stringify([...seen])}`)
})
