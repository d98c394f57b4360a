/**
 * Spanning tree: BRIDGE-MIB dot1dStp (bridge priority, the designated root, the root port),
 * RSTP-MIB dot1dStpVersion and CISCO-STP-EXTENSIONS-MIB stpxSpanningTreeType (the per-VLAN modes
 * of Cisco switches). On a per-VLAN switch the BRIDGE-MIB answers for VLAN 1.
 */
import type { MibReader } from '../snmp/client.js'
import { int } from '../snmp/values.js'
import type { StpData } from '../model.js'

export const STP = {
  priority: '1.3.6.1.2.1.17.2.2.0',
  designatedRoot: '1.3.6.1.2.1.17.2.5.0',
  rootPort: '1.3.6.1.2.1.17.2.7.0',
  version: '1.3.6.1.2.1.17.2.16.0',
  ciscoType: '1.3.6.1.4.1.9.9.82.1.6.1.0',
}

/** A BridgeId (8 octets: priority, MAC) as "priority.xxxx.xxxx.xxxx". */
export function bridgeId(value: unknown): string | null {
  if (!Buffer.isBuffer(value) || value.length !== 8) return null
  const hex = value.subarray(2).toString('hex')
  return `${value.readUInt16BE(0)}.${hex.slice(0, 4)}.${hex.slice(4, 8)}.${hex.slice(8, 12)}`
}

const CISCO_TYPES: Readonly<Record<number, StpData['mode']>> = { 1: 'pvst', 4: 'mstp', 5: 'rpvst' }
const VERSIONS: Readonly<Record<number, StpData['mode']>> = { 2: 'rstp', 3: 'mstp' }

/** The spanning tree, or null when the device runs none it reports. */
export async function collectStp(client: MibReader): Promise<StpData | null> {
  const got = await client.get(Object.values(STP))
  const priority = int(got.get(STP.priority))
  const root = bridgeId(got.get(STP.designatedRoot)?.value)
  if (priority === null && root === null) return null
  const cisco = int(got.get(STP.ciscoType))
  const version = int(got.get(STP.version))
  return {
    priority,
    rootId: root,
    rootPort: int(got.get(STP.rootPort)),
    mode: (cisco !== null ? CISCO_TYPES[cisco] : undefined) ?? (version !== null ? VERSIONS[version] : undefined) ?? null,
  }
}
