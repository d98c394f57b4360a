/**
 * A layer 3 device described once, in the terms of its configuration and state (routed
 * interfaces, VRFs, addresses, routes, neighbours, redundancy groups), from which come both the
 * recording an SNMP agent replays (the varbinds of the MIBs the vendor's agent answers: IP-MIB,
 * IP-FORWARD-MIB, MPLS-L3VPN-STD-MIB or ARISTA-VRF-MIB, VRRP-MIB or VRRPv3-MIB, CISCO-HSRP-MIB)
 * and the ground truth the discovered tables are held to.
 */
import { hex, int, oid, str, ticks, gauge, type Varbind } from './snmprec.js'
import { shortName } from '../../../src/inventory/discovery/network/ifname.js'
import { ipv6Bytes } from './switch.js'

export interface RoutedPort {
  ifIndex: number
  name: string
  descr: string
  /** IANAifType (default ethernetCsmacd). */
  type?: number
  oper: 'up' | 'down'
  /** VRF the interface is in; the global table when absent. */
  vrf?: string
}

export type Protocol = 'connected' | 'static' | 'ospf' | 'bgp'

/** A next hop: an address (IPv6 link-local ones with the interface as their zone), an interface, or both; or a discard. */
export type Hop = { ip?: string; port?: string; metric?: number } | { discard: 'blackhole' | 'reject' }

export interface RecordedRoute {
  vrf?: string
  /** "10.20.0.0/16" or "2001:db8:20::/48". */
  network: string
  protocol: Protocol
  hops: Hop[]
}

export interface Neighbour {
  port: string
  ip: string
  mac: string
  /** ipNetToPhysicalType; `local` entries are the device's own and not neighbours. */
  type?: 'dynamic' | 'static' | 'local'
}

export interface FhrpGroup {
  port: string
  protocol: 'vrrp' | 'hsrp'
  group: number
  /** Virtual addresses (VRRP may have several; HSRP one). */
  addresses: string[]
  /** VRRP: initialize, backup, master; HSRP: initial, learn, listen, speak, standby, active. */
  state: 'initialize' | 'backup' | 'master' | 'initial' | 'learn' | 'listen' | 'speak' | 'standby' | 'active'
  priority: number
  preempt: boolean
}

export interface RecordedRouter {
  sysName: string
  sysDescr: string
  sysObjectId: string
  serial: string
  model: string
  manufacturer: string
  baseMac: string
  ports: RoutedPort[]
  /** Where the agent tells VRF membership and per-VRF routes: MPLS-L3VPN-STD-MIB, or ARISTA-VRF-MIB (membership only). */
  vrfMib: 'l3vpn' | 'arista'
  /** IPv4 routes in inetCidrRouteTable (with the IPv6 ones), or in ipCidrRouteTable while inetCidrRouteTable holds only IPv6. */
  ipv4RouteTable: 'inet' | 'cidr'
  /** VRRP groups in VRRPv3-MIB or VRRP-MIB. */
  vrrpMib: 'v3' | 'v2'
  ipv4: Array<{ port: string; address: string; prefix: number }>
  /** IPv6 addresses with their networks; link-local ones too, which discovery leaves out. */
  ipv6: Array<{ port: string; address: string; network: string }>
  routes: RecordedRoute[]
  neighbours: Neighbour[]
  fhrp: FhrpGroup[]
  /**
   * Optics levels as `show interfaces diagnostics optics` shows them, answered in JUNIPER-DOM-MIB
   * (Juniper only): the module's temperature (whole °C) and voltage (V), and per lane, numbered
   * from 0 as Junos does (one entry: a single-lane optic, without lane rows), the laser bias (mA)
   * and the powers (dBm; null: no reading).
   */
  dom?: Array<{ port: string; temperature: number; voltage: number; lanes: Array<{ txBias: number; txPower: number; rxPower: number | null }> }>
}

const IF = '1.3.6.1.2.1.2.2.1'
const IFX = '1.3.6.1.2.1.31.1.1.1'
const ENT = '1.3.6.1.2.1.47.1.1.1.1'
const INET_ROUTE = '1.3.6.1.2.1.4.24.7'
const CIDR_ROUTE = '1.3.6.1.2.1.4.24.4.1'
const L3VPN = '1.3.6.1.2.1.10.166.11.1'
const ETHERNET = 6

/** IANAipRouteProtocol and the inetCidrRouteType of each kind of route. */
const PROTO = { connected: 2, static: 3, ospf: 13, bgp: 14 } as const
const ROUTE_TYPE = { local: 3, remote: 4, reject: 2, blackhole: 5 } as const
const NEIGHBOUR_TYPE = { dynamic: 3, static: 4, local: 5 } as const
const VRRP_STATE = { initialize: 1, backup: 2, master: 3 } as const
const HSRP_STATE = { initial: 1, learn: 2, listen: 3, speak: 4, standby: 5, active: 6 } as const

