/** Rows of inventory/sites: counts per site of what was discovered there. */
import { intToIp, parseCidr } from '../../../../shared/ipv4.js'
import type { Row } from '../../../simulator/index.js'
import type { Network } from '../assemble.js'
import { hostsOf } from './hosts.js'

export function* siteRows(net: Network): Generator<Row> {
  const hosts = [...hostsOf(net).values()]
  const names = [...new Set(net.devices.map((d) => d.siteName))].sort()
  for (const [i, siteName] of names.entries()) {
    const devices = net.devices.filter((d) => d.siteName === siteName)
    const networks = new Set(devices.flatMap((d) => d.d.addresses.map((a) => `${intToIp(parseCidr(`${a.ip}/${a.prefix}`).base)}/${a.prefix}`)))
    const vlans = new Set(devices.flatMap((d) => (d.d.bridge?.vlans ?? []).map((v) => v.id)))
    yield {
      id: `s${i}`,
      siteName,
      devicesCount: devices.length,
      routersCount: devices.filter((d) => d.devType === 'router').length,
      switchesCount: devices.filter((d) => d.devType === 'switch' || d.devType === 'l3switch').length,
      networksCount: networks.size,
      usersCount: hosts.filter((h) => h.siteName === siteName).length,
      vlanCount: vlans.size,
    }
  }
}
