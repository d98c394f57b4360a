/**
 * The lab's topology as data: routers (FRR, lldpd, snmpd each), links between them, BGP
 * sessions, end hosts, switches (a Linux bridge, lldpd and snmpd each) between a router and its
 * hosts, and the management link from the machine's own namespace. The same
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
  /** The switch the host hangs off (its uplink is the router's `interface`); none: the host is wired to the router. */
  switch?: string
}

/**
 * A switch: a namespace holding a Linux bridge (`br0`, no VLANs, no spanning tree) whose first
 * port (`eth1`) is linked to a router's interface and whose further ports (`eth2`...) lead to
 * the hosts naming it, in the order of the topology's hosts. It is managed in its hosts' network
 * (the second address, on `br0`, with the router as default gateway) and runs lldpd and snmpd
 * (the lab's credentials; BRIDGE-MIB from bridge-agent.ts).
 */
export interface LabSwitch {
  name: string
  /** "router:interface" the switch's `eth1` is linked to: the gateway interface of its hosts' network. */
  uplink: string
  location: string
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
  /** Switches between a router and hosts (none: every host is wired to its router). */
  switches?: LabSwitch[]
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

/** A switch's port: `eth1` to its uplink router, `eth2`... to its hosts. */
export interface SwitchPort {
  port: string
  /** The router ("r1", with `interface`) or host at the other end. */
  peer: string
  /** The router's interface; `eth0` for a host. */
  interface: string
}

export function findSwitch(topo: Topology, name: string): LabSwitch {
  const s = (topo.switches ?? []).find((x) => x.name === name)
  if (!s) throw new Error(`no switch ${name} in the topology`)
  return s
}

/** The hosts behind a switch, in the topology's order. */
export function switchHosts(topo: Topology, name: string): LabHost[] {
  return topo.hosts.filter((h) => h.switch === name)
}

/** A switch's ports in order: the uplink first, then one per host. */
export function switchPorts(topo: Topology, name: string): SwitchPort[] {
  const up = splitEnd(findSwitch(topo, name).uplink)
  return [{ port: 'eth1', peer: up.router, interface: up.interface }, ...switchHosts(topo, name).map((h, i) => ({ port: `eth${i + 2}`, peer: h.name, interface: 'eth0' }))]
}

/** A switch's management address (on its bridge: the second of its hosts' network) and its gateway (the router's, the first). */
export function switchAddresses(topo: Topology, name: string): { address: string; gateway: string; prefix: number } {
  const host = switchHosts(topo, name)[0]
  if (!host) throw new Error(`switch ${name} has no host (its management address is in its hosts' network)`)
  const { base, prefix } = parseCidr(host.network)
  return { address: intToIp(base + 2), gateway: intToIp(base + 1), prefix }
}

/** The switches hanging off a router. */
export function routerSwitches(topo: Topology, router: string): LabSwitch[] {
  return (topo.switches ?? []).filter((s) => splitEnd(s.uplink).router === router)
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
  const uplinks = new Set<string>()
  for (const s of topo.switches ?? []) {
    if (!/^[a-z][a-z0-9]{0,7}$/.test(s.name)) throw new Error(`switch name ${JSON.stringify(s.name)} must be 1-8 lower-case letters and digits`)
    if (names.has(s.name)) throw new Error(`name ${s.name} appears twice`)
    names.add(s.name)
    const up = splitEnd(s.uplink)
    findRouter(topo, up.router)
    if (uplinks.has(s.uplink)) throw new Error(`two switches hang off ${s.uplink}`)
    uplinks.add(s.uplink)
    if (topo.links.some((l) => l.a === s.uplink || l.b === s.uplink)) throw new Error(`${s.uplink} of switch ${s.name} is a link between routers`)
    const hosts = switchHosts(topo, s.name)
    if (hosts.length === 0) throw new Error(`switch ${s.name} has no host (its management address is in its hosts' network)`)
    if (hosts.length > 1) throw new Error(`switch ${s.name} has ${hosts.length} hosts; the lab gives every host of a network the same address, so a switch has one`)
  }
  for (const h of topo.hosts) {
    const uplink = `${h.router}:${h.interface}`
    if (h.switch !== undefined && findSwitch(topo, h.switch).uplink !== uplink) throw new Error(`host ${h.name} is behind switch ${h.switch}, whose uplink is not ${uplink}`)
    if (h.switch === undefined && uplinks.has(uplink)) throw new Error(`host ${h.name} is wired to ${uplink}, where a switch hangs off`)
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
