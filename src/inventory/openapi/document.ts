/**
 * The inventory's own OpenAPI 3.1 document, served on its internal listener (GET /openapi.json):
 * every operation it answers, in its own terms, with the request body its handler checks (the
 * catalog's per table, the TypeBox schemas of routes/schemas.ts otherwise) and what it answers on
 * success. The gateway composes the public document from it and its own operations, and takes
 * the tables that exist from its paths (docs/openapi.md): it imports nothing of the inventory.
 *
 * A path under a `*` endpoint (a table) carries `x-netinv-endpoint` (the manifest pattern it
 * belongs to, e.g. "tables/*") and `x-aliases` (the v4 camelCase paths that reach it too).
 */
import { createHash } from 'node:crypto'
import { ENDPOINTS, producesOf, type Endpoint, type Method } from '../../shared/manifest.js'
import { RELEASE_VERSION } from '../../shared/product.js'
import type { TableDef } from '../catalog/index.js'
import { INVENTORY_BODIES } from '../routes/schemas.js'
import { BODY_COMPONENTS, successBody, successStatuses } from './bodies.js'
import { tableComponents, uncollectedTableComponents, tableRequestSchema, tableResponseSchema, tableRowSchema, tableSchemaName, type JsonSchema } from './tables.js'

const REF = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` })

/** POSTs that take no body: actions on a resource named by the path. */
const NO_BODY: ReadonlySet<string> = new Set(['POST snapshots/:id/lock', 'POST snapshots/:id/unlock', 'POST snapshots/:id/load', 'POST snapshots/:id/unload', 'POST snapshots/:id/clone', 'POST jobs/:id/stop'])

const INVENTORY_ENDPOINTS: readonly Endpoint[] = ENDPOINTS.filter((e) => e.service === 'inventory')

/** Operations that take a body (every POST, PUT and PATCH) but publish no schema for it. */
export function operationsWithoutBodySchema(): string[] {
  const out: string[] = []
  for (const e of INVENTORY_ENDPOINTS) {
    if (e.path.startsWith('tables/')) continue
    for (const method of Object.keys(e.methods) as Method[]) {
      const key = `${method} ${e.path}`
      if ((method === 'POST' || method === 'PUT' || method === 'PATCH') && !INVENTORY_BODIES[key] && !NO_BODY.has(key)) out.push(key)
    }
  }
  return out
}

/** "snapshots/:id/lock" → "/snapshots/{id}/lock". */
function openApiPath(pattern: string): string {
  return '/' + pattern.split('/').map((s) => (s.startsWith(':') ? `{${s.slice(1)}}` : s)).join('/')
}

/**
 * Success statuses → the endpoint versions that answer with each; a status not every version
 * answers with names its versions (`x-api-versions`), so the gateway describes each address
 * generation with the statuses of the version it maps to.
 */
function responsesOf(method: Method, e: Endpoint): JsonSchema {
  const out: JsonSchema = {}
  const produces = producesOf(e)
  const versions = e.versions.map((v) => v.version)
  const by = new Map<number, number[]>()
  for (const version of versions) for (const status of successStatuses(method, e.path, version)) by.set(status, [...(by.get(status) ?? []), version])
  for (const [status, of] of [...by].sort(([a], [b]) => a - b)) {
    const some = of.length < versions.length
    const which = some ? ` (version ${of.join(', ')})` : ''
    const answer: JsonSchema = { description: status === 204 ? `Done; no body${which}.` : `Done${which}.` }
    if (status !== 204) answer.content = produces.includes('application/json') ? { 'application/json': { schema: successBody(method, e.path) } } : Object.fromEntries(produces.map((type) => [type, { schema: { type: 'string' } }]))
    if (some) answer['x-api-versions'] = of
    out[String(status)] = answer
  }
  return out
}

function operation(method: Method, e: Endpoint): JsonSchema {
  const op: JsonSchema = { summary: e.description, responses: responsesOf(method, e) }
  const body = INVENTORY_BODIES[`${method} ${e.path}`]
  if (body) {
    const also = Object.fromEntries(Object.entries(body.alsoAccepts ?? {}).map(([type, schema]) => [type, { schema }]))
    op.requestBody = { required: body.optional !== true, content: { [body.contentType ?? 'application/json']: { schema: body.schema }, ...also } }
  }
  const params = e.path.split('/').filter((s) => s.startsWith(':'))
  if (params.length > 0) op.parameters = params.map((s) => ({ name: s.slice(1), in: 'path', required: true, schema: { type: 'string' } }))
  return op
}

/** `tables/*` and `tables/*\/description`: one path per table. */
function tablePaths(e: Endpoint, tables: readonly TableDef[], paths: Record<string, JsonSchema>): void {
  const suffix = e.path.slice('tables/*'.length)
  for (const table of tables) {
    const item: JsonSchema = { 'x-netinv-endpoint': e.path }
    if (table.legacyPaths?.length) item['x-aliases'] = table.legacyPaths.map((p) => `/tables/${p}${suffix}`)
    for (const method of Object.keys(e.methods) as Method[]) {
      if (suffix === '') {
        const name = tableSchemaName(table)
        item[method.toLowerCase()] = {
          summary: table.collected === false ? `${table.title}: not collected by netinv; answers no rows. Columns: ${table.columns.map((c) => c.name).join(', ')}.` : `${table.title}: ${table.description}`,
          // the two hundred tables netinv does not collect in a group of their own: the explorer opens one group at once
          tags: [table.collected === false ? 'tables-not-collected' : 'tables'],
          requestBody: { required: true, content: { 'application/json': { schema: REF(`${name}Request`) } } },
          responses: {
            200: {
              description: 'Done.',
              content: {
                'application/json': { schema: REF(`${name}Response`) },
                'text/csv': { schema: { type: 'string', description: 'With format.dataType "csv" (or exportToFile), or Accept: text/csv.' } },
              },
            },
          },
        }
      } else {
        // the descriptions in a group of their own, as the tables netinv does not collect: the tables group stays one screenful of operations
        item[method.toLowerCase()] = { ...operation(method, e), summary: `${table.title}: columns, types and an example request.`, tags: ['table-descriptions'] }
      }
    }
    paths[`/tables/${table.path}${suffix}`] = item
  }
}

