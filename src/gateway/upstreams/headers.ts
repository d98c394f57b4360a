/**
 * Header hygiene between the client and an upstream, both ways, per upstream:
 * - towards the upstream: hop-by-hop headers, client-sent forwarding headers and any
 *   `x-netinv-*` name never pass; the client's credentials (Authorization, X-API-Token, cookies)
 *   pass only to a `passthrough` upstream; the forwarding headers, request id, identity and (in
 *   `header` versioning) the endpoint version are ours;
 * - towards the client: hop-by-hop headers never pass, nor, from a `credential` upstream, what
 *   belongs to its service credential (cookies it set, its authentication challenge, the
 *   credential header itself); the gateway's own headers (request id, the three version headers,
 *   rate limits) win over the upstream's, except that the upstream's `Deprecation` is kept and
 *   the stricter of two `Sunset` dates wins.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { INTERNAL_HEADER, INTERNAL_PREFIX, encodeInternal, encodePrincipal, type Principal } from '../../shared/principal.js'
import { hasOwnKey } from '../../shared/own.js'
import { normalizeIp } from '../client-ip.js'
import type { RequestContext } from '../context.js'
import type { UpstreamIdentity } from './settings.js'

/** Client credentials: towards a `passthrough` upstream only. */
const CLIENT_CREDENTIALS = ['authorization', 'x-api-token', 'cookie'] as const

/** Never forwarded as the client sent them (besides the internal prefix and Connection's list). */
const STRIPPED = [
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'x-forwarded-port',
  'x-real-ip',
  'x-api-version',
] as const

/**
 * `Trailer` passes: it names the trailer fields the gateway relays after the body (forwarding.ts),
 * such as the row count that ends a complete CSV export.
 */
const HOP_BY_HOP_RESPONSE = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'upgrade', 'proxy-authenticate'] as const

/** Connection options that name no header of their own to drop (keep-alive is one anyway). */
const CONNECTION_OPTIONS: ReadonlySet<string> = new Set(['keep-alive', 'close'])

/** What an upstream's identity mode lets through, worked out once per upstream. */
export interface HeaderPolicy {
  /** Request header names (lower case) not copied from the client. */
  readonly request: ReadonlySet<string>
  /** Response header names (lower case) not passed to the client. */
  readonly response: ReadonlySet<string>
  /** lengthMask of `response`. */
  readonly responseMask: number
}

export function headerPolicy(identity: UpstreamIdentity): HeaderPolicy {
  const request = new Set<string>(STRIPPED)
  if (identity.mode !== 'passthrough') for (const n of CLIENT_CREDENTIALS) request.add(n)
  const response = new Set<string>(HOP_BY_HOP_RESPONSE)
  if (identity.mode === 'credential') {
    // The client may not set the upstream's credential header, and nothing of the upstream's
    // session with the service credential goes back to a client.
    request.add(identity.header)
    for (const n of ['set-cookie', 'www-authenticate', identity.header]) response.add(n)
  }
  return { request, response, responseMask: lengthMask(response) }
}

/**
 * The header names a Connection header lists as hop-by-hop, lower case; null when it lists none
 * beyond keep-alive and close (what clients and node servers send: no Set, no split then).
 */
export function connectionListed(value: string | undefined): Set<string> | null {
  if (value === undefined) return null
  const v = value.length <= 10 ? value.toLowerCase() : ''
  if (v === 'keep-alive' || v === 'close') return null
  let listed: Set<string> | null = null
  for (const n of value.split(',')) {
    const token = n.trim().toLowerCase()
    if (token !== '' && !CONNECTION_OPTIONS.has(token)) (listed ??= new Set()).add(token)
  }
  return listed
}

/** Bit n set: some name of `names` has n characters (names of 31 or more share bit 31). */
function lengthMask(names: Iterable<string>): number {
  let mask = 0
  for (const name of names) mask |= 1 << Math.min(name.length, 31)
  return mask
}

const DEFAULT_POLICY = headerPolicy({ mode: 'internal', secret: '' })

/** The earlier of two Sunset values (HTTP-date or RFC 3339); the first when one cannot be read. */
function stricterSunset(ours: string, theirs: string): string {
  const a = Date.parse(ours)
  const b = Date.parse(theirs)
  return Number.isNaN(b) || (!Number.isNaN(a) && a <= b) ? ours : theirs
}

/**
 * The response headers as a flat [name, value, ...] list for writeHead: the upstream's raw
 * header lines minus those the policy drops (and those its Connection names), then the gateway's
 * own (`ours`, lower-case names). Ours win, but an upstream `Deprecation` is kept and the earlier
 * `Sunset` wins. Works on the raw header lines (node's `rawHeaders`, undici's lines), so no
 * header object of the upstream response is built, and lower-cases a name only when its length could match a name it must be compared with.
 */
