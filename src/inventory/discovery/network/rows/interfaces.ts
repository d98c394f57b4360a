/** Rows of inventory/interfaces: IF-MIB ifTable and ifXTable, duplex from EtherLike-MIB, the first IPv4 address from IP-MIB. */
import type { Row } from '../../../simulator/index.js'
import { formatSpeed } from '../../../simulator/rows/common.js'
import type { Device, Network } from '../assemble.js'
import { shortName } from '../ifname.js'
import type { Iface } from '../model.js'

/** ifTypes of interfaces with no physical medium: softwareLoopback, propVirtual, tunnel, l2vlan, l3ipvlan, ieee8023adLag. */
const VIRTUAL = new Set([24, 53, 131, 135, 136, 161])

export function states(i: Iface): { l1: string; l2: string; reason: string | null } {
  if (i.admin === 'down') return { l1: 'admin-down', l2: 'down', reason: 'admin-down' }
  if (i.oper === 'up') return { l1: 'up', l2: 'up', reason: null }
  const reason = i.oper === 'lowerLayerDown' ? 'lower-layer-down' : i.oper === 'notPresent' ? 'not-present' : i.oper === 'dormant' ? 'dormant' : 'down'
  return { l1: 'down', l2: 'down', reason }
}

export function primaryIp(dev: Device, ifIndex: number): string | null {
  return dev.d.addresses.find((a) => a.ifIndex === ifIndex)?.ip ?? null
}

/** Operational speed in bits per second, null when the device does not say. */
export function speedOf(i: Iface): number | null {
  return i.speedBps && i.speedBps > 0 ? i.speedBps : null
}

export function* interfaceRows(net: Network): Generator<Row> {
  for (const dev of net.devices) {
    for (const i of dev.d.interfaces) {
      const name = shortName(i.name)
      const speed = speedOf(i)
      yield {
        sn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.siteName,
        loginIp: dev.d.address,
        id: `${dev.sn}/${name}`,
        intName: name,
        nameOriginal: i.name,
        dscr: i.alias,
        ...states(i),
        errDisabled: null,
        speed: formatSpeed(speed),
        speedValue: speed,
        speedType: null,
        duplex: i.duplex,
        media: i.type !== null && VIRTUAL.has(i.type) ? 'virtual' : null,
        mtu: i.mtu,
        mac: i.mac,
        primaryIp: primaryIp(dev, i.index),
        hasTransceiver: null,
        transceiverType: null,
      }
    }
  }
}
