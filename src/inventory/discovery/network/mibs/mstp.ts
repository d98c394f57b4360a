/**
 * The instances of a Multiple Spanning Tree bridge (IEEE 802.1s, now 802.1Q), from the standard
 * IEEE8021-MSTP-MIB: each MSTI's tree (ieee8021MstpTable: the bridge's id and priority in it, the
 * root, the root port and cost, its topology changes, and the VLANs mapped to it as four 1,024-bit maps), each port's
 * state and role in it (ieee8021MstpPortTable), and the MST region (ieee8021MstpConfigIdTable).
 * The CIST (instance 0) is the tree the BRIDGE-MIB answers for (stp.ts). Only the first bridge
 * component is read: a customer bridge has one, and its port numbers are the BRIDGE-MIB's bridge
 * ports (dot1dBasePortIfIndex names their interfaces).
 */
import type { MibReader } from '../snmp/client.js'
import { int, str, type TableRow } from '../snmp/values.js'
import type { MstInstance, StpPort, StpPortState } from '../model.js'
import { bridgeId, centiseconds, portId } from './stp.js'

/** ieee8021MstpTable; index: ieee8021MstpComponentId, ieee8021MstpId. */
export const MSTP_INSTANCE = {
  bridgeId: '1.3.111.2.802.1.1.6.1.2.1.3',
  timeSinceTopologyChange: '1.3.111.2.802.1.1.6.1.2.1.4',
  topologyChanges: '1.3.111.2.802.1.1.6.1.2.1.5',
  designatedRoot: '1.3.111.2.802.1.1.6.1.2.1.7',
  rootPathCost: '1.3.111.2.802.1.1.6.1.2.1.8',
  rootPort: '1.3.111.2.802.1.1.6.1.2.1.9',
  priority: '1.3.111.2.802.1.1.6.1.2.1.10',
  vids0: '1.3.111.2.802.1.1.6.1.2.1.11',
  vids1: '1.3.111.2.802.1.1.6.1.2.1.12',
  vids2: '1.3.111.2.802.1.1.6.1.2.1.13',
  vids3: '1.3.111.2.802.1.1.6.1.2.1.14',
}

/** ieee8021MstpPortTable; index: ieee8021MstpPortComponentId, ieee8021MstpPortMstId, ieee8021MstpPortNum. */
export const MSTP_PORT = {
  state: '1.3.111.2.802.1.1.6.1.4.1.5',
  priority: '1.3.111.2.802.1.1.6.1.4.1.6',
  pathCost: '1.3.111.2.802.1.1.6.1.4.1.7',
  designatedRoot: '1.3.111.2.802.1.1.6.1.4.1.8',
  designatedCost: '1.3.111.2.802.1.1.6.1.4.1.9',
  designatedBridge: '1.3.111.2.802.1.1.6.1.4.1.10',
  designatedPort: '1.3.111.2.802.1.1.6.1.4.1.11',
  role: '1.3.111.2.802.1.1.6.1.4.1.12',
}

/** ieee8021MstpConfigIdTable; index: ieee8021MstpConfigIdComponentId. */
export const MSTP_CONFIG_ID = {
  name: '1.3.111.2.802.1.1.6.1.7.1.3',
  revision: '1.3.111.2.802.1.1.6.1.7.1.4',
}

/** ieee8021MstpPortState: its own numbering, not the BRIDGE-MIB's (blocking is 5 here). */
const PORT_STATES: Readonly<Record<number, StpPortState>> = { 1: 'disabled', 2: 'listening', 3: 'learning', 4: 'forwarding', 5: 'blocking' }
/** ieee8021MstpPortRole. */
const PORT_ROLES: Readonly<Record<number, NonNullable<StpPort['role']>>> = { 1: 'root', 2: 'alternate', 3: 'designated', 4: 'backup' }

/** The VLANs of ieee8021MstpVids0..3: each a map of 1,024 VLANs, the first octet's high bit the first VLAN of its range (VLAN 0 in Vids0, never set). */
export function mappedVlans(maps: ReadonlyArray<unknown>): number[] {
  const vlans: number[] = []
  maps.forEach((map, range) => {
    if (!Buffer.isBuffer(map)) return
    for (let octet = 0; octet < map.length && octet < 128; octet++) {
      const bits = map[octet]!
      for (let bit = 0; bit < 8; bit++) {
        const vlan = range * 1024 + octet * 8 + bit
        if (bits & (0x80 >> bit) && vlan >= 1 && vlan <= 4094) vlans.push(vlan)
      }
    }
  })
  return vlans
}

