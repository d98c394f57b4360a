/**
 * The upstreams of a configuration, resolved and checked: api.json `upstreams` plus netinv's own
 * inventory (INVENTORY_URL or `netinv serve`'s), with the `upstream` defaults filled in, files
 * (service credential, shared secret, TLS) read, and every combination the schema cannot judge
 * checked. Built at start and on every reload; a ConfigError names the key at fault.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { ConfigError, type Config, type UpstreamConfig } from '../../shared/config/index.js'
import type { IdentityMode, VersioningMode } from '../../shared/config/upstreams.js'
import { MIN_INTERNAL_SECRET_LENGTH } from '../../shared/env.js'
import { headerPolicy, type HeaderPolicy } from './headers.js'

/** The upstream the built-in table's `service: 'inventory'` entries go to. */
export const INVENTORY = 'inventory'

export type UpstreamIdentity =
  | { mode: 'internal'; secret: string }
  | { mode: 'jwt'; ttlSeconds: number }
  /** `header` in lower case; `value` never reaches a client, nor does a client's credential reach the upstream. */
  | { mode: 'credential'; header: string; value: string }
  | { mode: 'passthrough' }

export interface UpstreamTls {
  ca?: Buffer
  cert?: Buffer
  key?: Buffer
  servername?: string
}

/** What the forwarder keeps per connection pool (opaque here; see proxy.ts). */
export interface UpstreamPool {
  readonly key: string
}

export interface Upstream {
  readonly name: string
  readonly url: URL
  /** `Host` of the requests it gets: the URL's host (and port). */
  readonly host: string
  /** The URL's path without its trailing slash ("" for none): it prefixes every forwarded path. */
  readonly base: string
  /** `base` + "/api/": the start of every path but those of `versioning: none`. */
  readonly apiPrefix: string
  readonly versioning: VersioningMode
  /** `versioning: path`: the release for routes that list none ("" when not set). */
  readonly release: string
  readonly identity: UpstreamIdentity
  /** What passes between the client and this upstream, both ways. */
  readonly headers: HeaderPolicy
  readonly tls: UpstreamTls | null
  readonly connectTimeoutMs: number
  readonly timeoutMs: number
  readonly maxSockets: number
  /** An unused kept-alive connection closes after this (below the upstream's own keep-alive timeout). */
  readonly idleTimeoutMs: number
  readonly healthPath: string
  readonly healthRequired: boolean
  /** Where it publishes its OpenAPI document ("": nowhere). */
  readonly documentPath: string
  /** Upstreams with the same key share their connections, also across reloads. */
  readonly poolKey: string
  /** Set by the forwarder when a route table with this upstream is put in service. */
  pool: UpstreamPool | undefined
}

export interface UpstreamSources {
  /** netinv's inventory (INVENTORY_URL, or `netinv serve`'s own); undefined: only if api.json names one. */
  inventoryUrl?: string | undefined
  /** INTERNAL_SECRET. */
  internalSecret?: string | undefined
  /** Whether files are read (false to describe a table without its secrets, e.g. for docs). */
  readFiles: boolean
}

const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/

function readSecretFile(path: string, key: string): string {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    throw new ConfigError(key, `cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`)
  }
  const value = text.replace(/\r?\n$/, '')
  if (value === '') throw new ConfigError(key, `${path} is empty`)
  return value
}

function readPem(path: string, key: string): Buffer | undefined {
  if (path === '') return undefined
  try {
    return readFileSync(path)
  } catch (err) {
    throw new ConfigError(key, `cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`)
  }
}

function identityOf(name: string, c: UpstreamConfig['identity'], sources: UpstreamSources): UpstreamIdentity {
  const key = `upstreams.${name}.identity`
  const onlyFor = (k: 'header' | 'valueFile' | 'secretFile', mode: IdentityMode) => {
    if (c[k] !== '' && c.mode !== mode) throw new ConfigError(`${key}.${k}`, `is only for mode "${mode}" (this upstream's mode is "${c.mode}")`)
  }
  onlyFor('header', 'credential')
  onlyFor('valueFile', 'credential')
  onlyFor('secretFile', 'internal')
  switch (c.mode) {
    case 'internal': {
      const secret = c.secretFile !== '' ? (sources.readFiles ? readSecretFile(c.secretFile, `${key}.secretFile`) : '') : sources.internalSecret
      if (secret === undefined) {
        if (name === INVENTORY) throw new ConfigError('INTERNAL_SECRET', "must be set for netinv's inventory: the gateway proves with it that a request came through it")
        throw new ConfigError(`${key}.mode`, 'is "internal" but INTERNAL_SECRET is not set (nor identity.secretFile)')
      }
      // INTERNAL_SECRET's own length is checked where the environment is read.
      if (c.secretFile !== '' && sources.readFiles && secret.length < MIN_INTERNAL_SECRET_LENGTH) {
        throw new ConfigError(`${key}.secretFile`, `must hold at least ${MIN_INTERNAL_SECRET_LENGTH} characters`)
      }
      return { mode: 'internal', secret }
    }
    case 'jwt':
      return { mode: 'jwt', ttlSeconds: c.tokenTtlSeconds }
    case 'credential': {
      if (c.header === '') throw new ConfigError(`${key}.header`, 'is required in mode "credential" (e.g. "X-API-Token" or "Authorization")')
      if (c.valueFile === '') throw new ConfigError(`${key}.valueFile`, 'is required in mode "credential": a file holding the credential')
      const value = sources.readFiles ? readSecretFile(c.valueFile, `${key}.valueFile`) : ''
      if (!HEADER_VALUE.test(value)) throw new ConfigError(`${key}.valueFile`, 'holds characters a header value cannot carry (a line break?)')
      return { mode: 'credential', header: c.header.toLowerCase(), value }
    }
    case 'passthrough':
      return { mode: 'passthrough' }
    default:
      throw new ConfigError(`${key}.mode`, `unknown mode ${String(c.mode)}`)
  }
}