export function buildInventoryDocument(tables: readonly TableDef[]): JsonSchema {
  const paths: Record<string, JsonSchema> = {}
  for (const e of INVENTORY_ENDPOINTS) {
    if (e.path.startsWith('tables/*')) {
      tablePaths(e, tables, paths)
      continue
    }
    const item: JsonSchema = {}
    for (const method of Object.keys(e.methods) as Method[]) item[method.toLowerCase()] = operation(method, e)
    paths[openApiPath(e.path)] = item
  }
  const schemas: Record<string, JsonSchema> = { ...tableComponents(), ...BODY_COMPONENTS }
  if (tables.some((table) => table.collected === false)) Object.assign(schemas, uncollectedTableComponents())
  for (const table of tables) {
    if (table.collected === false) continue
    const name = tableSchemaName(table)
    schemas[`${name}Request`] = tableRequestSchema(table)
    schemas[`${name}Row`] = tableRowSchema(table)
    schemas[`${name}Response`] = tableResponseSchema(table)
  }
  return {
    openapi: '3.1.0',
    info: { title: 'netinv inventory', version: RELEASE_VERSION, description: 'The operations of the inventory service, as the gateway forwards them (the gateway adds access rules, versions, errors and headers).' },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    paths,
    components: { schemas },
  }
}

/** The document as served: its text and an entity tag (the gateway asks with If-None-Match). */
export interface PublishedDocument {
  text: string
  etag: string
}

export function publishDocument(tables: readonly TableDef[]): PublishedDocument {
  const text = JSON.stringify(buildInventoryDocument(tables))
  return { text, etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"` }
}
