/** BGP4-MIB bgpPeerTable and OSPF-MIB ospfNbrTable. */
import type { MibReader } from '../snmp/client.js'
import { int, ipFromIndex, str } from '../snmp/values.js'
import type { BgpPeer, BgpState, OspfNeighbor } from '../model.js'

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

const BGP_STATES: ReadonlyArray<BgpState | null> = [null, 'idle', 'connect', 'active', 'opensent', 'openconfirm', 'established']
const OSPF_STATES = [null, 'down', 'attempt', 'init', 'two-way', 'exchange-start', 'exchange', 'loading', 'full'] as const

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

export async function collectOspf(client: MibReader): Promise<OspfNeighbor[]> {
  const out: OspfNeighbor[] = []
  for (const { index, cells } of await client.table(OSPF_NBR)) {
    const ip = ipFromIndex(index, 0)
    const state = int(cells.state)
    if (ip) out.push({ ip, routerId: str(cells.routerId), state: state === null ? null : (OSPF_STATES[state] ?? null), priority: int(cells.priority) })
  }
  return out
}
