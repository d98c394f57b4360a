/**
 * The simulator's tables beyond the first release agree with the tables they describe: hardware
 * with inventory/pn, phones and end points with addressing/hosts, OSPF and FHRP with routes and
 * addresses, counters with interfaces, and so on.
 */
import t from 'tap'
import { GENERATORS, simulate, tableObjects, type Row, type SimSettings } from '../../../src/inventory/simulator/index.js'
import { managedDevRows } from '../../../src/inventory/simulator/rows/interfaces.js'

const LAB: SimSettings = { profile: 'lab', seed: 42, sites: [], generation: 0 }

function collect(settings: SimSettings): Map<string, Row[]> {
  const sim = simulate(settings)
  return new Map(GENERATORS.map(([table, gen]) => [table.path, [...tableObjects(sim.network, gen)]]))
}

const lab = collect(LAB)
const rows = (path: string) => lab.get(path)!
const key = (...parts: unknown[]) => parts.join('|')
const count = <T>(list: readonly T[], pred: (x: T) => boolean) => list.filter(pred).length

t.test('fans, power supplies and modules are the parts of inventory/pn', async (t) => {
  const parts = new Map(rows('inventory/pn').map((p) => [key(p.deviceSn, p.name), p]))
  for (const path of ['inventory/fans', 'inventory/power-supplies', 'inventory/modules']) {
    const list = rows(path)
    t.ok(list.length > 0, `${path} has rows`)
    t.equal(count(list, (r) => parts.get(key(r.sn, r.name))?.sn !== r.partSn), 0, `${path}: every row is a part of its device`)
  }
  const bySerial = new Map(rows('inventory/pn').map((p) => [key(p.deviceSn, p.sn), p]))
  t.equal(count(rows('reports/eof/detail'), (e) => bySerial.get(key(e.sn, e.partSn))?.pid !== e.pid), 0, 'end-of-life rows are installed parts')
  const fanParts = count(rows('inventory/pn'), (p) => String(p.name).startsWith('Fan Tray'))
  t.equal(rows('inventory/fans').length, fanParts, 'one fan row per fan tray part')
  const psuParts = count(rows('inventory/pn'), (p) => String(p.name).startsWith('Power Supply'))
  t.equal(rows('inventory/power-supplies').length, psuParts, 'one power supply row per power supply part')
  const fans = rows('inventory/fans')
  t.ok(fans.every((f) => (f.fanState === 'fail') === (f.speed === null)), 'a failed fan reports no speed')
  t.ok(count(fans, (f) => f.fanState === 'ok') > fans.length * 0.95, 'almost every fan is fine')
  const eofPids = new Set(rows('reports/eof/detail').map((e) => e.pid))
  t.ok(eofPids.size >= 2, `several part numbers reached end of life (${[...eofPids].join(', ')})`)
})

t.test('phones and end points are hosts on the same ports', async (t) => {
  const hosts = new Map(rows('addressing/hosts').map((h) => [h.ip as string, h]))
  const onPort = (h: Row | undefined, sn: unknown, intName: unknown) => {
    const edge = (h?.edges as Array<{ sn: string; intName: string }> | undefined)?.[0]
    return edge !== undefined && edge.sn === sn && edge.intName === intName
  }
  const phones = rows('inventory/phones')
  t.equal(phones.length, count(rows('addressing/hosts'), (h) => h.type === 'phone'), 'every phone host is in inventory/phones')
  t.equal(count(phones, (p) => !onPort(hosts.get(p.ip as string), p.sn, p.intName) || hosts.get(p.ip as string)!.mac !== p.mac), 0, 'each phone is a host at its port')
  const endpoints = rows('neighbors/endpoints')
  t.equal(count(endpoints, (e) => !onPort(hosts.get(e.remoteIp as string), e.localSn, e.localInt)), 0, 'each end point is a host at its port')
  const phoneIps = new Set(phones.map((p) => p.ip))
  t.equal(count(endpoints, (e) => (e.capabilities as string[]).includes('telephone')), phoneIps.size, 'the phones among the end points are inventory/phones')
  t.ok(new Set(endpoints.map((e) => e.protocol)).size === 2, 'CDP between Cisco devices, LLDP otherwise')
})

