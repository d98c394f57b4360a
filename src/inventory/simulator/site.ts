/**
 * Builds the detailed model of one site for one discovery: every interface of the devices that
 * answered, the links between them (both ends real interfaces), addressing, VLANs and the end
 * hosts on access ports. Deterministic in (seed, site, generation).
 */
import { NAMING, type Naming } from './naming.js'
import { SiteBuilder } from './site-builder.js'
import type { SimDevice, SimNetwork, SimSite } from './network.js'
import { HOST_VENDORS } from './platforms.js'
import { TAG, between, macString, pick, unit, weighted } from './prng.js'
import { FIRST_DATA_VLAN, MGMT_VLAN, VOICE_VLAN, type SimHost, type SimInterface, type SimVlan, type SiteModel } from './model.js'

/** Share of host ports whose host comes or goes between two discoveries. */
const FLAP = 0.02
/** Share of partner hand-offs (router sub-interfaces) not configured in one later discovery: circuits are ordered and retired. */
const RETIRED_HANDOFF = 0.06
/** Share of pairs of hosts of a VLAN whose DHCP leases swapped addresses in one later discovery (the first is as before). */
const LEASE_SWAP = 0.015
const ADMIN_DOWN = 0.03
const ERR_DISABLED = 0.004
const HALF_DUPLEX = 0.005
const PARTNER_DOWN = 0.08
const SMALL_WAN_MTU = 0.2
/** Sites where the second router's first partner hand-off was configured with the first router's address (a copy-paste slip). */
const COPIED_ADDRESS = 0.04
/** Access points whose switch port fell back to 100 Mb/s half duplex while the AP runs full duplex. */
const AP_DUPLEX_MISMATCH = 0.1
const HOSTS_PER_VLAN = 250
const HOST_TYPES = HOST_VENDORS.map((v) => [v, v.weight] as const)

/** Management address of a device: .10 + position in the site's management /24. */
export function mgmtIp(dev: SimDevice): number {
  return dev.site.base + 15 * 256 + 10 + dev.local
}

function dataVlanCount(site: SimSite): number {
  const ports = site.devices.filter((d) => d.role === 'access').reduce((s, d) => s + d.members * d.platform.ports, 0)
  return Math.min(13, Math.max(2, Math.ceil(ports / HOSTS_PER_VLAN)))
}

function naming(dev: SimDevice): Naming {
  return NAMING[dev.platform.naming]
}

