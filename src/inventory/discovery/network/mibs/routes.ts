/**
 * IP-FORWARD-MIB: the forwarding table from inetCidrRouteTable, or ipCidrRouteTable on older
 * agents. The protocol is the agent's (IANAipRouteProtocol); a directly attached route is
 * "connected"; where the agent only says "local" for a remote route (Linux), it stays null.
 * Every row is a next hop of its destination (ECMP routes have several); reject and blackhole
 * routes are kept with their kind.
 */
import { maskToPrefix } from '../../../../shared/ipv4.js'
import type { MibReader } from '../snmp/client.js'
import { inetFromIndex, int, ipFromIndex } from '../snmp/values.js'
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

function fromInetIndex(index: number[]): { dest: string; prefix: number; nextHop: string | null } | null {
  const dest = inetFromIndex(index, 0)
  if (!dest || dest.family !== 4) return null
  const prefix = index[dest.next]!
  const policyLen = index[dest.next + 1] ?? 0
  const hop = inetFromIndex(index, dest.next + 2 + policyLen)
  const nextHop = hop && hop.address !== '0.0.0.0' ? hop.address : null
  return { dest: dest.address, prefix, nextHop }
}

/** ipCidrRouteTable index: dest, mask, tos, next hop. */
function fromCidrIndex(index: number[]): { dest: string; prefix: number; nextHop: string | null } | null {
  const dest = ipFromIndex(index, 0)
  const mask = ipFromIndex(index, 4)
  const hop = ipFromIndex(index, 9)
  const prefix = mask === null ? null : maskToPrefix(mask)
  if (!dest || prefix === null) return null
  return { dest, prefix, nextHop: hop && hop !== '0.0.0.0' ? hop : null }
}

export async function collectRoutes(client: MibReader): Promise<Route[]> {
  let rows = await client.table(INET_CIDR_ROUTE)
  let parse = fromInetIndex
  if (rows.length === 0) {
    rows = await client.table(IP_CIDR_ROUTE)
    parse = fromCidrIndex
  }
  const out: Route[] = []
  for (const row of rows) {
    const key = parse(row.index)
    if (!key) continue
    const type = int(row.cells.type)
    const ifIndex = int(row.cells.ifIndex)
    const route: Route = { ...key, ifIndex: ifIndex === 0 ? null : ifIndex, protocol: routeProtocol(type, int(row.cells.proto)), metric: int(row.cells.metric) }
    // reject and blackhole routes forward nothing: kept, marked, so that a path lookup ends there
    if (type === 2 || type === 5) out.push({ ...route, nextHop: null, ifIndex: null, discard: type === 2 ? 'reject' : 'blackhole' })
    else out.push(route)
  }
  return out
}

