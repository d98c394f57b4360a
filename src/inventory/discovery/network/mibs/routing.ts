/** BGP4-MIB bgpPeerTable and OSPF-MIB ospfNbrTable, interface areas and costs. */
import type { MibReader } from '../snmp/client.js'
import { indexOf, int, ipFromIndex, str, type Vb } from '../snmp/values.js'
import type { BgpPeer, BgpState, OspfData, OspfInterface, OspfNeighbor } from '../model.js'

export const BGP_LOCAL_AS = '1.3.6.1.2.1.15.2.0'
/** bgpPeerTable; index: the peer's remote address. */
export const BGP_PEER = {
  state: '1.3.6.1.2.1.15.3.1.2',
  localAddr: '1.3.6.1.2.1.15.3.1.5',
  remoteAs: '1.3.6.1.2.1.15.3.1.9',
  establishedTime: '1.3.6.1.2.1.15.3.1.16',
}
/** ospfNbrTable; index: neighbour address, address-less index. */
export const OSPF_NBR = { routerId: '1.3.6.1.2.1.14.10.1.3', priority: '1.3.6.1.2.1.14.10.1.5', state: '1.3.6.1.2.1.14.10.1.6' }
/** ospfIfAreaId (index: interface address, address-less index) and ospfIfMetricValue (index: the same, TOS). */
export const OSPF_IF_AREA = '1.3.6.1.2.1.14.7.1.3'
export const OSPF_IF_METRIC = '1.3.6.1.2.1.14.8.1.4'
/** ospfLsdbAdvertisement; index: area, LSA type, link state id, advertising router. */
export const OSPF_LSDB_ADVERTISEMENT = '1.3.6.1.2.1.14.4.1.8'

const BGP_STATES: ReadonlyArray<BgpState | null> = [null, 'idle', 'connect', 'active', 'opensent', 'openconfirm', 'established']
/** ospfNbrState as the product names OSPF states (attempt, of NBMA networks only, has no name there). */
const OSPF_STATES = [null, 'down', null, 'init', '2way', 'exstart', 'exchange', 'loading', 'full'] as const

export async function collectBgp(client: MibReader): Promise<{ localAs: number | null; peers: BgpPeer[] }> {
  const [local, rows] = await Promise.all([client.get([BGP_LOCAL_AS]), client.table(BGP_PEER)])
  const peers: BgpPeer[] = []
  for (const { index, cells } of rows) {
    const remote = ipFromIndex(index, 0)
    if (!remote) continue
    const localAddr = str(cells.localAddr)
    const state = int(cells.state)
    peers.push({
      remoteAddress: remote,
      localAddress: localAddr && localAddr !== '0.0.0.0' ? localAddr : null,
      remoteAs: int(cells.remoteAs),
      state: state === null ? null : (BGP_STATES[state] ?? null),
      establishedTime: int(cells.establishedTime),
    })
  }
  return { localAs: int(local.get(BGP_LOCAL_AS)), peers }
}

/**
 * The cost of every router link of the router LSAs walked, by the interface address that ends it
 * (RFC 2328 A.4.2: a point-to-point or transit link's Link Data is the router's interface
 * address). An LSA cut short ends the reading of that LSA, never a guess.
 */
export function linkCosts(walked: Map<string, Vb[]>): Map<string, number> {
  const costs = new Map<string, number>()
  for (const vbs of walked.values()) {
    for (const vb of vbs) {
      const lsa = vb.value
      if (!Buffer.isBuffer(lsa) || lsa.length < 24 || lsa[3] !== 1) continue
      const links = lsa.readUInt16BE(22)
      let at = 24
      for (let i = 0; i < links && at + 12 <= lsa.length; i++) {
        const type = lsa[at + 8]!
        const tos = lsa[at + 9]!
        if (type === 1 || type === 2) costs.set([...lsa.subarray(at + 4, at + 8)].join('.'), lsa.readUInt16BE(at + 10))
        at += 12 + 4 * tos
      }
    }
  }
  return costs
}

export async function collectOspf(client: MibReader): Promise<OspfData> {
  const [rows, ifs] = await Promise.all([client.table(OSPF_NBR), client.walk([OSPF_IF_AREA, OSPF_IF_METRIC])])
  const neighbors: OspfNeighbor[] = []
  for (const { index, cells } of rows) {
    const ip = ipFromIndex(index, 0)
    const state = int(cells.state)
    if (ip) neighbors.push({ ip, routerId: str(cells.routerId), state: state === null ? null : (OSPF_STATES[state] ?? null), priority: int(cells.priority) })
  }
  const interfaces = new Map<string, OspfInterface>()
  const at = (ip: string) => interfaces.get(ip) ?? interfaces.set(ip, { ip, area: null, cost: null }).get(ip)!
  for (const vb of ifs.get(OSPF_IF_AREA) ?? []) {
    const ip = ipFromIndex(indexOf(vb.oid, OSPF_IF_AREA), 0)
    if (ip && ip !== '0.0.0.0') at(ip).area = str(vb)
  }
  // the cost of TOS 0 (RFC 1850); FRR answers this table with one constant under TOS 1 whatever
  // the interface costs, so only TOS 0 is read, and the router LSAs of the link-state database
  // (what the routers advertise, which every OSPF router holds) say the cost in effect
  for (const vb of ifs.get(OSPF_IF_METRIC) ?? []) {
    const index = indexOf(vb.oid, OSPF_IF_METRIC)
    const ip = ipFromIndex(index, 0)
    if (ip && ip !== '0.0.0.0' && index[5] === 0) at(ip).cost = int(vb)
  }
  const areas = [...new Set([...interfaces.values()].flatMap((i) => (i.area ? [i.area] : [])))]
  const advertised = areas.length === 0 ? new Map<string, number>() : linkCosts(await client.walk(areas.map((a) => `${OSPF_LSDB_ADVERTISEMENT}.${a}.1`)))
  for (const i of interfaces.values()) i.cost = advertised.get(i.ip) ?? i.cost
  return { neighbors, interfaces: [...interfaces.values()], linkCosts: advertised }
}
