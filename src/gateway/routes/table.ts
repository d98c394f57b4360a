/**
 * THE route table of a running gateway: the built-in table (netinv's own endpoints, from
 * src/shared/manifest.ts) and the operators' route files, checked by the same code, each entry
 * bound to the upstream that answers it (or to the gateway's own handlers), in the order they are
 * tried (most specific first), compiled once into a matcher. A configuration reload compiles a
 * new table and swaps it in whole; a table that fails to compile is never used.
 *
 * Refused: an entry naming no configured upstream, two entries of the same shape (they would
 * serve the same paths), an entry of an upstream with `versioning: path` of which no release
 * serves any version, `jwt` identity where the gateway cannot mint tokens.
 */
import { compareRelease, compareSpecificity, producesOf, releaseForVersion, supportedVersions, versionForRelease, type Endpoint } from '../../shared/manifest.js'
import { compileEndpoints, type EndpointMatch } from '../pipeline/matcher.js'
import { INVENTORY, type Upstream } from '../upstreams/settings.js'
import { parseEntry, RouteError } from './entry.js'
import type { RouteFile } from './files.js'

/** The built-in table's entries, as in the manifest. */
export const BUILT_IN = 'built-in'

/** An entry of the table, bound to what answers it. Every route has every field (one shape). */
export class Route implements Endpoint {
  readonly path: string
  readonly service: Endpoint['service']
  readonly upstream: string | undefined
  readonly methods: Endpoint['methods']
  readonly versions: Endpoint['versions']
  readonly defaultVersion: number
  readonly releases: Endpoint['releases']
  readonly legacyAliases: Endpoint['legacyAliases']
  readonly upload: boolean
  readonly produces: Endpoint['produces']
  /** What `Accept` must allow (406 otherwise); null: not checked (a route file's entry that does not say). */
  readonly answersIn: readonly string[] | null
  readonly description: string
  /** `X-API-Versions-Supported`. */
  readonly versionsHeader: string
  /** `versioning: path`: the release in the upstream's path, by endpoint version (none: 410). */
  readonly pathReleases: ReadonlyMap<number, string> | null
  /** `versioning: original`: endpoint path → its declared camelCase alias. */
  readonly aliases: ReadonlyMap<string, string> | null
  /** Which paths under `*` exist (from what the upstream publishes); null: all of them. */
  readonly exists: ((rest: string) => boolean) | null

  constructor(
    e: Endpoint,
    /** The upstream that answers; null: the gateway's own handler. */
    readonly target: Upstream | null,
    /** "built-in" or the route file, e.g. "routes/legacy.json". */
    readonly source: string,
    exists: ((rest: string) => boolean) | null = null,
  ) {
    this.exists = exists
    this.path = e.path
    this.service = e.service
    this.upstream = target?.name
    this.methods = e.methods
    this.versions = e.versions
    this.defaultVersion = e.defaultVersion
    this.releases = e.releases
    this.legacyAliases = e.legacyAliases
    this.upload = e.upload === true
    this.produces = e.produces
    this.answersIn = e.service !== undefined ? producesOf(e) : (e.produces ?? null)
    this.description = e.description
    this.versionsHeader = supportedVersions(e).join(',')
    this.pathReleases = target?.versioning === 'path' ? pathReleases(e, target) : null
    this.aliases = target?.versioning === 'original' && e.legacyAliases?.length ? new Map(e.legacyAliases.map((a) => [kebab(a), a])) : null
  }
}

/** "tables/addressing/managedDevs" → "tables/addressing/managed-devs". */
function kebab(path: string): string {
  return path.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()
}

/**
 * The release to put in the path for each version: the newest release the entry lists for it,
 * or the upstream's own `release` for the version that release used.
 */
function pathReleases(e: Endpoint, upstream: Upstream): Map<number, string> {
  const out = new Map<number, string>()
  for (const { version } of e.versions) {
    let release = releaseForVersion(e, version)
    const own = upstream.release
    if (own !== '' && versionForRelease(e, own) === version && (release === undefined || compareRelease(release, own) < 0)) release = own
    if (release !== undefined) out.set(version, release)
  }
  return out
}

