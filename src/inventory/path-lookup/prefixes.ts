/**
 * The networks an address belongs to, longest first: the 33 (IPv4) or 129 (IPv6) candidates a
 * longest-prefix match compares for equality, so that the routes' index on `network` finds them
 * (a `>>=` containment test cannot use a B-tree index). Both families are written as PostgreSQL
 * writes `cidr` values (IPv6 in the RFC 5952 short form), so that the texts compare too.
 */
import { intToIp, ipToInt, isIpv4 } from '../../shared/ipv4.js'
import { ipv6Bytes, ipv6Text } from '../../shared/ipv6.js'

export type Family = 4 | 6

/** 4 or 6 for an address of that family, null for anything else (a subnet, a name, a zoned address). */
export function family(text: string): Family | null {
  if (isIpv4(text)) return 4
  return ipv6Bytes(text) ? 6 : null
}

/** The address in the form PostgreSQL answers it (`host(ip)`), so that it compares as text with what the tables hold. */
export function canonical(text: string): string {
  const bytes = family(text) === 6 ? ipv6Bytes(text) : null
  return bytes ? ipv6Text(bytes) : text
}

function ipv4Networks(ip: string): string[] {
  const n = ipToInt(ip)
  const out: string[] = []
  for (let prefix = 32; prefix >= 0; prefix--) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0
    out.push(`${intToIp((n & mask) >>> 0)}/${prefix}`)
  }
  return out
}

function ipv6Networks(bytes: readonly number[]): string[] {
  const out: string[] = []
  const b = [...bytes]
  for (let prefix = 128; prefix >= 0; prefix--) {
    if (prefix < 128) {
      // clear bit `prefix` (counted from the left): the network of one bit less
      b[prefix >> 3] = b[prefix >> 3]! & ~(0x80 >> (prefix & 7)) & 0xff
    }
    out.push(`${ipv6Text(b)}/${prefix}`)
  }
  return out
}

/** Every network containing the address, longest prefix first (`10.1.2.3/32` … `0.0.0.0/0`, `2001:db8::1/128` … `::/0`). */
export function containingNetworks(ip: string): string[] {
  if (isIpv4(ip)) return ipv4Networks(ip)
  const bytes = ipv6Bytes(ip)
  if (!bytes) throw new Error(`bad IP address ${JSON.stringify(ip)}`)
  return ipv6Networks(bytes)
}
