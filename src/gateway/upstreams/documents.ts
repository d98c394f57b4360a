/**
 * The OpenAPI documents the upstreams publish (`upstreams.<name>.documentPath`; netinv's
 * inventory: `/openapi.json` on its internal listener). The gateway knows an upstream only by
 * what it publishes: the public document is composed from these (openapi/document.ts), and which
 * paths under a `*` route exist is read from their paths (routes/table.ts): one they do not list
 * is 404 for every method, before any credential is checked.
 *
 * Each document is read before the gateway listens (`ready`), then asked for again every
 * `upstream.documentRefreshMs` with If-None-Match (every second while none was read yet). A
 * failed read keeps the last good document; an upstream that answers without a document (a
 * 404, or JSON that is no OpenAPI document) publishes none, and every path under its `*` routes
 * is forwarded as it comes. While an upstream was never reached, a path under its `*` routes
 * is 503 with Retry-After: the gateway cannot tell yet whether it exists.
 */
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { Logger } from 'pino'
import { ApiError } from '../../shared/errors.js'
import type { Upstream } from './settings.js'

export type JsonObject = Record<string, unknown>

/** What an upstream published, as the gateway reads it. */
export interface UpstreamDescription {
  readonly document: JsonObject
  /** Path items by their path with parameter names blanked: "/snapshots/{}". */
  readonly byShape: ReadonlyMap<string, { path: string; item: JsonObject }>
  /** Every concrete path (no parameter) it lists, with the aliases of each, without the leading "/". */
  readonly concrete: readonly { path: string; item: JsonObject; aliases: readonly string[] }[]
  readonly etag: string | null
}

/** undefined: never read yet; null: the upstream publishes none. */
export type DescriptionState = UpstreamDescription | null | undefined

interface Followed {
  upstream: Upstream
  state: DescriptionState
  /** Concrete paths (and aliases) by `*` pattern → the rests that exist, and the shapes of templated ones. */
  rests: Map<string, { exact: Set<string>; shapes: RegExp[] }>
  timer: NodeJS.Timeout | undefined
  inFlight: Promise<void> | undefined
}

export interface UpstreamDocuments {
  /** Follows these upstreams (those with a document path), forgets the others. */
  follow(upstreams: Iterable<Upstream>): void
  /** Resolves once every followed upstream was asked once (answered or not). */
  ready(): Promise<void>
  state(name: string): DescriptionState
  /** Changes whenever a document changes (caches of the composed document key on it). */
  version(): number
  /** For a `*` pattern of an upstream: which paths under it exist; null when it publishes no document path. */
  exists(upstream: Upstream, pattern: string): ((rest: string) => boolean) | null
  /** Every concrete path the followed upstreams publish (without the leading "/", aliases left out). */
  paths(): string[]
  /** Of those, the ones an upstream groups as not collected (tag `tables-not-collected`: tables with no rows), suggested last. */
  uncollected(): Set<string>
  close(): void
}

export interface DocumentOptions {
  log: Logger
  refreshMs: () => number
  /** Per read (default 5 s). */
  timeoutMs?: number
  /** Called when a document changed (to be composed again). */
  onChange?: () => void
}

const SHAPE = /\{[^}/]*\}/g

/** "/snapshots/{id}/lock" → "/snapshots/{}/lock". */
export function pathShape(path: string): string {
  return path.replace(SHAPE, '{}')
}

function isDocument(value: unknown): value is JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const doc = value as JsonObject
  return typeof doc.openapi === 'string' && /^3\./.test(doc.openapi) && doc.paths !== null && typeof doc.paths === 'object' && !Array.isArray(doc.paths)
}