const v4Bytes = (ip: string) => ip.split('.').map(Number)
const isV6 = (ip: string) => ip.includes(':')
/** An InetAddress as an index: type, length, octets (IPv6 link-local with the zone of its interface: ipv6z). */
function inetIndex(ip: string, zone?: number): number[] {
  if (!isV6(ip)) return [1, 4, ...v4Bytes(ip)]
  if (zone !== undefined) return [4, 20, ...ipv6Bytes(ip), (zone >>> 24) & 0xff, (zone >>> 16) & 0xff, (zone >>> 8) & 0xff, zone & 0xff]
  return [2, 16, ...ipv6Bytes(ip)]
}
const nameIndex = (name: string) => [Buffer.byteLength(name), ...Buffer.from(name)]
const maskOf = (prefix: number) => [0, 1, 2, 3].map((i) => (0xff << (8 - Math.max(0, Math.min(8, prefix - i * 8)))) & 0xff).join('.')
const linkLocal = (ip: string) => /^fe[89ab][0-9a-f]:/i.test(ip)

export function routerVarbinds(r: RecordedRouter): Varbind[] {
  const out: Varbind[] = [
    ['1.3.6.1.2.1.1.1.0', str(r.sysDescr)],
    ['1.3.6.1.2.1.1.2.0', oid(r.sysObjectId)],
    ['1.3.6.1.2.1.1.3.0', ticks(98_765_00)],
    ['1.3.6.1.2.1.1.4.0', str('noc@example.net')],
    ['1.3.6.1.2.1.1.5.0', str(r.sysName)],
    ['1.3.6.1.2.1.1.6.0', str('Frankfurt DC2, row 7')],
    ['1.3.6.1.2.1.4.1.0', int(1)],
  ]
  const port = new Map(r.ports.map((p) => [p.name, p]))
  const ifIndexOf = (name: string) => {
    const p = port.get(name)
    if (!p) throw new Error(`${r.sysName}: no interface ${name}`)
    return p.ifIndex
  }
  for (const [n, p] of r.ports.entries()) {
    const x = `.${p.ifIndex}`
    const mac = r.baseMac.split(':').map((b) => parseInt(b, 16))
    mac[5] = (mac[5]! + n + 1) & 0xff
    out.push(
      [`${IF}.1${x}`, int(p.ifIndex)],
      [`${IF}.2${x}`, str(p.descr)],
      [`${IF}.3${x}`, int(p.type ?? ETHERNET)],
      [`${IF}.4${x}`, int(1500)],
      [`${IF}.5${x}`, gauge(p.type === 24 ? 0 : 4_294_967_295)],
      [`${IF}.7${x}`, int(1)],
      [`${IF}.8${x}`, int(p.oper === 'up' ? 1 : 2)],
      [`${IFX}.1${x}`, str(p.name)],
      [`${IFX}.15${x}`, gauge(p.type === 24 ? 0 : 10_000)],
      [`${IFX}.18${x}`, str('')],
    )
    if (p.type !== 24) out.push([`${IF}.6${x}`, hex(mac)])
  }
  // ENTITY-MIB: the chassis, whose serial names the device
  out.push(
    [`${ENT}.2.1`, str(`${r.model} chassis`)],
    [`${ENT}.4.1`, int(0)],
    [`${ENT}.5.1`, int(3)],
    [`${ENT}.7.1`, str('Chassis')],
    [`${ENT}.8.1`, str('')],
    [`${ENT}.11.1`, str(r.serial)],
    [`${ENT}.12.1`, str(r.manufacturer)],
    [`${ENT}.13.1`, str(r.model)],
  )
  // IP-MIB ipAddrTable (IPv4) and ipAddressTable (IPv6, with a pointer to the prefix)
  for (const a of r.ipv4) {
    out.push([`1.3.6.1.2.1.4.20.1.2.${a.address}`, int(ifIndexOf(a.port))], [`1.3.6.1.2.1.4.20.1.3.${a.address}`, { type: 'ip', value: maskOf(a.prefix) }])
  }
  for (const a of r.ipv6) {
    const ifIndex = ifIndexOf(a.port)
    const [net, len] = a.network.split('/')
    const x = `.2.16.${ipv6Bytes(a.address).join('.')}`
    out.push(
      [`1.3.6.1.2.1.4.34.1.3${x}`, int(ifIndex)],
      [`1.3.6.1.2.1.4.34.1.4${x}`, int(1)],
      [`1.3.6.1.2.1.4.34.1.5${x}`, oid(`1.3.6.1.2.1.4.32.1.5.${ifIndex}.2.16.${ipv6Bytes(net!).join('.')}.${len}`)],
    )
  }
  // IP-MIB ipNetToPhysicalTable: ARP entries and IPv6 neighbours
  for (const nb of r.neighbours) {
    const x = `.${ifIndexOf(nb.port)}.${inetIndex(nb.ip).join('.')}`
    out.push([`1.3.6.1.2.1.4.35.1.4${x}`, hex(nb.mac.split(':').map((b) => parseInt(b, 16)))], [`1.3.6.1.2.1.4.35.1.6${x}`, int(NEIGHBOUR_TYPE[nb.type ?? 'dynamic'])])
  }
  // routes: each next hop a row of inetCidrRouteTable (ipCidrRouteTable for IPv4 on an older
  // agent), of mplsL3VpnVrfRteTable for a VRF's routes
  for (const route of r.routes) {
    const [dest, len] = route.network.split('/') as [string, string]
    const prefix = Number(len)
    for (const hop of route.hops) {
      const discard = 'discard' in hop ? hop.discard : null
      const via = 'discard' in hop ? {} : hop
      const ifIndex = via.port ? ifIndexOf(via.port) : 0
      const type = discard ? ROUTE_TYPE[discard] : route.protocol === 'connected' ? ROUTE_TYPE.local : ROUTE_TYPE.remote
      const none = isV6(dest) ? '::' : '0.0.0.0'
      const nextHop = via.ip ?? none
      const metric = via.metric ?? 0
      if (route.vrf === undefined && !isV6(dest) && r.ipv4RouteTable === 'cidr') {
        const x = `.${dest}.${maskOf(prefix)}.0.${nextHop}`
        out.push([`${CIDR_ROUTE}.5${x}`, int(ifIndex)], [`${CIDR_ROUTE}.6${x}`, int(type)], [`${CIDR_ROUTE}.7${x}`, int(PROTO[route.protocol])], [`${CIDR_ROUTE}.11${x}`, int(metric)])
        continue
      }
      const index = [...inetIndex(dest), prefix, 2, 0, 0, ...inetIndex(nextHop, linkLocal(nextHop) ? ifIndex : undefined)]
      const table = route.vrf === undefined ? INET_ROUTE : `${L3VPN}.4.1`
      const x = `.${(route.vrf === undefined ? index : [...nameIndex(route.vrf), ...index]).join('.')}`
      out.push([`${table}.1.7${x}`, int(ifIndex)], [`${table}.1.8${x}`, int(type)], [`${table}.1.9${x}`, int(PROTO[route.protocol])], [`${table}.1.12${x}`, int(metric)])
    }
  }
  // VRFs: MPLS-L3VPN-STD-MIB (the VRFs, their interfaces) or ARISTA-VRF-MIB (every routed interface's VRF, "default" for the global table)
  const vrfs = [...new Set(r.ports.flatMap((p) => (p.vrf ? [p.vrf] : [])))]
  if (r.vrfMib === 'l3vpn') {
    for (const v of vrfs) out.push([`${L3VPN}.2.2.1.6.${nameIndex(v).join('.')}`, int(1)], [`${L3VPN}.2.2.1.3.${nameIndex(v).join('.')}`, str(`customer ${v}`)])
    for (const p of r.ports.filter((x) => x.vrf)) {
      const x = `.${nameIndex(p.vrf!).join('.')}.${p.ifIndex}`
      out.push([`${L3VPN}.2.1.1.2${x}`, int(2)], [`${L3VPN}.2.1.1.5${x}`, int(1)])
    }
  } else {
    const routed = new Set([...r.ipv4, ...r.ipv6].map((a) => a.port))
    for (const p of r.ports.filter((x) => routed.has(x.name))) out.push([`1.3.6.1.4.1.30065.3.18.1.2.1.1.${p.ifIndex}`, str(p.vrf ?? 'default')])
  }
  // first-hop redundancy
  for (const g of r.fhrp) {
    const ifIndex = ifIndexOf(g.port)
    if (g.protocol === 'hsrp') {
      const x = `.${ifIndex}.${g.group}`
      const base = '1.3.6.1.4.1.9.9.106.1.2.1.1'
      out.push(
        [`${base}.3${x}`, gauge(g.priority)],
        [`${base}.4${x}`, int(g.preempt ? 1 : 2)],
        [`${base}.11${x}`, { type: 'ip', value: g.addresses[0]! }],
        [`${base}.15${x}`, int(HSRP_STATE[g.state as keyof typeof HSRP_STATE])],
      )
    } else if (r.vrrpMib === 'v3') {
      const family = isV6(g.addresses[0]!) ? 2 : 1
      const x = `.${ifIndex}.${g.group}.${family}`
      const base = '1.3.6.1.2.1.207.1.1'
      out.push([`${base}.1.1.6${x}`, int(VRRP_STATE[g.state as keyof typeof VRRP_STATE])], [`${base}.1.1.7${x}`, gauge(g.priority)], [`${base}.1.1.10${x}`, int(g.preempt ? 1 : 2)])
      for (const a of g.addresses) out.push([`${base}.2.1.2${x}.${inetIndex(a).slice(1).join('.')}`, int(1)])
    } else {
      const x = `.${ifIndex}.${g.group}`
      const base = '1.3.6.1.2.1.68.1'
      out.push([`${base}.3.1.3${x}`, int(VRRP_STATE[g.state as keyof typeof VRRP_STATE])], [`${base}.3.1.5${x}`, int(g.priority)], [`${base}.3.1.12${x}`, int(g.preempt ? 1 : 2)])
      for (const a of g.addresses) out.push([`${base}.4.1.2${x}.${a}`, int(1)])
    }
  }
  out.push(...domVarbinds(r, ifIndexOf))
  return out
}