t.test('unmanaged neighbours: the provider edge of each BGP session, the partner switch of each hand-off', async (t) => {
  const unmanaged = rows('neighbors/unmanaged')
  const ebgp = rows('routing/protocols/bgp/neighbors').filter((b) => b.neiHostname === null)
  const pe = new Set(unmanaged.filter((u) => (u.capabilities as string[]).includes('router') && u.remoteIp !== null).map((u) => key(u.localSn, u.remoteIp)))
  t.equal(ebgp.length, pe.size)
  t.ok(ebgp.every((b) => pe.has(key(b.sn, b.neiAddress))), 'the provider edge LLDP shows is the BGP neighbour')
  const interfaces = new Set(rows('inventory/interfaces').map((i) => key(i.sn, i.intName)))
  t.ok(unmanaged.every((u) => interfaces.has(key(u.localSn, u.localInt))), 'seen on real interfaces')
})

t.test('counters cover the operationally up interfaces; half duplex ports have errors', async (t) => {
  const interfaces = new Map(rows('inventory/interfaces').map((i) => [i.id as string, i]))
  const counters = rows('interfaces/counters')
  t.ok(counters.every((c) => interfaces.get(c.id as string)?.l2 === 'up'), 'only interfaces whose line protocol is up')
  const hosted = count(rows('addressing/hosts'), () => true)
  t.ok(counters.length > hosted, 'host ports and links are counted')
  const half = counters.filter((c) => interfaces.get(c.id as string)!.duplex === 'half')
  t.ok(half.length > 0 && half.every((c) => (c.inErrPkts as number) > 0 || (c.inPkts as number) < 20), 'half duplex ports collide')
  t.ok(counters.every((c) => c.speedValue === null || (c.inBytes as number) * 8 <= (c.speedValue as number)), 'no interface runs above its speed')
  t.ok(count(counters, (c) => (c.inErrPkts as number) === 0) > counters.length * 0.9, 'most interfaces have no errors')
})

t.test('OSPF adjacencies carry the OSPF routes; FHRP groups own the virtual addresses', async (t) => {
  const ospf = rows('routing/protocols/ospf/neighbors')
  const adjacency = new Set(ospf.map((o) => key(o.sn, o.intName, o.neiIp)))
  const ospfRoutes = rows('networks/routes').filter((r) => r.protocol === 'ospf')
  t.ok(ospfRoutes.length > 0)
  t.ok(ospfRoutes.every((r) => (r.nexthop as Array<{ ip: string; intName: string }>).every((h) => adjacency.has(key(r.sn, h.intName, h.ip)))), 'every OSPF route goes through an adjacency')
  const reverse = new Set(ospf.map((o) => key(o.neiHostname, o.neiIp, o.localIp)))
  t.ok(ospf.every((o) => reverse.has(key(o.hostname, o.localIp, o.neiIp))), 'both ends report the adjacency')
  const virtual = new Set(rows('addressing/managed-devs').filter((m) => m.type === 'virtual').map((m) => key(m.sn, m.intName, m.ip)))
  const fhrp = rows('fhrp/group-state')
  const active = fhrp.filter((f) => f.state === 'active')
  t.equal(active.length, virtual.size, 'one active group member per virtual address')
  t.ok(active.every((f) => virtual.has(key(f.sn, f.intName, f.virtualIp))), 'the active member holds the virtual address')
  const groups = new Map<string, number>()
  for (const f of fhrp) groups.set(key(f.siteName, f.groupId), (groups.get(key(f.siteName, f.groupId)) ?? 0) + (f.state === 'active' ? 1 : 0))
  t.ok([...groups.values()].every((n) => n === 1), 'each group has exactly one active member')
})

