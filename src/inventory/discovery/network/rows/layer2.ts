/** Rows of addressing/mac (BRIDGE-MIB / Q-BRIDGE-MIB forwarding tables) and vlan/device (Q-BRIDGE-MIB). */
import type { Row } from '../../../simulator/index.js'
import { ifName, type Device, type Network } from '../assemble.js'
import { shortName } from '../ifname.js'
import { fdbIfIndex } from '../model.js'
import { stpDomain } from './stp.js'
import { ouiVendor } from '../oui.js'

/** Interfaces of a device that have an LLDP or CDP neighbour (links to network devices, not edge ports). */
export function linkInterfaces(dev: Device): Set<number> {
  const out = new Set<number>()
  for (const r of dev.d.lldp?.remotes ?? []) {
    const port = dev.d.lldp?.ports.get(r.localPort)
    const i = dev.d.interfaces.find((x) => x.name === port?.id || (x.descr !== null && x.descr === port?.descr)) ?? dev.ifByIndex.get(r.localPort)
    if (i) out.add(i.index)
  }
  for (const c of dev.d.cdp) out.add(c.ifIndex)
  return out
}

export function* macRows(net: Network): Generator<Row> {
  for (const dev of net.devices) {
    const bridge = dev.d.bridge
    if (!bridge) continue
    const links = linkInterfaces(dev)
    for (const e of bridge.fdb) {
      const ifIndex = fdbIfIndex(bridge, e) ?? null
      const name = ifName(dev, ifIndex)
      yield {
        sn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.siteName,
        id: `${dev.sn}/${e.vlan ?? ''}/${e.mac}`,
        intName: name === null ? null : shortName(name),
        mac: e.mac,
        vlan: e.vlan,
        edge: ifIndex === null ? null : !links.has(ifIndex),
        user: null,
        vendor: ouiVendor(e.mac),
        type: e.status === 'other' ? null : e.status,
        source: 'forwarding',
      }
    }
  }
}

export function* vlanRows(net: Network): Generator<Row> {
  for (const dev of net.devices) {
    for (const v of dev.d.bridge?.vlans ?? []) {
      yield { sn: dev.sn, hostname: dev.hostname, siteName: dev.siteName, id: `${dev.sn}/${v.id}`, vlanId: v.id, vlanName: v.name, status: v.status, stpDomain: stpDomain(dev) }
    }
  }
}