const hopText = (h: Hop) => ('discard' in h ? h.discard : `${h.ip ?? null}@${h.port ? shortName(h.port) : null}:${h.metric ?? 0}`)

/** What networks/routes (family 4) or networks/ipv6-routes (6) must hold: "host vrf network protocol [hops]". */
export function routeTruth(r: RecordedRouter, family: 4 | 6): string[] {
  return r.routes
    .filter((x) => isV6(x.network) === (family === 6))
    .map((x) => `${r.sysName} ${x.vrf ?? ''} ${x.network} ${x.hops.some((h) => 'discard' in h) ? 'static' : x.protocol} [${x.hops.map(hopText).sort().join(' ')}]`)
    .sort()
}

/** What addressing/arp must hold: "host vrf port ip mac" (no link-local IPv6 neighbour, no entry of the device's own). */
export function neighbourTruth(r: RecordedRouter): string[] {
  const vrf = new Map(r.ports.map((p) => [p.name, p.vrf ?? '']))
  return r.neighbours
    .filter((n) => n.type !== 'local' && !linkLocal(n.ip))
    .map((n) => `${r.sysName} ${vrf.get(n.port)} ${shortName(n.port)} ${n.ip} ${n.mac}`)
    .sort()
}

/** What addressing/managed-devs must hold: "host port ip vrf" (no link-local IPv6 address). */
export function addressTruth(r: RecordedRouter): string[] {
  const vrf = new Map(r.ports.map((p) => [p.name, p.vrf ?? '']))
  return [...r.ipv4, ...r.ipv6.filter((a) => !linkLocal(a.address) && a.address !== '::1')].map((a) => `${r.sysName} ${shortName(a.port)} ${a.address} ${vrf.get(a.port)}`).sort()
}

