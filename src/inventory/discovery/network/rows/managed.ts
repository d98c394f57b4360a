/** Rows of addressing/managed-devs: the IPv4 addresses of IP-MIB ipAddrTable and the IPv6 ones of ipAddressTable, with their interface. */
import { intToIp, parseCidr } from '../../../../shared/ipv4.js'
import type { Row } from '../../../simulator/index.js'
import type { Network } from '../assemble.js'
import { shortName } from '../ifname.js'
import { states } from './interfaces.js'

type Device = Network['devices'][number]

/** One address of a device on the interface `ifIndex`; `type`: primary, secondary, or null (IPv6). */
function addressRow(dev: Device, ifIndex: number, ip: string, net: string, type: 'primary' | 'secondary' | null): Row {
  const i = dev.ifByIndex.get(ifIndex)
  const name = i ? shortName(i.name) : String(ifIndex)
  const s = i ? states(i) : null
  return {
    sn: dev.sn,
    hostname: dev.hostname,
    siteName: dev.siteName,
    id: `${dev.sn}/${name}/${ip}`,
    intName: name,
    ip,
    net,
    mac: i?.mac ?? null,
    vlanId: null,
    vrf: dev.d.vrfs.get(ifIndex) ?? '',
    type,
    stateL1: s?.l1 ?? null,
    stateL2: s?.l2 ?? null,
    dnsName: null,
  }
}

export function* managedDevRows(net: Network): Generator<Row> {
  for (const dev of net.devices) {
    const seen = new Set<number>()
    for (const a of dev.d.addresses) {
      yield addressRow(dev, a.ifIndex, a.ip, `${intToIp(parseCidr(`${a.ip}/${a.prefix}`).base)}/${a.prefix}`, seen.has(a.ifIndex) ? 'secondary' : 'primary')
      seen.add(a.ifIndex)
    }
    // an interface's IPv6 addresses are equals: none is primary or secondary
    for (const a of dev.d.addresses6) yield addressRow(dev, a.ifIndex, a.ip, a.net, null)
  }
}
