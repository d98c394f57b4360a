/**
 * Stage 3: which endpoint version serves the request, and whether it is (or its generation is)
 * deprecated or gone.
 *
 * - header generation: `X-API-Version` (integer) or the endpoint's default;
 * - original generation (/api/v1/): version 1, under the `original` generation policy;
 * - path generation (/api/v<major>.<minor>/): the version the named release used, under the
 *   `path` policy; releases above the product or below `versioning.oldestRelease` are gone.
 *
 * Invalid or unsupported versions, and anything past an enforced sunset, get 410 with the spec's
 * body `{message, release_version, api_version}`.
 */
import type { Config, SunsetPolicy } from '../../shared/config/index.js'
import { ApiError } from '../../shared/errors.js'
import { compareRelease, latestVersion, supportedVersions, versionForRelease, type Endpoint } from '../../shared/manifest.js'
import { PRODUCT_MAJOR, PRODUCT_MINOR, PRODUCT_VERSION, RELEASE_VERSION } from '../../shared/product.js'
import type { RequestContext } from '../context.js'
import type { Stage } from './runner.js'

/** 410 Gone with the version-error body of the spec. */
export class VersionGoneError extends ApiError {
  readonly apiVersion: string
  constructor(message: string, endpoint: Endpoint | undefined) {
    super('API_VERSION_GONE', message)
    this.apiVersion = endpoint ? String(latestVersion(endpoint)) : ''
  }

  body(): { message: string; release_version: string; api_version: string } {
    return { message: this.message, release_version: RELEASE_VERSION, api_version: this.apiVersion }
  }
}

const INTEGER = /^\s*\d{1,6}\s*$/

/** The X-API-Version header as an integer, or null when it is not one (1 to 6 digits, blanks around). */
export function versionNumber(header: string | string[]): number | null {
  if (typeof header !== 'string') return null
  // Plain digits (what clients send) need no regular expression.
  let plain = header.length > 0 && header.length <= 6
  for (let i = 0; plain && i < header.length; i++) {
    const c = header.charCodeAt(i)
    plain = c >= 0x30 && c <= 0x39
  }
  if (plain || INTEGER.test(header)) return Number(header)
  return null
}

function supports(endpoint: Endpoint, version: number): boolean {
  for (const v of endpoint.versions) if (v.version === version) return true
  return false
}

/** The text of small version numbers, made once. */
const VERSION_TEXT = Array.from({ length: 10 }, (_, i) => String(i))
const PRODUCT_RELEASE = `${PRODUCT_MAJOR}.${PRODUCT_MINOR}`

function pastSunset(sunset: string | null, now: number): boolean {
  return sunset !== null && now >= Date.parse(sunset)
}

/** Deprecation headers for a policy; 410 when an enforced sunset has passed. */
function applyPolicy(ctx: RequestContext, policy: { deprecated: boolean; sunset: string | null; enforce: boolean }, now: number, what: string): void {
  if (!policy.deprecated) return
  if (policy.enforce && pastSunset(policy.sunset, now)) {
    throw new VersionGoneError(`${what} reached its sunset on ${policy.sunset}`, ctx.endpoint)
  }
  ctx.responseHeaders['deprecation'] = 'true'
  // Deprecated twice over (generation and endpoint version): the earlier sunset is the one that counts.
  const current = ctx.responseHeaders['sunset']
  if (policy.sunset !== null && (current === undefined || Date.parse(policy.sunset) < Date.parse(current))) {
    ctx.responseHeaders['sunset'] = policy.sunset
  }
}

/** The sunset policy of a deprecated endpoint version (manifest, overridden by config), or null. */
export function endpointVersionPolicy(config: Readonly<Config>, endpoint: Endpoint, version: number): Omit<SunsetPolicy, 'deprecated'> | null {
  let v: Endpoint['versions'][number] | undefined
  for (const x of endpoint.versions) {
    if (x.version === version) {
      v = x
      break
    }
  }
  if (!v?.deprecated) return null
  const override = config.versioning.endpointSunsets[`${endpoint.path}@${version}`]
  return override ? { sunset: override.sunset, enforce: override.enforce } : { sunset: v.deprecated.sunset, enforce: false }
}

