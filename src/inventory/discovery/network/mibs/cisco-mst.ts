/**
 * The MST instances of a Cisco switch in MST mode (stpxSpanningTreeType mst(4)), which answers
 * CISCO-STP-EXTENSIONS-MIB instead of IEEE8021-MSTP-MIB: each instance's VLANs
 * (stpxSMSTInstanceTable, two maps of 2,048 VLANs), each port's role in each instance
 * (stpxRSTPPortRoleTable, indexed by the instance and the bridge port) and the MST region
 * (stpxMSTRegionName, stpxSMSTRegionRevision). The CIST (instance 0) is the tree the BRIDGE-MIB
 * answers for (stp.ts). The MIB says nothing more of an MSTI: not the switch's priority in it, not
 * its regional root or cost, not its ports' states; those stay null, and the root port is the port
 * whose role is root.
 */
import type { MibReader } from '../snmp/client.js'
import { int, rowsBy, str } from '../snmp/values.js'
import type { MstInstance, StpPort } from '../model.js'
import type { MstRegion } from './mstp.js'
import { mappedVlans } from './mstp.js'

export const CISCO_MST_REGION = {
  name: '1.3.6.1.4.1.9.9.82.1.11.2.0',
  revision: '1.3.6.1.4.1.9.9.82.1.14.3.0',
}

/** stpxSMSTInstanceTable; index: stpxSMSTInstanceIndex. */
export const CISCO_MST_INSTANCE = {
  vlans1k2k: '1.3.6.1.4.1.9.9.82.1.14.5.1.2',
  vlans3k4k: '1.3.6.1.4.1.9.9.82.1.14.5.1.3',
}

/** stpxRSTPPortRoleTable; index: stpxRSTPPortRoleInstanceIndex (the MST instance in MST mode), stpxRSTPPortRolePortIndex (the bridge port). */
export const CISCO_PORT_ROLE = { role: '1.3.6.1.4.1.9.9.82.1.12.2.1.3' }

/** stpxRSTPPortRoleValue. */
const ROLES: Readonly<Record<number, NonNullable<StpPort['role']>>> = {
  1: 'disabled',
  2: 'root',
  3: 'designated',
  4: 'alternate',
  5: 'backup',
  6: 'boundary',
  7: 'master',
}

/** A port known by its role alone. */
const rolePort = (port: number, role: StpPort['role']): StpPort => ({
  port,
  priority: null,
  state: null,
  enabled: null,
  pathCost: null,
  designatedRoot: null,
  designatedCost: null,
  designatedBridge: null,
  designatedPort: null,
  edge: null,
  p2p: null,
  role,
})

/** The MSTIs (1 and up) with their VLANs and their ports' roles, and the MST region; no instance where the switch has no stpxSMSTInstanceTable. */
export async function collectCiscoMst(client: MibReader): Promise<{ instances: MstInstance[]; region: MstRegion | null }> {
  const rows = (await client.table(CISCO_MST_INSTANCE)).filter((r) => r.index.length === 1 && r.index[0]! > 0)
  if (rows.length === 0) return { instances: [], region: null }
  const [roleRows, region] = await Promise.all([client.table(CISCO_PORT_ROLE), client.get(Object.values(CISCO_MST_REGION))])
  const rolesOf = rowsBy(roleRows.filter((r) => r.index.length === 2), 0)
  const instances = rows.map(({ index: [instance], cells }): MstInstance => {
    const ports = (rolesOf.get(instance!) ?? []).map(({ index: [, port], cells: c }) => {
      const role = int(c.role)
      return rolePort(port!, role !== null ? (ROLES[role] ?? null) : null)
    })
    return {
      instance: instance!,
      bridgeId: null,
      priority: null,
      rootId: null,
      rootCost: null,
      topologyChanges: null,
      secondsSinceChange: null,
      rootPort: ports.find((p) => p.role === 'root')?.port ?? null,
      vlans: mappedVlans([cells.vlans1k2k?.value, cells.vlans3k4k?.value], 2048),
      ports: ports.sort((a, b) => a.port - b.port),
    }
  })
  const name = str(region.get(CISCO_MST_REGION.name))
  const revision = int(region.get(CISCO_MST_REGION.revision))
  return { instances: instances.sort((a, b) => a.instance - b.instance), region: name === null && revision === null ? null : { name, revision } }
}
