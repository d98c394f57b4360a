/**
 * THE OpenAPI 3.1 document of a running gateway, composed from what serves requests: the route
 * table (the manifest and the operators' route files: paths, methods, access rules, versions,
 * deprecations and sunsets), the gateway's own request-body schemas, and the documents its
 * upstreams publish (upstreams/documents.ts: netinv's inventory publishes its tables, their
 * request and response schemas and its body schemas). Nothing is written by hand twice, and the
 * gateway knows of an upstream only what it publishes: a route whose upstream publishes no
 * document is described from the route table alone.
 *
 * One document describes one version set: per endpoint, the version a request of that address
 * generation gets without choosing: the header generation's default versions (or, with
 * `versions: "latest"`, the newest), the version a product release used (path generation), or
 * version 1 (original generation).
 */
import type { Config } from '../../shared/config/index.js'
import { compareSpecificity, latestVersion, versionForRelease, type Access, type Method } from '../../shared/manifest.js'
import { ERRORS, type ErrorCode } from '../../shared/errors.js'
import { RELEASE_VERSION } from '../../shared/product.js'
import type { RequestBody } from '../../shared/schema/index.js'
import type { Generation } from '../context.js'
import { handlerKey } from '../context.js'
import { PLAIN_TEXT_ERROR_ENDPOINTS } from '../handlers/index.js'
import { SESSION_ONLY_OPERATIONS } from '../handlers/rights.js'
import { GATEWAY_BODIES } from '../handlers/schemas.js'
import { endpointVersionPolicy } from '../pipeline/version.js'
import type { Route } from '../routes/table.js'
import { pathShape, restUnder, type DescriptionState, type UpstreamDescription } from '../upstreams/documents.js'
import { BODY_COMPONENTS, codesOf, errorStatuses, successBody, successStatuses } from './responses.js'
import type { JsonSchema } from './types.js'

export interface DocumentOptions {
  generation: Generation
  /** Path generation: "major.minor". */
  release?: string
  /** Header generation: each endpoint's default version (as served without X-API-Version) or its newest. */
  versions?: 'default' | 'latest'
  config: Readonly<Config>
  /** What an upstream publishes, by name (absent: nothing). */
  described?: (upstream: string) => DescriptionState
}

const REF = (kind: string, name: string): JsonSchema => ({ $ref: `#/components/${kind}/${name}` })

/** Every request body schema of the gateway's own operations, by `METHOD path`. */
export const REQUEST_BODIES: Readonly<Record<string, RequestBody>> = GATEWAY_BODIES

/** The gateway's own operations that take a body (every POST, PUT and PATCH) but have no schema for it yet. */
export function operationsWithoutBodySchema(routes: readonly Route[]): string[] {
  const out: string[] = []
  for (const r of routes) {
    if (r.target !== null) continue
    for (const method of Object.keys(r.methods) as Method[]) {
      const key = `${method} ${r.path}`
      if ((method === 'POST' || method === 'PUT' || method === 'PATCH') && !REQUEST_BODIES[key] && !NO_BODY.has(key)) out.push(key)
    }
  }
  return out
}

/** POSTs that take no body: actions on a resource named by the path (a device login starts from the provider's name alone). */
const NO_BODY: ReadonlySet<string> = new Set(['POST auth/logout', 'POST auth/sso/:provider/device'])

