/**
 * Stage 2: address generation and endpoint. Bare `/api/<endpoint>` is the header generation,
 * `/api/v1/<endpoint>` the original one, `/api/v<major>.<minor>/<endpoint>` the deprecated path
 * generation. Anything that could step out of the generation prefix (dot segments, encoded
 * slashes or dots, doubled slashes, backslashes, control characters) is refused before matching.
 * Any other version-shaped first segment (`/api/v2/…`, `/api/v6/…`, `/api/v6.0.1/…`) names no
 * generation: a version error, 410 as the spec has for all of them, not 404.
 */
import { ApiError, notFound } from '../../shared/errors.js'
import { allowedMethods, type Access, type Endpoint } from '../../shared/manifest.js'
import type { Generation, RequestContext } from '../context.js'
import type { RouteTable } from '../routes/table.js'
import type { Stage } from './runner.js'
import { VersionGoneError } from './version.js'

const API_PREFIX = '/api/'
const RELEASE_SEGMENT = /^v(\d{1,3})\.(\d{1,3})$/
/** A first segment shaped like a version: v, digits, and maybe more dotted digits. */
const VERSION_SHAPED = /^v\d+(\.\d+)*$/

/** The value of a hex digit's character code, or -1. */
function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30
  const lower = c | 0x20
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1
}

/**
 * Whether a raw request path must be refused before matching: control characters, spaces and
 * non-ASCII; a backslash; a doubled slash; a percent sign that does not start a valid escape;
 * an encoded dot, slash, backslash or NUL. One pass over the characters (it runs on every request).
 */
export function unsafePath(path: string): boolean {
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i)
    if (c <= 0x20 || c >= 0x7f || c === 0x5c) return true
    if (c === 0x2f) {
      if (path.charCodeAt(i + 1) === 0x2f) return true
    } else if (c === 0x25) {
      const hi = hexValue(path.charCodeAt(i + 1))
      const lo = hexValue(path.charCodeAt(i + 2))
      if (hi < 0 || lo < 0) return true
      const v = hi * 16 + lo
      if (v === 0x2e || v === 0x2f || v === 0x5c || v === 0) return true
    }
  }
  return false
}

/** A `.` or `..` segment (only looked for when the path has a dot at all). */
function hasDotSegment(path: string): boolean {
  if (path.indexOf('.') < 0) return false
  return path.split('/').some((s) => s === '.' || s === '..')
}

export interface ParsedApiPath {
  generation: Generation
  release?: string
  /** A version-shaped first segment that names no generation (the request gets 410). */
  unknownVersion?: string
  endpointPath: string
}

function malformed(): ApiError {
  return new ApiError('API_MALFORMED_REQUEST', 'Malformed request path')
}

/** Endpoints whose clients address them with a trailing slash (IP Fabric's diagram clients post to `graphs/`). */
const SLASHED = new Set(['graphs/'])

/** Splits a raw request path into generation and endpoint path; throws 400/404. */
export function parseApiPath(rawPath: string): ParsedApiPath {
  if (unsafePath(rawPath)) throw malformed()
  if (!rawPath.startsWith(API_PREFIX)) throw new ApiError('API_NOT_FOUND')
  const rest = rawPath.slice(API_PREFIX.length)
  if (hasDotSegment(rest)) throw malformed()
  const slash = rest.indexOf('/')
  const first = slash < 0 ? rest : rest.slice(0, slash)
  const after = slash < 0 ? '' : rest.slice(slash + 1)
  let parsed: ParsedApiPath
  if (first === 'v1') parsed = { generation: 'original', endpointPath: after }
  else {
    const startsWithV = first.charCodeAt(0) === 0x76 /* v */
    const m = startsWithV ? RELEASE_SEGMENT.exec(first) : null
    if (m) parsed = { generation: 'path', release: `${Number(m[1])}.${Number(m[2])}`, endpointPath: after }
    else if (startsWithV && slash > 0 && VERSION_SHAPED.test(first)) parsed = { generation: 'header', unknownVersion: first, endpointPath: after }
    else parsed = { generation: 'header', endpointPath: rest }
  }
  if (parsed.endpointPath === '') throw new ApiError('API_NOT_FOUND')
  if (SLASHED.has(parsed.endpointPath)) parsed.endpointPath = parsed.endpointPath.slice(0, -1)
  return parsed
}

/** The access rule of a method (HEAD follows GET); undefined when the method is not allowed. */
export function accessFor(endpoint: Endpoint, method: string): Access | undefined {
  const m = method === 'HEAD' ? 'GET' : method
  return endpoint.methods[m as keyof Endpoint['methods']]
}

export function routeStage(deps: { routes(): RouteTable; unknownPath?: ((endpointPath: string) => string | undefined) | undefined }): Stage<RequestContext> {
  return {
    name: 'route',
    run(ctx) {
      // RFC 9112 3.2: a 400 for an HTTP/1.1 request without Host (node's own would have no body).
      if (ctx.req.headers.host === undefined && ctx.req.httpVersion === '1.1') throw new ApiError('API_MALFORMED_REQUEST', 'HTTP/1.1 requests must carry a Host header')
      const parsed = parseApiPath(ctx.path)
      ctx.generation = parsed.generation
      if (parsed.release !== undefined) ctx.release = parsed.release
      ctx.endpointPath = parsed.endpointPath
      // The table of this moment: a reload swaps in a new one for the requests that follow.
      const match = deps.routes().match(parsed.endpointPath)
      if (parsed.unknownVersion !== undefined) {
        if (match) ctx.responseHeaders['x-api-versions-supported'] = match.endpoint.versionsHeader
        throw new VersionGoneError(
          `/api/${parsed.unknownVersion}/ is not an API version: use /api/<endpoint> with the X-API-Version header (or the original /api/v1/)`,
          match?.endpoint,
        )
      }
      if (!match) throw notFound(deps.unknownPath?.(parsed.endpointPath))
      ctx.endpoint = match.endpoint
      ctx.params = match.params
      ctx.responseHeaders['x-api-versions-supported'] = match.endpoint.versionsHeader
      if (accessFor(match.endpoint, ctx.method) === undefined) {
        throw new ApiError('API_METHOD_NOT_ALLOWED', undefined, { headers: { allow: allowedMethods(match.endpoint).join(', ') } })
      }
    },
  }
}