/** A designated port given as a bridge port number (IEEE8021BridgePortNumber), kept as "#number" until its priority is known. */
function numberOf(vb: { value: unknown } | undefined): string | null {
  const n = typeof vb?.value === 'number' ? vb.value : null
  return n !== null && n > 0 ? `#${n}` : null
}

/**
 * The designated ports of an instance as "priority.number", like the BRIDGE-MIB's port ids: the
 * MIB gives only the designated port's number, whose priority is known where the designated
 * bridge is this one (the port is one of its own); elsewhere the designated port stays null.
 */
function designatedPorts(ports: StpPort[], own: string | null): StpPort[] {
  const priorityOf = new Map(ports.map((p) => [p.port, p.priority]))
  const mac = (id: string) => id.slice(id.indexOf('.') + 1)
  for (const p of ports) {
    if (!p.designatedPort?.startsWith('#')) continue
    const number = Number(p.designatedPort.slice(1))
    const priority = priorityOf.get(number)
    const self = own !== null && p.designatedBridge !== null && mac(p.designatedBridge) === mac(own)
    p.designatedPort = self && priority !== undefined && priority !== null ? `${priority}.${number}` : null
  }
  return ports
}

/** The first bridge component's rows of a table (its first index). */
const firstComponent = (rows: TableRow[]): TableRow[] => {
  const component = rows.reduce<number | undefined>((min, r) => (r.index[0] !== undefined && (min === undefined || r.index[0] < min) ? r.index[0] : min), undefined)
  return rows.filter((r) => r.index[0] === component)
}

/** The MST region of the first bridge component: its configuration name and revision level. */
export interface MstRegion {
  name: string | null
  revision: number | null
}

/**
 * The MSTIs of the bridge with their ports, and its MST region; no instance (and no request beyond
 * the first) where the agent has no IEEE8021-MSTP-MIB.
 */
export async function collectMstp(client: MibReader): Promise<{ instances: MstInstance[]; region: MstRegion | null }> {
  const rows = firstComponent((await client.table(MSTP_INSTANCE)).filter((r) => r.index.length === 2))
  if (rows.length === 0) return { instances: [], region: null }
  const [portRows, configRows] = await Promise.all([client.table(MSTP_PORT), client.table(MSTP_CONFIG_ID)])
  const component = rows[0]!.index[0]
  const portsOf = new Map<number, StpPort[]>()
  for (const { index, cells } of portRows) {
    if (index.length !== 3 || index[0] !== component) continue
    const [, mstId, port] = index as [number, number, number]
    const state = int(cells.state)
    const role = int(cells.role)
    const list = portsOf.get(mstId) ?? []
    list.push({
      port,
      priority: int(cells.priority),
      state: state !== null ? (PORT_STATES[state] ?? null) : null,
      enabled: null,
      pathCost: int(cells.pathCost),
      designatedRoot: bridgeId(cells.designatedRoot?.value),
      designatedCost: int(cells.designatedCost),
      designatedBridge: bridgeId(cells.designatedBridge?.value),
      designatedPort: portId(cells.designatedPort?.value) ?? numberOf(cells.designatedPort),
      edge: null,
      p2p: null,
      role: role !== null ? (PORT_ROLES[role] ?? null) : null,
    })
    portsOf.set(mstId, list)
  }
  const instances = rows.map(({ index, cells }): MstInstance => {
    const instance = index[1]!
    const own = bridgeId(cells.bridgeId?.value)
    return {
      instance,
      bridgeId: own,
      priority: int(cells.priority),
      rootId: bridgeId(cells.designatedRoot?.value),
      rootCost: int(cells.rootPathCost),
      topologyChanges: int(cells.topologyChanges),
      secondsSinceChange: centiseconds(cells.timeSinceTopologyChange),
      rootPort: int(cells.rootPort),
      vlans: mappedVlans([cells.vids0?.value, cells.vids1?.value, cells.vids2?.value, cells.vids3?.value]),
      ports: designatedPorts(portsOf.get(instance) ?? [], own).sort((a, b) => a.port - b.port),
    }
  })
  const config = configRows.find((r) => r.index[0] === component)?.cells
  const region = config ? { name: str(config.name), revision: int(config.revision) } : null
  return { instances: instances.sort((a, b) => a.instance - b.instance), region }
}