function digest(b: Buffer | undefined): string {
  return b === undefined ? '-' : createHash('sha256').update(b).digest('hex').slice(0, 16)
}

function resolveOne(name: string, c: UpstreamConfig, config: Readonly<Config>, sources: UpstreamSources): Upstream {
  const key = `upstreams.${name}`
  const rawUrl = c.url !== '' ? c.url : name === INVENTORY ? sources.inventoryUrl : undefined
  if (rawUrl === undefined) {
    throw new ConfigError(`${key}.url`, name === INVENTORY ? 'is empty and INVENTORY_URL is not set' : 'is required (http://… or https://…)')
  }
  let url: URL
  try {
    url = new URL(rawUrl)
  } catch {
    throw new ConfigError(`${key}.url`, `"${rawUrl}" is not a URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${key}.url`, 'must start with http:// or https://')
  if (url.username !== '' || url.password !== '') throw new ConfigError(`${key}.url`, 'must not hold credentials: use identity.mode "credential"')
  const https = url.protocol === 'https:'
  const t = c.tls
  const tlsSet = t.caFile !== '' || t.certFile !== '' || t.keyFile !== '' || t.serverName !== ''
  if (tlsSet && !https) throw new ConfigError(`${key}.tls`, 'is set but the URL is http://')
  if ((t.certFile === '') !== (t.keyFile === '')) throw new ConfigError(`${key}.tls`, 'certFile and keyFile go together')
  let tls: UpstreamTls | null = null
  if (https) {
    tls = {}
    if (sources.readFiles) {
      const ca = readPem(t.caFile, `${key}.tls.caFile`)
      const cert = readPem(t.certFile, `${key}.tls.certFile`)
      const pem = readPem(t.keyFile, `${key}.tls.keyFile`)
      if (ca) tls.ca = ca
      if (cert) tls.cert = cert
      if (pem) tls.key = pem
    }
    if (t.serverName !== '') tls.servername = t.serverName
  }
  if (c.versioning !== 'path' && c.release !== '') throw new ConfigError(`${key}.release`, 'is only for versioning "path"')
  const maxSockets = c.maxSockets ?? config.upstream.maxSockets
  const idleTimeoutMs = c.idleTimeoutMs ?? config.upstream.idleTimeoutMs
  const base = url.pathname.replace(/\/+$/, '')
  const identity = identityOf(name, c.identity, sources)
  return {
    name,
    url,
    host: url.host,
    base,
    apiPrefix: `${base}/api/`,
    versioning: c.versioning,
    release: c.release,
    identity,
    headers: headerPolicy(identity),
    tls,
    connectTimeoutMs: c.connectTimeoutMs ?? config.upstream.connectTimeoutMs,
    timeoutMs: c.timeoutMs ?? config.upstream.timeoutMs,
    maxSockets,
    idleTimeoutMs,
    healthPath: c.healthPath !== '' ? c.healthPath : name === INVENTORY ? '/readyz' : '',
    healthRequired: c.healthRequired,
    documentPath: c.documentPath !== '' ? c.documentPath : name === INVENTORY ? '/openapi.json' : '',
    poolKey: [url.origin, maxSockets, idleTimeoutMs, digest(tls?.ca), digest(tls?.cert), digest(tls?.key), tls?.servername ?? '-'].join('|'),
    pool: undefined,
  }
}

/** The inventory's entry when api.json has none: header versioning, internal identity. */
const INVENTORY_DEFAULTS: UpstreamConfig = {
  url: '',
  versioning: 'header',
  release: '',
  identity: { mode: 'internal', header: '', valueFile: '', secretFile: '', tokenTtlSeconds: 300 },
  tls: { caFile: '', certFile: '', keyFile: '', serverName: '' },
  connectTimeoutMs: null,
  timeoutMs: null,
  maxSockets: null,
  idleTimeoutMs: null,
  healthPath: '',
  healthRequired: true,
  documentPath: '',
}

/** Every upstream of `config` (and the inventory, when there is one), by name. */
export function resolveUpstreams(config: Readonly<Config>, sources: UpstreamSources): Map<string, Upstream> {
  const out = new Map<string, Upstream>()
  const configured = config.upstreams
  if (!(INVENTORY in configured) && sources.inventoryUrl !== undefined) out.set(INVENTORY, resolveOne(INVENTORY, INVENTORY_DEFAULTS, config, sources))
  for (const [name, c] of Object.entries(configured)) out.set(name, resolveOne(name, c, config, sources))
  return out
}
