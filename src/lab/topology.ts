/**
 * The lab's topology as data: routers (FRR, lldpd, snmpd each), links between them, BGP
 * sessions, end hosts and the management link from the machine's own namespace. The same
 * object is the ground truth tests compare discovery against (`truth.ts`).
 */
import { ipToInt, intToIp, parseCidr } from '../shared/ipv4.js'

export type RouterSnmp = 'v2c' | 'v3' | { community: string }

export interface LabRouter {
  name: string
  loopback: string
  as: number
  location: string
  /** How the router's agent answers: the lab community (default), SNMPv3 only, or another community. */
  snmp?: RouterSnmp
}

export interface LabLink {
  /** "router:interface" of each end; `a` takes the first address of the /30, `b` the second. */
  a: string
  b: string
  network: string
  /** Which end is administratively shut, if any. */
  shut?: 'a' | 'b'
}

export interface LabHost {
  name: string
  router: string
  interface: string
  /** The router takes the first address, the host the tenth. */
  network: string
}

export interface Topology {
  name: string
  /** Every lab address lies inside; the machine's namespace routes it to the management link. */
  supernet: string
  management: { router: string; network: string }
  credentials: {
    community: string
    v3: { user: string; authProtocol: 'SHA' | 'SHA-256'; authPassword: string; privProtocol: 'AES'; privPassword: string }
  }
  routers: LabRouter[]
  links: LabLink[]
  /** Sessions between two routers: iBGP between loopbacks, eBGP over the link between them. */
  bgp: Array<{ a: string; b: string }>
  /** Sessions configured towards a peer that does not exist (never established). */
  bgpDown: Array<{ router: string; peer: string; as: number }>
  hosts: LabHost[]
  /**
   * OSPFv3 as well (FRR's ospf6d, an AgentX subagent like the others) on every link between
   * routers, in area 0 over the links' link-local addresses: the IPv6 addresses given to those
   * links are routed by it.
   */
  ospfv3?: boolean
}

export interface LinkEnd {
  router: string
  interface: string
  address: string
  prefix: number
  peer: { router: string; interface: string; address: string }
  up: boolean
  shut: boolean
}

export function splitEnd(end: string): { router: string; interface: string } {
  const [router, iface] = end.split(':')
  if (!router || !iface) throw new Error(`bad link end ${JSON.stringify(end)} (expected "router:interface")`)
  return { router, interface: iface }
}

/** Both ends of a link with their addresses. */
export function linkEnds(link: LabLink): [LinkEnd, LinkEnd] {
  const { base, prefix } = parseCidr(link.network)
  const a = splitEnd(link.a)
  const b = splitEnd(link.b)
  const up = link.shut === undefined
  const ea: LinkEnd = { ...a, address: intToIp(base + 1), prefix, peer: { ...b, address: intToIp(base + 2) }, up, shut: link.shut === 'a' }
  const eb: LinkEnd = { ...b, address: intToIp(base + 2), prefix, peer: { ...a, address: intToIp(base + 1) }, up, shut: link.shut === 'b' }
  return [ea, eb]
}

/** Every link end of one router. */
export function routerEnds(topo: Topology, router: string): LinkEnd[] {
  return topo.links.flatMap(linkEnds).filter((e) => e.router === router)
}

export function hostAddresses(host: LabHost): { gateway: string; address: string; prefix: number } {
  const { base, prefix } = parseCidr(host.network)
  return { gateway: intToIp(base + 1), address: intToIp(base + 10), prefix }
}

export function managementAddresses(topo: Topology): { root: string; router: string; prefix: number } {
  const { base, prefix } = parseCidr(topo.management.network)
  return { root: intToIp(base + 1), router: intToIp(base + 2), prefix }
}

export function findRouter(topo: Topology, name: string): LabRouter {
  const r = topo.routers.find((x) => x.name === name)
  if (!r) throw new Error(`no router ${name} in the topology`)
  return r
}

export interface BgpSession {
  router: string
  localAddress: string
  peerAddress: string
  localAs: number
  peerAs: number
  /** The peer router, null for a peer outside the lab. */
  peer: string | null
  /** Whether the session should come up (both ends configured, path between them). */
  established: boolean
}

/** The BGP sessions each router has configured, from both ends. */
export function bgpSessions(topo: Topology): BgpSession[] {
  const out: BgpSession[] = []
  for (const { a, b } of topo.bgp) {
    const ra = findRouter(topo, a)
    const rb = findRouter(topo, b)
    if (ra.as === rb.as) {
      out.push({ router: a, localAddress: ra.loopback, peerAddress: rb.loopback, localAs: ra.as, peerAs: rb.as, peer: b, established: true })
      out.push({ router: b, localAddress: rb.loopback, peerAddress: ra.loopback, localAs: rb.as, peerAs: ra.as, peer: a, established: true })
      continue
    }
    const link = topo.links.map(linkEnds).find(([x, y]) => (x.router === a && y.router === b) || (x.router === b && y.router === a))
    if (!link) throw new Error(`eBGP between ${a} and ${b} needs a link between them`)
    const [ea, eb] = link[0].router === a ? link : [link[1], link[0]]
    const up = ea.up
    out.push({ router: a, localAddress: ea.address, peerAddress: eb.address, localAs: ra.as, peerAs: rb.as, peer: b, established: up })
    out.push({ router: b, localAddress: eb.address, peerAddress: ea.address, localAs: rb.as, peerAs: ra.as, peer: a, established: up })
  }
  for (const d of topo.bgpDown) {
    const r = findRouter(topo, d.router)
    out.push({ router: d.router, localAddress: r.loopback, peerAddress: d.peer, localAs: r.as, peerAs: d.as, peer: null, established: false })
  }
  return out
}

/** Checks names and addresses; throws naming the first problem. */
export function checkTopology(topo: Topology): Topology {
  const { base, prefix } = parseCidr(topo.supernet)
  const inside = (ip: string) => (ipToInt(ip) >>> (32 - prefix)) === base >>> (32 - prefix)
  const names = new Set<string>()
  for (const r of topo.routers) {
    if (!/^[a-z][a-z0-9]{0,7}$/.test(r.name)) throw new Error(`router name ${JSON.stringify(r.name)} must be 1-8 lower-case letters and digits`)
    if (names.has(r.name)) throw new Error(`router ${r.name} appears twice`)
    names.add(r.name)
    if (!inside(r.loopback)) throw new Error(`loopback of ${r.name} is outside ${topo.supernet}`)
  }
  for (const h of topo.hosts) {
    if (names.has(h.name)) throw new Error(`name ${h.name} appears twice`)
    names.add(h.name)
    findRouter(topo, h.router)
    if (!inside(hostAddresses(h).address)) throw new Error(`network of ${h.name} is outside ${topo.supernet}`)
  }
  for (const l of topo.links) {
    for (const e of linkEnds(l)) {
      findRouter(topo, e.router)
      if (!inside(e.address)) throw new Error(`link ${l.a}-${l.b} is outside ${topo.supernet}`)
    }
  }
  findRouter(topo, topo.management.router)
  if (!inside(managementAddresses(topo).root)) throw new Error(`the management network is outside ${topo.supernet}`)
  bgpSessions(topo)
  return topo
}
