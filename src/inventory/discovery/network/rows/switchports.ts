/**
 * Rows of interfaces/switchports: every bridge port with a port VLAN (Q-BRIDGE-MIB). A port that
 * sends some VLAN but its voice VLAN tagged is a trunk (its port VLAN is the native VLAN, the VLANs it sends are the
 * allowed ones); the others are access ports of their port VLAN. The voice VLAN comes from
 * CISCO-VLAN-MEMBERSHIP-MIB where the device has it.
 */
import type { Row } from '../../../simulator/index.js'
import { dynamicMacsPerPort } from '../../../simulator/rows/common.js'
import { ifName, type Network } from '../assemble.js'
import { shortName } from '../ifname.js'
import { macRows } from './layer2.js'

/** "1,10,20-22": VLAN ids as ranges. */
export function vlanRanges(ids: Iterable<number>): string {
  const sorted = [...new Set(ids)].sort((a, b) => a - b)
  const parts: string[] = []
  for (let i = 0; i < sorted.length; ) {
    let j = i
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++
    parts.push(j === i ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`)
    i = j + 1
  }
  return parts.join(',')
}

export function* switchportRows(net: Network): Generator<Row> {
  // the MAC table rows each port learned dynamically, as addressing/mac holds them
  const learned = dynamicMacsPerPort(macRows(net), 'sn')
  for (const dev of net.devices) {
    const bridge = dev.d.bridge
    const sp = dev.d.switchports
    if (!bridge) continue
    for (const [port, pvid] of [...sp.pvid].sort(([a], [b]) => a - b)) {
      const ifIndex = bridge.portIfIndex.get(port)
      const name = ifIndex === undefined ? null : ifName(dev, ifIndex)
      if (ifIndex === undefined || name === null) continue
      const egress = sp.egress.get(port) ?? new Set<number>()
      const untagged = sp.untagged.get(port) ?? new Set<number>()
      const voice = sp.voiceVlan.get(ifIndex) ?? null
      // an access port sends its voice VLAN tagged: that alone makes no trunk
      const trunk = [...egress].some((v) => !untagged.has(v) && v !== voice)
      yield {
        sn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.siteName,
        id: `${dev.sn}/${ifIndex}`,
        intName: shortName(name),
        dscr: dev.ifByIndex.get(ifIndex)?.alias ?? null,
        mode: trunk ? 'trunk' : 'access',
        accVlan: trunk ? null : pvid,
        nativeVlan: trunk ? pvid : null,
        trunkVlan: trunk ? vlanRanges(egress) : null,
        voiceVlan: voice,
        dynamicMacCount: learned.get(`${dev.sn}|${shortName(name)}`) ?? 0,
      }
    }
  }
}
