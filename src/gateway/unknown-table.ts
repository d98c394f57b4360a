/**
 * What a 404 says of an endpoint path under `tables/` that names no table: the tables it may have
 * meant (`tables/inventory/device`: inventory/devices), among those the upstreams publish
 * (upstreams/documents.ts), those it groups as not collected only when no other is near;
 * undefined for any other path.
 */
import { didYouMeanOneOf, nearPaths } from '../shared/suggest.js'

export function unknownTableDetail(endpointPath: string, published: readonly string[], uncollected: ReadonlySet<string> = new Set()): string | undefined {
  const m = /^tables\/(.+?)(\/description)?$/.exec(endpointPath)
  if (!m) return undefined
  const wanted = m[1]!
  const tables = new Set<string>()
  for (const path of published) {
    const t = /^tables\/(.+)$/.exec(path)?.[1]
    if (t !== undefined && !t.endsWith('/description')) tables.add(t)
  }
  if (tables.has(wanted)) return undefined
  // tables with rows first: one of the tables an upstream does not collect only when no other is near
  const filled = [...tables].filter((t) => !uncollected.has(`tables/${t}`))
  const preferred = nearPaths(wanted, filled)
  const near = preferred.length > 0 ? preferred : nearPaths(wanted, tables)
  return `no table "${wanted}"${didYouMeanOneOf(near)}; GET /api/tables lists them`
}
