/**
 * Switch port VLANs: Q-BRIDGE-MIB dot1qPvid (the VLAN of untagged frames, per bridge port) and
 * dot1qVlanStaticEgressPorts / dot1qVlanStaticUntaggedPorts (the ports each VLAN leaves by,
 * tagged or not), and CISCO-VLAN-MEMBERSHIP-MIB vmVoiceVlanId (the voice VLAN of a port).
 */
import type { MibReader } from '../snmp/client.js'
import { indexOf, int } from '../snmp/values.js'
import type { SwitchportData } from '../model.js'

/** dot1qPortVlanTable dot1qPvid; index: bridge port. */
export const Q_PVID = '1.3.6.1.2.1.17.7.1.4.5.1.1'
/** dot1qVlanStaticTable PortLists; index: VLAN id. */
export const Q_VLAN_PORTS = { egress: '1.3.6.1.2.1.17.7.1.4.3.1.2', untagged: '1.3.6.1.2.1.17.7.1.4.3.1.4' }
/** vmVoiceVlanId; index: ifIndex. */
export const VM_VOICE_VLAN = '1.3.6.1.4.1.9.9.68.1.5.1.1.1'

/** The ports of a PortList: bit 1 (the first port) is the most significant bit of the first octet. */
export function portList(value: unknown): number[] {
  if (!Buffer.isBuffer(value)) return []
  const ports: number[] = []
  for (let i = 0; i < value.length; i++) for (let bit = 0; bit < 8; bit++) if (value[i]! & (0x80 >> bit)) ports.push(i * 8 + bit + 1)
  return ports
}

const vlanId = (n: number | null) => (n !== null && n >= 1 && n <= 4094 ? n : null)

export async function collectSwitchports(client: MibReader): Promise<SwitchportData> {
  const [pvids, lists, voice] = await Promise.all([client.walk([Q_PVID]), client.table(Q_VLAN_PORTS), client.walk([VM_VOICE_VLAN])])
  const pvid = new Map<number, number>()
  for (const vb of pvids.get(Q_PVID) ?? []) {
    const [port] = indexOf(vb.oid, Q_PVID)
    const v = vlanId(int(vb))
    if (port !== undefined && v !== null) pvid.set(port, v)
  }
  const egress = new Map<number, Set<number>>()
  const untagged = new Map<number, Set<number>>()
  for (const { index, cells } of lists) {
    const v = vlanId(index[0] ?? null)
    if (v === null) continue
    for (const port of portList(cells.egress?.value)) (egress.get(port) ?? egress.set(port, new Set()).get(port)!).add(v)
    for (const port of portList(cells.untagged?.value)) (untagged.get(port) ?? untagged.set(port, new Set()).get(port)!).add(v)
  }
  const voiceVlan = new Map<number, number>()
  for (const vb of voice.get(VM_VOICE_VLAN) ?? []) {
    const [ifIndex] = indexOf(vb.oid, VM_VOICE_VLAN)
    const v = vlanId(int(vb))
    if (ifIndex !== undefined && v !== null) voiceVlan.set(ifIndex, v)
  }
  return { pvid, egress, untagged, voiceVlan }
}
