/**
 * Rows of networks/ipv6-routes and routing/protocols/ospf-v3/neighbors. The core of every site runs dual stack: the site holds
 * 2001:db8:<site>::/48, each VLAN with an SVI a /64 (group 4 = the VLAN id in hex), loopbacks
 * 2001:db8:<site>:ffff::<n>/128. Routers and distribution switches mirror their IPv4 tables:
 * OSPFv3 over the same links (link-local next hops), BGP towards the provider, a static default
 * on the distribution switches.
 */
import type { SimDevice, SimNetwork, SimSite } from '../network.js'
import type { SimInterface, SiteModel } from '../model.js'
import { TAG, ipString } from '../prng.js'
import { ebgpState, OSPF_LINK_COST, OSPF_LOOPBACK_COST, OSPF_SVI_COST, ospfLink, stateTime } from './layer3.js'
import { deviceFields, type Row } from './common.js'

/** 10.0.0.0 as a 32-bit integer: sites hold 10.x.y.0/20 blocks from it. */
const SITE_BLOCKS = (10 << 24) >>> 0

const sitePrefix = (index: number) => `2001:db8:${index.toString(16)}`
const loopback = (dev: SimDevice) => `${sitePrefix(dev.site.index)}:ffff::${(dev.local + 1).toString(16)}`
/** The /64 of a WAN circuit, from its provider-side IPv4 address. */
const circuit = (peIp: number) => `2001:db8:ffff:${((peIp >>> 2) & 0xffff).toString(16)}`
/** Link-local addresses on the router–distribution links: the router is ::1, the switch ::2. */
const linkLocal = (dev: SimDevice) => (dev.role === 'router' ? 'fe80::1' : 'fe80::2')

interface Hop {
  ip: string | null
  intName: string | null
  ad: number
  metric: number
  vrfLeak: null
}

export function* ipv6RouteRows(net: SimNetwork, model: SiteModel): Generator<Row> {
  const site: SimSite = model.site
  for (const dev of model.devices) {
    if (dev.role !== 'router' && dev.role !== 'dist') continue
    const route = (network: string, protocol: string, nexthop: Hop[]): Row => ({
      id: `${dev.sn}//${network}`,
      ...deviceFields(dev),
      vrf: '',
      network,
      prefix: Number(network.split('/')[1]),
      protocol,
      nexthop,
      nhCount: nexthop.length,
    })
    const hop = (ip: string | null, intName: string | null, ad: number, metric: number): Hop => ({ ip, intName, ad, metric, vrfLeak: null })
    const own = model.interfaces.get(dev)!
    const lo = own.find((i) => i.kind === 'loopback')
    if (lo) yield route(`${loopback(dev)}/128`, 'connected', [hop(null, lo.name, 0, 0)])
    const svis = own.filter((i): i is SimInterface & { vlan: number } => i.kind === 'svi' && i.vlan !== null && i.ip !== null)
    for (const svi of svis) {
      const net64 = `${sitePrefix(site.index)}:${svi.vlan.toString(16)}::`
      yield route(`${net64}/64`, 'connected', [hop(null, svi.name, 0, 0)])
      yield route(`${net64}${(1 + dev.ordinal).toString(16)}/128`, 'local', [hop(null, svi.name, 0, 0)])
    }
    const link = ospfLink(model, dev)
    const peer = link?.peer?.dev
    if (link && peer) {
      const via = (metric: number) => [hop(linkLocal(peer), link.name, 110, metric)]
      yield route(`${loopback(peer)}/128`, 'ospfv3', via(OSPF_LINK_COST + OSPF_LOOPBACK_COST))
      if (dev.role === 'dist') yield route('::/0', 'static', [hop(linkLocal(peer), link.name, 1, 0)])
      else for (const v of model.vlans) if (v.net !== null) yield route(`${sitePrefix(site.index)}:${v.id.toString(16)}::/64`, 'ospfv3', via(OSPF_LINK_COST + OSPF_SVI_COST))
    }
    const wan = model.wan.get(dev)
    if (!wan) continue
    const c = circuit(wan.peIp)
    yield route(`${c}::/64`, 'connected', [hop(null, wan.port.name, 0, 0)])
    yield route(`${c}::2/128`, 'local', [hop(null, wan.port.name, 0, 0)])
    if (ebgpState(net, dev) !== 'established') continue
    const pe = [hop(`${c}::1`, wan.port.name, 20, 0)]
    yield route('::/0', 'bgp', pe)
    for (const agg of model.remoteAggregates) yield route(`${sitePrefix((agg - SITE_BLOCKS) / 4096)}::/48`, 'bgp', pe)
  }
}

/** The OSPFv3 adjacencies the OSPFv3 routes above go through: instance 0, area 0, router ids the IPv4 loopbacks (as OSPFv2's). */
export function* ospfv3Rows(net: SimNetwork, model: SiteModel): Generator<Row> {
  const { seed, generation } = net.settings
  for (const dev of model.devices) {
    if (dev.role !== 'router' && dev.role !== 'dist') continue
    const link = ospfLink(model, dev)
    const peer = link?.peer?.dev
    if (!link || !peer) continue
    const routerId = model.interfaces.get(peer)!.find((i) => i.kind === 'loopback')?.ip ?? null
    const pair = [seed, TAG.neighbors, Math.min(dev.index, peer.index), Math.max(dev.index, peer.index), generation, 6]
    yield {
      id: `${dev.sn}//${link.name}/0/${linkLocal(peer)}`,
      ...deviceFields(dev),
      vrf: '',
      area: '0.0.0.0',
      intName: link.name,
      instanceId: 0,
      neiRouterId: routerId === null ? null : ipString(routerId),
      neiIp: linkLocal(peer),
      neiHostname: peer.hostname,
      state: 'full',
      currStateTime: stateTime(true, ...pair),
      localCost: OSPF_LINK_COST,
      neiCost: OSPF_LINK_COST,
    }
  }
}
