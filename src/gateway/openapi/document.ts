/**
 * THE OpenAPI 3.1 document of a running gateway, generated from what serves requests: the route
 * table (the manifest and the operators' route files: paths, methods, access rules, versions,
 * deprecations and sunsets), the table catalog (a request and a response schema per table) and
 * the request-body schemas the handlers check bodies with. Nothing is written by hand twice, so
 * a new endpoint appears here when it is added to the manifest.
 *
 * One document describes one version set: per endpoint, the version a request of that address
 * generation gets without choosing: the header generation's default versions (or, with
 * `versions: "latest"`, the newest), the version a product release used (path generation), or
 * version 1 (original generation).
 */
import { TABLES, type TableDef } from '../../inventory/catalog/index.js'
import { INVENTORY_BODIES } from '../../inventory/routes/schemas.js'
import type { Config } from '../../shared/config/index.js'
import { latestVersion, versionForRelease, type Access, type Method } from '../../shared/manifest.js'
import { RELEASE_VERSION } from '../../shared/product.js'
import type { RequestBody } from '../../shared/schema/index.js'
import type { Generation } from '../context.js'
import { handlerKey } from '../context.js'
import { PLAIN_TEXT_ERROR_ENDPOINTS } from '../handlers/index.js'
import { SESSION_ONLY_OPERATIONS } from '../handlers/rights.js'
import { GATEWAY_BODIES } from '../handlers/schemas.js'
import { endpointVersionPolicy } from '../pipeline/version.js'
import type { Route } from '../routes/table.js'
import { BODY_COMPONENTS, codesOf, errorStatuses, successBody, successStatuses } from './responses.js'
import { tableComponents, tableRequestSchema, tableResponseSchema, tableRowSchema, tableSchemaName } from './tables.js'
import type { JsonSchema } from './types.js'

export interface DocumentOptions {
  generation: Generation
  /** Path generation: "major.minor". */
  release?: string
  /** Header generation: each endpoint's default version (as served without X-API-Version) or its newest. */
  versions?: 'default' | 'latest'
  config: Readonly<Config>
  /** The tables behind `tables/*` (the catalog). */
  tables?: readonly TableDef[]
}

const REF = (kind: string, name: string): JsonSchema => ({ $ref: `#/components/${kind}/${name}` })

/** Every request body schema, by `METHOD path`. */
export const REQUEST_BODIES: Readonly<Record<string, RequestBody>> = { ...GATEWAY_BODIES, ...INVENTORY_BODIES }

/** Operations that take a body (every POST, PUT and PATCH) but have no schema for it yet. */
export function operationsWithoutBodySchema(routes: readonly Route[]): string[] {
  const out: string[] = []
  for (const r of routes) {
    if (r.service === undefined || r.path.startsWith('tables/')) continue
    for (const method of Object.keys(r.methods) as Method[]) {
      const key = `${method} ${r.path}`
      if ((method === 'POST' || method === 'PUT' || method === 'PATCH') && !REQUEST_BODIES[key] && !NO_BODY.has(key)) out.push(key)
    }
  }
  return out
}

/** POSTs that take no body: actions on a resource named by the path. */
const NO_BODY: ReadonlySet<string> = new Set([
  'POST auth/logout',
  'POST snapshots/:id/lock',
  'POST snapshots/:id/unlock',
  'POST snapshots/:id/load',
  'POST snapshots/:id/unload',
  'POST snapshots/:id/clone',
  'POST jobs/:id/stop',
])

function headerComponents(): Record<string, JsonSchema> {
  const h = (description: string, schema: JsonSchema = { type: 'string' }, required = false): JsonSchema => ({ description, schema, ...(required ? { required } : {}) })
  const retryAfter = 'Seconds to wait before retrying.'
  return {
    'X-Request-Id': h('The request id (the caller\'s sane X-Request-Id, or a new one); in the log line of the request.', { type: 'string' }, true),
    'X-Product-Version': h('The product\'s release, "v<major>.<minor>".', { type: 'string', pattern: '^v\\d+\\.\\d+$' }),
    'X-API-Version-Used': h('The endpoint version that answered.', { type: 'string', pattern: '^\\d+$' }),
    'X-API-Versions-Supported': h('Every version of the endpoint, comma-separated.', { type: 'string', pattern: '^\\d+(,\\d+)*$' }),
    Deprecation: h('"true" when the address generation or the endpoint version is deprecated (an upstream may send its own value, e.g. "@<epoch seconds>").'),
    Sunset: h('RFC 3339 time after which the deprecated version may stop answering (the earlier of generation and version).'),
    'RateLimit-Policy': h('IETF RateLimit-Policy: the limits that apply.'),
    RateLimit: h('IETF RateLimit: what is left of each limit.'),
    'Retry-After': h(retryAfter, { type: 'string', pattern: '^\\d+$' }, true),
    'Retry-After-Optional': h(retryAfter, { type: 'string', pattern: '^\\d+$' }),
    Allow: h('Methods the endpoint allows.', { type: 'string' }, true),
  }
}

