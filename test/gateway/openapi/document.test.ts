/**
 * The OpenAPI 3.1 document served at GET /api/openapi.json (and per address generation), checked
 * by a real OpenAPI validator, and what it says about versions, deprecation, access, tables and
 * request bodies: all of it generated from the route table, the catalog and the body schemas.
 */
import { Validator } from '@seriousme/openapi-schema-validator'
import { validate as readmeValidate, compileErrors } from '@readme/openapi-parser'
import t, { type Test } from 'tap'
import { TABLES, type TableDef } from '../../../src/inventory/catalog/index.js'
import { compileConfig } from '../../../src/shared/config/index.js'
import { buildDocument, operationsWithoutBodySchema } from '../../../src/gateway/openapi/index.js'
import { UserCreate } from '../../../src/gateway/handlers/schemas.js'
import { Route } from '../../../src/gateway/routes/table.js'
import { undescribedTableKeys } from '../../../src/inventory/openapi/tables.js'
import { buildInventoryDocument, operationsWithoutBodySchema as inventoryWithoutBodySchema } from '../../../src/inventory/openapi/document.js'
import { TABLE_REQUEST_KEYS } from '../../../src/inventory/query/parse.js'
import { summarizeTable } from '../../../src/inventory/query/describe.js'
import { ERRORS, type ErrorCode } from '../../../src/shared/errors.js'
import type { Upstream } from '../../../src/gateway/upstreams/settings.js'
import { startTestGateway as start, type Teardown } from '../helpers.js'

/** The path generation is past its default sunset on this date: keep it served, deprecated. */
const RELAXED = { versioning: { generations: { path: { enforce: false } } } }
const startTestGateway = (t: Teardown) => start(t, { config: RELAXED })

type Doc = { openapi: string; servers: Array<{ url: string }>; paths: Record<string, Record<string, Record<string, unknown>>>; components: { schemas: Record<string, Record<string, unknown>> } }

/** A `$ref` of the document followed to what it names. */
function resolveRef(doc: unknown, node: unknown): unknown {
  const ref = (node as { $ref?: string }).$ref
  if (ref === undefined) return node
  return ref.slice(2).split('/').reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], doc)
}

async function fetchDoc(base: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; doc: Doc }> {
  const res = await fetch(`${base}${path}`, { headers })
  return { status: res.status, headers: res.headers, doc: (await res.json()) as Doc }
}

async function expectValid(t: Test, doc: unknown, what: string): Promise<void> {
  const validator = new Validator()
  const result = await validator.validate(doc as Record<string, unknown>)
  t.ok(result.valid, `${what} is a valid OpenAPI document`)
  if (!result.valid) t.comment(JSON.stringify(result.errors, null, 1).slice(0, 3000))
  t.equal(validator.version, '3.1', `${what}: version 3.1`)
  // A second, independent validator that also checks what the schema cannot: path parameters
  // that match their path, unique operation ids, component names (code generators need these).
  const readme = await readmeValidate(structuredClone(doc) as Parameters<typeof readmeValidate>[0])
  t.ok(readme.valid, `${what} passes @readme/openapi-parser`)
  if (!readme.valid) t.comment(compileErrors(readme).slice(0, 3000))
  t.same(readme.warnings, [], `${what}: no warnings of @readme/openapi-parser`)
}

t.test('every generation has a valid OpenAPI 3.1 document, without credentials', async (t) => {
  const gw = await startTestGateway(t)
  for (const [path, server] of [
    ['/api/openapi.json', '/api'],
    ['/api/v1/openapi.json', '/api/v1'],
    ['/api/v6.0/openapi.json', '/api/v6.0'],
    ['/api/openapi.json?versions=latest', '/api'],
  ] as const) {
    const { status, headers, doc } = await fetchDoc(gw.url, path)
    t.equal(status, 200, path)
    t.match(headers.get('content-type'), /^application\/json/)
    t.equal(doc.openapi, '3.1.0')
    t.same(doc.servers, [{ url: server }], `${path} is the view of its generation`)
    await expectValid(t, doc, path)
  }
  const bad = await fetch(`${gw.url}/api/openapi.json?versions=oldest`)
  t.equal(bad.status, 422)
  t.match(await bad.json(), { errors: [{ message: '"versions" must be one of [default, latest]' }] })
})

