/**
 * The BRIDGE-MIB of each VLAN of a Cisco per-VLAN switch (PVST+, Rapid PVST+). Such a switch
 * answers its BRIDGE-MIB for VLAN 1 only; each further VLAN has an instance of its own, asked with
 * the community "community@vlan" (SNMPv2c) or in the context "vlan-N" (SNMPv3): the VLAN's
 * spanning tree, its bridge ports, and, where the switch keeps no Q-BRIDGE-MIB forwarding table,
 * the MAC addresses learnt in the VLAN. One VLAN at a time; the first VLAN that does not answer
 * ends the reading (a switch that does not index its MIB by VLAN would otherwise cost a timeout per
 * VLAN).
 */
import type { MibReader } from '../snmp/client.js'
import type { BridgeData, StpData } from '../model.js'
import { collectBasePorts, collectTpFdb } from './bridge.js'
import { STP_TREE, readTree } from './stp.js'

/** VLANs 1002–1005 are reserved (FDDI and Token Ring defaults): no tree runs and nothing is learnt in them. */
const RESERVED_VLANS = new Set([1002, 1003, 1004, 1005])

/** The VLANs whose instances are read: the device's active ones but VLAN 1 (the default instance's) and the reserved ones. */
export function instanceVlans(bridge: BridgeData): number[] {
  const ids = bridge.vlans.filter((v) => v.status !== 'suspend' && v.id !== 1 && !RESERVED_VLANS.has(v.id)).map((v) => v.id)
  return [...new Set(ids)].sort((a, b) => a - b)
}

/** What the VLANs' instances hold: each VLAN's tree (where its instance reports one), and their MAC addresses (null when not read: `fdbPerVlan`). */
export interface VlanInstances {
  trees: StpData['vlans']
  fdb: BridgeData['fdb'] | null
}

/** Whether the MAC table is to be read in each VLAN's instance: the default instance's has no VLANs (dot1dTpFdbTable, VLAN 1's then). */
export const fdbPerVlan = (bridge: BridgeData): boolean => bridge.fdb.every((e) => e.vlan === null)

/**
 * Reads each VLAN's instance: its tree, its bridge ports and, where `fdbPerVlan`, its MAC table
 * (each entry on the interface its instance's bridge port names). Nothing of the device changes
 * until `applyVlanInstances`: a reading that fails halfway changes nothing.
 */
export async function collectVlanInstances(client: MibReader, bridge: BridgeData): Promise<VlanInstances> {
  const fdb = fdbPerVlan(bridge)
  const found: { trees: StpData['vlans']; fdb: BridgeData['fdb'] } = { trees: [], fdb: [] }
  for (const vlanId of instanceVlans(bridge)) {
    const instance = client.inVlan(vlanId)
    try {
      const tree = await readTree(instance, await instance.get(Object.values(STP_TREE)))
      const portIfIndex = await collectBasePorts(instance)
      if (tree !== null) found.trees.push({ ...tree, vlanId, portIfIndex })
      if (!fdb) continue
      for (const e of await collectTpFdb(instance, vlanId)) {
        const ifIndex = portIfIndex.get(e.port)
        if (ifIndex !== undefined) found.fdb.push({ ...e, ifIndex })
      }
    } finally {
      instance.close()
    }
  }
  return { trees: found.trees, fdb: fdb ? found.fdb : null }
}

/** The VLANs' trees into the spanning tree; their MAC addresses, where read, into the MAC table, whose default instance's entries are VLAN 1's. */
export function applyVlanInstances(bridge: BridgeData, stp: StpData, found: VlanInstances): void {
  stp.vlans = found.trees
  if (found.fdb !== null) bridge.fdb = [...bridge.fdb.map((e) => ({ ...e, vlan: e.vlan ?? 1 })), ...found.fdb]
}
