/**
 * Topologies of any size for benchmarks: routers in a ring with a chord every seventh router,
 * ten routers per autonomous system (iBGP between neighbours of the same AS, eBGP across),
 * one end host every tenth router, inside 10.<octet>.0.0/16.
 */
import { checkTopology, type LabLink, type Topology } from './topology.js'
import { defaultTopology } from './index.js'

export function generatedTopology(routers: number, octet = 214): Topology {
  if (!Number.isInteger(routers) || routers < 2 || routers > 240) throw new Error('a generated lab has 2 to 240 routers')
  const net = (a: number, b: number, c: number) => `10.${octet}.${a}.${b}${c >= 0 ? `/${c}` : ''}`
  const name = (i: number) => `g${i + 1}`
  const ports = new Map<number, number>()
  const port = (i: number) => {
    const n = (ports.get(i) ?? 0) + 1
    ports.set(i, n)
    return `eth${n}`
  }
  const links: LabLink[] = []
  const pairs: Array<[number, number]> = []
  for (let i = 0; i < routers; i++) {
    const j = (i + 1) % routers
    if (routers > 2 || i === 0) pairs.push([i, j])
    if (i % 7 === 0 && routers > 10) pairs.push([i, (i + routers / 2) % routers | 0])
  }
  const seen = new Set<string>()
  for (const [a, b] of pairs) {
    const key = [Math.min(a, b), Math.max(a, b)].join('-')
    if (a === b || seen.has(key)) continue
    seen.add(key)
    const k = links.length
    links.push({ a: `${name(a)}:${port(a)}`, b: `${name(b)}:${port(b)}`, network: net(4 + Math.floor(k / 64), (k % 64) * 4, 30) })
  }
  const as = (i: number) => 65100 + Math.floor(i / 10)
  const bgp = links.map((l) => ({ a: l.a.split(':')[0]!, b: l.b.split(':')[0]! }))
  const hosts = Array.from({ length: Math.ceil(routers / 10) }, (_, h) => ({ name: `h${h + 1}`, router: name(h * 10), interface: port(h * 10), network: net(200 + h, 0, 24) }))
  return checkTopology({
    name: `generated-${routers}`,
    supernet: `10.${octet}.0.0/16`,
    management: { router: name(0), network: net(255, 0, 30) },
    credentials: defaultTopology().credentials,
    routers: Array.from({ length: routers }, (_, i) => ({ name: name(i), loopback: net(0, i + 1, -1), as: as(i), location: `Generated lab, rack ${Math.floor(i / 10) + 1}` })),
    links,
    bgp,
    bgpDown: [],
    hosts,
  })
}