t.test('versions: the document of a version set; deprecated versions with their sunset', async (t) => {
  const gw = await startTestGateway(t)
  const header = (await fetchDoc(gw.url, '/api/openapi.json')).doc
  const refresh = header.paths['/auth/token']!.post!
  t.equal(refresh['x-api-version'], 2, 'the header generation describes the default version')
  t.notOk(refresh.deprecated)
  const param = (refresh.parameters as Array<Record<string, unknown>>).find((p) => p.name === 'X-API-Version')!
  t.match(param, { in: 'header', schema: { type: 'integer', default: 2, oneOf: [{ const: 1, deprecated: true, 'x-sunset': '2027-06-30T00:00:00Z' }, { const: 2 }] } })
  t.match(param.description, /X-API-Version-Used/)
  t.equal(header.paths['/users/me']!.get!['x-api-version'], 1)
  t.equal((await fetchDoc(gw.url, '/api/openapi.json?versions=latest')).doc.paths['/users/me']!.get!['x-api-version'], 2, 'latest set')

  const { doc: release, headers } = await fetchDoc(gw.url, '/api/v6.0/openapi.json')
  t.equal(headers.get('deprecation'), 'true', 'the path generation itself is deprecated')
  const old = release.paths['/auth/token']!.post!
  t.equal(old['x-api-version'], 1, 'release 6.0 used version 1')
  t.equal(old.deprecated, true)
  t.equal(old['x-sunset'], '2026-02-01T00:00:00Z', 'the earlier sunset of generation (2026-02-01) and version (2027-06-30)')
  t.equal(release.paths['/version']!.get!.deprecated, true, 'every operation of a deprecated generation')
  t.notOk((old.parameters as Array<Record<string, unknown>>).some((p) => p.name === 'X-API-Version'), 'no header in the path generation')
  const legacy = (await fetchDoc(gw.url, '/api/v1/openapi.json')).doc
  t.ok(legacy.paths['/tables/addressing/managedDevs'], 'v4 camelCase table paths under /api/v1/')
  t.notOk(header.paths['/tables/addressing/managedDevs'])
})

