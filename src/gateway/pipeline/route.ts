/**
 * Stage 2: address generation and endpoint. Bare `/api/<endpoint>` is the header generation,
 * `/api/v1/<endpoint>` the original one, `/api/v<major>.<minor>/<endpoint>` the deprecated path
 * generation. Anything that could step out of the generation prefix (dot segments, encoded
 * slashes or dots, doubled slashes, backslashes, control characters) is refused before matching.
 */
import { ApiError } from '../../shared/errors.js'
import { allowedMethods, type Access, type Endpoint } from '../../shared/manifest.js'
import type { Generation, RequestContext } from '../context.js'
import { compileEndpoints, versionsHeader } from './matcher.js'
import type { Stage } from './runner.js'

const API_PREFIX = '/api/'
const RELEASE_SEGMENT = /^v(\d{1,3})\.(\d{1,3})$/
/** Encoded dot, slash, backslash or NUL; a raw backslash; a doubled slash. */
const UNSAFE = /%(2e|2f|5c|00)|\\|\/\//i
/** A percent sign that does not start a valid escape. */
const BAD_ESCAPE = /%(?![0-9a-f]{2})/i

/** Control characters, spaces and non-ASCII never belong in a raw request path. */
function hasUnsafeChar(path: string): boolean {
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i)
    if (c <= 0x20 || c >= 0x7f) return true
  }
  return false
}

export interface ParsedApiPath {
  generation: Generation
  release?: string
  endpointPath: string
}

function malformed(): ApiError {
  return new ApiError('API_MALFORMED_REQUEST', 'Malformed request path')
}

/** Splits a raw request path into generation and endpoint path; throws 400/404. */
export function parseApiPath(rawPath: string): ParsedApiPath {
  if (UNSAFE.test(rawPath) || BAD_ESCAPE.test(rawPath) || hasUnsafeChar(rawPath)) throw malformed()
  if (!rawPath.startsWith(API_PREFIX)) throw new ApiError('API_NOT_FOUND')
  const rest = rawPath.slice(API_PREFIX.length)
  const segments = rest.split('/')
  if (segments.some((s) => s === '.' || s === '..')) throw malformed()
  const first = segments[0] ?? ''
  let parsed: ParsedApiPath
  if (first === 'v1') parsed = { generation: 'original', endpointPath: segments.slice(1).join('/') }
  else {
    const m = RELEASE_SEGMENT.exec(first)
    if (m) parsed = { generation: 'path', release: `${Number(m[1])}.${Number(m[2])}`, endpointPath: segments.slice(1).join('/') }
    else parsed = { generation: 'header', endpointPath: rest }
  }
  if (parsed.endpointPath === '') throw new ApiError('API_NOT_FOUND')
  return parsed
}

/** The access rule of a method (HEAD follows GET); undefined when the method is not allowed. */
export function accessFor(endpoint: Endpoint, method: string): Access | undefined {
  const m = method === 'HEAD' ? 'GET' : method
  return endpoint.methods[m as keyof Endpoint['methods']]
}

export function routeStage(): Stage<RequestContext> {
  const matcher = compileEndpoints()
  return {
    name: 'route',
    run(ctx) {
      const parsed = parseApiPath(ctx.path)
      ctx.generation = parsed.generation
      if (parsed.release !== undefined) ctx.release = parsed.release
      ctx.endpointPath = parsed.endpointPath
      const match = matcher.match(parsed.endpointPath)
      if (!match) throw new ApiError('API_NOT_FOUND')
      ctx.endpoint = match.endpoint
      ctx.params = match.params
      ctx.responseHeaders['x-api-versions-supported'] = versionsHeader(match.endpoint)
      if (accessFor(match.endpoint, ctx.method) === undefined) {
        throw new ApiError('API_METHOD_NOT_ALLOWED', undefined, { headers: { allow: allowedMethods(match.endpoint).join(', ') } })
      }
    },
  }
}
