/**
 * What a complete discovery of the lab must find, from the topology alone: devices (routers and
 * switches), LLDP neighbour pairs, interface states, connected routes, BGP sessions with their states, end hosts.
 * Each is a sorted list of strings so that two can be compared (and diffed) directly.
 */
import { intToIp, parseCidr } from '../shared/ipv4.js'
import { reachable } from './ready.js'
import { bgpSessions, hostAddresses, linkEnds, managementAddresses, routerEnds, splitEnd, switchAddresses, type Topology } from './topology.js'

export interface Truth {
  devices: string[]
  /** "local:interface>remote:interface" per direction. */
  neighbors: string[]
  /** "router:interface=l1/l2" for the lab's links, host ports and the management port. */
  interfaces: string[]
  /** "router:network" of every directly connected network whose interface is not shut. */
  connected: string[]
  /** "router>loopback" for every other router it can reach. */
  loopbackRoutes: string[]
  /** "router>peer address AS n up|down". */
  bgp: string[]
  /** End host addresses with the router that has them in its ARP cache: "router:interface=ip". */
  arp: string[]
  /** OSPF adjacencies over the links that are up: "router>neighbour address state". */
  ospf: string[]
}

const sorted = (list: Iterable<string>) => [...new Set(list)].sort()

export function truthOf(topo: Topology, reachableFrom?: string): Truth {
  const start = reachableFrom ?? topo.management.router
  const seen = reachable(topo, start)
  const routers = topo.routers.filter((r) => seen.has(r.name))
  const ends = topo.links.flatMap(linkEnds).filter((e) => seen.has(e.router))
  const m = managementAddresses(topo)
  const interfaces: string[] = []
  for (const e of ends) interfaces.push(`${e.router}:${e.interface}=${e.shut ? 'admin-down/down' : e.up ? 'up/up' : 'down/down'}`)
  for (const h of topo.hosts.filter((x) => seen.has(x.router))) interfaces.push(`${h.router}:${h.interface}=up/up`)
  interfaces.push(`${topo.management.router}:mgmt0=up/up`)
  const connected: string[] = []
  for (const r of routers) {
    // the kernel drops the connected route of a shut interface, and keeps it when only the carrier is gone
    for (const e of routerEnds(topo, r.name)) if (!e.shut) connected.push(`${r.name}:${linkNetwork(e.address, e.prefix)}`)
    for (const h of topo.hosts.filter((x) => x.router === r.name)) connected.push(`${r.name}:${h.network}`)
  }
  connected.push(`${topo.management.router}:${topo.management.network}`)
  // a switch hanging off a reachable router: a device, an LLDP neighbour of its uplink router both ways, and in the router's ARP cache
  const switches = (topo.switches ?? []).map((s) => ({ ...s, up: splitEnd(s.uplink) })).filter((s) => seen.has(s.up.router))
  const switchNeighbors = switches.flatMap((s) => [`${s.uplink}>${s.name}:eth1`, `${s.name}:eth1>${s.uplink}`])
  const switchArp = switches.map((s) => `${s.uplink}=${switchAddresses(topo, s.name).address}`)
  const loopbackRoutes: string[] = []
  for (const r of routers) {
    for (const other of reachable(topo, r.name)) if (other !== r.name) loopbackRoutes.push(`${r.name}>${topo.routers.find((x) => x.name === other)!.loopback}`)
  }
  return {
    devices: sorted([...routers.map((r) => r.name), ...switches.map((s) => s.name)]),
    neighbors: sorted([...ends.filter((e) => e.up).map((e) => `${e.router}:${e.interface}>${e.peer.router}:${e.peer.interface}`), ...switchNeighbors]),
    interfaces: sorted(interfaces),
    connected: sorted(connected),
    loopbackRoutes: sorted(loopbackRoutes),
    bgp: sorted(bgpSessions(topo).filter((s) => seen.has(s.router)).map((s) => `${s.router}>${s.peerAddress} AS ${s.peerAs} ${s.established ? 'up' : 'down'}`)),
    ospf: sorted(ends.filter((e) => e.up).map((e) => `${e.router}>${e.peer.address} full`)),
    arp: sorted([
      ...topo.hosts.filter((h) => seen.has(h.router)).map((h) => `${h.router}:${h.interface}=${hostAddresses(h).address}`),
      `${topo.management.router}:mgmt0=${m.root}`,
      ...switchArp,
    ]),
  }
}

function linkNetwork(address: string, prefix: number): string {
  return `${intToIp(parseCidr(`${address}/${prefix}`).base)}/${prefix}`
}
