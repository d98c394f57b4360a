/**
 * IP-FORWARD-MIB: the forwarding table of both address families from inetCidrRouteTable, and the
 * IPv4 one from ipCidrRouteTable on agents whose inetCidrRouteTable holds no IPv4 route (older
 * agents, or ones that list only IPv6 there). The protocol is the agent's (IANAipRouteProtocol);
 * a directly attached route is "connected"; where the agent only says "local" for a remote route
 * (Linux), it stays null. Every row is a next hop of its destination (ECMP routes have several);
 * reject and blackhole routes are kept with their kind. The same row shape, prefixed with the VRF
 * name, is MPLS-L3VPN-STD-MIB's mplsL3VpnVrfRteTable (./vrf.ts).
 */
import { maskToPrefix } from '../../../../shared/ipv4.js'
import type { MibReader } from '../snmp/client.js'
import { inetFromIndex, int, ipFromIndex, type TableRow } from '../snmp/values.js'
import type { Route } from '../model.js'

export const INET_CIDR_ROUTE = { ifIndex: '1.3.6.1.2.1.4.24.7.1.7', type: '1.3.6.1.2.1.4.24.7.1.8', proto: '1.3.6.1.2.1.4.24.7.1.9', metric: '1.3.6.1.2.1.4.24.7.1.12' }
export const IP_CIDR_ROUTE = { ifIndex: '1.3.6.1.2.1.4.24.4.1.5', type: '1.3.6.1.2.1.4.24.4.1.6', proto: '1.3.6.1.2.1.4.24.4.1.7', metric: '1.3.6.1.2.1.4.24.4.1.11' }

/** IANAipRouteProtocol values that name a routing source. */
const PROTOCOLS: Readonly<Record<number, string>> = { 3: 'static', 8: 'rip', 9: 'isis', 13: 'ospf', 14: 'bgp', 16: 'eigrp' }

/** Protocol of a route from its type (3 = local: directly attached) and the agent's protocol. */
export function routeProtocol(type: number | null, proto: number | null): string | null {
  if (type === 3) return 'connected'
  return proto === null ? null : (PROTOCOLS[proto] ?? null)
}

/** IPv6 link-local (fe80::/10) and multicast (ff00::/8) destinations: every interface has them, none routes beyond its link. */
const LINK_OR_MULTICAST = /^(fe[89ab][0-9a-f]|ff[0-9a-f]{2}):/i

interface RouteKey {
  dest: string
  prefix: number
  nextHop: string | null
}

/**
 * inetCidrRouteTable index from `at`: destination (InetAddress), prefix length, policy (an OID,
 * its length first), next hop (InetAddress). An unspecified next hop (0.0.0.0, ::) or an empty
 * one is none (null: directly attached). Routes to IPv6 link-local and
 * multicast networks are left out, as link-local addresses are.
 */
export function fromInetIndex(index: readonly number[], at = 0): RouteKey | null {
  const dest = inetFromIndex(index, at)
  if (!dest || dest.zoned || (dest.family === 6 && LINK_OR_MULTICAST.test(dest.address))) return null
  const prefix = index[dest.next]
  if (prefix === undefined || prefix < 0 || prefix > (dest.family === 4 ? 32 : 128)) return null
  const policyLen = index[dest.next + 1] ?? 0
  const hop = inetFromIndex(index, dest.next + 2 + policyLen)
  const unspecified = hop?.address === '0.0.0.0' || hop?.address === '::'
  const nextHop = hop && !unspecified ? hop.address : null
  return { dest: dest.address, prefix, nextHop }
}

/** ipCidrRouteTable index: dest, mask, tos, next hop. */
function fromCidrIndex(index: readonly number[]): RouteKey | null {
  const dest = ipFromIndex(index, 0)
  const mask = ipFromIndex(index, 4)
  const hop = ipFromIndex(index, 9)
  const prefix = mask === null ? null : maskToPrefix(mask)
  if (!dest || prefix === null) return null
  return { dest, prefix, nextHop: hop && hop !== '0.0.0.0' ? hop : null }
}

/** A route of a table row whose cells are ifIndex, type, proto, metric (the columns of both route tables and the VRF route table). */
export function routeOf(key: RouteKey, row: TableRow, vrf: string): Route {
  const type = int(row.cells.type)
  const ifIndex = int(row.cells.ifIndex)
  const route: Route = { ...key, vrf, ifIndex: ifIndex === 0 ? null : ifIndex, protocol: routeProtocol(type, int(row.cells.proto)), metric: int(row.cells.metric) }
  // reject and blackhole routes forward nothing: kept, marked, so that a path lookup ends there
  if (type === 2 || type === 5) return { ...route, nextHop: null, ifIndex: null, discard: type === 2 ? 'reject' : 'blackhole' }
  return route
}

/** The global routing table, IPv4 and IPv6. */
export async function collectRoutes(client: MibReader): Promise<Route[]> {
  const out: Route[] = []
  for (const row of await client.table(INET_CIDR_ROUTE)) {
    const key = fromInetIndex(row.index)
    if (key) out.push(routeOf(key, row, ''))
  }
  if (out.some((r) => !r.dest.includes(':'))) return out
  for (const row of await client.table(IP_CIDR_ROUTE)) {
    const key = fromCidrIndex(row.index)
    if (key) out.push(routeOf(key, row, ''))
  }
  return out
}