function headerComponents(): Record<string, JsonSchema> {
  const h = (description: string, schema: JsonSchema = { type: 'string' }, required = false): JsonSchema => ({ description, schema, ...(required ? { required } : {}) })
  const retryAfter = 'Seconds to wait before retrying.'
  return {
    'X-Request-Id': h('The request id (the caller\'s sane X-Request-Id, or a new one); in the log line of the request.', { type: 'string' }, true),
    'X-Product-Version': h('The product\'s release, `v<major>.<minor>`.', { type: 'string', pattern: '^v\\d+\\.\\d+$' }),
    'X-API-Version-Used': h('The endpoint version that answered.', { type: 'string', pattern: '^\\d+$' }),
    'X-API-Versions-Supported': h('Every version of the endpoint, comma-separated.', { type: 'string', pattern: '^\\d+(,\\d+)*$' }),
    Deprecation: h('"true" when the address generation or the endpoint version is deprecated (an upstream may send its own value, e.g. `@<epoch seconds>`).'),
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

/** An example body of an error status: its first code of the error table (a real one, not text made from the pattern). */
function errorExample(status: number): JsonSchema {
  const code = codesOf(status)[0]
  if (code === undefined) return { code: 'API_INTERNAL_ERROR', message: ERRORS.API_INTERNAL_ERROR.message }
  const example: JsonSchema = { code, message: ERRORS[code as ErrorCode].message }
  if (status === 422) example.errors = [{ message: '"columns[0]" must be one of [id, sn, hostname]' }]
  return example
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
      content: { 'application/json': { schema: REF('schemas', 'Error'), example: errorExample(status) } },
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
        code: { type: 'string', pattern: '^API_[A-Z_]+$', examples: ['API_NOT_FOUND'], description: 'One of the codes of docs/errors.md.' },
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
  /** What the upstream publishes of it (absent: described from the route table alone). */
  published?: JsonSchema
  /** A path under the route's `*` that the upstream lists: no `path` parameter (but its own, if templated). */
  expanded?: boolean
  /** An alias the upstream lists for a path (a v4-era camelCase table path): its operation id would equal the path's. */
  legacyPath?: boolean
  description?: string
}

function buildOperation(op: Operation, options: DocumentOptions): JsonSchema {
  const { route, method, access, published } = op
  const v = versionOf(route, options)
  const key = `${method} ${route.path}`
  const body = route.target === null ? REQUEST_BODIES[key] : undefined
  const forwarded = route.target !== null
  const parameters: JsonSchema[] = route.path
    .split('/')
    .filter((s) => s.startsWith(':') || (s === '*' && op.expanded !== true))
    .map((s) => ({ name: s === '*' ? 'path' : s.slice(1), in: 'path', required: true, schema: { type: 'string' } }))
  if (op.expanded) for (const m of op.path.matchAll(/\{([^}/]+)\}/g)) parameters.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } })
  if (options.generation === 'header') parameters.push(versionParameter(route, options))
  const responses: Record<string, JsonSchema> = {}
  const headers = commonHeaders(true)
  const answers = published && typeof published.responses === 'object' && published.responses !== null ? (published.responses as Record<string, JsonSchema>) : undefined
  // An upstream names the endpoint versions a status belongs to (`x-api-versions`) where not all
  // answer with it: the header generation describes every version X-API-Version may pick, the
  // others only the version their address maps to.
  const ofVersion = (answer: JsonSchema): boolean => {
    const only = answer['x-api-versions']
    return options.generation === 'header' || !Array.isArray(only) || only.includes(v.version)
  }
  const successes = answers ? Object.keys(answers).filter((s) => /^2(\d\d|XX)$/.test(s) && ofVersion(answers[s]!)) : []
  if (successes.length > 0) {
    // What the upstream says it answers on success, with the gateway's headers.
    for (const status of successes) {
      const answer = answers![status]!
      const out: JsonSchema = { description: typeof answer.description === 'string' ? answer.description : 'Done.', headers }
      if (answer.content !== undefined) out.content = answer.content
      responses[status] = out
    }
  } else if (route.target === null) {
    for (const status of successStatuses(method, route.path)) {
      const answer: JsonSchema = {
        description: status === 204 ? 'Done; no body.' : status === 302 ? 'Redirect to the address in Location; no body.' : 'Done.',
        headers: status === 302 ? { ...headers, Location: { schema: { type: 'string' }, description: 'Where the browser goes next.' } } : headers,
      }
      if (status !== 204 && status !== 302) answer.content = successContent(method, route)
      responses[String(status)] = answer
    }
  } else {
    responses['2XX'] = { description: `What ${route.upstream ?? 'the upstream'} answers.`, headers, content: { '*/*': { schema: {} } } }
  }
  const requestBody: JsonSchema | undefined = published?.requestBody !== undefined ? (published.requestBody as JsonSchema) : body ? { required: body.optional !== true, content: { [body.contentType ?? 'application/json']: { schema: body.schema } } } : undefined
  const plain = PLAIN_TEXT_ERROR_ENDPOINTS.has(handlerKey(method, route.path))
  if (route.service === undefined) {
    // An operator's backend answers its own errors in its own shape; the gateway's own refusals are ours.
    for (const status of [410, 429, 502, 504]) responses[String(status)] = REF('responses', String(status))
    responses['4XX'] = REF('responses', 'UpstreamError')
    responses['5XX'] = REF('responses', 'UpstreamError')
  } else {
    for (const status of errorStatuses(method, access, { hasBody: requestBody !== undefined, forwarded, table: false })) {
      responses[String(status)] = plain && (status === 401 || status === 403) ? REF('responses', 'PlainUnauthorized') : REF('responses', String(status))
    }
  }
  const operation: JsonSchema = {
    operationId: operationId(method, op.path) + (op.legacyPath === true ? 'V4' : ''),
    summary: op.description ?? route.description,
    description: `Version ${v.version}: ${route.versions.find((x) => x.version === v.version)?.summary ?? ''} Access: ${access}.`,
    // the upstream's own group where it names one (the inventory's tables it does not collect), else the path's first segment
    tags: Array.isArray(published?.tags) && published.tags.every((x) => typeof x === 'string') ? (published.tags as string[]) : [route.path.split('/')[0]!.replace(/\..*$/, '')],
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
  if (requestBody !== undefined) operation.requestBody = requestBody
  return operation
}

