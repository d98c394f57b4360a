/**
 * Rows of fhrp/group-state: each VRRP and HSRP group of each interface with the local state,
 * priority and preemption (mibs/fhrp.ts). `vlanId` is null: no standard MIB ties a routed VLAN
 * interface to its VLAN, and its name is not read for one.
 */
import type { Row } from '../../../simulator/index.js'
import { ifName, type Network } from '../assemble.js'
import { shortName } from '../ifname.js'

export function* fhrpRows(net: Network): Generator<Row> {
  for (const dev of net.devices) {
    for (const g of dev.d.fhrp) {
      const name = ifName(dev, g.ifIndex)
      const intName = name === null ? String(g.ifIndex) : shortName(name)
      // VRRPv3 runs a group of each address family: an IPv6 group may share its number with an IPv4 one
      const family = g.virtualIp?.includes(':') ? '/ipv6' : ''
      yield {
        sn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.siteName,
        id: `${dev.sn}/${intName}/${g.protocol}/${g.groupId}${family}`,
        intName,
        vlanId: null,
        protocol: g.protocol,
        groupId: g.groupId,
        virtualIp: g.virtualIp,
        state: g.state,
        priority: g.priority,
        preempt: g.preempt,
      }
    }
  }
}
