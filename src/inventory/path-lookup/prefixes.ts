/**
 * The networks an IPv4 address belongs to, longest first: the 33 candidates a longest-prefix
 * match compares for equality, so that the routes' index on `network` finds them (a `>>=`
 * containment test cannot use a B-tree index).
 */
import { intToIp, ipToInt } from '../../shared/ipv4.js'

export function containingNetworks(ip: string): string[] {
  const n = ipToInt(ip)
  const out: string[] = []
  for (let prefix = 32; prefix >= 0; prefix--) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0
    out.push(`${intToIp((n & mask) >>> 0)}/${prefix}`)
  }
  return out
}
