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
import { int, rowsBy, seconds, str, type TableRow, type Vb } from '../snmp/values.js'
import type { MstInstance, StpPort, StpPortState } from '../model.js'
import { bridgeId, bridgeMac, portId } from './stp.js'

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

/**
 * The VLANs of consecutive VLAN maps of `perMap` VLANs each (ieee8021MstpVids0..3: 1,024; Cisco's
 * stpxSMSTInstanceVlansMapped1k2k and 3k4k: 2,048), the first octet's high bit the first VLAN of
 * its range (VLAN 0 in the first map, never set); a map shorter than its range has the rest unset.
 */
export function mappedVlans(maps: ReadonlyArray<unknown>, perMap = 1024): number[] {
  const vlans: number[] = []
  maps.forEach((map, range) => {
    if (!Buffer.isBuffer(map)) return
    for (let octet = 0; octet < map.length && octet < perMap / 8; octet++) {
      const bits = map[octet]!
      for (let bit = 0; bit < 8; bit++) {
        const vlan = range * perMap + octet * 8 + bit
        if (bits & (0x80 >> bit) && vlan >= 1 && vlan <= 4094) vlans.push(vlan)
      }
    }
  })
  return vlans
}

/**
 * A port's designated port as "priority.number", like the BRIDGE-MIB's port ids. The MIB gives
 * the designated port's number only (IEEE8021BridgePortNumber; a two-octet port id is read as
 * one): its priority is known where the designated bridge is this one, the port being one of its
 * own (`priorityOf`); elsewhere the designated port is null.
 */
function designatedPort(vb: Vb | undefined, designatedBridge: string | null, own: string | null, priorityOf: ReadonlyMap<number, number | null>): string | null {
  const id = portId(vb?.value)
  if (id !== null) return id
  const number = int(vb)
  const priority = number === null || number <= 0 ? undefined : priorityOf.get(number)
  const self = own !== null && designatedBridge !== null && bridgeMac(designatedBridge) === bridgeMac(own)
  return self && priority !== undefined && priority !== null ? `${priority}.${number}` : null
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
  const portRowsOf = rowsBy(portRows.filter((r) => r.index.length === 3 && r.index[0] === component), 1)
  const instances = rows.map(({ index, cells }): MstInstance => {
    const instance = index[1]!
    const own = bridgeId(cells.bridgeId?.value)
    const mine = portRowsOf.get(instance) ?? []
    const priorityOf = new Map(mine.map((r) => [r.index[2]!, int(r.cells.priority)]))
    const ports = mine.map(({ index: [, , port], cells: c }): StpPort => {
      const state = int(c.state)
      const role = int(c.role)
      const designatedBridge = bridgeId(c.designatedBridge?.value)
      return {
        port: port!,
        priority: int(c.priority),
        state: state !== null ? (PORT_STATES[state] ?? null) : null,
        enabled: null,
        pathCost: int(c.pathCost),
        designatedRoot: bridgeId(c.designatedRoot?.value),
        designatedCost: int(c.designatedCost),
        designatedBridge,
        designatedPort: designatedPort(c.designatedPort, designatedBridge, own, priorityOf),
        edge: null,
        p2p: null,
        role: role !== null ? (PORT_ROLES[role] ?? null) : null,
      }
    })
    return {
      instance,
      bridgeId: own,
      priority: int(cells.priority),
      rootId: bridgeId(cells.designatedRoot?.value),
      rootCost: int(cells.rootPathCost),
      topologyChanges: int(cells.topologyChanges),
      secondsSinceChange: seconds(cells.timeSinceTopologyChange),
      rootPort: int(cells.rootPort),
      vlans: mappedVlans([cells.vids0?.value, cells.vids1?.value, cells.vids2?.value, cells.vids3?.value]),
      ports: ports.sort((a, b) => a.port - b.port),
    }
  })
  const config = configRows.find((r) => r.index[0] === component)?.cells
  const region = config ? { name: str(config.name), revision: int(config.revision) } : null
  return { instances: instances.sort((a, b) => a.instance - b.instance), region }
}
