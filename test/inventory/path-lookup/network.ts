/**
 * A small hand-made network as a netinv-snapshot file (docs/snapshot-format.md), for path
 * lookups whose every answer is known:
 *
 *   h1 10.1.1.10 ── r1 ─┬─ r2 ─┬─ r4 ── sw1 ── h2 10.2.2.10
 *                       └─ r3 ─┘
 *   r1 also: 10.9.0.0/16 blackhole, 10.7.0.0/16 to r2 (which sends it back: a loop),
 *   10.5.0.0/16 via 10.0.15.2 behind an unmanaged neighbour (recursive next hop),
 *   10.6.0.0/16 via 10.0.16.2 (answers ARP, no device of the snapshot), nothing for 172.16/12.
 *   r4 has no ARP entry for 10.2.2.20; r4 returns to h1 through r2 only.
 *
 * The same network runs IPv6 (HOSTS6): a /64 on each host LAN and on the links but r2–r4, which
 * has link-local addresses only (r2 routes over r4's fe80::4, found by the LLDP neighbour on the
 * port). r1: 2001:db8:2::/64 over r2 and r3, 2001:db8:2::99/128 a blackhole inside it, ::/0 to
 * r2 (which has no default: no route). r4 has no neighbour entry for 2001:db8:2::20.
 */
import { snapshotFileOf, type Row } from '../../helpers/snapshot-file.js'

const MAC = {
  h1: '0050.5600.0001', h2: '0050.5600.0002', r1g0: '0c00.0001.0000', r1g1: '0c00.0001.0001', r1g2: '0c00.0001.0002',
  r2g0: '0c00.0002.0000', r2g1: '0c00.0002.0001', r3g0: '0c00.0003.0000', r3g1: '0c00.0003.0001',
  r4g0: '0c00.0004.0000', r4g1: '0c00.0004.0001', r4g2: '0c00.0004.0002', pe: '0c00.00ff.0000', other: '0c00.00ee.0000',
}
export const HOSTS = { h1: '10.1.1.10', h2: '10.2.2.10' }
export const HOSTS6 = { h1: '2001:db8:1::10', h2: '2001:db8:2::10' }

const dev = (sn: string, devType: string): Row => ({ id: sn, sn, hostname: sn.toUpperCase(), siteName: sn === 'r1' ? 'SITE-A' : 'SITE-B', devType })
const devices = [dev('r1', 'router'), dev('r2', 'router'), dev('r3', 'router'), dev('r4', 'router'), dev('sw1', 'switch')]
const site = (sn: string) => (sn === 'r1' ? 'SITE-A' : 'SITE-B')

const addr = (sn: string, intName: string, ip: string, prefix: number, mac: string): Row => {
  const parts = ip.split('.').map(Number)
  const n = ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0
  const b = (n & mask) >>> 0
  const net = `${[b >>> 24, (b >>> 16) & 255, (b >>> 8) & 255, b & 255].join('.')}/${prefix}`
  return { id: `${sn}/${intName}/${ip}`, sn, hostname: sn.toUpperCase(), siteName: site(sn), intName, ip, net, mac, vrf: '', type: 'primary', stateL1: 'up', stateL2: 'up' }
}
const managed = [
  addr('r1', 'Gi0/0', '10.1.1.1', 24, MAC.r1g0), addr('r1', 'Gi0/1', '10.0.12.1', 30, MAC.r1g1), addr('r1', 'Gi0/2', '10.0.13.1', 30, MAC.r1g2),
  addr('r1', 'Gi0/3', '10.0.15.1', 30, '0c00.0001.0003'), addr('r1', 'Gi0/4', '10.0.16.1', 30, '0c00.0001.0004'),
  addr('r2', 'Gi0/0', '10.0.12.2', 30, MAC.r2g0), addr('r2', 'Gi0/1', '10.0.24.1', 30, MAC.r2g1),
  addr('r3', 'Gi0/0', '10.0.13.2', 30, MAC.r3g0), addr('r3', 'Gi0/1', '10.0.34.1', 30, MAC.r3g1),
  addr('r4', 'Gi0/0', '10.2.2.1', 24, MAC.r4g0), addr('r4', 'Gi0/1', '10.0.24.2', 30, MAC.r4g1), addr('r4', 'Gi0/2', '10.0.34.2', 30, MAC.r4g2),
  addr('r4', 'Lo0', '10.0.0.4', 32, MAC.r4g0),
]
const addr6 = (sn: string, intName: string, ip: string, net: string, mac: string): Row => ({
  id: `${sn}/${intName}/${ip}`, sn, hostname: sn.toUpperCase(), siteName: site(sn), intName, ip, net, mac, vrf: '', type: 'primary', stateL1: 'up', stateL2: 'up',
})
const managed6 = [
  addr6('r1', 'Gi0/0', '2001:db8:1::1', '2001:db8:1::/64', MAC.r1g0), addr6('r1', 'Gi0/1', '2001:db8:12::1', '2001:db8:12::/64', MAC.r1g1),
  addr6('r1', 'Gi0/2', '2001:db8:13::1', '2001:db8:13::/64', MAC.r1g2), addr6('r2', 'Gi0/0', '2001:db8:12::2', '2001:db8:12::/64', MAC.r2g0),
  addr6('r3', 'Gi0/0', '2001:db8:13::2', '2001:db8:13::/64', MAC.r3g0), addr6('r3', 'Gi0/1', '2001:db8:34::1', '2001:db8:34::/64', MAC.r3g1),
  addr6('r4', 'Gi0/0', '2001:db8:2::1', '2001:db8:2::/64', MAC.r4g0), addr6('r4', 'Gi0/2', '2001:db8:34::2', '2001:db8:34::/64', MAC.r4g2),
]