/** What vrf/detail must hold: "host vrf interfaces routes" (interfaces with an IPv4 address, IPv4 routes). */
export function vrfTruth(r: RecordedRouter): string[] {
  const vrf = new Map(r.ports.map((p) => [p.name, p.vrf ?? '']))
  const ints = new Map<string, Set<string>>()
  for (const a of r.ipv4) ints.set(vrf.get(a.port)!, (ints.get(vrf.get(a.port)!) ?? new Set()).add(a.port))
  const routes = (v: string) => r.routes.filter((x) => (x.vrf ?? '') === v && !isV6(x.network)).length
  return [...ints].map(([v, ports]) => `${r.sysName} ${v} ${ports.size} ${routes(v)}`).sort()
}

const STATE: Readonly<Record<FhrpGroup['state'], string>> = {
  master: 'active',
  backup: 'standby',
  initialize: 'init',
  active: 'active',
  standby: 'standby',
  listen: 'listen',
  speak: 'null',
  initial: 'init',
  learn: 'init',
}

/** What fhrp/group-state must hold: "host port protocol group virtualIp state priority preempt". */
export function fhrpTruth(r: RecordedRouter): string[] {
  const lowest = (ips: string[]) => [...ips].sort((a, b) => Buffer.compare(Buffer.from(isV6(a) ? ipv6Bytes(a) : v4Bytes(a)), Buffer.from(isV6(b) ? ipv6Bytes(b) : v4Bytes(b))))[0]
  return r.fhrp.map((g) => `${r.sysName} ${shortName(g.port)} ${g.protocol} ${g.group} ${lowest(g.addresses)} ${STATE[g.state]} ${g.priority} ${g.preempt}`).sort()
}

