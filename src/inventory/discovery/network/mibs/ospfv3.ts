/**
 * OSPFV3-MIB (RFC 5643): neighbours (ospfv3NbrTable), the area and cost of each OSPFv3 interface
 * (ospfv3IfTable), and the cost of every link of the router LSAs in the device's areas
 * (ospfv3AreaLsdbTable), which says what each neighbour advertises for its end of a link.
 */
import type { MibReader } from '../snmp/client.js'
import { int, ipv6Text, type Vb } from '../snmp/values.js'
import type { Ospfv3Data, Ospfv3Interface, Ospfv3Neighbor } from '../model.js'

/** ospfv3RouterId: the device's own router id. */
export const OSPFV3_ROUTER_ID = '1.3.6.1.2.1.191.1.1.1.0'
/** ospfv3NbrTable; index: ospfv3NbrIfIndex, ospfv3NbrIfInstId, ospfv3NbrRtrId. */
export const OSPFV3_NBR = {
  addressType: '1.3.6.1.2.1.191.1.9.1.4',
  address: '1.3.6.1.2.1.191.1.9.1.5',
  priority: '1.3.6.1.2.1.191.1.9.1.7',
  state: '1.3.6.1.2.1.191.1.9.1.8',
  ifId: '1.3.6.1.2.1.191.1.9.1.12',
}
/** ospfv3IfTable; index: ospfv3IfIndex, ospfv3IfInstId. */
export const OSPFV3_IF = { area: '1.3.6.1.2.1.191.1.7.1.3', metric: '1.3.6.1.2.1.191.1.7.1.18' }
/** ospfv3AreaLsdbAdvertisement; index: area, LSA type, advertising router, link state id. */
export const OSPFV3_AREA_LSDB_ADVERTISEMENT = '1.3.6.1.2.1.191.1.4.1.8'
/** The LS type of router LSAs (RFC 5340 A.4.2.1: area flooding scope, function code 1). */
const ROUTER_LSA = 0x2001

/** ospfv3NbrState as the product names OSPF states (attempt has no name there). */
const STATES = [null, 'down', null, 'init', '2way', 'exstart', 'exchange', 'loading', 'full'] as const

/** A router or area id (an Unsigned32 in OSPFV3-MIB) in dotted form. */
export function dotted(n: number): string {
  return [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.')
}

/** An InetAddress of the given InetAddressType: IPv6 (2, 4 with a zone) as RFC 5952 text, IPv4 (1, 3) dotted; null otherwise. */
function inetAddress(type: number | null, vb: Vb | undefined): string | null {
  const bytes = vb && Buffer.isBuffer(vb.value) ? [...vb.value] : null
  if (!bytes) return null
  if ((type === 2 && bytes.length === 16) || (type === 4 && bytes.length === 20)) return ipv6Text(bytes.slice(0, 16))
  if ((type === 1 && bytes.length === 4) || (type === 3 && bytes.length === 8)) return bytes.slice(0, 4).join('.')
  return null
}

/**
 * The metric of every link of the router LSAs walked, by "advertising router/interface id"
 * (RFC 5340 A.4.3: each link of 16 octets after the 4 of flags and options: type, 0, metric,
 * interface id, neighbour interface id, neighbour router id). An LSA cut short ends the reading
 * of that LSA, never a guess.
 */
export function routerLinkCosts(walked: Map<string, Vb[]>): Map<string, number> {
  const costs = new Map<string, number>()
  for (const vbs of walked.values()) {
    for (const vb of vbs) {
      const lsa = vb.value
      if (!Buffer.isBuffer(lsa) || lsa.length < 24 || lsa.readUInt16BE(2) !== ROUTER_LSA) continue
      const advertiser = dotted(lsa.readUInt32BE(8))
      const end = Math.min(lsa.length, lsa.readUInt16BE(18))
      for (let at = 24; at + 16 <= end; at += 16) {
        const type = lsa[at]!
        // point-to-point (1), transit (2) and virtual (4) links; 3 is reserved
        if (type === 1 || type === 2 || type === 4) costs.set(`${advertiser}/${lsa.readUInt32BE(at + 4)}`, lsa.readUInt16BE(at + 2))
      }
    }
  }
  return costs
}

export async function collectOspfv3(client: MibReader): Promise<Ospfv3Data> {
  const [rows, ifRows] = await Promise.all([client.table(OSPFV3_NBR), client.table(OSPFV3_IF)])
  const neighbors: Ospfv3Neighbor[] = []
  for (const { index, cells } of rows) {
    const [ifIndex, instanceId, rtr] = index
    if (index.length !== 3 || ifIndex === undefined || instanceId === undefined || rtr === undefined) continue
    const state = int(cells.state)
    neighbors.push({
      ifIndex,
      instanceId,
      routerId: dotted(rtr),
      address: inetAddress(int(cells.addressType), cells.address),
      state: state === null ? null : (STATES[state] ?? null),
      priority: int(cells.priority),
      neighborIfId: int(cells.ifId),
    })
  }
  const interfaces: Ospfv3Interface[] = []
  for (const { index, cells } of ifRows) {
    const [ifIndex, instanceId] = index
    if (index.length !== 2 || ifIndex === undefined || instanceId === undefined) continue
    const area = int(cells.area)
    interfaces.push({ ifIndex, instanceId, area: area === null ? null : dotted(area), cost: int(cells.metric) })
  }
  // a device without OSPFv3 answers neither table: nothing more to ask it
  if (neighbors.length === 0 && interfaces.length === 0) return { routerId: null, neighbors, interfaces, linkCosts: new Map() }
  const areas = [...new Set(interfaces.flatMap((i) => (i.area === null ? [] : [i.area])))]
  const [own, walked] = await Promise.all([
    client.get([OSPFV3_ROUTER_ID]),
    areas.length === 0 ? new Map<string, Vb[]>() : client.walk(areas.map((a) => `${OSPFV3_AREA_LSDB_ADVERTISEMENT}.${areaNumber(a)}.${ROUTER_LSA}`)),
  ])
  const id = int(own.get(OSPFV3_ROUTER_ID))
  return { routerId: id !== null && id !== 0 ? dotted(id) : null, neighbors, interfaces, linkCosts: routerLinkCosts(walked) }
}

function areaNumber(area: string): number {
  return area.split('.').reduce((n, x) => n * 256 + Number(x), 0)
}