/** Resolves the endpoint version for the request's generation; throws VersionGoneError. */
export function resolveVersion(ctx: RequestContext, config: Readonly<Config>): number {
  const endpoint = ctx.endpoint!
  if (ctx.generation === 'original') return 1
  if (ctx.generation === 'path') {
    const release = ctx.release!
    if (compareRelease(release, PRODUCT_RELEASE) > 0) {
      throw new VersionGoneError(`Release ${release} is newer than this product (${PRODUCT_RELEASE})`, endpoint)
    }
    if (compareRelease(release, config.versioning.oldestRelease) < 0) {
      throw new VersionGoneError(`Release ${release} is older than the oldest supported release ${config.versioning.oldestRelease}`, endpoint)
    }
    const version = versionForRelease(endpoint, release)
    if (!supports(endpoint, version)) throw new VersionGoneError(`Version ${version} of ${endpoint.path} is no longer supported`, endpoint)
    return version
  }
  const header = ctx.req.headers['x-api-version']
  if (header === undefined) return endpoint.defaultVersion
  const version = versionNumber(header)
  if (version === null) throw new VersionGoneError('X-API-Version must be one version number, in digits (such as 1)', endpoint)
  if (!supports(endpoint, version)) {
    throw new VersionGoneError(`Version ${version} of ${endpoint.path} is not supported (supported: ${supportedVersions(endpoint).join(',')})`, endpoint)
  }
  return version
}

/**
 * The spec's three version headers on an error answered before the stages that set them ran, or
 * when they could not: every response carries them. For a request that names no endpoint (404,
 * a refused path, an answer given before routing) both version headers are empty: no endpoint,
 * no versions, as the 410 body's empty `api_version`. `X-API-Version-Used` is empty too when no
 * version of the endpoint serves the request (a version error, 410); an endpoint that exists
 * but refuses the method (405) names the version the request would have had.
 */
export function completeVersionHeaders(ctx: RequestContext, config: Readonly<Config>, err: unknown): void {
  const headers = ctx.responseHeaders
  headers['x-product-version'] ??= PRODUCT_VERSION
  headers['x-api-versions-supported'] ??= ctx.endpoint?.versionsHeader ?? ''
  if (headers['x-api-version-used'] !== undefined) return
  let used = ''
  if (ctx.endpoint !== undefined && ctx.generation !== undefined && !(err instanceof VersionGoneError)) {
    try {
      used = String(resolveVersion(ctx, config))
    } catch {
      // not a version of the endpoint: stays empty
    }
  }
  headers['x-api-version-used'] = used
}

export function versionStage(deps: { config(): Readonly<Config>; now(): number }): Stage<RequestContext> {
  return {
    name: 'version',
    run(ctx) {
      const config = deps.config()
      const endpoint = ctx.endpoint!
      const now = deps.now()
      if (ctx.generation === 'path') applyPolicy(ctx, config.versioning.generations.path, now, 'The path-versioned address /api/v<major>.<minor>/')
      else if (ctx.generation === 'original') applyPolicy(ctx, config.versioning.generations.original, now, 'The original address /api/v1/')
      const version = resolveVersion(ctx, config)
      // An upstream that takes path versions is sent only versions a release of it used.
      const releases = endpoint.pathReleases
      if (releases !== null && !releases.has(version)) {
        throw new VersionGoneError(`Version ${version} of ${endpoint.path} is not served: no release of upstream ${endpoint.upstream} used it`, endpoint)
      }
      const policy = endpointVersionPolicy(config, endpoint, version)
      if (policy) applyPolicy(ctx, { deprecated: true, ...policy }, now, `Version ${version} of ${endpoint.path}`)
      ctx.apiVersion = version
      ctx.responseHeaders['x-api-version-used'] = VERSION_TEXT[version] ?? String(version)
    },
  }
}