/** Headers of every answer of the pipeline. */
function commonHeaders(versioned: boolean): Record<string, JsonSchema> {
  const names = ['X-Product-Version', 'X-API-Versions-Supported', 'Deprecation', 'Sunset', 'RateLimit-Policy', 'RateLimit']
  if (versioned) names.push('X-API-Version-Used')
  const out: Record<string, JsonSchema> = { 'X-Request-Id': REF('headers', 'X-Request-Id') }
  for (const n of names) out[n] = REF('headers', n)
  return out
}

function errorResponses(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {}
  for (const status of [400, 401, 403, 404, 405, 406, 408, 409, 413, 415, 417, 422, 429, 431, 500, 502, 503, 504, 507]) {
    const headers: Record<string, JsonSchema> = commonHeaders(false)
    if (status === 429) headers['Retry-After'] = REF('headers', 'Retry-After')
    if (status === 503) headers['Retry-After'] = REF('headers', 'Retry-After-Optional')
    if (status === 405) headers.Allow = REF('headers', 'Allow')
    out[String(status)] = {
      description: `Error (${codesOf(status).join(', ')})${status === 422 ? ': `errors` lists each problem, e.g. `"columns[0]" must be one of [...]`' : ''}.`,
      headers,
      content: { 'application/json': { schema: REF('schemas', 'Error') } },
    }
  }
  out['410'] = {
    description: 'The requested version is not served (unknown, unsupported, or past an enforced sunset).',
    headers: commonHeaders(false),
    content: { 'application/json': { schema: REF('schemas', 'VersionGone') } },
  }
  out.UpstreamError = {
    description: 'Refused by the gateway (the error body) or by the backend (its own body).',
    headers: commonHeaders(false),
    content: { '*/*': { schema: {} } },
  }
  out.PlainUnauthorized = {
    description: 'Refused: the body is the text "Unauthorized" (as the spec shows for this endpoint).',
    headers: commonHeaders(false),
    content: { 'text/plain': { schema: { const: 'Unauthorized' } } },
  }
  return out
}

function sharedSchemas(): Record<string, JsonSchema> {
  return {
    Error: {
      type: 'object',
      description: 'The one error body: a stable code to branch on, a message, and for 422 the list of problems.',
      properties: {
        code: { type: 'string', pattern: '^API_[A-Z_]+$' },
        message: { type: 'string' },
        errors: { type: 'array', items: { type: 'object', properties: { message: { type: 'string' }, path: { type: 'string' } }, required: ['message'] } },
      },
      required: ['code', 'message'],
    },
    VersionGone: {
      type: 'object',
      properties: { message: { type: 'string' }, release_version: { type: 'string' }, api_version: { type: ['string', 'integer', 'null'] } },
      required: ['message'],
    },
    Scopes: { type: 'array', items: { enum: ['read', 'settings', 'team', 'write'] } },
  }
}

const SECURITY_SCHEMES: JsonSchema = {
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Token', description: 'An API key (long-lived, limited to its scopes).' },
  basic: { type: 'http', scheme: 'basic', description: 'Username and password.' },
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token from auth/login or auth/token.' },
  cookie: { type: 'apiKey', in: 'cookie', name: 'accessToken', description: 'The accessToken cookie set by auth/login.' },
}

/** What the gateway enforces: the access rule's scope, and no API key where a user session is needed. */
function security(access: Access, key: string): JsonSchema[] {
  if (access === 'public') return []
  const roles = access === 'authenticated' ? [] : [access]
  const schemes = SESSION_ONLY_OPERATIONS.has(key) ? ['basic', 'bearer', 'cookie'] : ['apiKey', 'basic', 'bearer', 'cookie']
  return schemes.map((s) => ({ [s]: roles }))
}

/** "snapshots/:id/lock" → "/snapshots/{id}/lock"; a `*` is the parameter `path`. */
function openApiPath(pattern: string): string {
  return '/' + pattern.split('/').map((s) => (s === '*' ? '{path}' : s.startsWith(':') ? `{${s.slice(1)}}` : s)).join('/')
}

function operationId(method: Method, path: string): string {
  return `${method.toLowerCase()}${path.split(/[^A-Za-z0-9]+/).filter(Boolean).map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join('')}`
}

