/** What a path lookup answers: branches of hops, each ending for one reason. */

/** Why a branch of a path ends. */
export const END_REASONS = ['delivered', 'no route', 'blackhole', 'ARP incomplete', 'loop', 'unmanaged neighbour', 'left the discovered network'] as const
export type EndReason = (typeof END_REASONS)[number]

/** A next hop as stored in a route's `nexthop` list. */
export interface NextHop {
  ip: string | null
  intName: string | null
  ad?: number | null
  metric?: number | null
  /** `blackhole` or `reject` for a route that discards what it matches; absent for a forwarding one. */
  type?: string | null
}

/** The route that decided a routed hop. */
export interface RouteDecision {
  network: string
  protocol: string | null
  vrf: string
  /** The next hop taken (one of the route's ECMP next hops). */
  nexthop: NextHop
  /** How many next hops the route has. */
  nhCount: number
}

export interface Device {
  sn: string
  hostname: string
  siteName: string | null
  devType: string | null
}

/** One device the packet crosses. */
export interface Hop {
  kind: 'l3' | 'l2'
  device: Device
  ingress: string | null
  egress: string | null
  /** The route of a routed hop. */
  route?: RouteDecision
  /** The ARP entry that gave the next hop's MAC address. */
  arp?: { ip: string; mac: string; intName: string | null }
  /** The MAC table entry of a switched hop; of a routed hop out of a VLAN interface (SVI), the device's own entry naming the port the packet leaves by. */
  mac?: { mac: string; vlan: number | null; intName: string }
}

export interface Branch {
  hops: Hop[]
  end: EndReason
  /** What the end is about, e.g. the address without ARP entry or the neighbour's name. */
  detail: string
}

export interface PathQuery {
  snapshot: string
  src: string
  dst: string
  /** VRF to route in; default: the source host's, else the global table. */
  vrf?: string
  protocol?: 'tcp' | 'udp' | 'icmp'
  srcPorts?: string
  dstPorts?: string
}

export interface PathResult {
  src: string
  dst: string
  vrf: string
  /** Where the packet enters the network: the first router (a host's gateway) or the device owning the source. */
  entry: { device: Device; ingress: string | null; how: 'host gateway' | 'device address' | 'arp' | 'connected network' } | null
  branches: Branch[]
  /** True when the lookup stopped fanning out at the branch limit. */
  truncated: boolean
}