export interface RouteTable {
  /** In the order they are tried. */
  readonly routes: readonly Route[]
  /** In the order they are listed: the built-in table's, then each route file's in name order. */
  readonly listed: readonly Route[]
  readonly upstreams: ReadonlyMap<string, Upstream>
  /** What deserves a line in the log (an upstream no route uses, netinv's endpoints not served). */
  readonly notes: readonly string[]
  match(path: string): EndpointMatch<Route> | null
}

export interface TableSources {
  builtIn: readonly Endpoint[]
  files: readonly RouteFile[]
  upstreams: ReadonlyMap<string, Upstream>
  /** Whether the gateway can mint tokens for `jwt` identity (it holds a signing key). */
  canMintTokens: boolean
  /**
   * For built-in inventory endpoints with a `*`, by path: which paths under it exist, when fixed
   * (tests). One it does not know matches no route: 404 for every method.
   */
  wildcards?: Readonly<Record<string, (rest: string) => boolean>>
  /**
   * Which paths under a `*` route of an upstream exist, from the document it publishes
   * (upstreams/documents.ts); null: every one (it publishes none).
   */
  published?: (upstream: Upstream, pattern: string) => ((rest: string) => boolean) | null
}

function publishedPaths(sources: TableSources, upstream: Upstream, pattern: string): ((rest: string) => boolean) | null {
  return pattern.includes('*') && sources.published ? sources.published(upstream, pattern) : null
}

export function compileRouteTable(sources: TableSources): RouteTable {
  const { upstreams } = sources
  const routes: Route[] = []
  const notes: string[] = []
  const inventory = upstreams.get(INVENTORY)
  sources.builtIn.forEach((raw, i) => {
    const e = parseEntry(raw, `${BUILT_IN}[${i}]`, true)
    if (e.service === 'gateway') routes.push(new Route(e, null, BUILT_IN))
    else if (inventory) routes.push(new Route(e, inventory, BUILT_IN, sources.wildcards?.[e.path] ?? publishedPaths(sources, inventory, e.path)))
  })
  if (!inventory) notes.push('no inventory upstream (INVENTORY_URL or upstreams.inventory): netinv\'s inventory endpoints are not served')
  for (const file of sources.files) {
    file.entries.forEach((e, i) => {
      const target = upstreams.get(e.upstream!)
      if (!target) {
        throw new RouteError(`${file.source}[${i}] (${e.path}).upstream`, `"${e.upstream}" is not an upstream of api.json (configured: ${[...upstreams.keys()].join(', ') || 'none'})`)
      }
      routes.push(new Route(e, target, file.source, publishedPaths(sources, target, e.path)))
    })
  }
  const listed = [...routes]
  routes.sort((a, b) => compareSpecificity(a.path, b.path))
  for (let i = 1; i < routes.length; i++) {
    const [a, b] = [routes[i - 1]!, routes[i]!]
    if (compareSpecificity(a.path, b.path) === 0) {
      throw new RouteError(`${b.source} (${b.path})`, `serves the same paths as "${a.path}" of ${a.source === BUILT_IN ? `the built-in table (${a.upstream ?? 'the gateway'})` : a.source}`)
    }
  }
  const used = new Set<string>()
  for (const r of routes) {
    const target = r.target
    if (!target) continue
    used.add(target.name)
    if (target.identity.mode === 'jwt' && !sources.canMintTokens) {
      throw new RouteError(`upstreams.${target.name}.identity.mode`, '"jwt" needs the gateway\'s signing key, which this gateway does not hold')
    }
    if (r.pathReleases && r.pathReleases.size === 0) {
      throw new RouteError(`${r.source} (${r.path})`, `upstream ${target.name} takes path versions, but no release serves any version of it: list them in "releases" or set upstreams.${target.name}.release`)
    }
    if (r.pathReleases && !r.pathReleases.has(r.defaultVersion)) {
      notes.push(`${r.source} (${r.path}): no release of upstream ${target.name} serves version ${r.defaultVersion}, the default: requests for it get 410`)
    }
  }
  for (const name of upstreams.keys()) if (!used.has(name)) notes.push(`upstream ${name} serves no route (add CONFIG_DIR/routes/${name}.json)`)
  const matcher = compileEndpoints(routes)
  return { routes, listed, upstreams, notes, match: (path) => matcher.match(path) }
}