const hop = (ip: string | null, intName: string | null, extra: Row = {}) => ({ ip, intName, ad: 1, metric: 0, vrfLeak: null, ...extra })
const route = (sn: string, network: string, protocol: string, nexthop: Row[]): Row => ({
  id: `${sn}//${network}`, sn, hostname: sn.toUpperCase(), siteName: site(sn), vrf: '', network, prefix: Number(network.split('/')[1]), protocol, nexthop, nhCount: nexthop.length,
})
const connected = managed.filter((a) => !String(a.net).endsWith('/32')).map((a) => route(String(a.sn), String(a.net), 'connected', [hop(null, String(a.intName))]))
const routes = [
  ...connected,
  route('r1', '10.2.2.0/24', 'ospf', [hop('10.0.12.2', 'Gi0/1'), hop('10.0.13.2', 'Gi0/2')]),
  route('r1', '10.0.0.4/32', 'ospf', [hop('10.0.12.2', 'Gi0/1')]),
  route('r1', '10.9.0.0/16', 'static', [hop(null, null, { type: 'blackhole' })]),
  route('r1', '10.7.0.0/16', 'static', [hop('10.0.12.2', 'Gi0/1')]),
  route('r1', '10.5.0.0/16', 'bgp', [hop('10.0.15.2', null)]),
  route('r1', '10.6.0.0/16', 'static', [hop('10.0.16.2', 'Gi0/4')]),
  route('r2', '10.2.2.0/24', 'ospf', [hop('10.0.24.2', 'Gi0/1')]),
  route('r2', '10.0.0.4/32', 'ospf', [hop('10.0.24.2', 'Gi0/1')]),
  route('r2', '10.7.0.0/16', 'static', [hop('10.0.12.1', 'Gi0/0')]),
  route('r2', '10.1.1.0/24', 'ospf', [hop('10.0.12.1', 'Gi0/0')]),
  route('r3', '10.2.2.0/24', 'ospf', [hop('10.0.34.2', 'Gi0/1')]),
  route('r3', '10.1.1.0/24', 'ospf', [hop('10.0.13.1', 'Gi0/0')]),
  route('r4', '10.1.1.0/24', 'ospf', [hop('10.0.24.1', 'Gi0/1')]),
]
const routes6 = [
  ...managed6.map((a) => route(String(a.sn), String(a.net), 'connected', [hop(null, String(a.intName))])),
  route('r1', '2001:db8:2::/64', 'ospfv3', [hop('2001:db8:12::2', 'Gi0/1'), hop('2001:db8:13::2', 'Gi0/2')]),
  route('r1', '2001:db8:2::99/128', 'static', [hop(null, null, { type: 'blackhole' })]),
  route('r1', '::/0', 'static', [hop('2001:db8:12::2', 'Gi0/1')]),
  route('r2', '2001:db8:2::/64', 'ospfv3', [hop('fe80::4', 'Gi0/1')]),
  route('r2', '2001:db8:1::/64', 'ospfv3', [hop('2001:db8:12::1', 'Gi0/0')]),
  route('r3', '2001:db8:2::/64', 'ospfv3', [hop('2001:db8:34::2', 'Gi0/1')]),
  route('r3', '2001:db8:1::/64', 'ospfv3', [hop('2001:db8:13::1', 'Gi0/0')]),
  route('r4', '2001:db8:1::/64', 'ospfv3', [hop('2001:db8:34::1', 'Gi0/2')]),
]

