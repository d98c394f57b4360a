/** Rows of neighbors/all, vlan/device and addressing/mac. */
import { ipString } from '../prng.js'
import { mgmtIp } from '../site.js'
import { FIRST_DATA_VLAN, MGMT_VLAN, type SiteModel } from '../model.js'
import type { SimNetwork } from '../network.js'
import { isSwitch, macVendor, type Row } from './common.js'

export function* neighborRows(_net: SimNetwork, model: SiteModel): Generator<Row> {
  for (const dev of model.devices) {
    for (const i of model.interfaces.get(dev)!) {
      const peer = i.peer
      if (!peer) continue
      yield {
        id: `${dev.sn}/${i.name}`,
        localSn: dev.sn,
        localHost: dev.hostname,
        localInt: i.name,
        remoteSn: peer.dev.sn,
        remoteHost: peer.dev.hostname,
        remoteInt: peer.name,
        remoteIp: ipString(mgmtIp(peer.dev)),
        protocols: dev.platform.vendor === 'cisco' && peer.dev.platform.vendor === 'cisco' ? ['cdp', 'lldp'] : ['lldp'],
        siteName: dev.site.name,
      }
    }
  }
}

export function* vlanRows(_net: SimNetwork, model: SiteModel): Generator<Row> {
  for (const dev of model.devices) {
    if (!isSwitch(dev)) continue
    for (const v of model.vlans) {
      yield { sn: dev.sn, hostname: dev.hostname, siteName: dev.site.name, id: `${dev.sn}/${v.id}`, vlanId: v.id, vlanName: v.name, status: 'active', stpDomain: `${dev.site.code}-stp1` }
    }
  }
}

export function* macRows(_net: SimNetwork, model: SiteModel): Generator<Row> {
  for (const dev of model.devices) {
    if (!isSwitch(dev)) continue
    const entry = (intName: string, mac: string, vlan: number, edge: boolean, user: string | null = null): Row => ({
      sn: dev.sn, hostname: dev.hostname, siteName: dev.site.name,
      id: `${dev.sn}/${vlan}/${mac}`,
      intName,
      mac,
      vlan,
      edge,
      user,
      vendor: macVendor(mac),
      type: 'dynamic',
      source: 'forwarding',
    })
    for (const i of model.interfaces.get(dev)!) {
      if (i.host) yield entry(i.name, i.host.mac, i.host.vlan, true, i.host.user)
      const peer = i.peer
      if (!peer) continue
      if (peer.dev.role === 'ap') yield entry(i.name, peer.mac, MGMT_VLAN, true)
      if (dev.role === 'access' && peer.dev.role === 'dist') {
        // gateway MACs of the distribution switch, learned on the uplink towards it
        for (const svi of model.interfaces.get(peer.dev)!) {
          if (svi.kind === 'svi' && svi.vlan !== null && svi.vlan >= FIRST_DATA_VLAN) yield entry(i.name, svi.mac, svi.vlan, false)
        }
      }
      if (dev.role === 'dist' && peer.dev.role === 'access') {
        const mgmt = model.interfaces.get(peer.dev)!.find((x) => x.kind === 'svi')
        if (mgmt) yield entry(i.name, mgmt.mac, MGMT_VLAN, false)
      }
    }
  }
}
