/** BGP4-MIB bgpPeerTable and OSPF-MIB ospfNbrTable. */
import type { MibReader } from '../snmp/client.js'
import { indexOf, int, ipFromIndex, str } from '../snmp/values.js'
import type { BgpPeer, BgpState, OspfInterface, OspfNeighbor } from '../model.js'

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

export async function collectOspf(client: MibReader): Promise<{ neighbors: OspfNeighbor[]; interfaces: OspfInterface[] }> {
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
  for (const vb of ifs.get(OSPF_IF_METRIC) ?? []) {
    const index = indexOf(vb.oid, OSPF_IF_METRIC)
    const ip = ipFromIndex(index, 0)
    if (ip && ip !== '0.0.0.0' && index[5] === 0) at(ip).cost = int(vb)
  }
  return { neighbors, interfaces: [...interfaces.values()] }
}
