/**
 * Spanning tree: BRIDGE-MIB dot1dStp (bridge priority, the designated root, the root port, and
 * each port's state and designated bridge in dot1dStpPortTable), RSTP-MIB dot1dStpVersion and
 * dot1dStpExtPortTable (edge and point-to-point ports), and CISCO-STP-EXTENSIONS-MIB
 * stpxSpanningTreeType (the per-VLAN modes of Cisco switches; where it answers, the ports'
 * protections: stp-guards.ts). On a per-VLAN switch the
 * BRIDGE-MIB answers for VLAN 1, and each further VLAN's tree is read in that VLAN's instance of
 * the MIB (community indexing: vlan-instances.ts).
 */
import type { MibReader } from '../snmp/client.js'
import { int, seconds, truthValue, type Vb } from '../snmp/values.js'
import type { StpData, StpPort, StpPortState, StpTree } from '../model.js'
import { collectStpGuards } from './stp-guards.js'

/** The tree's scalars (BRIDGE-MIB dot1dStp), in every instance. */
export const STP_TREE = {
  priority: '1.3.6.1.2.1.17.2.2.0',
  timeSinceTopologyChange: '1.3.6.1.2.1.17.2.3.0',
  topologyChanges: '1.3.6.1.2.1.17.2.4.0',
  designatedRoot: '1.3.6.1.2.1.17.2.5.0',
  rootCost: '1.3.6.1.2.1.17.2.6.0',
  rootPort: '1.3.6.1.2.1.17.2.7.0',
}

export const STP = {
  ...STP_TREE,
  version: '1.3.6.1.2.1.17.2.16.0',
  ciscoType: '1.3.6.1.4.1.9.9.82.1.6.1.0',
}

/** A BridgeId (8 octets: priority, MAC) as "priority.xxxx.xxxx.xxxx". */
export function bridgeId(value: unknown): string | null {
  if (!Buffer.isBuffer(value) || value.length !== 8) return null
  const hex = value.subarray(2).toString('hex')
  return `${value.readUInt16BE(0)}.${hex.slice(0, 4)}.${hex.slice(4, 8)}.${hex.slice(8, 12)}`
}

/** dot1dStpPortTable; index: dot1dStpPort (the bridge port number). */
export const STP_PORT = {
  priority: '1.3.6.1.2.1.17.2.15.1.2',
  state: '1.3.6.1.2.1.17.2.15.1.3',
  enable: '1.3.6.1.2.1.17.2.15.1.4',
  pathCost: '1.3.6.1.2.1.17.2.15.1.5',
  designatedRoot: '1.3.6.1.2.1.17.2.15.1.6',
  designatedCost: '1.3.6.1.2.1.17.2.15.1.7',
  designatedBridge: '1.3.6.1.2.1.17.2.15.1.8',
  designatedPort: '1.3.6.1.2.1.17.2.15.1.9',
  pathCost32: '1.3.6.1.2.1.17.2.15.1.11',
}

/** RSTP-MIB dot1dStpExtPortTable; index: dot1dStpPort. */
export const STP_EXT_PORT = { operEdge: '1.3.6.1.2.1.17.2.19.1.3', operPointToPoint: '1.3.6.1.2.1.17.2.19.1.5' }

const PORT_STATES: Readonly<Record<number, StpPortState>> = { 1: 'disabled', 2: 'blocking', 3: 'listening', 4: 'learning', 5: 'forwarding', 6: 'broken' }

/** A port identifier (2 octets) as "priority.number": 4 bits of priority in steps of 16, 12 bits of port number (IEEE 802.1t). */
export function portId(value: unknown): string | null {
  if (!Buffer.isBuffer(value) || value.length !== 2) return null
  const id = value.readUInt16BE(0)
  return `${(id >> 12) * 16}.${id & 0xfff}`
}

/** The MAC part of a bridge id ("priority.xxxx.xxxx.xxxx" → "xxxx.xxxx.xxxx"): two ids of one bridge in trees of different priorities share it. */
export const bridgeMac = (id: string): string => id.slice(id.indexOf('.') + 1)

/** Every port of dot1dStpPortTable, with RSTP-MIB's edge and point-to-point state where the agent has them. */
export async function collectStpPorts(client: MibReader): Promise<StpPort[]> {
  const [rows, ext] = await Promise.all([client.table(STP_PORT), client.table(STP_EXT_PORT)])
  const extOf = new Map(ext.filter((r) => r.index.length === 1).map((r) => [r.index[0]!, r.cells]))
  const ports: StpPort[] = []
  for (const { index, cells } of rows) {
    if (index.length !== 1) continue
    const port = index[0]!
    const state = int(cells.state)
    const x = extOf.get(port)
    ports.push({
      port,
      priority: int(cells.priority),
      state: state !== null ? (PORT_STATES[state] ?? null) : null,
      enabled: truthValue(cells.enable),
      pathCost: int(cells.pathCost32) ?? int(cells.pathCost),
      designatedRoot: bridgeId(cells.designatedRoot?.value),
      designatedCost: int(cells.designatedCost),
      designatedBridge: bridgeId(cells.designatedBridge?.value),
      designatedPort: portId(cells.designatedPort?.value),
      edge: truthValue(x?.operEdge),
      p2p: truthValue(x?.operPointToPoint),
    })
  }
  return ports.sort((a, b) => a.port - b.port)
}

const CISCO_TYPES: Readonly<Record<number, StpData['mode']>> = { 1: 'pvst', 4: 'mstp', 5: 'rpvst' }
const VERSIONS: Readonly<Record<number, StpData['mode']>> = { 2: 'rstp', 3: 'mstp' }

/** A tree from its scalars (read already) and its port table, or null when the instance reports none. */
export async function readTree(client: MibReader, got: ReadonlyMap<string, Vb>): Promise<StpTree | null> {
  const priority = int(got.get(STP_TREE.priority))
  const rootId = bridgeId(got.get(STP_TREE.designatedRoot)?.value)
  if (priority === null && rootId === null) return null
  return {
    priority,
    rootId,
    rootPort: int(got.get(STP_TREE.rootPort)),
    rootCost: int(got.get(STP_TREE.rootCost)),
    topologyChanges: int(got.get(STP_TREE.topologyChanges)),
    secondsSinceChange: seconds(got.get(STP_TREE.timeSinceTopologyChange)),
    ports: await collectStpPorts(client),
  }
}

/** The spanning tree, or null when the device runs none it reports. */
export async function collectStp(client: MibReader): Promise<StpData | null> {
  const got = await client.get(Object.values(STP))
  const tree = await readTree(client, got)
  if (tree === null) return null
  const cisco = int(got.get(STP.ciscoType))
  const version = int(got.get(STP.version))
  return {
    ...tree,
    mode: (cisco !== null ? CISCO_TYPES[cisco] : undefined) ?? (version !== null ? VERSIONS[version] : undefined) ?? null,
    vlans: [],
    instances: [],
    region: null,
    // CISCO-STP-EXTENSIONS-MIB only where the switch answers it
    guards: cisco !== null ? await collectStpGuards(client) : new Map(),
  }
}