/** An Arista leaf: uplinks to two spines with ECMP over IPv4 and IPv6 (link-local next hops too), two tenant VRFs, VRRPv3 for IPv4 and IPv6, a management VRF. */
export const ARISTA_LEAF: RecordedRouter = {
  sysName: 'fra-leaf1',
  sysDescr: 'Arista Networks EOS version 4.31.2F running on an Arista Networks DCS-7050SX3-48YC8',
  sysObjectId: '1.3.6.1.4.1.30065.1.3011.7050.3741.3.48.1654.8',
  serial: 'JPE21140AB7',
  model: 'DCS-7050SX3-48YC8',
  manufacturer: 'Arista Networks',
  baseMac: '44:4c:a8:10:20:00',
  vrfMib: 'arista',
  ipv4RouteTable: 'inet',
  vrrpMib: 'v3',
  ports: [
    { ifIndex: 1, name: 'Ethernet1', descr: 'Ethernet1', oper: 'up' },
    { ifIndex: 2, name: 'Ethernet2', descr: 'Ethernet2', oper: 'up' },
    { ifIndex: 3, name: 'Ethernet3', descr: 'Ethernet3', oper: 'up', vrf: 'tenant-a' },
    { ifIndex: 999001, name: 'Management1', descr: 'Management1', oper: 'up', vrf: 'MGMT' },
    { ifIndex: 5000, name: 'Loopback0', descr: 'Loopback0', oper: 'up', type: 24 },
    { ifIndex: 100010, name: 'Vlan10', descr: 'Vlan10', oper: 'up', type: 136, vrf: 'tenant-a' },
    { ifIndex: 100020, name: 'Vlan20', descr: 'Vlan20', oper: 'up', type: 136, vrf: 'tenant-b' },
  ],
  ipv4: [
    { port: 'Ethernet1', address: '10.0.1.1', prefix: 31 },
    { port: 'Ethernet2', address: '10.0.2.1', prefix: 31 },
    { port: 'Ethernet3', address: '172.16.0.1', prefix: 30 },
    { port: 'Management1', address: '192.168.100.11', prefix: 24 },
    { port: 'Loopback0', address: '10.255.0.11', prefix: 32 },
    { port: 'Vlan10', address: '10.10.10.2', prefix: 24 },
    { port: 'Vlan20', address: '10.20.20.2', prefix: 24 },
  ],
  ipv6: [
    { port: 'Ethernet1', address: '2001:db8:1::1', network: '2001:db8:1::/64' },
    { port: 'Ethernet1', address: 'fe80::464c:a8ff:fe10:2001', network: 'fe80::/64' },
    { port: 'Ethernet2', address: '2001:db8:2::1', network: '2001:db8:2::/64' },
    { port: 'Loopback0', address: '2001:db8:ff::11', network: '2001:db8:ff::11/128' },
    { port: 'Vlan10', address: '2001:db8:10::2', network: '2001:db8:10::/64' },
  ],
  routes: [
    { network: '10.0.1.0/31', protocol: 'connected', hops: [{ port: 'Ethernet1' }] },
    { network: '10.0.2.0/31', protocol: 'connected', hops: [{ port: 'Ethernet2' }] },
    { network: '10.255.0.11/32', protocol: 'connected', hops: [{ port: 'Loopback0' }] },
    { network: '10.255.0.1/32', protocol: 'bgp', hops: [{ ip: '10.0.1.0', port: 'Ethernet1' }, { ip: '10.0.2.0', port: 'Ethernet2' }] },
    { network: '0.0.0.0/0', protocol: 'bgp', hops: [{ ip: '10.0.1.0', port: 'Ethernet1', metric: 100 }, { ip: '10.0.2.0', port: 'Ethernet2', metric: 100 }] },
    { network: '10.99.0.0/16', protocol: 'static', hops: [{ discard: 'blackhole' }] },
    { network: '2001:db8:1::/64', protocol: 'connected', hops: [{ port: 'Ethernet1' }] },
    { network: '2001:db8:2::/64', protocol: 'connected', hops: [{ port: 'Ethernet2' }] },
    { network: '2001:db8:ff::11/128', protocol: 'connected', hops: [{ port: 'Loopback0' }] },
    { network: '2001:db8:ff::1/128', protocol: 'bgp', hops: [{ ip: 'fe80::1', port: 'Ethernet1' }, { ip: 'fe80::1', port: 'Ethernet2' }] },
    { network: '::/0', protocol: 'bgp', hops: [{ ip: '2001:db8:1::2', port: 'Ethernet1' }, { ip: '2001:db8:2::2', port: 'Ethernet2' }] },
    { network: '2001:db8:dead::/48', protocol: 'static', hops: [{ discard: 'reject' }] },
  ],
  neighbours: [
    { port: 'Ethernet1', ip: '10.0.1.0', mac: '28:99:3a:00:01:01' },
    { port: 'Ethernet2', ip: '10.0.2.0', mac: '28:99:3a:00:02:01' },
    { port: 'Ethernet1', ip: '2001:db8:1::2', mac: '28:99:3a:00:01:01' },
    { port: 'Ethernet2', ip: '2001:db8:2::2', mac: '28:99:3a:00:02:01' },
    { port: 'Ethernet1', ip: 'fe80::1', mac: '28:99:3a:00:01:01' },
    { port: 'Ethernet2', ip: 'fe80::1', mac: '28:99:3a:00:02:01' },
    { port: 'Vlan10', ip: '10.10.10.50', mac: '00:50:56:aa:00:50' },
    { port: 'Vlan10', ip: '2001:db8:10::50', mac: '00:50:56:aa:00:50' },
    { port: 'Vlan10', ip: '10.10.10.2', mac: '44:4c:a8:10:20:06', type: 'local' },
    { port: 'Vlan20', ip: '10.20.20.50', mac: '00:50:56:bb:00:50' },
    { port: 'Ethernet3', ip: '172.16.0.2', mac: '00:1b:17:00:01:02', type: 'static' },
  ],
  fhrp: [
    { port: 'Vlan10', protocol: 'vrrp', group: 10, addresses: ['10.10.10.1'], state: 'master', priority: 110, preempt: true },
    { port: 'Vlan10', protocol: 'vrrp', group: 10, addresses: ['fe80::10', '2001:db8:10::1'], state: 'master', priority: 110, preempt: true },
    { port: 'Vlan20', protocol: 'vrrp', group: 20, addresses: ['10.20.20.1'], state: 'backup', priority: 100, preempt: false },
  ],
}

