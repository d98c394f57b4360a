/** Rows of neighbors/all, vlan/device and addressing/mac. */
import { TAG, ipString, unit } from '../prng.js'
import { mgmtIp } from '../site.js'
import { FIRST_DATA_VLAN, MGMT_VLAN, type SimInterface, type SimVlan, type SiteModel } from '../model.js'
import type { SimNetwork } from '../network.js'
import { isSwitch, macVendor, type Row } from './common.js'

/** Share of access-layer ports (access switch uplinks, access point ports) not sending CDP/LLDP in a discovery. */
const SILENT_PORT = 0.03

/**
 * Whether a port sends CDP/LLDP in this discovery. Now and then an access switch uplink or an
 * access point port does not (transmission turned off, or the neighbour's entry aged out), so the
 * other end does not see the link: neighbors/unidirectional lists those.
 */
export function advertises(net: SimNetwork, port: SimInterface): boolean {
  const role = port.dev.role
  if (role !== 'ap' && !(role === 'access' && port.kind === 'uplink')) return true
  return unit(net.settings.seed, TAG.neighbors, port.dev.index, port.slot, net.settings.generation) >= SILENT_PORT
}

export function* neighborRows(net: SimNetwork, model: SiteModel): Generator<Row> {
  for (const dev of model.devices) {
    for (const i of model.interfaces.get(dev)!) {
      const peer = i.peer
      if (!peer || !advertises(net, peer)) continue
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

/** A few switches carry a data VLAN shut down locally or suspended (never the management VLAN). */
function vlanStatus(seed: number, device: number, vlan: SimVlan): string {
  if (vlan.id < FIRST_DATA_VLAN || vlan.id >= MGMT_VLAN) return 'active'
  const u = unit(seed, TAG.extra, device, vlan.id, 11)
  return u < 0.02 ? 'suspend' : u < 0.05 ? 'act/lshut' : 'active'
}

/** A few switches were configured without VLAN names: the switch shows its default VLAN0123. */
function vlanName(seed: number, device: number, vlan: SimVlan): string {
  if (vlan.id === 1 || unit(seed, TAG.extra, device, 12) >= 0.06) return vlan.name
  return `VLAN${String(vlan.id).padStart(4, '0')}`
}

export function* vlanRows(net: SimNetwork, model: SiteModel): Generator<Row> {
  const { seed } = net.settings
  for (const dev of model.devices) {
    if (!isSwitch(dev)) continue
    for (const v of model.vlans) {
      yield { sn: dev.sn, hostname: dev.hostname, siteName: dev.site.name, id: `${dev.sn}/${v.id}`, vlanId: v.id, vlanName: vlanName(seed, dev.index, v), status: vlanStatus(seed, dev.index, v), stpDomain: `${dev.site.code}-stp1` }
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
        const below = model.interfaces.get(peer.dev)!
        const mgmt = below.find((x) => x.kind === 'svi')
        if (mgmt) yield entry(i.name, mgmt.mac, MGMT_VLAN, false)
        // the end hosts behind the access switch, learned on the downlink towards it (the SVIs route their VLANs)
        for (const x of below) if (x.host) yield entry(i.name, x.host.mac, x.host.vlan, false)
      }
    }
  }
}
