/**
 * IPv6 addresses: IP-MIB ipAddressTable (index: address type, InetAddress), the interface and
 * prefix length of each (the prefix length is the last sub-identifier of ipAddressPrefix, a
 * pointer into ipAddressPrefixTable). Link-local addresses (fe80::/10, and scoped ones) and ::1
 * are left out: every IPv6 interface (host) has one, and none is reachable beyond it.
 */
import type { MibReader } from '../snmp/client.js'
import { int, ipv6Text } from '../snmp/values.js'
import type { IpAddr } from '../model.js'

export const IP_ADDRESS = { ifIndex: '1.3.6.1.2.1.4.34.1.3', type: '1.3.6.1.2.1.4.34.1.4', prefix: '1.3.6.1.2.1.4.34.1.5' }
/** ipAddressType unicast(1); anycast and broadcast addresses are no interface's own. */
const UNICAST = 1

/** The network of an address: its first `prefix` bits. */
export function ipv6Network(bytes: readonly number[], prefix: number): string {
  const out = bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, prefix - i * 8))
    return b & ((0xff << (8 - keep)) & 0xff)
  })
  return `${ipv6Text(out)}/${prefix}`
}

export interface Ipv6Addr extends IpAddr {
  net: string
}

export async function collectIpv6Addresses(client: MibReader): Promise<Ipv6Addr[]> {
  const out: Ipv6Addr[] = []
  for (const { index, cells } of await client.table(IP_ADDRESS)) {
    // ipv6(2), 16 octets (ipv6z(4) is scoped: link-local)
    if (index[0] !== 2 || index[1] !== 16 || index.length !== 18) continue
    const bytes = index.slice(2)
    if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0x80) continue
    // ::1, the host's own loopback, which every IPv6 host has
    if (bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1) continue
    const ifIndex = int(cells.ifIndex)
    const type = int(cells.type)
    const pointer = cells.prefix?.value
    const prefix = typeof pointer === 'string' ? Number(pointer.split('.').pop()) : NaN
    if (ifIndex === null || (type !== null && type !== UNICAST) || !Number.isInteger(prefix) || prefix < 0 || prefix > 128) continue
    out.push({ ip: ipv6Text(bytes), prefix, ifIndex, net: ipv6Network(bytes, prefix) })
  }
  return out
}