/**
 * JUNIPER-DOM-MIB: jnxDomCurrentTable of each optic (hundredths of a dBm, microamperes, whole °C,
 * millivolts; the first lane's power and bias for a multi-lane one) and jnxDomModuleLaneTable of
 * each lane of a multi-lane one.
 */
function domVarbinds(r: RecordedRouter, ifIndexOf: (name: string) => number): Varbind[] {
  const out: Varbind[] = []
  const cur = '1.3.6.1.4.1.2636.3.60.1.1.1.1'
  const lane = '1.3.6.1.4.1.2636.3.60.1.2.1.1'
  for (const o of r.dom ?? []) {
    const x = `.${ifIndexOf(o.port)}`
    const first = o.lanes[0]!
    out.push([`${cur}.6${x}`, int(Math.round(first.txBias * 1000))], [`${cur}.7${x}`, int(Math.round(first.txPower * 100))], [`${cur}.8${x}`, int(o.temperature)], [`${cur}.25${x}`, int(Math.round(o.voltage * 1000))])
    if (first.rxPower !== null) out.push([`${cur}.5${x}`, int(Math.round(first.rxPower * 100))])
    if (o.lanes.length === 1) continue
    o.lanes.forEach((l, n) => {
      const y = `${x}.${n}`
      out.push([`${lane}.7${y}`, int(Math.round(l.txBias * 1000))], [`${lane}.8${y}`, int(Math.round(l.txPower * 100))])
      if (l.rxPower !== null) out.push([`${lane}.6${y}`, int(Math.round(l.rxPower * 100))])
    })
  }
  return out
}

/** What interfaces/transceivers/statistics must hold: "host port channel temperature voltage txBias txPower rxPower", a row per lane (numbered as Junos does) of a multi-lane optic. */
export function domTruth(r: RecordedRouter): string[] {
  return (r.dom ?? [])
    .flatMap((o) => o.lanes.map((l, n) => [r.sysName, o.port, o.lanes.length > 1 ? n : null, o.temperature, o.voltage, l.txBias, l.txPower, l.rxPower].map(String).join(' ')))
    .sort()
}

