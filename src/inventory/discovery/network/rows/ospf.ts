/**
 * Rows of routing/protocols/ospf/neighbors: OSPF-MIB ospfNbrTable, the local interface found by
 * the subnet the neighbour address lies in, area from ospfIfTable, costs from the router LSAs
 * (else ospfIfMetricTable): the neighbour's as it advertises it, or as it says itself when it is
 * a discovered device.
 */
import { inNetwork, ipToInt, parseCidr } from '../../../../shared/ipv4.js'
import type { Row } from '../../../simulator/index.js'
import { ifName, type Device, type Network } from '../assemble.js'
import { shortName } from '../ifname.js'

/** The device's own address in the same network as `ip`. */
function localAddress(dev: Device, ip: string): { ip: string; ifIndex: number } | null {
  const n = ipToInt(ip)
  const a = dev.d.addresses.find((x) => inNetwork(n, parseCidr(`${x.ip}/${x.prefix}`)))
  return a ? { ip: a.ip, ifIndex: a.ifIndex } : null
}

export function* ospfRows(net: Network): Generator<Row> {
  for (const dev of net.devices) {
    for (const n of dev.d.ospf.neighbors) {
      const local = localAddress(dev, n.ip)
      const mine = local ? dev.d.ospf.interfaces.find((x) => x.ip === local.ip) : undefined
      const peer = net.byAddress.get(n.ip) ?? null
      const name = local ? ifName(dev, local.ifIndex) : null
      yield {
        sn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.siteName,
        id: `${dev.sn}//${n.ip}`,
        vrf: '',
        area: mine?.area ?? null,
        intName: name === null ? null : shortName(name),
        localIp: local?.ip ?? null,
        neiRouterId: n.routerId,
        neiIp: n.ip,
        neiHostname: peer?.hostname ?? null,
        state: n.state,
        // OSPF-MIB counts state changes, not the time in the state
        currStateTime: null,
        localCost: mine?.cost ?? null,
        neiCost: peer?.d.ospf.interfaces.find((x) => x.ip === n.ip)?.cost ?? dev.d.ospf.linkCosts.get(n.ip) ?? null,
      }
    }
  }
}
