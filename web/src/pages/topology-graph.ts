/**
 * The topology's graph from table rows: devices (by type) inside their site, unmanaged neighbours
 * apart, one edge per link labelled with its two interfaces. A collapsed site is one node that
 * takes over its devices' links (several links between the same two nodes become one, "n links").
 */
import type { ElementDefinition } from 'cytoscape'

export interface Neighbor {
  localHost: string | null
  localInt: string | null
  remoteHost: string | null
  remoteInt: string | null
  siteName: string | null
}
export interface Device {
  hostname: string
  devType: string | null
  siteName: string | null
}

export function kind(devType: string | null): string {
  const t = (devType ?? '').toLowerCase()
  if (t.includes('router')) return 'router'
  if (t.includes('fw') || t.includes('firewall')) return 'fw'
  if (t === 'ap' || t.includes('access point')) return 'ap'
  return 'switch'
}

export const deviceId = (hostname: string): string => `device:${hostname}`
export const siteId = (site: string): string => `site:${site}`

/** The sites drawn for these rows (of the managed devices that have links), sorted. */
export function sitesOf(neighbors: Neighbor[], devices: Device[]): string[] {
  const known = new Map(devices.map((d) => [d.hostname, d]))
  const sites = new Set<string>()
  for (const n of neighbors) {
    if (!n.localHost || !n.remoteHost) continue
    for (const h of [n.localHost, n.remoteHost]) {
      const s = known.get(h)?.siteName
      if (s) sites.add(s)
    }
  }
  return [...sites].sort()
}

export function graphElements(neighbors: Neighbor[], devices: Device[], collapsed: ReadonlySet<string>): ElementDefinition[] {
  const known = new Map(devices.map((d) => [d.hostname, d]))
  const nodes = new Map<string, ElementDefinition>()
  const members = new Map<string, Set<string>>()
  const edges = new Map<string, { data: { id: string; source: string; target: string; label: string } }>()
  // the links under each edge (a link is seen from both of its ends: counted once)
  const links = new Map<string, Set<string>>()

  /** The node a host is drawn as (its site's when the site is collapsed). */
  const node = (host: string): string => {
    const d = known.get(host)
    const site = d?.siteName ?? null
    if (site && collapsed.has(site)) {
      const id = siteId(site)
      members.set(site, (members.get(site) ?? new Set<string>()).add(host))
      if (!nodes.has(id)) nodes.set(id, { data: { id, site, label: site }, classes: 'site collapsed' })
      return id
    }
    const id = deviceId(host)
    if (!nodes.has(id)) {
      if (site && !nodes.has(siteId(site))) nodes.set(siteId(site), { data: { id: siteId(site), site, label: site }, classes: 'site' })
      nodes.set(id, { data: { id, host, label: host, ...(site ? { parent: siteId(site) } : {}) }, classes: d ? kind(d.devType) : 'unmanaged' })
    }
    return id
  }

  for (const n of neighbors) {
    if (!n.localHost || !n.remoteHost) continue
    const a = node(n.localHost)
    const b = node(n.remoteHost)
    if (a === b && a.startsWith('site:')) continue // a link inside a collapsed site
    const grouped = a.startsWith('site:') || b.startsWith('site:')
    const [p, q] = [`${n.localHost}|${n.localInt ?? ''}`, `${n.remoteHost}|${n.remoteInt ?? ''}`].sort()
    const [x, y] = grouped ? [a, b].sort() : [`${a}|${n.localInt ?? ''}`, `${b}|${n.remoteInt ?? ''}`].sort()
    const id = `${x}--${y}`
    links.set(id, (links.get(id) ?? new Set<string>()).add(`${p}--${q}`))
    if (!edges.has(id)) edges.set(id, { data: { id, source: a, target: b, label: grouped ? '' : `${n.localInt ?? ''} – ${n.remoteInt ?? ''}` } })
  }
  for (const e of edges.values()) {
    const count = links.get(e.data.id)!.size
    if (e.data.label === '') e.data.label = count === 1 ? '1 link' : `${count} links`
  }
  for (const [site, hosts] of members) nodes.get(siteId(site))!.data.label = `${site} (${hosts.size} devices)`
  return [...nodes.values(), ...edges.values()]
}