export function responseHeaderList(raw: readonly string[], ours?: Readonly<Record<string, string>>, policy: HeaderPolicy = DEFAULT_POLICY): string[] {
  let listed: Set<string> | null = null
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!
    if (name.length !== 10 || name.toLowerCase() !== 'connection') continue
    const more = connectionListed(raw[i + 1])
    if (more) for (const n of more) (listed ??= new Set()).add(n)
  }
  let oursMask = 0
  if (ours) for (const name in ours) oursMask |= 1 << Math.min(name.length, 31)
  const out: string[] = []
  let kept: Record<string, string> | null = null
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!
    const bit = 1 << Math.min(name.length, 31)
    if (listed !== null || (bit & (policy.responseMask | oursMask)) !== 0) {
      const lower = name.toLowerCase()
      if (policy.response.has(lower) || listed?.has(lower)) continue
      if ((bit & oursMask) !== 0 && hasOwnKey(ours!, lower)) {
        // The upstream's deprecation and sunset count; the rest of ours wins.
        if (lower === 'deprecation') (kept ??= {})[lower] = raw[i + 1]!
        else if (lower === 'sunset') (kept ??= {})[lower] = stricterSunset(ours![lower]!, raw[i + 1]!)
        continue
      }
    }
    out.push(name, raw[i + 1]!)
  }
  if (ours) for (const name in ours) out.push(name, kept?.[name] ?? ours[name]!)
  return out
}

/** The internal header of a caller, version, generation and secret, as last made. */
interface InternalValue {
  /** encodePrincipal() of the caller; undefined for requests without one. */
  principal: string | undefined
  apiVersion: number
  generation: string
  secret: string
  value: string
}

/** The memo's key for requests without a principal. */
const ANONYMOUS: object = {}

/**
 * Internal header values by principal: a principal the authenticator hands out again (it keeps
 * one frozen object per verified credential) costs no JSON, no base64 and no concatenation,
 * only a lookup, while its requests keep to one version and generation. (The secret is part of
 * the key: upstreams with different secrets may share a process.)
 */
const internalValues = new WeakMap<object, InternalValue>()

export function internalValue(p: Principal | null | undefined, apiVersion: number, generation: string, secret: string): string {
  const key = p ?? ANONYMOUS
  const memo = internalValues.get(key)
  if (memo !== undefined && memo.apiVersion === apiVersion && memo.generation === generation && memo.secret === secret) return memo.value
  const principal = p ? (memo?.principal ?? encodePrincipal(p)) : undefined
  const made: InternalValue = { principal, apiVersion, generation, secret, value: encodeInternal({ apiVersion, generation, principal, secret }) }
  internalValues.set(key, made)
  return made.value
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(', ') : v
}

/** The text of small version numbers, made once. */
const VERSION_TEXT = Array.from({ length: 10 }, (_, i) => String(i))

/**
 * The headers the upstream sees: everything the client may not set removed, ours set, the
 * caller's identity in the upstream's mode (`token`: the minted token of `jwt` mode). Applied to
 * the incoming header object before http-proxy copies it.
 */
export function upstreamHeaders(ctx: RequestContext, target: { identity: UpstreamIdentity; versioning: string; headers: HeaderPolicy; host: string }, token: string | undefined): IncomingHttpHeaders {
  const incoming = ctx.req.headers
  const hop = connectionListed(headerValue(incoming.connection))
  const strip = target.headers.request
  // A fresh object with only the allowed names (deleting keys would slow every later lookup).
  const out: IncomingHttpHeaders = {}
  for (const name in incoming) {
    if (strip.has(name) || hop?.has(name) || name.startsWith(INTERNAL_PREFIX)) continue
    out[name] = incoming[name]
  }
  const peer = ctx.peerIp ?? normalizeIp(ctx.req.socket.remoteAddress ?? '')
  const trusted = ctx.peerTrusted === true
  const priorFor = trusted ? headerValue(incoming['x-forwarded-for']) : undefined
  out['x-forwarded-for'] = priorFor ? `${priorFor}, ${peer}` : peer
  out['x-forwarded-proto'] = (trusted && headerValue(incoming['x-forwarded-proto'])) || ('encrypted' in ctx.req.socket ? 'https' : 'http')
  const host = (trusted && headerValue(incoming['x-forwarded-host'])) || incoming.host
  if (host) out['x-forwarded-host'] = host
  // The upstream's own name (virtual hosts, TLS); the client's is in X-Forwarded-Host.
  out.host = target.host
  out['x-request-id'] = ctx.requestId
  const version = ctx.apiVersion ?? 1
  if (target.versioning === 'header') out['x-api-version'] = VERSION_TEXT[version] ?? String(version)
  const identity = target.identity
  if (identity.mode === 'internal') out[INTERNAL_HEADER] = internalValue(ctx.principal, version, ctx.generation ?? 'header', identity.secret)
  else if (identity.mode === 'credential') out[identity.header] = identity.value
  else if (identity.mode === 'jwt' && token !== undefined) out.authorization = `Bearer ${token}`
  return out
}
