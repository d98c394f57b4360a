/**
 * Rows of routing/protocols/ospf-v3/neighbors: OSPFV3-MIB ospfv3NbrTable, the local interface
 * by the row's ifIndex, area and cost from ospfv3IfTable, the neighbour's cost from its router
 * LSA (the link it names by the interface id the neighbour gave its end), the neighbour's
 * hostname when a discovered device has its router id.
 */
import type { Row } from '../../../simulator/index.js'
import { ifName, type Device, type Network } from '../assemble.js'
import { shortName } from '../ifname.js'

export function* ospfv3Rows(net: Network): Generator<Row> {
  const byRouterId = new Map<string, Device>()
  for (const dev of net.devices) if (dev.d.ospfv3.routerId !== null && !byRouterId.has(dev.d.ospfv3.routerId)) byRouterId.set(dev.d.ospfv3.routerId, dev)
  for (const dev of net.devices) {
    const { neighbors, interfaces, linkCosts } = dev.d.ospfv3
    for (const n of neighbors) {
      const mine = interfaces.find((x) => x.ifIndex === n.ifIndex && x.instanceId === n.instanceId)
      const peer = byRouterId.get(n.routerId) ?? null
      const name = ifName(dev, n.ifIndex)
      const advertised = n.neighborIfId === null ? undefined : (linkCosts.get(`${n.routerId}/${n.neighborIfId}`) ?? peer?.d.ospfv3.linkCosts.get(`${n.routerId}/${n.neighborIfId}`))
      yield {
        sn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.siteName,
        id: `${dev.sn}//${n.ifIndex}.${n.instanceId}.${n.routerId}`,
        vrf: '',
        area: mine?.area ?? null,
        intName: name === null ? null : shortName(name),
        instanceId: n.instanceId,
        neiRouterId: n.routerId,
        neiIp: n.address,
        neiHostname: peer?.hostname ?? null,
        state: n.state,
        // OSPFV3-MIB counts state changes (ospfv3NbrEvents), not the time in the state
        currStateTime: null,
        localCost: mine?.cost ?? null,
        neiCost: advertised ?? null,
      }
    }
  }
}
