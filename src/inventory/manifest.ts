/**
 * What the inventory reads of the API manifest (src/shared/manifest.ts): which routes it must
 * serve, and which endpoint versions each of them answers. At start-up its routes must match the
 * manifest's inventory endpoints exactly (a route outside it could never be reached through the
 * gateway, a manifest entry without a route would forward into a 404); per request, the version
 * the gateway resolved must be one the manifest lists for the endpoint, else 410 with the spec's
 * version-error body (the gateway never forwards such a request: this guards the service itself).
 */
import { ENDPOINTS, latestVersion, supportedVersions, type Endpoint } from '../shared/manifest.js'

/** The inventory's endpoints in the manifest, by path pattern. */
const INVENTORY_ENDPOINTS: ReadonlyMap<string, Endpoint> = new Map(ENDPOINTS.filter((e) => e.service === 'inventory').map((e) => [e.path, e]))

/** "METHOD pattern" entries the routes and the manifest do not share: empty when they agree. */
export function routeMismatches(routes: ReadonlyArray<readonly [string, string]>): { unrouted: string[]; unlisted: string[] } {
  const routed = new Set(routes.map(([method, pattern]) => `${method} ${pattern}`))
  const listed = new Set([...INVENTORY_ENDPOINTS.values()].flatMap((e) => Object.keys(e.methods).map((m) => `${m} ${e.path}`)))
  return {
    unrouted: [...listed].filter((entry) => !routed.has(entry)),
    unlisted: [...routed].filter((entry) => !listed.has(entry)),
  }
}

/** Throws at start-up unless the routes serve exactly the manifest's inventory endpoints. */
export function assertRoutesMatchManifest(routes: ReadonlyArray<readonly [string, string]>): void {
  const { unrouted, unlisted } = routeMismatches(routes)
  if (unrouted.length === 0 && unlisted.length === 0) return
  throw new Error(
    `the inventory's routes and the API manifest disagree: ${[
      unrouted.length ? `no route for ${unrouted.join(', ')}` : '',
      unlisted.length ? `not in the manifest: ${unlisted.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('; ')}`,
  )
}

/** The manifest endpoint a route pattern serves, with its supported versions. */
export interface ServedEndpoint {
  endpoint: Endpoint
  versions: ReadonlySet<number>
  latest: number
}

const served = new Map<string, ServedEndpoint>(
  [...INVENTORY_ENDPOINTS].map(([path, endpoint]) => [path, { endpoint, versions: new Set(supportedVersions(endpoint)), latest: latestVersion(endpoint) }]),
)

export function servedEndpoint(pattern: string): ServedEndpoint | undefined {
  return served.get(pattern)
}
