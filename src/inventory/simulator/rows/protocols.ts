/**
 * Rows of the control-plane tables: OSPF adjacencies (the links the OSPF routes of
 * networks/routes go through), FHRP groups (the virtual addresses of addressing/managed-devs),
 * spanning-tree bridges and port-channels.
 */
import { TAG, ipString, unit } from '../prng.js'
import type { SimDevice, SimNetwork } from '../network.js'
import type { SimInterface, SiteModel } from '../model.js'
import { activeGatewayOrdinal, virtualIp } from './interfaces.js'
import { OSPF_LINK_COST, ospfLink, stateTime } from './layer3.js'
import { deviceFields, isSwitch, type Row } from './common.js'

/** Sites where the active FHRP gateways kept the default priority (100) instead of a raised one. */
const DEFAULT_PRIORITY = 0.05

const loopbackIp = (model: SiteModel, dev: SimDevice) => model.interfaces.get(dev)!.find((i) => i.kind === 'loopback')?.ip ?? null

export function* ospfRows(net: SimNetwork, model: SiteModel): Generator<Row> {
  const { seed, generation } = net.settings
  for (const dev of model.devices) {
    const link = ospfLink(model, dev)
    if (!link) continue
    const peer = link.peer!
    const routerId = loopbackIp(model, peer.dev)
    const pair = [seed, TAG.neighbors, Math.min(dev.index, peer.dev.index), Math.max(dev.index, peer.dev.index), generation]
    yield {
      id: `${dev.sn}//${link.name}/${ipString(peer.ip!)}`,
      ...deviceFields(dev),
      vrf: '',
      area: '0.0.0.0',
      intName: link.name,
      localIp: ipString(link.ip!),
      neiRouterId: routerId === null ? null : ipString(routerId),
      neiIp: ipString(peer.ip!),
      neiHostname: peer.dev.hostname,
      state: 'full',
      currStateTime: stateTime(true, ...pair),
      localCost: OSPF_LINK_COST,
      neiCost: OSPF_LINK_COST,
    }
  }
}

export function* fhrpRows(net: SimNetwork, model: SiteModel): Generator<Row> {
  const defaultPriority = unit(net.settings.seed, TAG.extra, model.site.index, 41) < DEFAULT_PRIORITY
  for (const dev of model.devices) {
    if (dev.role !== 'dist') continue
    const protocol = dev.platform.vendor === 'cisco' ? 'hsrp' : 'vrrp'
    for (const svi of model.interfaces.get(dev)!) {
      if (svi.kind !== 'svi' || svi.vlan === null || svi.ip === null) continue
      const active = activeGatewayOrdinal(svi.vlan) === dev.ordinal
      yield {
        id: `${dev.sn}/${svi.name}/${svi.vlan}`,
        ...deviceFields(dev),
        intName: svi.name,
        vlanId: svi.vlan,
        protocol,
        groupId: svi.vlan,
        virtualIp: ipString(virtualIp(svi)),
        state: active ? 'active' : 'standby',
        priority: active ? (defaultPriority ? 100 : 110) : defaultPriority ? 90 : 100,
        preempt: true,
      }
    }
  }
}

const STP_MODE: Readonly<Record<string, string>> = { cisco: 'rpvst', juniper: 'rstp', arista: 'mstp', aruba: 'mstp' }

/** The spanning-tree mode a simulated switch runs. */
export function stpMode(dev: SimDevice): string {
  // the older Catalyst 2960-X image still runs per-VLAN spanning tree
  return dev.platform.platform === 'c2960x' ? 'pvst' : (STP_MODE[dev.platform.vendor] ?? 'rstp')
}

/** "4096.001e.7a00.0400": priority and MAC address in dotted-hex groups. */
function bridgeId(priority: number, mac: string): string {
  const hex = mac.replace(/:/g, '')
  return `${priority}.${hex.slice(0, 4)}.${hex.slice(4, 8)}.${hex.slice(8)}`
}

/** Bridge priority: the first distribution switch is the root, the second the backup root. */
export const stpPriority = (dev: SimDevice): number => (dev.role === 'dist' ? (dev.ordinal === 1 ? 4096 : 8192) : 32768)

/** A switch's bridge id: its priority and the MAC address of its first interface. */
export const stpBridgeId = (model: SiteModel, dev: SimDevice): string => bridgeId(stpPriority(dev), model.interfaces.get(dev)![0]!.mac)

/** The root bridge of a site: its first distribution switch, when it answered. */
export const stpRoot = (model: SiteModel): SimDevice | undefined => model.devices.find((d) => d.role === 'dist' && d.ordinal === 1)

export function* stpRows(_net: SimNetwork, model: SiteModel): Generator<Row> {
  const root = stpRoot(model)
  for (const dev of model.devices) {
    if (!isSwitch(dev)) continue
    yield {
      id: dev.sn,
      ...deviceFields(dev),
      stpDomain: `${dev.site.code}-stp1`,
      mode: stpMode(dev),
      priority: stpPriority(dev),
      bridgeId: stpBridgeId(model, dev),
      rootId: stpBridgeId(model, root ?? dev),
      isRoot: root === dev,
    }
  }
}

export function* portChannelRows(_net: SimNetwork, model: SiteModel): Generator<Row> {
  for (const dev of model.devices) {
    const list = model.interfaces.get(dev)!
    for (const po of list) {
      if (po.kind !== 'lag') continue
      const members = list.filter((i) => i.lag === po).map((i: SimInterface) => ({ intName: i.name, state: i.l1 === 'up' && i.l2 === 'up' ? 'bundled' : 'down' }))
      yield {
        id: `${dev.sn}/${po.name}`,
        ...deviceFields(dev),
        intName: po.name,
        dscr: po.dscr,
        protocol: 'lacp',
        members,
        memberCount: members.length,
        bundledCount: members.filter((m) => m.state === 'bundled').length,
      }
    }
  }
}
