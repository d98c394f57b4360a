/** Rows of addressing/managed-devs: the IPv4 addresses of IP-MIB ipAddrTable and the IPv6 ones of ipAddressTable, with their interface. */
import { intToIp, parseCidr } from '../../../../shared/ipv4.js'
import type { Row } from '../../../simulator/index.js'
import type { Network } from '../assemble.js'
import { shortName } from '../ifname.js'
import { states } from './interfaces.js'

export function* managedDevRows(net: Network): Generator<Row> {
  for (const dev of net.devices) {
    const seen = new Set<number>()
    for (const a of dev.d.addresses) {
      const i = dev.ifByIndex.get(a.ifIndex)
      const name = i ? shortName(i.name) : String(a.ifIndex)
      const s = i ? states(i) : null
      yield {
        sn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.siteName,
        id: `${dev.sn}/${name}/${a.ip}`,
        intName: name,
        ip: a.ip,
        net: `${intToIp(parseCidr(`${a.ip}/${a.prefix}`).base)}/${a.prefix}`,
        mac: i?.mac ?? null,
        vlanId: null,
        vrf: '',
        type: seen.has(a.ifIndex) ? 'secondary' : 'primary',
        stateL1: s?.l1 ?? null,
        stateL2: s?.l2 ?? null,
        dnsName: null,
      }
      seen.add(a.ifIndex)
    }
    for (const a of dev.d.addresses6) {
      const i = dev.ifByIndex.get(a.ifIndex)
      const name = i ? shortName(i.name) : String(a.ifIndex)
      const s = i ? states(i) : null
      yield {
        sn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.siteName,
        id: `${dev.sn}/${name}/${a.ip}`,
        intName: name,
        ip: a.ip,
        net: a.net,
        mac: i?.mac ?? null,
        vlanId: null,
        vrf: '',
        // an interface's IPv6 addresses are equals: none is primary or secondary
        type: null,
        stateL1: s?.l1 ?? null,
        stateL2: s?.l2 ?? null,
        dnsName: null,
      }
    }
  }
}