t.test('spanning tree: one root per site, the domain of inventory/devices', async (t) => {
  const devices = new Map(rows('inventory/devices').map((d) => [d.sn as string, d]))
  const bridges = rows('spanning-tree/bridges')
  t.equal(bridges.length, count(rows('inventory/devices'), (d) => d.stpDomain !== null))
  t.ok(bridges.every((b) => devices.get(b.sn as string)!.stpDomain === b.stpDomain))
  const roots = new Map<unknown, number>()
  for (const b of bridges) if (b.isRoot) roots.set(b.stpDomain, (roots.get(b.stpDomain) ?? 0) + 1)
  t.equal(roots.size, rows('inventory/sites').length, 'a root in every site')
  t.ok([...roots.values()].every((n) => n === 1))
  const rootIds = new Map(bridges.filter((b) => b.isRoot).map((b) => [b.stpDomain, b.bridgeId]))
  t.ok(bridges.every((b) => b.rootId === rootIds.get(b.stpDomain)), 'every switch sees its root')
})

t.test('spanning-tree ports: the tree of each site over its switch links, with the bridges and root of spanning-tree/bridges', async (t) => {
  const bridges = new Map(rows('spanning-tree/bridges').map((b) => [b.sn as string, b]))
  const ports = rows('spanning-tree/ports')
  t.ok(ports.length > 0)
  const at = new Map(ports.map((p) => [key(p.sn, p.intName), p]))
  t.equal(at.size, ports.length, 'one row per switch port')
  t.ok(ports.every((p) => bridges.has(p.sn as string) && p.designatedRoot === bridges.get(p.sn as string)!.rootId), 'every port of a bridge, toward the root the bridge sees')
  for (const [sn, b] of bridges) {
    const roots = count(ports, (p) => p.sn === sn && p.portRole === 'root')
    t.equal(roots, b.isRoot ? 0 : 1, `${String(b.hostname)}: ${b.isRoot ? 'no root port on the root' : 'one root port'}`)
  }
  t.ok(ports.every((p) => (p.portRole === 'disabled') === (p.portStatus === 'disabled') && (p.portRole === 'alternate') === (p.portStatus === 'blocking')), 'disabled ports are disabled, alternate ones block')
  // port-channels stand for their members on the links
  const channelOf = new Map<string, string>()
  for (const c of rows('interfaces/port-channel/member-status')) for (const m of c.members as Array<{ intName: string }>) channelOf.set(key(c.sn, m.intName), c.intName as string)
  const end = (sn: unknown, int: unknown) => at.get(key(sn, channelOf.get(key(sn, int)) ?? int))
  const links = new Map<string, [Row, Row]>()
  for (const n of rows('neighbors/all')) {
    const [a, b] = [end(n.localSn, n.localInt), end(n.remoteSn, n.remoteInt)]
    if (a && b && a.portStatus !== 'disabled' && b.portStatus !== 'disabled') links.set([key(a.sn, a.intName), key(b.sn, b.intName)].sort().join(' '), [a, b])
  }
  t.ok(links.size > 0, 'switches linked to switches')
  for (const [name, [a, b]] of links) {
    t.equal(count([a, b], (p) => p.portRole === 'designated'), 1, `${name}: one designated end`)
    const other = (p: Row) => (p === a ? b : a)
    for (const p of [a, b]) {
      const far = bridges.get(other(p).sn as string)!
      const own = bridges.get(p.sn as string)!
      t.equal(p.designatedBridge, p.portRole === 'designated' ? own.bridgeId : far.bridgeId, `${name}: ${String(p.intName)} names the designated bridge of its link`)
    }
  }
  // the forwarding links span each site's switches without a loop
  const sites = new Map<unknown, { switches: number; forwarding: number }>()
  for (const b of bridges.values()) sites.set(b.siteName, { switches: (sites.get(b.siteName)?.switches ?? 0) + 1, forwarding: 0 })
  for (const [a, b] of links.values()) if (a.portStatus === 'forwarding' && b.portStatus === 'forwarding') sites.get(a.siteName)!.forwarding++
  for (const [site, n] of sites) t.equal(n.forwarding, n.switches - 1, `${String(site)}: ${n.switches} switches, ${n.forwarding} forwarding links`)
  t.ok(count(ports, (p) => p.portRole === 'alternate') > 0, 'redundant uplinks block')
})