export function describe(document: JsonObject, etag: string | null): UpstreamDescription {
  const byShape = new Map<string, { path: string; item: JsonObject }>()
  const concrete: { path: string; item: JsonObject; aliases: string[] }[] = []
  for (const [path, raw] of Object.entries(document.paths as JsonObject)) {
    if (!path.startsWith('/') || raw === null || typeof raw !== 'object') continue
    const item = raw as JsonObject
    byShape.set(pathShape(path), { path, item })
    if (path.includes('{')) continue
    const aliases = Array.isArray(item['x-aliases']) ? (item['x-aliases'] as unknown[]).filter((a): a is string => typeof a === 'string' && a.startsWith('/') && !a.includes('{')) : []
    concrete.push({ path: path.slice(1), item, aliases: aliases.map((a) => a.slice(1)) })
  }
  return { document, byShape, concrete, etag }
}

/** The part of `path` a `*` pattern's star matches ("tables/*\/description", "tables/a/b/description" → "a/b"); undefined: no match. */
export function restUnder(pattern: string, path: string): string | undefined {
  const star = pattern.indexOf('*')
  const prefix = pattern.slice(0, star)
  const suffix = pattern.slice(star + 1)
  if (!path.startsWith(prefix) || !path.endsWith(suffix) || path.length <= prefix.length + suffix.length) return undefined
  const parts = pattern.split('/')
  const segments = path.split('/')
  if (segments.length < parts.length) return undefined
  for (let i = 0; i < parts.length && parts[i] !== '*'; i++) if (parts[i]!.startsWith(':') ? segments[i] === '' : parts[i] !== segments[i]) return undefined
  return path.slice(prefix.length, path.length - suffix.length)
}

interface Fetched {
  status: number
  etag: string | null
  body: string
}

function get(upstream: Upstream, etag: string | null, timeoutMs: number): Promise<Fetched> {
  const url = new URL(upstream.base + upstream.documentPath, upstream.url)
  const secure = url.protocol === 'https:'
  const send = secure ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'GET',
        // A connection of its own, closed after the answer: no socket stays open to the upstream.
        agent: false,
        headers: { accept: 'application/json', connection: 'close', host: upstream.host, ...(etag !== null ? { 'if-none-match': etag } : {}) },
        timeout: timeoutMs,
        ...(secure && upstream.tls ? { ca: upstream.tls.ca, cert: upstream.tls.cert, key: upstream.tls.key, servername: upstream.tls.servername } : {}),
      },
      (res) => {
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (c: Buffer) => {
          size += c.length
          // A document past 32 MiB is no document of ours.
          if (size > 32 * 1024 * 1024) req.destroy(new Error('document larger than 32 MiB'))
          else chunks.push(c)
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: typeof res.headers.etag === 'string' ? res.headers.etag : null, body: Buffer.concat(chunks).toString('utf8') }))
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)))
    req.on('error', reject)
    req.end()
  })
}