/** A Juniper PE router: two L3VPN routing instances (the same prefix in both, and in the global table), their IPv4 and IPv6 routes with ECMP and a discard, VRRP on an IRB interface. */
export const JUNIPER_PE: RecordedRouter = {
  sysName: 'fra-pe1',
  sysDescr: 'Juniper Networks, Inc. mx204 internet router, kernel JUNOS 22.4R2-S2.6, Build date: 2023-10-05 03:10:21 UTC Copyright (c) 1996-2023 Juniper Networks, Inc.',
  sysObjectId: '1.3.6.1.4.1.2636.1.1.1.2.144',
  serial: 'JN1283A4BAFB',
  model: 'MX204',
  manufacturer: 'Juniper Networks',
  baseMac: '2c:6b:f5:30:40:00',
  vrfMib: 'l3vpn',
  ipv4RouteTable: 'inet',
  vrrpMib: 'v2',
  ports: [
    { ifIndex: 520, name: 'xe-0/1/0', descr: 'xe-0/1/0', oper: 'up' },
    { ifIndex: 521, name: 'xe-0/1/1', descr: 'xe-0/1/1', oper: 'up' },
    { ifIndex: 530, name: 'xe-0/1/0.0', descr: 'xe-0/1/0.0', oper: 'up', type: 53 },
    { ifIndex: 531, name: 'xe-0/1/1.100', descr: 'xe-0/1/1.100', oper: 'up', type: 53, vrf: 'CUST-A' },
    { ifIndex: 532, name: 'xe-0/1/1.200', descr: 'xe-0/1/1.200', oper: 'up', type: 53, vrf: 'CUST-B' },
    { ifIndex: 16, name: 'lo0.0', descr: 'lo0.0', oper: 'up', type: 24 },
    { ifIndex: 33, name: 'lo0.1', descr: 'lo0.1', oper: 'up', type: 24, vrf: 'CUST-A' },
    { ifIndex: 540, name: 'irb.300', descr: 'irb.300', oper: 'up', type: 53 },
    { ifIndex: 650, name: 'et-0/0/0', descr: 'et-0/0/0', oper: 'up' },
  ],
  // an SFP+ on the core uplink and a 100G QSFP28 whose lane 2 receives no light the module can read
  dom: [
    { port: 'xe-0/1/0', temperature: 36, voltage: 3.301, lanes: [{ txBias: 32.864, txPower: -2.31, rxPower: -3.07 }] },
    {
      port: 'et-0/0/0',
      temperature: 41,
      voltage: 3.268,
      lanes: [
        { txBias: 6.75, txPower: 0.52, rxPower: -0.88 },
        { txBias: 6.812, txPower: 0.47, rxPower: -1.02 },
        { txBias: 6.698, txPower: 0.61, rxPower: null },
        { txBias: 6.903, txPower: 0.39, rxPower: -1.35 },
      ],
    },
  ],
  ipv4: [
    { port: 'xe-0/1/0.0', address: '10.1.0.1', prefix: 30 },
    { port: 'xe-0/1/1.100', address: '10.50.0.1', prefix: 30 },
    { port: 'xe-0/1/1.200', address: '10.51.0.1', prefix: 30 },
    { port: 'lo0.0', address: '10.255.1.1', prefix: 32 },
    { port: 'lo0.1', address: '10.77.0.1', prefix: 32 },
    { port: 'irb.300', address: '10.30.0.2', prefix: 24 },
  ],
  ipv6: [
    { port: 'xe-0/1/0.0', address: '2001:db8:100::1', network: '2001:db8:100::/64' },
    { port: 'xe-0/1/1.100', address: '2001:db8:a::1', network: '2001:db8:a::/64' },
    { port: 'lo0.0', address: '::1', network: '::1/128' },
  ],
  routes: [
    { network: '10.1.0.0/30', protocol: 'connected', hops: [{ port: 'xe-0/1/0.0' }] },
    { network: '10.255.1.1/32', protocol: 'connected', hops: [{ port: 'lo0.0' }] },
    { network: '10.30.0.0/24', protocol: 'connected', hops: [{ port: 'irb.300' }] },
    { network: '10.255.1.2/32', protocol: 'ospf', hops: [{ ip: '10.1.0.2', port: 'xe-0/1/0.0', metric: 10 }] },
    { network: '2001:db8:100::/64', protocol: 'connected', hops: [{ port: 'xe-0/1/0.0' }] },
    { network: '::/0', protocol: 'static', hops: [{ ip: '2001:db8:100::2', port: 'xe-0/1/0.0', metric: 5 }] },
    { vrf: 'CUST-A', network: '10.50.0.0/30', protocol: 'connected', hops: [{ port: 'xe-0/1/1.100' }] },
    { vrf: 'CUST-A', network: '10.77.0.1/32', protocol: 'connected', hops: [{ port: 'lo0.1' }] },
    { vrf: 'CUST-A', network: '10.60.0.0/16', protocol: 'bgp', hops: [{ ip: '10.50.0.2', port: 'xe-0/1/1.100' }] },
    { vrf: 'CUST-A', network: '10.61.0.0/16', protocol: 'bgp', hops: [{ ip: '10.50.0.2', port: 'xe-0/1/1.100' }, { ip: '10.255.1.2', port: 'xe-0/1/0.0' }] },
    { vrf: 'CUST-A', network: '2001:db8:a::/64', protocol: 'connected', hops: [{ port: 'xe-0/1/1.100' }] },
    { vrf: 'CUST-A', network: '2001:db8:a0::/48', protocol: 'bgp', hops: [{ ip: '2001:db8:a::2', port: 'xe-0/1/1.100' }] },
    { vrf: 'CUST-B', network: '10.51.0.0/30', protocol: 'connected', hops: [{ port: 'xe-0/1/1.200' }] },
    { vrf: 'CUST-B', network: '10.60.0.0/16', protocol: 'bgp', hops: [{ ip: '10.51.0.2', port: 'xe-0/1/1.200' }] },
    { vrf: 'CUST-B', network: '0.0.0.0/0', protocol: 'static', hops: [{ ip: '10.51.0.2', port: 'xe-0/1/1.200' }] },
    { vrf: 'CUST-B', network: '10.66.0.0/16', protocol: 'static', hops: [{ discard: 'blackhole' }] },
  ],
  neighbours: [
    { port: 'xe-0/1/0.0', ip: '10.1.0.2', mac: '2c:6b:f5:99:00:01' },
    { port: 'xe-0/1/0.0', ip: '2001:db8:100::2', mac: '2c:6b:f5:99:00:01' },
    { port: 'xe-0/1/1.100', ip: '10.50.0.2', mac: '00:0c:29:0a:00:02' },
    { port: 'xe-0/1/1.100', ip: '2001:db8:a::2', mac: '00:0c:29:0a:00:02' },
    { port: 'xe-0/1/1.200', ip: '10.51.0.2', mac: '00:0c:29:0b:00:02' },
    { port: 'irb.300', ip: '10.30.0.3', mac: '2c:6b:f5:31:40:03' },
  ],
  fhrp: [{ port: 'irb.300', protocol: 'vrrp', group: 30, addresses: ['10.30.0.1', '10.30.0.254'], state: 'backup', priority: 90, preempt: true }],
}