t.test('port-channel members are linked to the other switch of the pair', async (t) => {
  const links = new Map(rows('neighbors/all').map((n) => [key(n.localSn, n.localInt), n]))
  const channels = rows('interfaces/port-channel/member-status')
  t.equal(channels.length, count(rows('inventory/devices'), (d) => d.devType === 'l3switch'))
  for (const c of channels) {
    const members = c.members as Array<{ intName: string; state: string }>
    t.equal(members.length, 2, `${c.hostname} ${c.intName} bundles two ports`)
    t.ok(members.every((m) => links.get(key(c.sn, m.intName))?.remoteHost !== c.hostname))
    t.equal(c.bundledCount, count(members, (m) => m.state === 'bundled'))
  }
})

t.test('IPv6 routes mirror the IPv4 core', async (t) => {
  const v6 = rows('networks/ipv6-routes')
  const connected = new Set(v6.filter((r) => r.protocol === 'connected').map((r) => r.network))
  const learned = v6.filter((r) => r.protocol === 'ospfv3' && r.prefix === 64)
  t.ok(learned.length > 0 && learned.every((r) => connected.has(r.network)), 'OSPFv3 networks are connected on a distribution switch')
  t.equal(count(v6, (r) => r.network === '::/0' && r.protocol === 'bgp'), count(rows('networks/routes'), (r) => r.network === '0.0.0.0/0' && r.protocol === 'bgp'), 'a BGP default for each established provider session')
})

t.test('successive discoveries: configurations change a little, fans keep their state', async (t) => {
  const next = collect({ ...LAB, generation: 1 })
  const before = new Map(rows('management/configuration/saved').map((c) => [c.sn, c]))
  const after = next.get('management/configuration/saved')!
  const changed = count(after, (c) => before.has(c.sn) && before.get(c.sn)!.hash !== c.hash)
  t.ok(changed > 0 && changed < after.length * 0.15, `a few configurations changed (${changed} of ${after.length})`)
  t.ok(after.every((c) => c.status === 'saved' || (before.has(c.sn) && before.get(c.sn)!.hash !== c.hash)), 'only a fresh change can be unsaved')
  const fans = new Map(rows('inventory/fans').map((f) => [f.id, f.fanState]))
  t.ok(next.get('inventory/fans')!.every((f) => !fans.has(f.id) || fans.get(f.id) === f.fanState), 'a failed fan stays failed')
})

t.test('rare events happen somewhere: a copied address, a silent port, a duplex mismatch', async (t) => {
  let duplicated = 0
  let oneWay = 0
  let mismatched = 0
  for (let seed = 1; seed <= 6; seed++) {
    const sim = simulate({ ...LAB, seed })
    const addresses = [...tableObjects(sim.network, managedDevRows)].filter((m) => m.type !== 'virtual').map((m) => m.ip)
    duplicated += addresses.length - new Set(addresses).size
    const all = collect({ ...LAB, seed })
    const pairs = new Set(all.get('neighbors/all')!.map((n) => key(n.localSn, n.localInt)))
    oneWay += count(all.get('neighbors/all')!, (n) => !pairs.has(key(n.remoteSn, n.remoteInt)))
    const duplex = new Map(all.get('inventory/interfaces')!.map((i) => [key(i.sn, i.intName), i.duplex]))
    mismatched += count(all.get('neighbors/all')!, (n) => duplex.get(key(n.localSn, n.localInt)) !== duplex.get(key(n.remoteSn, n.remoteInt)))
  }
  t.ok(duplicated > 0, `duplicated addresses (${duplicated})`)
  t.ok(oneWay > 0, `links seen from one end (${oneWay})`)
  t.ok(mismatched > 0, `duplex mismatches across links (${mismatched})`)
})
