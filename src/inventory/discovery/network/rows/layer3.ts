/**
 * Rows of addressing/arp (IP-MIB ARP cache and IPv6 neighbours), networks/routes and
 * networks/ipv6-routes (IP-FORWARD-MIB, and MPLS-L3VPN-STD-MIB for the VRFs' tables).
 */
import type { Row } from '../../../simulator/index.js'
import { ifName, type Network } from '../assemble.js'
import { shortName } from '../ifname.js'
import { ouiVendor } from '../oui.js'

export function* arpRows(net: Network): Generator<Row> {
  for (const dev of net.devices) {
    const seen = new Set<string>()
    for (const e of dev.d.arp) {
      const vrf = dev.d.vrfs.get(e.ifIndex) ?? ''
      if (e.type === 'local' || seen.has(`${vrf}/${e.ip}`)) continue
      seen.add(`${vrf}/${e.ip}`)
      const name = ifName(dev, e.ifIndex)
      yield {
        sn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.siteName,
        id: `${dev.sn}/${vrf}/${e.ip}`,
        intName: name === null ? null : shortName(name),
        ip: e.ip,
        mac: e.mac,
        vlanId: null,
        vrf,
        proxy: null,
        vendor: ouiVendor(e.mac),
      }
    }
  }
}

/** A route's protocol as the catalog names it: OSPF routes of the IPv6 table are OSPFv3's (IP-MIB has one code for both). */
function familyProtocol(protocol: string | null, family: 4 | 6): string | null {
  return family === 6 && protocol === 'ospf' ? 'ospfv3' : protocol
}

/** Routes of one address family, one row per VRF and destination with every next hop. */
function* familyRoutes(net: Network, family: 4 | 6): Generator<Row> {
  for (const dev of net.devices) {
    const byNetwork = new Map<string, (typeof dev.d.routes)[number][]>()
    for (const r of dev.d.routes) {
      if (r.dest.includes(':') !== (family === 6)) continue
      const key = `${r.vrf}/${r.dest}/${r.prefix}`
      const hops = byNetwork.get(key)
      if (hops) hops.push(r)
      else byNetwork.set(key, [r])
    }
    for (const [key, hops] of byNetwork) {
      const nexthop = hops.map((h) => {
        const name = ifName(dev, h.ifIndex)
        const hop = { ip: h.nextHop, intName: name === null ? null : shortName(name), ad: null, metric: h.metric, vrfLeak: null }
        return h.discard ? { ...hop, type: h.discard } : hop
      })
      const { vrf, dest, prefix } = hops[0]!
      yield {
        sn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.siteName,
        id: `${dev.sn}/${key}`,
        vrf,
        network: `${dest}/${prefix}`,
        prefix,
        protocol: familyProtocol(hops.find((h) => h.protocol !== null)?.protocol ?? null, family),
        nexthop,
        nhCount: nexthop.length,
      }
    }
  }
}

export function routeRows(net: Network): Generator<Row> {
  return familyRoutes(net, 4)
}

export function ipv6RouteRows(net: Network): Generator<Row> {
  return familyRoutes(net, 6)
}
