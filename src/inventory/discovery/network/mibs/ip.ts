/** IP-MIB: configured IPv4 addresses, the ARP and IPv6 neighbour caches, and whether the device forwards IP. */
import { maskToPrefix } from '../../../../shared/ipv4.js'
import type { MibReader } from '../snmp/client.js'
import { inetFromIndex, int, ipFromIndex, mac, str } from '../snmp/values.js'
import type { ArpEntry, IpAddr } from '../model.js'

export const IP_FORWARDING = '1.3.6.1.2.1.4.1.0'
export const IP_ADDR = { ifIndex: '1.3.6.1.2.1.4.20.1.2', mask: '1.3.6.1.2.1.4.20.1.3' }
/** ipNetToPhysicalTable (index: ifIndex, InetAddress) and the older ipNetToMediaTable (ifIndex, IPv4). */
export const NET_TO_PHYSICAL = { mac: '1.3.6.1.2.1.4.35.1.4', type: '1.3.6.1.2.1.4.35.1.6' }
export const NET_TO_MEDIA = { mac: '1.3.6.1.2.1.4.22.1.2', type: '1.3.6.1.2.1.4.22.1.4' }

export async function collectForwarding(client: MibReader): Promise<boolean | null> {
  const v = int((await client.get([IP_FORWARDING])).get(IP_FORWARDING))
  return v === 1 ? true : v === 2 ? false : null
}

export async function collectAddresses(client: MibReader): Promise<IpAddr[]> {
  const out: IpAddr[] = []
  for (const row of await client.table(IP_ADDR)) {
    const ip = ipFromIndex(row.index, 0)
    const ifIndex = int(row.cells.ifIndex)
    const mask = str(row.cells.mask)
    const prefix = mask === null ? null : maskToPrefix(mask)
    if (ip && ifIndex !== null && prefix !== null) out.push({ ip, prefix, ifIndex })
  }
  return out
}

const PHYSICAL_TYPES = { 1: 'other', 3: 'dynamic', 4: 'static', 5: 'local' } as const
const MEDIA_TYPES = { 1: 'other', 3: 'dynamic', 4: 'static' } as const

function arpType(map: Record<number, ArpEntry['type']>, n: number | null): ArpEntry['type'] | null {
  return n === null ? 'other' : (map[n] ?? null)
}

/** Whether an IPv6 address is link-local (fe80::/10): the same one is on many links, and it reaches no further than its own. */
function linkLocal(ip: string): boolean {
  return /^fe[89ab][0-9a-f]:/i.test(ip)
}

/**
 * IPv4 ARP entries and IPv6 neighbours (ipNetToPhysicalTable holds both; ipNetToMediaTable only
 * IPv4); invalid ones (type 2) are left out, and so are link-local IPv6 neighbours (scoped, or in
 * fe80::/10), which name a neighbour only together with the link.
 */
export async function collectArp(client: MibReader): Promise<ArpEntry[]> {
  const out: ArpEntry[] = []
  const physical = await client.table(NET_TO_PHYSICAL)
  for (const row of physical) {
    const addr = inetFromIndex(row.index, 1)
    const m = mac(row.cells.mac)
    const type = arpType(PHYSICAL_TYPES, int(row.cells.type))
    if (addr && !addr.zoned && !(addr.family === 6 && linkLocal(addr.address)) && m && type) out.push({ ifIndex: row.index[0]!, ip: addr.address, mac: m, type })
  }
  // an agent that lists only IPv6 neighbours there keeps its ARP cache in ipNetToMediaTable
  if (physical.some((row) => row.index[1] === 1)) return out
  for (const row of await client.table(NET_TO_MEDIA)) {
    const ip = ipFromIndex(row.index, 1)
    const m = mac(row.cells.mac)
    const type = arpType(MEDIA_TYPES, int(row.cells.type))
    if (ip && m && type) out.push({ ifIndex: row.index[0]!, ip, mac: m, type })
  }
  return out
}
