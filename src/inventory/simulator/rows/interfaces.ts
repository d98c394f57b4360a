/** Rows of inventory/interfaces, interfaces/switchports and addressing/managed-devs. */
import { ipString, networkString } from '../prng.js'
import { mgmtIp } from '../site.js'
import { FIRST_DATA_VLAN, MGMT_VLAN, VOICE_VLAN, type SimInterface, type SiteModel } from '../model.js'
import type { SimNetwork } from '../network.js'
import { dynamicMacsPerPort, formatSpeed, isSwitch, type Row } from './common.js'
import { macRows } from './layer2.js'

export function* interfaceRows(_net: SimNetwork, model: SiteModel): Generator<Row> {
  for (const dev of model.devices) {
    const loginIp = ipString(mgmtIp(dev))
    for (const i of model.interfaces.get(dev)!) {
      yield {
        sn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.site.name,
        loginIp,
        id: `${dev.sn}/${i.name}`,
        intName: i.name,
        nameOriginal: i.original,
        dscr: i.dscr,
        l1: i.l1,
        l2: i.l2,
        reason: i.reason,
        errDisabled: i.errDisabled,
        speed: formatSpeed(i.speedValue),
        speedValue: i.speedValue,
        speedType: i.speedValue === null ? null : i.kind === 'port' && dev.role === 'access' ? 'auto' : 'fixed',
        duplex: i.duplex,
        media: i.media,
        mtu: i.mtu,
        mac: i.mac,
        primaryIp: i.ip === null ? null : ipString(i.ip),
        hasTransceiver: i.transceiver !== null,
        transceiverType: i.transceiver,
      }
    }
  }
}

export function* switchportRows(net: SimNetwork, model: SiteModel): Generator<Row> {
  // the site's MAC table rows learned dynamically, per switch port (as addressing/mac holds them)
  const learned = dynamicMacsPerPort(macRows(net, model), 'hostname')
  const dataVlans = model.vlans.filter((v) => v.id >= FIRST_DATA_VLAN && v.id < MGMT_VLAN).length
  const trunkVlan = `1,${FIRST_DATA_VLAN}-${FIRST_DATA_VLAN + dataVlans - 1},${MGMT_VLAN},${VOICE_VLAN}`
  for (const dev of model.devices) {
    if (!isSwitch(dev)) continue
    for (const i of model.interfaces.get(dev)!) {
      if (i.mode === null) continue
      const trunk = i.mode === 'trunk'
      yield {
        sn: dev.sn, hostname: dev.hostname, siteName: dev.site.name,
        id: `${dev.sn}/${i.name}`,
        intName: i.name,
        dscr: i.dscr,
        mode: i.mode,
        accVlan: trunk ? null : i.accVlan,
        nativeVlan: trunk ? 1 : null,
        trunkVlan: trunk ? trunkVlan : null,
        voiceVlan: trunk ? null : i.voiceVlan,
        dynamicMacCount: learned.get(`${dev.hostname}|${i.name}`) ?? 0,
      }
    }
  }
}

/** The distribution switch that is the active gateway (HSRP/VRRP) of a VLAN. */
export function activeGatewayOrdinal(vlan: number): number {
  return vlan % 2 === 0 ? 1 : 2
}

/** The FHRP virtual address of a distribution switch's SVI: the first address of the VLAN. */
export function virtualIp(svi: SimInterface): number {
  return svi.ip! - svi.dev.ordinal
}

export function* managedDevRows(_net: SimNetwork, model: SiteModel): Generator<Row> {
  for (const dev of model.devices) {
    for (const i of model.interfaces.get(dev)!) {
      if (i.ip === null || i.prefix === null) continue
      const base = {
        sn: dev.sn, hostname: dev.hostname, siteName: dev.site.name,
        intName: i.name,
        net: networkString(i.ip, i.prefix),
        mac: i.mac,
        vlanId: i.kind === 'svi' ? i.vlan : null,
        vrf: i.vrf,
        stateL1: i.l1,
        stateL2: i.l2,
      }
      yield { ...base, id: `${dev.sn}/${i.name}/${ipString(i.ip)}`, ip: ipString(i.ip), type: 'primary', dnsName: i.kind === 'loopback' ? `${dev.hostname}.${dev.site.domain}` : null }
      if (i.kind === 'svi' && dev.role === 'dist' && i.vlan !== null && activeGatewayOrdinal(i.vlan) === dev.ordinal) {
        const vip = virtualIp(i)
        yield { ...base, id: `${dev.sn}/${i.name}/${ipString(vip)}`, ip: ipString(vip), type: 'virtual', dnsName: `gw-vlan${i.vlan}.${dev.site.domain}` }
      }
    }
  }
}