t.test('access rules are security requirements with their scope; errors and headers documented', async (t) => {
  const gw = await startTestGateway(t)
  const { doc } = await fetchDoc(gw.url, '/api/openapi.json')
  t.same(doc.paths['/version']!.get!.security, [], 'public')
  t.same(doc.paths['/users']!.get!.security, [{ apiKey: ['team'] }, { basic: ['team'] }, { bearer: ['team'] }, { cookie: ['team'] }])
  t.same(doc.paths['/api-tokens']!.get!.security, [{ apiKey: [] }, { basic: [] }, { bearer: [] }, { cookie: [] }], 'authenticated')
  t.same(doc.paths['/api-tokens']!.post!.security, [{ basic: [] }, { bearer: [] }, { cookie: [] }], 'keys are created with a user session only: no API key')
  t.equal(doc.paths['/snapshots/{id}/lock']!.post!['x-access'], 'write')
  t.match((doc.components as Record<string, Record<string, unknown>>).securitySchemes, { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Token' }, basic: { scheme: 'basic' }, bearer: { scheme: 'bearer' }, cookie: { in: 'cookie', name: 'accessToken' } })
  const responses = doc.paths['/users']!.post!.responses as Record<string, unknown>
  t.ok(responses['201'], 'creates answer 201')
  for (const s of ['401', '403', '406', '410', '422', '429']) t.ok(responses[s], `POST users documents ${s}`)
  t.same(responses['410'], { $ref: '#/components/responses/410' })
  const shared = (doc.components as Record<string, Record<string, Record<string, unknown>>>).responses!
  t.match(shared['429'], { headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } })
  t.match(shared['410'], { content: { 'application/json': { schema: { $ref: '#/components/schemas/VersionGone' } } } })
  t.match(doc.paths['/auth/token']!.delete!.responses, { 401: { $ref: '#/components/responses/PlainUnauthorized' } }, 'DELETE auth/token refuses in text/plain')
})

t.test('tables: a request and a response schema per table from the catalog', async (t) => {
  const gw = await startTestGateway(t)
  const { doc } = await fetchDoc(gw.url, '/api/openapi.json')
  const devices = TABLES.find((x) => x.path === 'inventory/devices')!
  for (const table of TABLES) t.ok(doc.paths[`/tables/${table.path}`]?.post, `POST tables/${table.path}`)
  const request = doc.components.schemas.InventoryDevicesRequest as { properties: Record<string, Record<string, unknown>>; additionalProperties: boolean; required: string[] }
  t.same((request.properties.columns!.items as { enum: string[] }).enum, devices.columns.map((c) => c.name))
  t.same(request.required, ['columns'])
  t.equal(request.additionalProperties, false)
  const row = doc.components.schemas.InventoryDevicesRow as { properties: Record<string, { anyOf: Array<Record<string, unknown>> }> }
  t.same(row.properties.devType!.anyOf[0], { enum: [...devices.columns.find((c) => c.name === 'devType')!.values!, null] }, 'enumerations')
  t.same(row.properties.uptime!.anyOf[0], { type: ['integer', 'null'] })
  t.ok(doc.paths['/tables/inventory/devices']!.post!.responses, 'documented')
  t.match(doc.paths['/tables/inventory/devices']!.post!.responses, { 200: { content: { 'text/csv': {} } } })
  t.notOk('snapshot' in (doc.components.schemas.ManagementSnapshotsRequest as { properties: object }).properties, 'no snapshot key where the table has none')
})

t.test('request bodies are the very schemas the handlers check', async (t) => {
  const gw = await startTestGateway(t)
  const { doc } = await fetchDoc(gw.url, '/api/openapi.json')
  const body = doc.paths['/users']!.post!.requestBody as { content: Record<string, { schema: unknown }> }
  t.same(body.content['application/json']!.schema, JSON.parse(JSON.stringify(UserCreate)))
  t.match(doc.paths['/snapshots/{id}']!.patch!.requestBody, { content: { 'application/json': { schema: { additionalProperties: false } } } })
  for (const [path, method] of [['/snapshots', 'post'], ['/snapshots/{id}/settings', 'patch'], ['/settings', 'patch'], ['/settings/seed', 'put'], ['/settings/snmp', 'post'], ['/settings/snmp/{id}', 'patch'], ['/reports', 'post'], ['/reports/{id}', 'patch']] as const) {
    t.match(doc.paths[path]![method]!.requestBody, { required: true, content: { 'application/json': { schema: Object } } }, `${method.toUpperCase()} ${path} publishes the schema its body is checked with`)
  }
  const settings = (doc.paths['/settings']!.patch!.requestBody as { content: Record<string, { schema: { properties: Record<string, Record<string, unknown>> } }> }).content['application/json']!.schema
  t.match(settings.properties.include, { type: 'array', items: { type: 'string', format: 'ipv4-network' } }, 'formats are published by name')
  t.match(doc.paths['/reports']!.post!.requestBody, { content: { 'application/json': { schema: { required: ['name', 'apiEndpoint', 'column', 'checks'] } } } })
  // Every endpoint that takes a body publishes the schema its handler checks it with.
  t.same(operationsWithoutBodySchema(gw.gateway.routes().listed), [], 'no endpoint of the gateway without a request body schema')
  t.same(inventoryWithoutBodySchema(), [], 'no endpoint of the inventory without a request body schema')
  t.match(doc.paths['/snapshots/{id}/devices']!.delete!.requestBody, { content: { 'application/json': { schema: { type: 'array', maxItems: 1000 } } } }, 'bodies of DELETEs too')
  t.match(doc.paths['/attributes/local']!.delete!.requestBody, { content: { 'application/json': { schema: { required: ['attributes', 'snapshot'] } } } })
  t.match(doc.paths['/snapshots/load']!.post!.requestBody, { content: { 'application/json': { schema: { type: 'array', items: { properties: { id: { format: 'snapshot-id' } } } } } } })
  const tableKeys = undescribedTableKeys()
  t.comment(`table request keys without a schema yet: ${tableKeys.join(', ') || 'none'}`)
  const devices = doc.components.schemas.InventoryDevicesRequest as { properties: Record<string, unknown> }
  for (const key of TABLE_REQUEST_KEYS) t.ok(key in devices.properties, `the table request schema has every key the engine accepts: ${key}`)
})

t.test('a deprecated column is deprecated: true in the table schemas the inventory publishes', async (t) => {
  const devices = TABLES.find((x) => x.path === 'inventory/devices')!
  const table: TableDef = { ...devices, columns: devices.columns.map((c) => (c.name === 'image' ? { ...c, deprecated: 'use version' } : c)) }
  const doc = buildInventoryDocument([table]) as unknown as Doc
  const row = doc.components.schemas.InventoryDevicesRow as { properties: Record<string, Record<string, unknown>> }
  t.equal(row.properties.image!.deprecated, true)
  t.match(row.properties.image!.description, /Deprecated: use version/)
  t.notOk(row.properties.hostname!.deprecated)
})

t.test('an endpoint the document code knows nothing of appears from the route table alone', async (t) => {
  const config = compileConfig(RELAXED)
  const widget = new Route(
    { path: 'widgets/:id', upstream: 'shop', methods: { GET: 'read', PATCH: 'write' }, versions: [{ version: 1, summary: 'First.', deprecated: { sunset: '2030-01-01T00:00:00Z' } }, { version: 2, summary: 'Second.' }], defaultVersion: 1, description: 'A widget.' },
    { name: 'shop', versioning: 'header' } as unknown as Upstream,
    'routes/shop.json',
  )
  const doc = buildDocument([widget], { generation: 'header', config }) as unknown as Doc
  const get = doc.paths['/widgets/{id}']!.get!
  t.match(get, { 'x-upstream': 'shop', 'x-access': 'read', 'x-api-version': 1, deprecated: true, 'x-sunset': '2030-01-01T00:00:00Z' })
  t.match(get.parameters, [{ name: 'id', in: 'path', required: true }, { name: 'X-API-Version' }])
  t.match(get.responses, { '2XX': {}, '4XX': {}, 429: {}, 502: {} }, 'the backend\'s answers are its own')
  t.same(operationsWithoutBodySchema([widget]), [], 'route files are not ours to describe')
  await expectValid(t, doc, 'a document with a route file')
})

/** Text of `description` and `summary` fields with an HTML-like `<word>` outside a code span. */
function htmlLikeTexts(node: unknown, at: string, out: string[]): string[] {
  if (Array.isArray(node)) node.forEach((x, i) => htmlLikeTexts(x, `${at}/${i}`, out))
  else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if ((k === 'description' || k === 'summary') && typeof v === 'string' && /<[A-Za-z!/][^>]*>/.test(v.replace(/`[^`]*`/g, ''))) out.push(`${at}/${k}: ${v}`)
      else htmlLikeTexts(v, `${at}/${k}`, out)
    }
  }
  return out
}

t.test('the explorer renders every description as written: no text it would take for HTML', async (t) => {
  const gw = await startTestGateway(t)
  for (const path of ['/api/openapi.json', '/api/v1/openapi.json', '/api/v6.0/openapi.json']) {
    const { doc } = await fetchDoc(gw.url, path)
    t.same(htmlLikeTexts(doc, '#', []), [], `${path}: "<...>" only inside code spans`)
  }
})

t.test('documented answers: GET tables lists every key; error examples carry real codes', async (t) => {
  const gw = await startTestGateway(t)
  const { doc } = await fetchDoc(gw.url, '/api/openapi.json')
  const keys = Object.keys(summarizeTable(TABLES[0]!)).sort()
  const content = (doc.paths['/tables']!.get!.responses as Record<string, { content: Record<string, { schema: unknown }> }>)['200']!.content['application/json']!.schema as { items: unknown }
  const item = resolveRef(doc, content.items) as { properties: Record<string, unknown>; required: string[] }
  t.same(Object.keys(item.properties).sort(), keys, 'every key GET tables answers with is described')
  t.same([...item.required].sort(), keys, 'and required')
  const shared = (doc.components as unknown as { responses: Record<string, { content?: Record<string, { example?: { code: string; message: string } }> }> }).responses
  for (const [status, response] of Object.entries(shared)) {
    const example = response.content?.['application/json']?.example
    if (!/^\d+$/.test(status) || status === '410') continue
    t.ok(example, `${status}: an example body`)
    const entry = ERRORS[example!.code as ErrorCode]
    t.equal(entry?.status, Number(status), `${status}: its example code ${example!.code} is a real code of that status`)
    t.equal(example!.message, entry?.message)
  }
})

t.test('statuses per endpoint version: the older generations document what their clients test', async (t) => {
  const gw = await startTestGateway(t)
  const statuses = (doc: Doc, path: string) => Object.keys(doc.paths[path]!.post!.responses as object).filter((s) => /^2/.test(s))
  for (const prefix of ['/api/v1', '/api/v6.0']) {
    const { doc } = await fetchDoc(gw.url, `${prefix}/openapi.json`)
    t.same(statuses(doc, '/snapshots/{id}/clone'), ['204'], `${prefix}: clone answers 204`)
    t.same(statuses(doc, '/snapshots/{id}/devices'), ['200'], `${prefix}: rediscovery answers 200`)
  }
  const { doc } = await fetchDoc(gw.url, '/api/openapi.json')
  t.same(statuses(doc, '/snapshots/{id}/clone'), ['201', '204'], 'header generation: either version')
  t.match(doc.paths['/snapshots/{id}/clone']!.post!.responses, { 201: { description: 'Done (version 2).' }, 204: { description: 'Done; no body (version 1).' } })
  t.same(statuses(doc, '/snapshots/{id}/devices'), ['200', '202'])
})
