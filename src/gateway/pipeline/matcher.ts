/**
 * The manifest's endpoint matching, compiled once: patterns are split when the gateway starts,
 * the request path once per request (the manifest's `matchEndpoint` splits every pattern on
 * every call). Same rules and order; a test checks both agree.
 */
import { ENDPOINTS, supportedVersions, type Endpoint, type EndpointMatch } from '../../shared/manifest.js'

interface Compiled {
  endpoint: Endpoint
  parts: readonly string[]
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

export interface EndpointMatcher {
  match(path: string): EndpointMatch | null
}

export function compileEndpoints(endpoints: readonly Endpoint[] = ENDPOINTS): EndpointMatcher {
  const compiled: Compiled[] = endpoints.map((endpoint) => ({ endpoint, parts: endpoint.path.split('/') }))
  // Paths without parameters that no earlier pattern matches: answered by one lookup, in the
  // order's own terms (the first matching pattern is theirs).
  const statics = new Map<string, Endpoint>()
  compiled.forEach((c, i) => {
    if (c.parts.some((p) => p === '*' || p.startsWith(':'))) return
    if (!compiled.slice(0, i).some((earlier) => matchParts(earlier.parts, c.parts))) statics.set(c.endpoint.path, c.endpoint)
  })
  return {
    match(path) {
      const known = statics.get(path)
      if (known !== undefined) return { endpoint: known, params: {}, rest: undefined }
      const segments = path.split('/')
      for (const c of compiled) {
        const m = matchParts(c.parts, segments)
        if (m) return { endpoint: c.endpoint, params: m.params, rest: m.rest }
      }
      return null
    },
  }
}

const versionLists = new WeakMap<Endpoint, string>()

/** `X-API-Versions-Supported` of an endpoint (computed once per endpoint). */
export function versionsHeader(endpoint: Endpoint): string {
  let v = versionLists.get(endpoint)
  if (v === undefined) versionLists.set(endpoint, (v = supportedVersions(endpoint).join(',')))
  return v
}
