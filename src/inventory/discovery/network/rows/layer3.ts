/** Rows of addressing/arp (IP-MIB ARP cache) and networks/routes (IP-FORWARD-MIB). */
import type { Row } from '../../../simulator/index.js'
import { ifName, type Network } from '../assemble.js'
import { shortName } from '../ifname.js'

export function* arpRows(net: Network): Generator<Row> {
  for (const dev of net.devices) {
    const seen = new Set<string>()
    for (const e of dev.d.arp) {
      if (e.type === 'local' || seen.has(e.ip)) continue
      seen.add(e.ip)
      const name = ifName(dev, e.ifIndex)
      yield {
        sn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.siteName,
        id: `${dev.sn}//${e.ip}`,
        intName: name === null ? null : shortName(name),
        ip: e.ip,
        mac: e.mac,
        vlanId: null,
        vrf: '',
        proxy: null,
        vendor: null,
      }
    }
  }
}

export function* routeRows(net: Network): Generator<Row> {
  for (const dev of net.devices) {
    const byNetwork = new Map<string, (typeof dev.d.routes)[number][]>()
    for (const r of dev.d.routes) {
      const key = `${r.dest}/${r.prefix}`
      byNetwork.set(key, [...(byNetwork.get(key) ?? []), r])
    }
    for (const [network, hops] of byNetwork) {
      const nexthop = hops.map((h) => {
        const name = ifName(dev, h.ifIndex)
        const hop = { ip: h.nextHop, intName: name === null ? null : shortName(name), ad: null, metric: h.metric, vrfLeak: null }
        return h.discard ? { ...hop, type: h.discard } : hop
      })
      yield {
        sn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.siteName,
        id: `${dev.sn}//${network}`,
        vrf: '',
        network,
        prefix: hops[0]!.prefix,
        protocol: hops.find((h) => h.protocol !== null)?.protocol ?? null,
        nexthop,
        nhCount: nexthop.length,
      }
    }
  }
}