/** A Cisco IOS-XE WAN router: IPv4 routes in ipCidrRouteTable (ECMP too), IPv6 ones in inetCidrRouteTable, a guest VRF, HSRP groups in three states. */
export const CISCO_WAN: RecordedRouter = {
  sysName: 'fra-wan1',
  sysDescr: 'Cisco IOS Software [Dublin], ISR Software (X86_64_LINUX_IOSD-UNIVERSALK9-M), Version 17.12.2, RELEASE SOFTWARE (fc2)',
  sysObjectId: '1.3.6.1.4.1.9.1.1707',
  serial: 'FGL2231A0QX',
  model: 'ISR4451-X/K9',
  manufacturer: 'Cisco Systems, Inc.',
  baseMac: '70:ea:1a:50:60:00',
  vrfMib: 'l3vpn',
  ipv4RouteTable: 'cidr',
  vrrpMib: 'v2',
  ports: [
    { ifIndex: 1, name: 'Gi0/0/0', descr: 'GigabitEthernet0/0/0', oper: 'up' },
    { ifIndex: 2, name: 'Gi0/0/1', descr: 'GigabitEthernet0/0/1', oper: 'up' },
    { ifIndex: 3, name: 'Gi0/0/2', descr: 'GigabitEthernet0/0/2', oper: 'up', vrf: 'GUEST' },
    { ifIndex: 10, name: 'Lo0', descr: 'Loopback0', oper: 'up', type: 24 },
  ],
  ipv4: [
    { port: 'Gi0/0/0', address: '10.200.0.2', prefix: 30 },
    { port: 'Gi0/0/1', address: '10.40.0.2', prefix: 24 },
    { port: 'Gi0/0/2', address: '10.45.0.2', prefix: 24 },
    { port: 'Lo0', address: '10.255.2.1', prefix: 32 },
  ],
  ipv6: [
    { port: 'Gi0/0/1', address: '2001:db8:40::2', network: '2001:db8:40::/64' },
    { port: 'Gi0/0/1', address: 'fe80::72ea:1aff:fe50:6002', network: 'fe80::/64' },
  ],
  routes: [
    { network: '10.200.0.0/30', protocol: 'connected', hops: [{ port: 'Gi0/0/0' }] },
    { network: '10.40.0.0/24', protocol: 'connected', hops: [{ port: 'Gi0/0/1' }] },
    { network: '10.255.2.1/32', protocol: 'connected', hops: [{ port: 'Lo0' }] },
    { network: '0.0.0.0/0', protocol: 'static', hops: [{ ip: '10.200.0.1', port: 'Gi0/0/0', metric: 1 }] },
    { network: '10.0.0.0/8', protocol: 'ospf', hops: [{ ip: '10.200.0.1', port: 'Gi0/0/0', metric: 20 }] },
    { network: '10.128.0.0/9', protocol: 'ospf', hops: [{ ip: '10.200.0.1', port: 'Gi0/0/0', metric: 30 }, { ip: '10.40.0.3', port: 'Gi0/0/1', metric: 30 }] },
    { network: '2001:db8:40::/64', protocol: 'connected', hops: [{ port: 'Gi0/0/1' }] },
    { network: '::/0', protocol: 'static', hops: [{ ip: '2001:db8:40::1', port: 'Gi0/0/1', metric: 1 }] },
    { vrf: 'GUEST', network: '10.45.0.0/24', protocol: 'connected', hops: [{ port: 'Gi0/0/2' }] },
    { vrf: 'GUEST', network: '0.0.0.0/0', protocol: 'static', hops: [{ ip: '10.45.0.254', port: 'Gi0/0/2', metric: 1 }] },
  ],
  neighbours: [
    { port: 'Gi0/0/0', ip: '10.200.0.1', mac: '00:00:5e:00:53:01' },
    { port: 'Gi0/0/1', ip: '10.40.0.3', mac: '70:ea:1a:50:61:03' },
    { port: 'Gi0/0/1', ip: '2001:db8:40::1', mac: '00:00:0c:9f:f0:01' },
    { port: 'Gi0/0/1', ip: 'fe80::3', mac: '70:ea:1a:50:61:03' },
    { port: 'Gi0/0/2', ip: '10.45.0.77', mac: 'a4:83:e7:12:34:56' },
  ],
  fhrp: [
    { port: 'Gi0/0/1', protocol: 'hsrp', group: 1, addresses: ['10.40.0.1'], state: 'active', priority: 120, preempt: true },
    { port: 'Gi0/0/1', protocol: 'hsrp', group: 3, addresses: ['10.40.0.254'], state: 'standby', priority: 90, preempt: false },
    { port: 'Gi0/0/2', protocol: 'hsrp', group: 2, addresses: ['10.45.0.1'], state: 'speak', priority: 100, preempt: false },
  ],
}