const arpRow = (sn: string, intName: string, ip: string, mac: string): Row => ({ id: `${sn}//${ip}`, sn, hostname: sn.toUpperCase(), siteName: site(sn), intName, ip, mac, vrf: '', proxy: false })
const arp = [
  arpRow('r1', 'Gi0/0', HOSTS.h1, MAC.h1), arpRow('r1', 'Gi0/1', '10.0.12.2', MAC.r2g0), arpRow('r1', 'Gi0/2', '10.0.13.2', MAC.r3g0),
  arpRow('r1', 'Gi0/3', '10.0.15.2', MAC.pe), arpRow('r1', 'Gi0/4', '10.0.16.2', MAC.other),
  arpRow('r2', 'Gi0/0', '10.0.12.1', MAC.r1g1), arpRow('r2', 'Gi0/1', '10.0.24.2', MAC.r4g1),
  arpRow('r3', 'Gi0/0', '10.0.13.1', MAC.r1g2), arpRow('r3', 'Gi0/1', '10.0.34.2', MAC.r4g2),
  arpRow('r4', 'Gi0/0', HOSTS.h2, MAC.h2), arpRow('r4', 'Gi0/1', '10.0.24.1', MAC.r2g1),
  arpRow('r1', 'Gi0/0', HOSTS6.h1, MAC.h1), arpRow('r1', 'Gi0/1', '2001:db8:12::2', MAC.r2g0), arpRow('r1', 'Gi0/2', '2001:db8:13::2', MAC.r3g0),
  arpRow('r2', 'Gi0/0', '2001:db8:12::1', MAC.r1g1), arpRow('r3', 'Gi0/1', '2001:db8:34::2', MAC.r4g2), arpRow('r3', 'Gi0/0', '2001:db8:13::1', MAC.r1g2), arpRow('r4', 'Gi0/2', '2001:db8:34::1', MAC.r3g1),
  arpRow('r4', 'Gi0/0', HOSTS6.h2, MAC.h2),
]
const mac = [
  { id: 'sw1/10/h2', sn: 'sw1', hostname: 'SW1', siteName: 'SITE-B', intName: 'Gi1/2', mac: MAC.h2, vlan: 10, edge: true, type: 'dynamic', source: 'forwarding' },
  { id: 'sw1/10/r4', sn: 'sw1', hostname: 'SW1', siteName: 'SITE-B', intName: 'Gi1/24', mac: MAC.r4g0, vlan: 10, edge: false, type: 'dynamic', source: 'forwarding' },
]
const neighbors = [
  { id: 'r4-sw1', localSn: 'r4', localHost: 'R4', localInt: 'Gi0/0', remoteSn: 'sw1', remoteHost: 'SW1', remoteInt: 'Gi1/24', siteName: 'SITE-B' },
  { id: 'sw1-r4', localSn: 'sw1', localHost: 'SW1', localInt: 'Gi1/24', remoteSn: 'r4', remoteHost: 'R4', remoteInt: 'Gi0/0', siteName: 'SITE-B' },
  { id: 'r2-r4', localSn: 'r2', localHost: 'R2', localInt: 'Gi0/1', remoteSn: 'r4', remoteHost: 'R4', remoteInt: 'Gi0/1', siteName: 'SITE-B' },
  { id: 'r4-r2', localSn: 'r4', localHost: 'R4', localInt: 'Gi0/1', remoteSn: 'r2', remoteHost: 'R2', remoteInt: 'Gi0/1', siteName: 'SITE-B' },
]
const unmanaged = [{ id: 'r1-pe', localSn: 'r1', localHost: 'R1', localInt: 'Gi0/3', siteName: 'SITE-A', remoteName: 'isp-pe1', remoteInt: 'xe-0/0/1', protocol: 'lldp', capabilities: ['router'] }]
const hosts = [
  { id: 'h1', ip: HOSTS.h1, mac: MAC.h1, vlan: null, vrf: '', siteName: 'SITE-A', edges: [], gateways: [{ sn: 'r1', hostname: 'R1', intName: 'Gi0/0', ip: '10.1.1.1' }], type: 'workstation' },
  { id: 'h2', ip: HOSTS.h2, mac: MAC.h2, vlan: 10, vrf: '', siteName: 'SITE-B', edges: [{ sn: 'sw1', hostname: 'SW1', intName: 'Gi1/2' }], gateways: [{ sn: 'r4', hostname: 'R4', intName: 'Gi0/0', ip: '10.2.2.1' }], type: 'server' },
]

/** The network as a snapshot file; `change` edits the tables first (the broken variants). */
export function snapshotFile(change: (tables: Record<string, Row[]>) => void = () => {}): string {
  const tables: Record<string, Row[]> = {
    'inventory/devices': devices, 'addressing/managed-devs': [...managed, ...managed6], 'networks/routes': routes, 'networks/ipv6-routes': routes6, 'addressing/arp': arp, 'addressing/mac': mac,
    'neighbors/all': neighbors, 'neighbors/unmanaged': unmanaged, 'addressing/hosts': hosts,
  }
  change(tables)
  return snapshotFileOf('path lookup', tables, devices.length)
}
