/** Rows of addressing/arp, networks/routes, routing/protocols/bgp/neighbors and addressing/hosts. */
import { TAG, between, ipString, networkString, pick, unit } from '../prng.js'
import type { SimDevice, SimNetwork } from '../network.js'
import { MGMT_VLAN, type SimHost, type SimInterface, type SiteModel } from '../model.js'
import { activeGatewayOrdinal } from './interfaces.js'
import { isL3, macVendor, type Row } from './common.js'

const PROVIDER_AS = [3356, 1299, 174, 2914, 6762] as const

/** Autonomous system of the provider of a site's WAN circuits. */
export const providerAs = (dev: SimDevice) => PROVIDER_AS[dev.site.index % PROVIDER_AS.length]!
/** Share of provider sessions down at a discovery, and of sessions that changed state within the hour. */
const EBGP_DOWN = 0.06
/** Share of sessions between a site's routers down at a discovery (both ends agree). */
const IBGP_DOWN = 0.06
const RECENT_CHANGE = 0.05

/**
 * Seconds since a session last changed state: a session that is down has been trying for
 * minutes to hours; an established one mostly for days to months, a few within the last hour.
 */
export function stateTime(established: boolean, ...parts: number[]): number {
  if (!established) return between(30, 6 * 3600, ...parts, 1)
  return unit(...parts, 2) < RECENT_CHANGE ? between(60, 3500, ...parts, 3) : between(3600, 90 * 86400, ...parts, 4)
}

/** State of a router's session to its provider in this discovery (a few are down). */
export function ebgpState(net: SimNetwork, dev: SimDevice): string {
  const { seed, generation } = net.settings
  return unit(seed, TAG.bgp, dev.index, generation) < EBGP_DOWN ? pick(['idle', 'active', 'connect'], seed, TAG.bgp, dev.index, generation, 1) : 'established'
}

const localAs = (dev: SimDevice) => 4200000000 + dev.site.index

/** OSPF cost of the links between routers and distribution switches, and of stub interfaces (SVIs, loopbacks). */
export const OSPF_LINK_COST = 10
export const OSPF_SVI_COST = 10
export const OSPF_LOOPBACK_COST = 1

/**
 * The OSPF adjacency of a router or distribution switch: its routed link to the counterpart of
 * the same ordinal (router n and distribution switch n); undefined for other roles.
 */
export function ospfLink(model: SiteModel, dev: SimDevice): SimInterface | undefined {
  const role = dev.role === 'router' ? 'dist' : dev.role === 'dist' ? 'router' : undefined
  const other = role && model.devices.find((d) => d.role === role && d.ordinal === dev.ordinal)
  if (!other) return undefined
  return model.interfaces.get(dev)!.find((i) => i.peer?.dev === other && i.peer.ip !== null)
}

export function* arpRows(_net: SimNetwork, model: SiteModel): Generator<Row> {
  const byGateway = new Map<SimInterface, SimHost[]>()
  for (const h of model.hosts) {
    const list = byGateway.get(h.gateway)
    if (list) list.push(h)
    else byGateway.set(h.gateway, [h])
  }
  for (const dev of model.devices) {
    if (!isL3(dev)) continue
    const entry = (intf: SimInterface, ip: number, mac: string, vlanId: number | null): Row => ({
      sn: dev.sn, hostname: dev.hostname, siteName: dev.site.name,
      id: `${dev.sn}/${intf.vrf}/${ipString(ip)}`,
      intName: intf.name,
      ip: ipString(ip),
      mac,
      vlanId,
      vrf: intf.vrf,
      proxy: false,
      vendor: macVendor(mac),
    })
    for (const i of model.interfaces.get(dev)!) {
      if (i.ip === null || i.l1 !== 'up' || i.l2 !== 'up') continue
      if (i.peer && i.peer.ip !== null) yield entry(i, i.peer.ip, i.peer.mac, null)
      if (i.kind !== 'svi' || i.vlan === null || activeGatewayOrdinal(i.vlan) !== dev.ordinal) continue
      for (const h of byGateway.get(i) ?? []) yield entry(i, h.ip, h.mac, i.vlan)
      if (i.vlan !== MGMT_VLAN) continue
      for (const other of model.devices) {
        // management addresses of access switches (their SVI) and access points (their port)
        if (other.role !== 'access' && other.role !== 'ap') continue
        const list = model.interfaces.get(other)!
        const mgmt = other.role === 'ap' ? list[0] : list.find((x) => x.kind === 'svi')
        if (mgmt && mgmt.ip !== null) yield entry(i, mgmt.ip, mgmt.mac, i.vlan)
      }
    }
  }
}

interface NextHop {
  ip: string | null
  intName: string | null
  ad: number
  metric: number
  vrfLeak: string | null
}