function earlier(a: string | null, b: string | null): string | null {
  if (a === null) return b
  if (b === null) return a
  return Date.parse(a) <= Date.parse(b) ? a : b
}

interface Versioning {
  version: number
  deprecated: boolean
  sunset: string | null
}

function versionOf(route: Route, options: DocumentOptions): Versioning {
  const { config } = options
  let version: number
  let deprecated = false
  let sunset: string | null = null
  if (options.generation === 'original' || options.generation === 'path') {
    const policy = config.versioning.generations[options.generation]
    deprecated = policy.deprecated
    sunset = policy.sunset
    version = options.generation === 'original' ? 1 : versionForRelease(route, options.release ?? '0.0')
  } else {
    version = options.versions === 'latest' ? latestVersion(route) : route.defaultVersion
  }
  const policy = endpointVersionPolicy(config, route, version)
  if (policy) {
    deprecated = true
    sunset = earlier(sunset, policy.sunset)
  }
  return { version, deprecated, sunset }
}

function versionParameter(route: Route, options: DocumentOptions): JsonSchema {
  const oneOf = route.versions.map((v) => {
    const policy = endpointVersionPolicy(options.config, route, v.version)
    return {
      const: v.version,
      description: v.summary,
      ...(policy ? { deprecated: true, 'x-sunset': policy.sunset } : {}),
    }
  })
  return {
    name: 'X-API-Version',
    in: 'header',
    required: false,
    description:
      `The endpoint version to use (default ${route.defaultVersion}). The answer names the version used in X-API-Version-Used and every version in ` +
      'X-API-Versions-Supported; a deprecated version answers with Deprecation and Sunset; an unsupported one is 410.',
    schema: { type: 'integer', default: route.defaultVersion, oneOf },
  }
}

interface Operation {
  route: Route
  method: Method
  access: Access
  /** The document path. */
  path: string
  table?: TableDef
  description?: string
}

function buildOperation(op: Operation, options: DocumentOptions): JsonSchema {
  const { route, method, access, table } = op
  const v = versionOf(route, options)
  const key = `${method} ${route.path}`
  const body = REQUEST_BODIES[key]
  const forwarded = route.target !== null
  const parameters: JsonSchema[] = route.path
    .split('/')
    .filter((s) => s.startsWith(':') || (s === '*' && !table))
    .map((s) => ({ name: s === '*' ? 'path' : s.slice(1), in: 'path', required: true, schema: { type: 'string' } }))
  if (options.generation === 'header') parameters.push(versionParameter(route, options))
  const responses: Record<string, JsonSchema> = {}
  const headers = commonHeaders(true)
  // An operator's backend: what it answers on success is its own.
  for (const status of route.service === undefined ? ['2XX'] : successStatuses(method, route.path)) {
    const answer: JsonSchema = {
      description: status === 204 ? 'Done; no body.' : status === 302 ? 'Redirect to the address in Location; no body.' : status === '2XX' ? `What ${route.upstream ?? 'the upstream'} answers.` : 'Done.',
      headers: status === 302 ? { ...headers, Location: { schema: { type: 'string' }, description: 'Where the browser goes next.' } } : headers,
    }
    if (status === '2XX') answer.content = { '*/*': { schema: {} } }
    else if (status !== 204 && status !== 302) answer.content = successContent(method, route, table)
    responses[String(status)] = answer
  }
  const plain = PLAIN_TEXT_ERROR_ENDPOINTS.has(handlerKey(method, route.path))
  if (route.service === undefined) {
    // An operator's backend answers its own errors in its own shape; the gateway's own refusals are ours.
    for (const status of [410, 429, 502, 504]) responses[String(status)] = REF('responses', String(status))
    responses['4XX'] = REF('responses', 'UpstreamError')
    responses['5XX'] = REF('responses', 'UpstreamError')
  } else {
    for (const status of errorStatuses(method, access, { hasBody: body !== undefined || table !== undefined, forwarded, table: table !== undefined })) {
      responses[String(status)] = plain && (status === 401 || status === 403) ? REF('responses', 'PlainUnauthorized') : REF('responses', String(status))
    }
  }
  const operation: JsonSchema = {
    operationId: operationId(method, op.path),
    summary: op.description ?? route.description,
    description: `Version ${v.version}: ${route.versions.find((x) => x.version === v.version)?.summary ?? ''} Access: ${access}.`,
    tags: [route.path.split('/')[0]!.replace(/\..*$/, '')],
    parameters,
    security: security(access, key),
    responses,
    'x-access': access,
    'x-api-version': v.version,
  }
  if (!route.service) operation['x-upstream'] = route.upstream
  if (v.deprecated) {
    operation.deprecated = true
    operation['x-sunset'] = v.sunset
  }
  if (table) {
    operation.requestBody = { required: true, content: { 'application/json': { schema: REF('schemas', `${tableSchemaName(table)}Request`) } } }
  } else if (body) {
    operation.requestBody = { required: body.optional !== true, content: { [body.contentType ?? 'application/json']: { schema: body.schema } } }
  }
  return operation
}

