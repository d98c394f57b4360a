/**
 * Endpoint matching, compiled once: patterns are split when a route table is compiled, the
 * request path once per request (the manifest's `matchEndpoint` splits every pattern on every
 * call). Same rules and order: the endpoints come in the order they are tried (most specific
 * first, see compareSpecificity); a test checks both agree on the built-in table.
 */
import { ENDPOINTS, bySpecificity, type Endpoint } from '../../shared/manifest.js'

/** An endpoint that may say which paths under its `*` exist (from its upstream's document: upstreams/documents.ts). */
export interface KnownPaths {
  readonly exists?: ((rest: string) => boolean) | null
}

interface Compiled<T extends Endpoint> {
  endpoint: T
  parts: readonly string[]
  exists: ((rest: string) => boolean) | null
}

function matchParts(p: readonly string[], s: readonly string[]): { params: Record<string, string>; rest: string | undefined } | null {
  let params: Record<string, string> | undefined
  let rest: string | undefined
  let si = 0
  for (let pi = 0; pi < p.length; pi++) {
    const part = p[pi]!
    if (part === '*') {
      const take = s.length - si - (p.length - pi - 1)
      if (take < 1) return null
      rest = s.slice(si, si + take).join('/')
      si += take
      continue
    }
    const seg = s[si]
    if (seg === undefined || seg === '') return null
    if (part.charCodeAt(0) === 58 /* : */) (params ??= {})[part.slice(1)] = seg
    else if (part !== seg) return null
    si++
  }
  return si === s.length ? { params: params ?? {}, rest } : null
}

/** The parameters of a path that has none. */
const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>

export interface EndpointMatch<T extends Endpoint = Endpoint> {
  endpoint: T
  params: Record<string, string>
  /** Rest of the path matched by `*`, if any. */
  rest: string | undefined
}

export interface EndpointMatcher<T extends Endpoint = Endpoint> {
  match(path: string): EndpointMatch<T> | null
}

/** A matcher over `endpoints`, tried in the order given (default: the built-in table's try order). */
export function compileEndpoints<T extends Endpoint & KnownPaths = Endpoint>(endpoints: readonly T[] = bySpecificity(ENDPOINTS) as unknown as T[]): EndpointMatcher<T> {
  const compiled: Compiled<T>[] = endpoints.map((endpoint) => ({ endpoint, parts: endpoint.path.split('/'), exists: endpoint.exists ?? null }))
  // Paths without parameters that no earlier pattern matches: answered by one lookup, in the
  // order's own terms (the first matching pattern is theirs).
  // Their match is made once (frozen: shared by every request to the path).
  const statics = new Map<string, EndpointMatch<T>>()
  compiled.forEach((c, i) => {
    if (c.parts.some((p) => p === '*' || p.startsWith(':'))) return
    if (!compiled.slice(0, i).some((earlier) => matchParts(earlier.parts, c.parts))) {
      statics.set(c.endpoint.path, Object.freeze({ endpoint: c.endpoint, params: NO_PARAMS, rest: undefined }))
    }
  })
  return {
    match(path) {
      const known = statics.get(path)
      if (known !== undefined) return known
      const segments = path.split('/')
      for (const c of compiled) {
        const m = matchParts(c.parts, segments)
        // A path under `*` that the endpoint does not know matches it not (404 for every method).
        if (m && c.exists !== null && m.rest !== undefined && !c.exists(m.rest)) continue
        if (m) return { endpoint: c.endpoint, params: m.params, rest: m.rest }
      }
      return null
    },
  }
}