export function buildSiteModel(net: SimNetwork, site: SimSite): SiteModel {
  const { seed, generation } = net.settings
  const b = new SiteBuilder()
  const devices = site.devices.filter((d) => net.present(d))
  const present = new Set(devices)
  const role = (r: SimDevice['role'], ordinal: number) => site.devices.find((d) => d.role === r && d.ordinal === ordinal)
  const nData = dataVlanCount(site)
  const vlans: SimVlan[] = [
    { id: 1, name: 'default', net: null },
    ...Array.from({ length: nData }, (_, i) => ({ id: FIRST_DATA_VLAN + i, name: `DATA_${FIRST_DATA_VLAN + i}`, net: site.base + (1 + i) * 256 })),
    { id: MGMT_VLAN, name: 'MGMT', net: site.base + 15 * 256 },
    { id: VOICE_VLAN, name: 'VOICE', net: site.base + 14 * 256 },
  ]
  const wan = new Map<SimDevice, { port: SimInterface; peIp: number }>()
  const svis = new Map<string, SimInterface>()

  for (const dev of devices) {
    const n = naming(dev)
    const mgmtAddr = { ip: mgmtIp(dev), prefix: 24 }
    if (dev.role === 'ap') {
      b.add(dev, 'port', n.port(1, 1), mgmtAddr)
      b.add(dev, 'radio', n.loopback(1), { speedValue: 1.2e9 })
      b.add(dev, 'radio', n.loopback(2), { speedValue: 2.4e9 })
      continue
    }
    const mgmt = b.add(dev, 'mgmt', n.mgmt, dev.role === 'access' ? {} : mgmtAddr)
    if (dev.role !== 'access') SiteBuilder.up(mgmt)
    if (dev.role !== 'access') b.add(dev, 'loopback', n.loopback(0), { ip: site.base + 1 + dev.local, prefix: 32 })
    for (let m = 1; m <= dev.members; m++) for (let p = 1; p <= dev.platform.ports; p++) b.add(dev, 'port', n.port(m, p))
    for (let u = 1; u <= dev.platform.uplinks; u++) b.add(dev, 'uplink', n.uplink(u))
    if (dev.role === 'access') b.add(dev, 'svi', n.svi(MGMT_VLAN), { ...mgmtAddr, vlan: MGMT_VLAN })
    if (dev.role === 'dist') {
      b.add(dev, 'lag', n.lag(1), { mode: 'trunk', speedValue: 2 * dev.platform.portSpeed, dscr: 'peer link' })
      for (const v of vlans) {
        if (v.net === null) continue
        svis.set(`${dev.ordinal}/${v.id}`, b.add(dev, 'svi', n.svi(v.id), { ip: v.net + 1 + dev.ordinal, prefix: 24, vlan: v.id, dscr: v.name }))
      }
    }
    if (dev.role === 'router') {
      const routerNo = site.index * 2 + dev.ordinal - 1
      const port = b.get(dev, n.port(1, 1))
      SiteBuilder.up(port)
      Object.assign(port, { ip: 100 * 2 ** 24 + 64 * 2 ** 16 + routerNo * 4 + 2, prefix: 30, dscr: 'WAN provider circuit' })
      // some providers hand off a circuit with a smaller MTU (PPPoE, tunnelled access)
      if (unit(seed, TAG.extra, dev.index, 1) < SMALL_WAN_MTU) port.mtu = pick([1492, 1476, 1400], seed, TAG.extra, dev.index, 2)
      wan.set(dev, { port, peIp: port.ip! - 1 })
      const handoff = b.get(dev, n.port(1, 4))
      SiteBuilder.up(handoff)
      handoff.dscr = 'partner handoffs'
      const subs = between(net.profile.routerSubinterfaces[0], net.profile.routerSubinterfaces[1], seed, TAG.extra, dev.index)
      // the copied address is the first router's: routerNo - 1 is the first router of the site
      const copied = dev.ordinal === 2 && unit(seed, TAG.extra, site.index, 31) < COPIED_ADDRESS
      for (let i = 0; i < subs; i++) {
        if (i > 0 && generation > 0 && unit(seed, TAG.drift, dev.index, i, generation) < RETIRED_HANDOFF) continue
        const subNet = 172 * 2 ** 24 + 16 * 2 ** 16 + ((copied && i === 0 ? routerNo - 1 : routerNo) * 64 + i) * 4
        // a sub-interface answers with its port's MAC address, as routers do (and so keeps it when an earlier circuit is retired)
        const sub = b.add(dev, 'sub', n.sub(n.port(1, 4), 200 + i), { ip: subNet + 1, prefix: 30, vlan: 200 + i, speedValue: handoff.speedValue, media: handoff.media, dscr: `partner ${200 + i}`, mac: handoff.mac })
        SiteBuilder.up(sub)
        // the partner side of a few hand-offs is not configured: physically up, line protocol down
        if (unit(seed, TAG.extra, dev.index, 200 + i) < PARTNER_DOWN) Object.assign(sub, { l2: 'down', reason: 'line-protocol-down' })
      }
    }
  }

  // links between core devices: every site has two routers, two distribution switches and a firewall
  const [r1, r2, d1, d2, fw] = [role('router', 1)!, role('router', 2)!, role('dist', 1)!, role('dist', 2)!, role('fw', 1)!]
  const p2p = (k: number) => site.base + 64 + 4 * k
  b.link(b.get(r1, naming(r1).port(1, 2)), b.get(d1, naming(d1).port(1, 48)), p2p(0))
  b.link(b.get(r2, naming(r2).port(1, 2)), b.get(d2, naming(d2).port(1, 48)), p2p(1))
  b.link(b.get(r1, naming(r1).port(1, 3)), b.get(r2, naming(r2).port(1, 3)), p2p(2))
  b.link(b.get(fw, naming(fw).port(1, 1)), b.get(d1, naming(d1).port(1, 44)), p2p(3))
  b.link(b.get(fw, naming(fw).port(1, 2)), b.get(d2, naming(d2).port(1, 44)), p2p(4))
  for (const p of [46, 47]) b.link(b.get(d1, naming(d1).port(1, p)), b.get(d2, naming(d2).port(1, p)), null, 'trunk')
  for (const d of [d1, d2]) {
    // the peer link: both ports are members of the port-channel
    const po = b.get(d, naming(d).lag(1))
    for (const p of [46, 47]) b.get(d, naming(d).port(1, p)).lag = po
  }

  const access = site.devices.filter((d) => d.role === 'access')
  for (const sw of access) {
    if (!present.has(sw)) continue
    b.link(b.get(sw, naming(sw).uplink(1)), b.get(d1, naming(d1).port(1, sw.ordinal)), null, 'trunk')
    b.link(b.get(sw, naming(sw).uplink(2)), b.get(d2, naming(d2).port(1, sw.ordinal)), null, 'trunk')
  }
  const firstAccess = access[0]!
  for (const ap of site.devices.filter((d) => d.role === 'ap' && present.has(d))) {
    const port = b.get(firstAccess, naming(firstAccess).port(firstAccess.members, firstAccess.platform.ports - ap.ordinal + 1))
    b.link(b.get(ap, naming(ap).port(1, 1)), port, null)
    Object.assign(port, { mode: 'access', accVlan: MGMT_VLAN })
    if (unit(seed, TAG.duplex, ap.index, 1) < AP_DUPLEX_MISMATCH) Object.assign(port, { duplex: 'half', speedValue: 100e6 })
  }

  const hosts: SimHost[] = []
  let k = 0
  for (const sw of access) {
    const n = naming(sw)
    for (let m = 1; m <= sw.members; m++) {
      for (let p = 1; p <= sw.platform.ports; p++, k++) {
        if (!present.has(sw)) continue
        const port = b.get(sw, n.port(m, p))
        if (port.peer) continue
        const portNo = (m - 1) * sw.platform.ports + p
        const vlanIdx = k % nData
        const vlan = FIRST_DATA_VLAN + vlanIdx
        Object.assign(port, { mode: 'access', accVlan: vlan, voiceVlan: VOICE_VLAN, dscr: 'user port' })
        if (unit(seed, TAG.adminDown, sw.index, portNo) < ADMIN_DOWN) {
          Object.assign(port, { l1: 'admin-down', reason: 'admin-down', dscr: 'unused - shutdown' })
          continue
        }
        const occupied = (unit(seed, TAG.host, sw.index, portNo) < net.profile.hostOccupancy) !== (unit(seed, TAG.flap, sw.index, portNo, generation) < FLAP)
        if (!occupied) {
          if (unit(seed, TAG.errDisabled, sw.index, portNo) < ERR_DISABLED) {
            const cause = pick(['bpduguard', 'psecure-violation', 'link-flap'], seed, TAG.errDisabled, sw.index, portNo, 1)
            Object.assign(port, { l1: 'err-disabled', reason: 'err-disabled', errDisabled: cause })
          }
          continue
        }
        SiteBuilder.up(port)
        if (unit(seed, TAG.duplex, sw.index, portNo) < HALF_DUPLEX) Object.assign(port, { duplex: 'half', speedValue: 100e6 })
        const kind = weighted(HOST_TYPES, seed, TAG.hostType, site.index, k)
        const gateway = svis.get(`${vlan % 2 === 0 ? 1 : 2}/${vlan}`)!
        // addresses move: the two hosts of a pair of slots swap their leases now and then
        const slot = Math.floor(k / nData)
        const swapped = generation > 0 && unit(seed, TAG.drift, site.index, vlanIdx, slot >> 1, generation) < LEASE_SWAP
        const host: SimHost = {
          ip: site.base + (1 + vlanIdx) * 256 + 4 + (swapped ? slot ^ 1 : slot),
          mac: macString(kind.oui, (site.index * 4096 + k) & 0xffffff),
          vlan,
          type: kind.type,
          vendor: kind.vendor,
          user: kind.type === 'workstation' && unit(seed, TAG.host, site.index, k, 1) < 0.3 ? `u${between(10000, 99999, seed, TAG.host, site.index, k, 2)}` : null,
          port,
          gateway,
        }
        port.host = host
        hosts.push(host)
      }
    }
  }

  const position = net.sites.indexOf(site)
  const remote = Math.min(16, net.sites.length - 1)
  const remoteAggregates = Array.from({ length: remote }, (_, i) => net.sites[(position + 1 + i) % net.sites.length]!.base)
  return { site, devices, interfaces: b.interfaces, hosts, vlans, wan, remoteAggregates }
}
