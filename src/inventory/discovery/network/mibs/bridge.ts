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

/** dot1dTpFdbStatus: other(1), invalid(2), learned(3), self(4), mgmt(5). */
function fdbStatus(n: number | null): 'dynamic' | 'static' | 'other' | null {
  if (n === 3) return 'dynamic'
  if (n === 5) return 'static'
  if (n === 2 || n === 4) return null
  return 'other'
}

/** Bridge data, or null when the device is no bridge (no BRIDGE-MIB). */
export async function collectBridge(client: MibReader): Promise<BridgeData | null> {
  const base = await client.get([BASE_BRIDGE_ADDRESS])
  const ports = await client.walk([BASE_PORT_IFINDEX])
  const portVbs = ports.get(BASE_PORT_IFINDEX) ?? []
  if (!base.has(BASE_BRIDGE_ADDRESS) && portVbs.length === 0) return null
  const portIfIndex = new Map(portVbs.map((vb) => [Number(vb.oid.slice(BASE_PORT_IFINDEX.length + 1)), int(vb) ?? 0]))
  const vlans = (await client.table(Q_VLAN_STATIC)).map(({ index, cells }) => ({
    id: index[0]!,
    name: text(cells.name) || null,
    status: int(cells.rowStatus) === 1 ? ('active' as const) : int(cells.rowStatus) === 2 ? ('suspend' as const) : null,
  }))
  const fdb: BridgeData['fdb'] = []
  const q = await client.table(Q_TP_FDB)
  for (const { index, cells } of q) {
    const m = macFromBytes(index.slice(1, 7))
    const status = fdbStatus(int(cells.status))
    const port = int(cells.port)
    if (m && status && port) fdb.push({ mac: m, port, vlan: index[0]!, status })
  }
  if (q.length === 0) {
    for (const { index, cells } of await client.table(TP_FDB)) {
      const m = macFromBytes(index.slice(0, 6))
      const status = fdbStatus(int(cells.status))
      const port = int(cells.port)
      if (m && status && port) fdb.push({ mac: m, port, vlan: null, status })
    }
  }
  return { baseMac: mac(base.get(BASE_BRIDGE_ADDRESS)), portIfIndex, vlans, fdb }
}