export function createUpstreamDocuments(options: DocumentOptions): UpstreamDocuments {
  const followed = new Map<string, Followed>()
  let version = 0
  let closed = false
  const timeoutMs = options.timeoutMs ?? 5000

  function index(f: Followed): void {
    f.rests.clear()
  }

  function restsOf(f: Followed, pattern: string): { exact: Set<string>; shapes: RegExp[] } {
    let known = f.rests.get(pattern)
    if (known === undefined) {
      known = { exact: new Set(), shapes: [] }
      const state = f.state
      if (state) {
        for (const c of state.concrete) {
          for (const p of [c.path, ...c.aliases]) {
            const rest = restUnder(pattern, p)
            if (rest !== undefined) known.exact.add(rest)
          }
        }
        // "/widgets/{id}/parts" under "widgets/*": any one segment where the parameter is.
        for (const { path } of state.byShape.values()) {
          if (!path.includes('{')) continue
          const rest = restUnder(pattern, path.slice(1))
          if (rest !== undefined) known.shapes.push(new RegExp(`^${rest.split(/\{[^}/]*\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+')}$`))
        }
      }
      f.rests.set(pattern, known)
    }
    return known
  }

  function changed(f: Followed, state: DescriptionState): void {
    f.state = state
    index(f)
    version++
    options.onChange?.()
  }

  async function read(f: Followed): Promise<void> {
    const previous = f.state
    const name = f.upstream.name
    try {
      const got = await get(f.upstream, previous ? previous.etag : null, timeoutMs)
      if (got.status === 304 && previous) return
      if (got.status >= 200 && got.status < 300) {
        let parsed: unknown
        try {
          parsed = JSON.parse(got.body)
        } catch {
          parsed = undefined
        }
        if (isDocument(parsed)) {
          if (previous && previous.etag !== null && previous.etag === got.etag) return
          if (previous && got.etag === null && JSON.stringify(previous.document) === JSON.stringify(parsed)) return
          changed(f, describe(parsed, got.etag))
          options.log.info({ upstream: name, paths: Object.keys(parsed.paths as JsonObject).length }, 'read the OpenAPI document of an upstream')
          return
        }
      }
      if (got.status >= 500) throw new Error(`answered ${got.status}`)
      // Answered, but with no document: it publishes none.
      if (previous !== null) {
        options.log.warn({ upstream: name, status: got.status }, 'the upstream publishes no OpenAPI document at its documentPath: every path under its * routes is forwarded')
        changed(f, null)
      }
    } catch (err) {
      // Away: the last good document stays.
      options.log.warn({ upstream: name, err: (err as Error).message, kept: previous !== undefined }, 'could not read the OpenAPI document of an upstream')
    }
  }

  function schedule(f: Followed): void {
    if (closed) return
    const delay = f.state === undefined ? 1000 : options.refreshMs()
    f.timer = setTimeout(() => {
      f.inFlight = read(f).finally(() => {
        f.inFlight = undefined
        if (followed.get(f.upstream.name) === f) schedule(f)
      })
    }, delay)
    f.timer.unref()
  }

  return {
    paths() {
      const out: string[] = []
      for (const f of followed.values()) if (f.state) for (const c of f.state.concrete) out.push(c.path)
      return out
    },
    uncollected() {
      const out = new Set<string>()
      for (const f of followed.values()) {
        for (const c of f.state?.concrete ?? []) {
          const tagged = Object.values(c.item).some((op) => typeof op === 'object' && op !== null && Array.isArray((op as { tags?: unknown }).tags) && (op as { tags: unknown[] }).tags.includes('tables-not-collected'))
          if (tagged) out.add(c.path)
        }
      }
      return out
    },
    follow(upstreams) {
      const seen = new Set<string>()
      for (const upstream of upstreams) {
        if (upstream.documentPath === '') continue
        seen.add(upstream.name)
        const had = followed.get(upstream.name)
        if (had && had.upstream.url.href === upstream.url.href && had.upstream.documentPath === upstream.documentPath) {
          had.upstream = upstream
          continue
        }
        if (had?.timer) clearTimeout(had.timer)
        const f: Followed = { upstream, state: undefined, rests: new Map(), timer: undefined, inFlight: undefined }
        followed.set(upstream.name, f)
        f.inFlight = read(f).finally(() => {
          f.inFlight = undefined
          if (followed.get(upstream.name) === f) schedule(f)
        })
        if (had) changed(f, undefined)
      }
      for (const [name, f] of followed) {
        if (seen.has(name)) continue
        if (f.timer) clearTimeout(f.timer)
        followed.delete(name)
        version++
      }
    },
    async ready() {
      await Promise.all([...followed.values()].map((f) => f.inFlight))
    },
    state(name) {
      return followed.get(name)?.state
    },
    version: () => version,
    exists(upstream, pattern) {
      if (upstream.documentPath === '') return null
      const name = upstream.name
      return (rest) => {
        const f = followed.get(name)
        const state = f?.state
        if (f === undefined || state === null) return true
        if (state === undefined) {
          throw new ApiError('API_SERVICE_UNAVAILABLE', `The gateway has not read yet which paths upstream ${name} serves; retry later`, { headers: { 'retry-after': '1' } })
        }
        const known = restsOf(f, pattern)
        return known.exact.has(rest) || known.shapes.some((shape) => shape.test(rest))
      }
    },
    close() {
      closed = true
      for (const f of followed.values()) if (f.timer) clearTimeout(f.timer)
    },
  }
}