function successContent(method: Method, route: Route, table: TableDef | undefined): JsonSchema {
  const path = route.path
  if (table) {
    return {
      'application/json': { schema: REF('schemas', `${tableSchemaName(table)}Response`) },
      'text/csv': { schema: { type: 'string', description: 'With format.dataType "csv" (or exportToFile), or Accept: text/csv.' } },
    }
  }
  // Media types other than JSON come from the route table (the manifest's `produces`), as the 406 stage reads them.
  const produces = route.answersIn ?? []
  if (produces.length > 0 && !produces.includes('application/json')) return Object.fromEntries(produces.map((type) => [type, { schema: { type: 'string' } }]))
  return { 'application/json': { schema: successBody(method, path) } }
}

/** The operations of a route: one per method, `tables/*` once per table. */
function operationsOf(route: Route, options: DocumentOptions): Operation[] {
  const out: Operation[] = []
  const tables = options.tables ?? TABLES
  for (const [method, access] of Object.entries(route.methods) as Array<[Method, Access]>) {
    if (route.service === 'inventory' && route.path.startsWith('tables/*')) {
      const suffix = route.path.slice('tables/*'.length)
      for (const table of tables) {
        const paths = [table.path, ...(options.generation === 'original' ? (table.legacyPaths ?? []) : [])]
        for (const p of paths) {
          const described = suffix === '' ? { table } : {}
          out.push({ route, method, access, path: `/tables/${p}${suffix}`, ...described, description: `${table.title}: ${suffix === '' ? table.description : 'columns, types and an example request.'}` })
        }
      }
      continue
    }
    out.push({ route, method, access, path: openApiPath(route.path) })
  }
  return out
}

function serverOf(options: DocumentOptions): string {
  if (options.generation === 'original') return '/api/v1'
  if (options.generation === 'path') return `/api/v${options.release ?? '0.0'}`
  return '/api'
}

const GENERATIONS_TEXT =
  'Three address generations reach the same endpoints: `/api/<endpoint>` with the `X-API-Version` header (current; ' +
  'each endpoint is versioned on its own, the header picks the version, its absence the default), `/api/v1/<endpoint>` ' +
  '(original: version 1 of each endpoint) and `/api/v<major>.<minor>/<endpoint>` (deprecated: the version that release ' +
  'used). Each document describes one of them: `/api/openapi.json` (defaults; `?versions=latest` for the newest), ' +
  '`/api/v1/openapi.json`, `/api/v<major>.<minor>/openapi.json`. Deprecated versions answer with `Deprecation: true` and ' +
  '`Sunset`; here they are `deprecated: true` with `x-sunset`.'

export function buildDocument(routes: readonly Route[], options: DocumentOptions): JsonSchema {
  const tables = options.tables ?? TABLES
  const paths: Record<string, Record<string, JsonSchema>> = {}
  for (const route of routes) {
    for (const op of operationsOf(route, options)) {
      const item = (paths[op.path] ??= {})
      item[op.method.toLowerCase()] = buildOperation(op, options)
    }
  }
  const schemas: Record<string, JsonSchema> = { ...sharedSchemas(), ...tableComponents(), ...BODY_COMPONENTS }
  for (const table of tables) {
    const name = tableSchemaName(table)
    schemas[`${name}Request`] = tableRequestSchema(table)
    schemas[`${name}Row`] = tableRowSchema(table)
    schemas[`${name}Response`] = tableResponseSchema(table)
  }
  const versionSet = options.generation === 'header' ? (options.versions === 'latest' ? 'newest versions' : 'default versions') : options.generation === 'original' ? 'version 1 of each endpoint' : `the versions of release ${options.release ?? ''}`
  return {
    openapi: '3.1.0',
    info: {
      title: 'netinv API',
      version: RELEASE_VERSION,
      description: `Network discovery and inventory. This document: ${versionSet}, at ${serverOf(options)}/. ${GENERATIONS_TEXT}`,
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: serverOf(options) }],
    paths,
    components: { schemas, responses: errorResponses(), headers: headerComponents(), securitySchemes: SECURITY_SCHEMES },
  }
}
