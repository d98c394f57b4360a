/**
 * Rows of addressing/hosts: addresses in the ARP caches of discovered devices that belong to no
 * discovered device, with the devices that route for them (gateways) and the switch ports their
 * MAC address was learned on (edges). IPv4 only: an IPv6 neighbour is a row of addressing/arp,
 * not a host here (a host's IPv6 addresses change by themselves, privacy addresses among them).
 * Hosts of a VRF are apart from the global table's (the VRF of the interface they were learnt on).
 */
import { inNetwork, ipToInt, parseCidr } from '../../../../shared/ipv4.js'
import type { Row } from '../../../simulator/index.js'
import { ifName, type Device, type Network } from '../assemble.js'
import { shortName } from '../ifname.js'
import { fdbIfIndex } from '../model.js'
import { linkInterfaces } from './layer2.js'
import { ouiVendor } from '../oui.js'

interface Host {
  vrf: string
  ip: string
  mac: string
  siteName: string
  gateways: Array<{ sn: string; hostname: string; intName: string | null; ip: string | null }>
}

/** The device's own address on the interface, in the same network as `ip`. */
function gatewayIp(dev: Device, ifIndex: number, ip: string): string | null {
  const n = ipToInt(ip)
  return dev.d.addresses.find((a) => a.ifIndex === ifIndex && inNetwork(n, parseCidr(`${a.ip}/${a.prefix}`)))?.ip ?? null
}

export function hostsOf(net: Network): Map<string, Host> {
  const hosts = new Map<string, Host>()
  for (const dev of net.devices) {
    for (const e of dev.d.arp) {
      if (e.type === 'local' || e.ip.includes(':') || net.byAddress.has(e.ip)) continue
      const vrf = dev.d.vrfs.get(e.ifIndex) ?? ''
      const key = `${vrf}/${e.ip}`
      const host = hosts.get(key) ?? { vrf, ip: e.ip, mac: e.mac, siteName: dev.siteName, gateways: [] }
      // MAC and site as the device of the lowest serial sees them, whatever the crawl's order
      if (host.gateways.length > 0 && host.gateways.every((g) => dev.sn < g.sn)) Object.assign(host, { mac: e.mac, siteName: dev.siteName })
      const name = ifName(dev, e.ifIndex)
      host.gateways.push({ sn: dev.sn, hostname: dev.hostname, intName: name === null ? null : shortName(name), ip: gatewayIp(dev, e.ifIndex, e.ip) })
      hosts.set(key, host)
    }
  }
  // in an order of their own, not the order the crawl happened to collect the devices in
  for (const h of hosts.values()) h.gateways.sort((a, b) => byDevicePort(a, b) || (a.ip ?? '').localeCompare(b.ip ?? ''))
  return hosts
}

function byDevicePort(a: { sn: string; intName: string | null }, b: { sn: string; intName: string | null }): number {
  return a.sn.localeCompare(b.sn) || (a.intName ?? '').localeCompare(b.intName ?? '')
}

export function* hostRows(net: Network): Generator<Row> {
  const edges = new Map<string, Array<{ sn: string; hostname: string; intName: string | null; vlan: number | null }>>()
  for (const dev of net.devices) {
    const bridge = dev.d.bridge
    if (!bridge) continue
    const links = linkInterfaces(dev)
    for (const e of bridge.fdb) {
      const ifIndex = fdbIfIndex(bridge, e)
      if (ifIndex === undefined || links.has(ifIndex)) continue
      const name = ifName(dev, ifIndex)
      edges.set(e.mac, [...(edges.get(e.mac) ?? []), { sn: dev.sn, hostname: dev.hostname, intName: name === null ? null : shortName(name), vlan: e.vlan }])
    }
  }
  for (const h of hostsOf(net).values()) {
    const at = edges.get(h.mac) ?? []
    yield {
      id: h.vrf === '' ? h.ip : `${h.vrf}/${h.ip}`,
      ip: h.ip,
      mac: h.mac,
      vlan: at.find((x) => x.vlan !== null)?.vlan ?? null,
      vrf: h.vrf,
      dnsName: null,
      siteName: h.siteName,
      edges: at.map(({ sn, hostname, intName }) => ({ sn, hostname, intName })).sort(byDevicePort),
      gateways: h.gateways,
      type: null,
      vendor: ouiVendor(h.mac),
    }
  }
}
