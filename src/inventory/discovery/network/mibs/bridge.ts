/**
 * BRIDGE-MIB and Q-BRIDGE-MIB: the bridge's base MAC, port numbers, VLANs and the MAC address
 * table (dot1qTpFdbTable with VLANs, else dot1dTpFdbTable).
 */
import type { MibReader } from '../snmp/client.js'
import { int, mac, macFromBytes, text } from '../snmp/values.js'
import type { BridgeData } from '../model.js'

export const BASE_BRIDGE_ADDRESS = '1.3.6.1.2.1.17.1.1.0'
export const BASE_PORT_IFINDEX = '1.3.6.1.2.1.17.1.4.1.2'
/** dot1dTpFdbTable; index: MAC. */
export const TP_FDB = { port: '1.3.6.1.2.1.17.4.3.1.2', status: '1.3.6.1.2.1.17.4.3.1.3' }
/** dot1qTpFdbTable; index: FDB id (VLAN), MAC. */
export const Q_TP_FDB = { port: '1.3.6.1.2.1.17.7.1.2.2.1.2', status: '1.3.6.1.2.1.17.7.1.2.2.1.3' }
/** dot1qVlanStaticTable; index: VLAN id. */
export const Q_VLAN_STATIC = { name: '1.3.6.1.2.1.17.7.1.4.3.1.1', rowStatus: '1.3.6.1.2.1.17.7.1.4.3.1.5' }
/** CISCO-VTP-MIB vtpVlanTable; index: managementDomainIndex, vtpVlanIndex. Cisco switches that have no Q-BRIDGE-MIB VLAN table list their VLANs here. */
export const VTP_VLAN = { state: '1.3.6.1.4.1.9.9.46.1.3.1.1.2', type: '1.3.6.1.4.1.9.9.46.1.3.1.1.3', name: '1.3.6.1.4.1.9.9.46.1.3.1.1.4' }
/** vtpVlanType ethernet(1): the others (FDDI, Token Ring) carry no Ethernet. */
const VTP_ETHERNET = 1

/** The VLANs of a Cisco switch from CISCO-VTP-MIB: the Ethernet ones, operational(1) as active, suspended(2) as suspended. */
async function vtpVlans(client: MibReader): Promise<BridgeData['vlans']> {
  return (await client.table(VTP_VLAN))
    .filter(({ index, cells }) => index.length === 2 && int(cells.type) === VTP_ETHERNET)
    .map(({ index, cells }) => {
      const state = int(cells.state)
      return { id: index[1]!, name: text(cells.name) || null, status: state === 1 ? ('active' as const) : state === 2 ? ('suspend' as const) : null }
    })
}

/** dot1dTpFdbStatus: other(1), invalid(2), learned(3), self(4), mgmt(5). */
function fdbStatus(n: number | null): 'dynamic' | 'static' | 'other' | null {
  if (n === 3) return 'dynamic'
  if (n === 5) return 'static'
  if (n === 2 || n === 4) return null
  return 'other'
}

/** dot1dTpFdbTable (no VLAN in its index): the entries of the instance read, in `vlan` when the instance is one VLAN's. */
export async function collectTpFdb(client: MibReader, vlan: number | null): Promise<BridgeData['fdb']> {
  const fdb: BridgeData['fdb'] = []
  for (const { index, cells } of await client.table(TP_FDB)) {
    const m = macFromBytes(index.slice(0, 6))
    const status = fdbStatus(int(cells.status))
    const port = int(cells.port)
    if (m && status && port) fdb.push({ mac: m, port, vlan, status })
  }
  return fdb
}

/** The bridge ports of an instance: dot1dBasePortIfIndex, port number → ifIndex. */
export async function collectBasePorts(client: MibReader): Promise<Map<number, number>> {
  const vbs = (await client.walk([BASE_PORT_IFINDEX])).get(BASE_PORT_IFINDEX) ?? []
  return new Map(vbs.map((vb) => [Number(vb.oid.slice(BASE_PORT_IFINDEX.length + 1)), int(vb) ?? 0]))
}

/** Bridge data, or null when the device is no bridge (no BRIDGE-MIB). */
export async function collectBridge(client: MibReader): Promise<BridgeData | null> {
  const base = await client.get([BASE_BRIDGE_ADDRESS])
  const portIfIndex = await collectBasePorts(client)
  if (!base.has(BASE_BRIDGE_ADDRESS) && portIfIndex.size === 0) return null
  const qVlans = (await client.table(Q_VLAN_STATIC)).map(({ index, cells }) => ({
    id: index[0]!,
    name: text(cells.name) || null,
    status: int(cells.rowStatus) === 1 ? ('active' as const) : int(cells.rowStatus) === 2 ? ('suspend' as const) : null,
  }))
  const vlans = qVlans.length > 0 ? qVlans : await vtpVlans(client)
  const fdb: BridgeData['fdb'] = []
  const q = await client.table(Q_TP_FDB)
  for (const { index, cells } of q) {
    const m = macFromBytes(index.slice(1, 7))
    const status = fdbStatus(int(cells.status))
    const port = int(cells.port)
    if (m && status && port) fdb.push({ mac: m, port, vlan: index[0]!, status })
  }
  if (q.length === 0) fdb.push(...(await collectTpFdb(client, null)))
  return { baseMac: mac(base.get(BASE_BRIDGE_ADDRESS)), portIfIndex, vlans, fdb }
}
