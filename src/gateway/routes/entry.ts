/**
 * One entry of a route table, checked: the built-in table's entries (src/shared/manifest.ts) and
 * those of operators' route files go through this same check, so both mean the same thing. A bad
 * entry is refused with a message naming where it is and which key is wrong, e.g.
 * `routes/legacy.json[2].methods.GET: must be one of public, authenticated, read, settings, team, write`.
 */
import { isRfc3339 } from '../../shared/config/schema-types.js'
import { UPSTREAM_NAME } from '../../shared/config/upstreams.js'
import { compareRelease, SCOPES, type Access, type Endpoint, type EndpointVersion, type Method } from '../../shared/manifest.js'

export class RouteError extends Error {
  constructor(
    readonly where: string,
    problem: string,
  ) {
    super(`${where}: ${problem}`)
    this.name = 'RouteError'
  }
}

export const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
export const ACCESS_RULES: readonly Access[] = ['public', 'authenticated', ...SCOPES]

/** A literal segment (RFC 3986 unreserved characters), a `:parameter`, or `*`. */
const LITERAL = /^[A-Za-z0-9._~-]+$/
const PARAMETER = /^:[A-Za-z][A-Za-z0-9_]*$/
const RELEASE = /^\d{1,3}\.\d{1,3}$/
/** A media type without parameters (RFC 9110 token "/" token). */
const MEDIA_TYPE = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+\/[A-Za-z0-9!#$%&'*+.^_`|~-]+$/

const KEYS = new Set(['path', 'service', 'upstream', 'methods', 'versions', 'defaultVersion', 'releases', 'legacyAliases', 'upload', 'produces', 'description'])

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** Refuses a pattern that is not segments of literals, `:parameters` and `*` (one at most). */
export function checkPattern(pattern: unknown, where: string): string {
  if (typeof pattern !== 'string' || pattern === '') throw new RouteError(where, 'must be a path pattern such as "devices/:id" (no leading slash)')
  const segments = pattern.split('/')
  for (const segment of segments) {
    if (segment === '*' || PARAMETER.test(segment)) continue
    if (segment === '.' || segment === '..' || !LITERAL.test(segment)) {
      throw new RouteError(where, `"${pattern}": each segment must be letters, digits and . _ ~ -, a :parameter, or *`)
    }
  }
  if (segments.filter((s) => s === '*').length > 1) throw new RouteError(where, `"${pattern}": at most one *`)
  return pattern
}

function checkVersions(raw: unknown, where: string): EndpointVersion[] {
  if (!Array.isArray(raw) || raw.length === 0) throw new RouteError(where, 'must be a non-empty array of {version, summary, deprecated?}')
  const seen = new Set<number>()
  return raw.map((v, i) => {
    const at = `${where}[${i}]`
    if (!isObject(v)) throw new RouteError(at, 'must be an object {version, summary, deprecated?}')
    for (const k of Object.keys(v)) if (!['version', 'summary', 'deprecated'].includes(k)) throw new RouteError(`${at}.${k}`, 'unknown key')
    const version = v.version
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) throw new RouteError(`${at}.version`, 'must be an integer >= 1')
    if (seen.has(version)) throw new RouteError(`${at}.version`, `version ${version} is listed twice`)
    seen.add(version)
    if (typeof v.summary !== 'string') throw new RouteError(`${at}.summary`, 'must be a string')
    const out: EndpointVersion = { version, summary: v.summary }
    if (v.deprecated !== undefined) {
      const d = v.deprecated
      if (!isObject(d) || Object.keys(d).some((k) => k !== 'sunset')) throw new RouteError(`${at}.deprecated`, 'must be {"sunset": <RFC 3339 date-time or null>}')
      const sunset = d.sunset ?? null
      if (sunset !== null && (typeof sunset !== 'string' || !isRfc3339(sunset))) {
        throw new RouteError(`${at}.deprecated.sunset`, 'must be an RFC 3339 date-time such as 2027-06-30T00:00:00Z, or null')
      }
      out.deprecated = { sunset }
    }
    return out
  })
}