function successContent(method: Method, route: Route): JsonSchema {
  // Media types other than JSON come from the route table (the manifest's `produces`), as the 406 stage reads them.
  const produces = route.answersIn ?? []
  if (produces.length > 0 && !produces.includes('application/json')) return Object.fromEntries(produces.map((type) => [type, { schema: { type: 'string' } }]))
  return { 'application/json': { schema: successBody(method, route.path) } }
}

function described(route: Route, options: DocumentOptions): UpstreamDescription | undefined {
  if (route.upstream === undefined) return undefined
  return options.described?.(route.upstream) ?? undefined
}

/** The routes of the same upstream with a `*`, most specific first: a listed path belongs to the first that matches it. */
function wildcardOwner(path: string, route: Route, routes: readonly Route[]): boolean {
  let owner: Route | undefined
  for (const r of routes) {
    if (r.upstream !== route.upstream || !r.path.includes('*') || restUnder(r.path, path) === undefined) continue
    if (owner === undefined || compareSpecificity(r.path, owner.path) < 0) owner = r
  }
  return owner === route
}

/** The operations of a route: one per method; under a `*`, one per path its upstream lists. */
function operationsOf(route: Route, routes: readonly Route[], options: DocumentOptions): Operation[] {
  const out: Operation[] = []
  const description = described(route, options)
  for (const [method, access] of Object.entries(route.methods) as Array<[Method, Access]>) {
    const m = method.toLowerCase()
    if (route.path.includes('*') && description) {
      const templated = [...description.byShape.values()].filter((x) => x.path.includes('{')).map((x) => ({ path: x.path.slice(1), item: x.item, aliases: [] as readonly string[] }))
      for (const c of [...description.concrete, ...templated]) {
        if (restUnder(route.path, c.path) === undefined || !wildcardOwner(c.path, route, routes)) continue
        const published = c.item[m] as JsonSchema | undefined
        if (published === undefined) continue
        const summary = typeof published.summary === 'string' ? published.summary : undefined
        for (const p of [c.path, ...(options.generation === 'original' ? c.aliases : [])]) {
          out.push({ route, method, access, path: `/${p}`, published, expanded: true, legacyPath: p !== c.path, ...(summary !== undefined ? { description: summary } : {}) })
        }
      }
      continue
    }
    const path = openApiPath(route.path)
    const item = description?.byShape.get(pathShape(path))?.item
    const published = item?.[m] as JsonSchema | undefined
    out.push({ route, method, access, path, ...(published !== undefined ? { published } : {}) })
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
  const paths: Record<string, Record<string, JsonSchema>> = {}
  const upstreamSchemas: Record<string, JsonSchema> = {}
  const seen = new Set<string>()
  for (const route of routes) {
    const description = described(route, options)
    if (description && !seen.has(route.upstream!)) {
      seen.add(route.upstream!)
      const components = description.document.components as Record<string, unknown> | undefined
      const schemas = components?.schemas
      if (schemas !== null && typeof schemas === 'object') Object.assign(upstreamSchemas, schemas)
    }
    for (const op of operationsOf(route, routes, options)) {
      const item = (paths[op.path] ??= {})
      item[op.method.toLowerCase()] = buildOperation(op, options)
    }
  }
  // The gateway's own schemas win over an upstream's of the same name.
  const schemas: Record<string, JsonSchema> = { ...upstreamSchemas, ...sharedSchemas(), ...BODY_COMPONENTS }
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