export function* routeRows(net: SimNetwork, model: SiteModel): Generator<Row> {
  for (const dev of model.devices) {
    if (!isL3(dev)) continue
    const route = (vrf: string, network: string, protocol: string, nexthop: NextHop[]): Row => ({
      sn: dev.sn, hostname: dev.hostname, siteName: dev.site.name,
      id: `${dev.sn}/${vrf}/${network}`,
      vrf,
      network,
      prefix: Number(network.split('/')[1]),
      protocol,
      nexthop,
      nhCount: nexthop.length,
    })
    const hop = (ip: number | null, intName: string | null, ad: number, metric: number): NextHop => ({ ip: ip === null ? null : ipString(ip), intName, ad, metric, vrfLeak: null })
    const own = model.interfaces.get(dev)!
    for (const i of own) {
      if (i.ip === null || i.prefix === null || i.l1 !== 'up' || i.l2 !== 'up') continue
      yield route(i.vrf, networkString(i.ip, i.prefix), 'connected', [hop(null, i.name, 0, 0)])
      if (i.prefix < 32) yield route(i.vrf, `${ipString(i.ip)}/32`, 'local', [hop(null, i.name, 0, 0)])
    }
    const viaOspf = OSPF_LINK_COST
    if (dev.role === 'router') {
      const link = ospfLink(model, dev)
      if (link) {
        for (const v of model.vlans) if (v.net !== null) yield route('', networkString(v.net, 24), 'ospf', [hop(link.peer!.ip, link.name, 110, viaOspf + OSPF_SVI_COST)])
        const lo = model.interfaces.get(link.peer!.dev)!.find((x) => x.kind === 'loopback')
        if (lo?.ip != null) yield route('', `${ipString(lo.ip)}/32`, 'ospf', [hop(link.peer!.ip, link.name, 110, viaOspf + OSPF_LOOPBACK_COST)])
      }
      const wan = model.wan.get(dev)
      if (wan && ebgpState(net, dev) === 'established') {
        yield route('', '0.0.0.0/0', 'bgp', [hop(wan.peIp, wan.port.name, 20, 0)])
        for (const agg of model.remoteAggregates) yield route('', networkString(agg, 20), 'bgp', [hop(wan.peIp, wan.port.name, 20, 0)])
      }
    } else if (dev.role === 'dist') {
      const link = ospfLink(model, dev)
      if (link) {
        yield route('', '0.0.0.0/0', 'static', [hop(link.peer!.ip, link.name, 1, 0)])
        const lo = model.interfaces.get(link.peer!.dev)!.find((x) => x.kind === 'loopback')
        if (lo?.ip != null) yield route('', `${ipString(lo.ip)}/32`, 'ospf', [hop(link.peer!.ip, link.name, 110, viaOspf + OSPF_LOOPBACK_COST)])
      }
    } else {
      const links = own.filter((i) => i.peer?.dev.role === 'dist' && i.peer.ip !== null)
      if (links.length > 0) yield route('', '0.0.0.0/0', 'static', links.map((l) => hop(l.peer!.ip, l.name, 1, 0)))
    }
  }
}

export function* bgpRows(net: SimNetwork, model: SiteModel): Generator<Row> {
  const { seed, generation } = net.settings
  const routers = model.devices.filter((d) => d.role === 'router')
  for (const dev of routers) {
    const wan = model.wan.get(dev)!
    const state = ebgpState(net, dev)
    yield {
      sn: dev.sn, hostname: dev.hostname, siteName: dev.site.name,
      id: `${dev.sn}//${ipString(wan.peIp)}`,
      vrf: '',
      localAs: localAs(dev),
      localAddress: ipString(wan.port.ip!),
      neiHostname: null,
      neiAddress: ipString(wan.peIp),
      neiAs: providerAs(dev),
      state,
      currStateTime: stateTime(state === 'established', seed, TAG.bgp, dev.index, generation, 2),
      totalReceivedPrefixes: state === 'established' ? model.remoteAggregates.length + 1 : 0,
    }
    for (const other of routers) {
      if (other === dev) continue
      const mine = model.interfaces.get(dev)!.find((i) => i.kind === 'loopback')!
      const theirs = model.interfaces.get(other)!.find((i) => i.kind === 'loopback')!
      const pair = [seed, TAG.bgp, Math.min(dev.index, other.index), Math.max(dev.index, other.index), generation]
      const pairState = unit(...pair, 5) < IBGP_DOWN ? pick(['active', 'connect'], ...pair, 6) : 'established'
      yield {
        sn: dev.sn, hostname: dev.hostname, siteName: dev.site.name,
        id: `${dev.sn}//${ipString(theirs.ip!)}`,
        vrf: '',
        localAs: localAs(dev),
        localAddress: ipString(mine.ip!),
        neiHostname: other.hostname,
        neiAddress: ipString(theirs.ip!),
        neiAs: localAs(other),
        state: pairState,
        currStateTime: stateTime(pairState === 'established', ...pair),
        totalReceivedPrefixes: pairState === 'established' && ebgpState(net, other) === 'established' ? model.remoteAggregates.length + 1 : 0,
      }
    }
  }
}

export function* hostRows(_net: SimNetwork, model: SiteModel): Generator<Row> {
  for (const h of model.hosts) {
    const ip = ipString(h.ip)
    yield {
      id: ip,
      ip,
      mac: h.mac,
      vlan: h.vlan,
      vrf: '',
      dnsName: `${h.type}-${ip.split('.').slice(2).join('-')}.${model.site.domain}`,
      siteName: model.site.name,
      edges: [{ sn: h.port.dev.sn, hostname: h.port.dev.hostname, intName: h.port.name }],
      gateways: [{ sn: h.gateway.dev.sn, hostname: h.gateway.dev.hostname, intName: h.gateway.name, ip: ipString(h.gateway.ip!) }],
      type: h.type,
      vendor: h.vendor,
    }
  }
}