function checkReleases(raw: unknown, versions: ReadonlySet<number>, where: string): Array<readonly [string, number]> {
  if (!Array.isArray(raw)) throw new RouteError(where, 'must be an array of ["<major>.<minor>", <version>] pairs')
  let previous: string | undefined
  return raw.map((pair, i) => {
    const at = `${where}[${i}]`
    if (!Array.isArray(pair) || pair.length !== 2) throw new RouteError(at, 'must be a ["<major>.<minor>", <version>] pair')
    const [release, version] = pair as [unknown, unknown]
    if (typeof release !== 'string' || !RELEASE.test(release)) throw new RouteError(at, 'the release must be "<major>.<minor>", e.g. "6.0"')
    if (typeof version !== 'number' || !versions.has(version)) throw new RouteError(at, `version ${String(version)} is not one of the entry's versions`)
    if (previous !== undefined && compareRelease(release, previous) <= 0) throw new RouteError(at, 'releases must be in ascending order')
    previous = release
    return [release, version] as const
  })
}

/**
 * Checks one entry. `builtIn`: the entry names its `service` (gateway or inventory); else it
 * names its `upstream`, which must be a name that could be configured (whether it is, the table
 * checks).
 */
export function parseEntry(raw: unknown, where: string, builtIn: boolean): Endpoint {
  if (!isObject(raw)) throw new RouteError(where, 'must be an object')
  for (const k of Object.keys(raw)) if (!KEYS.has(k)) throw new RouteError(`${where}.${k}`, 'unknown key')
  const path = checkPattern(raw.path, `${where}.path`)
  const at = `${where} (${path})`
  if (builtIn) {
    if (raw.service !== 'gateway' && raw.service !== 'inventory') throw new RouteError(`${at}.service`, 'must be "gateway" or "inventory"')
    if (raw.upstream !== undefined) throw new RouteError(`${at}.upstream`, 'the built-in table names a service, not an upstream')
  } else {
    if (raw.service !== undefined) throw new RouteError(`${at}.service`, 'unknown key (route files name an "upstream")')
    if (typeof raw.upstream !== 'string' || !UPSTREAM_NAME.test(raw.upstream)) throw new RouteError(`${at}.upstream`, 'must name an upstream of api.json `upstreams`')
  }
  if (!isObject(raw.methods) || Object.keys(raw.methods).length === 0) throw new RouteError(`${at}.methods`, 'must map at least one method to its access rule')
  const methods: Partial<Record<Method, Access>> = {}
  for (const [m, access] of Object.entries(raw.methods)) {
    if (!(METHODS as readonly string[]).includes(m)) throw new RouteError(`${at}.methods.${m}`, `not a method: use ${METHODS.join(', ')} (HEAD follows GET)`)
    if (typeof access !== 'string' || !(ACCESS_RULES as readonly string[]).includes(access)) {
      throw new RouteError(`${at}.methods.${m}`, `must be one of ${ACCESS_RULES.join(', ')}`)
    }
    methods[m as Method] = access as Access
  }
  const versions = raw.versions === undefined ? [{ version: 1, summary: 'Initial version.' }] : checkVersions(raw.versions, `${at}.versions`)
  const numbers = new Set(versions.map((v) => v.version))
  const defaultVersion = raw.defaultVersion ?? 1
  if (typeof defaultVersion !== 'number' || !numbers.has(defaultVersion)) throw new RouteError(`${at}.defaultVersion`, `must be one of the versions (${[...numbers].join(', ')})`)
  if (typeof raw.description !== 'string') throw new RouteError(`${at}.description`, 'must be a string (it is the endpoint\'s line in docs/api-versions.md)')
  const entry: Endpoint = { path, methods, versions, defaultVersion, description: raw.description }
  if (builtIn) entry.service = raw.service as 'gateway' | 'inventory'
  else entry.upstream = raw.upstream as string
  if (raw.releases !== undefined) entry.releases = checkReleases(raw.releases, numbers, `${at}.releases`)
  if (raw.legacyAliases !== undefined) {
    if (!Array.isArray(raw.legacyAliases)) throw new RouteError(`${at}.legacyAliases`, 'must be an array of path patterns')
    entry.legacyAliases = raw.legacyAliases.map((a, i) => checkPattern(a, `${at}.legacyAliases[${i}]`))
  }
  if (raw.upload !== undefined) {
    if (typeof raw.upload !== 'boolean') throw new RouteError(`${at}.upload`, 'must be true or false')
    entry.upload = raw.upload
  }
  if (raw.produces !== undefined) {
    const p = raw.produces
    if (!Array.isArray(p) || p.length === 0 || p.some((t) => typeof t !== 'string' || !MEDIA_TYPE.test(t) || t.includes('*'))) {
      throw new RouteError(`${at}.produces`, 'must be a non-empty array of media types such as "application/json"')
    }
    entry.produces = (p as string[]).map((t) => t.toLowerCase())
  }
  return entry
}
