/**
 * Through the inventory's HTTP API on both engines: every table computed from others (at load or
 * as a view) agrees with the tables it is computed from, the snapshot's figures agree with its
 * rows, the v4 camelCase names answer under /api/v1/, and GET tables lists the catalog.
 */
import t, { type Test } from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { TABLES } from '../../../src/inventory/catalog/index.js'
import { ENDPOINTS } from '../../../src/shared/manifest.js'
import { INTERNAL_HEADER, encodeInternal, encodePrincipal } from '../../../src/shared/principal.js'
import { ALICE, SECRET, startApp, type Client } from '../app.js'

type Row = Record<string, unknown>

async function all(t: Test, app: Client, path: string, snapshot: string | undefined, columns: string[]): Promise<Row[]> {
  const r = await app.call('POST', `tables/${path}`, { ...(snapshot ? { snapshot } : {}), columns, pagination: { limit: 10000 } })
  t.equal(r.status, 200, `${path}: ${r.text.slice(0, 200)}`)
  return (r.body as { data: Row[] }).data
}

const key = (...parts: unknown[]) => parts.join('|')
function tally<T>(list: readonly T[], by: (x: T) => string): Map<string, number> {
  const m = new Map<string, number>()
  for (const x of list) m.set(by(x), (m.get(by(x)) ?? 0) + 1)
  return m
}

for (const engine of ENGINES) {
  t.test(`tables computed from others agree with them (${engine})`, async (t) => {
    const db = await freshDb(t, engine)
    const app = await startApp(t, db)
    // ROME-01 of the small profile has a link seen from one end, BERLIN-02 a duplicated address
    const id = await app.discover({ profile: 'small', sites: ['ROME-01', 'BERLIN-02'] })
    const rows = (path: string, columns: string[]) => all(t, app, path, id, columns)

    const vlans = await rows('vlan/device', ['sn', 'siteName', 'vlanId', 'status'])
    const perDevice = await rows('vlan/device-summary', ['sn', 'siteKey', 'siteName', 'totalVlanCount', 'activeVlanCount'])
    const sites = new Map((await rows('inventory/sites', ['siteName', 'siteKey', 'id', 'networksCount'])).map((s) => [s.siteName, s]))
    t.same(new Map(perDevice.map((d) => [d.sn, d.totalVlanCount])), tally(vlans, (v) => String(v.sn)), 'VLANs per device')
    t.ok(perDevice.every((d) => d.activeVlanCount === vlans.filter((v) => v.sn === d.sn && v.status === 'active').length), 'active VLANs per device')
    t.ok(perDevice.every((d) => d.siteKey === sites.get(d.siteName)!.siteKey), 'siteKey is the key of inventory/sites')
    t.ok([...sites.values()].every((s) => s.siteKey === s.id))
    const perSite = await rows('vlan/site-summary', ['siteName', 'vlanId', 'devCount'])
    t.same(new Map(perSite.map((s) => [key(s.siteName, s.vlanId), s.devCount])), tally(vlans, (v) => key(v.siteName, v.vlanId)), 'switches per VLAN and site')
    const network = await rows('vlan/network-summary', ['vlanId', 'siteCount', 'devCount'])
    t.same(new Map(network.map((n) => [String(n.vlanId), n.devCount])), tally(vlans, (v) => String(v.vlanId)), 'switches per VLAN')

    const managed = await rows('addressing/managed-devs', ['sn', 'intName', 'ip', 'net', 'vrf', 'type', 'siteName', 'vlanId'])
    const own = managed.filter((m) => m.type !== 'virtual')
    const byIp = tally(own, (m) => String(m.ip))
    const duplicates = await rows('addressing/duplicate-ip', ['ip', 'sn', 'intName', 'count'])
    t.ok(duplicates.length > 0, 'BERLIN-02 has a duplicated address')
    t.same(duplicates.length, own.filter((m) => byIp.get(String(m.ip))! > 1).length, 'every interface holding a duplicated address')
    t.ok(duplicates.every((d) => d.count === byIp.get(String(d.ip))))
    const networks = await rows('networks', ['net', 'vrf', 'siteName', 'intCount'])
    for (const [name, site] of sites) t.equal(new Set(networks.filter((n) => n.siteName === name).map((n) => n.net)).size, site.networksCount, `${name}: networks agree with inventory/sites`)
    t.equal(networks.reduce((s, n) => s + (n.intCount as number), 0), own.length, 'every address is in one network')
    const l3 = await rows('vlan/l3-gateways', ['sn', 'intName', 'vlanId'])
    t.equal(l3.length, managed.filter((m) => m.type === 'primary' && m.vlanId !== null).length)

    // gateway redundancy: each network's interface addresses, FHRP virtual addresses and hosts
    const groups = await rows('fhrp/group-state', ['sn', 'hostname', 'siteName', 'intName', 'protocol', 'groupId', 'virtualIp', 'state', 'priority'])
    const hostIps = await rows('addressing/hosts', ['ip', 'vrf'])
    const redundancy = await rows('networks/gateway-redundancy', ['id', 'net', 'mask', 'vrf', 'siteName', 'gw', 'gwcount', 'gwV', 'gwcountV', 'hosts'])
    t.equal(redundancy.length, networks.length, 'one row per managed network')
    const inNet = (ip: unknown, net: unknown) => {
      const [base, len] = String(net).split('/')
      const n = (a: string) => a.split('.').reduce((x, o) => x * 256 + Number(o), 0)
      const size = 2 ** (32 - Number(len))
      return !String(ip).includes(':') && Math.floor(n(String(ip)) / size) === Math.floor(n(base!) / size)
    }
    const sorted = (list: unknown[]) => list.map(String).sort()
    for (const r of redundancy) {
      const gw = own.filter((m) => m.net === r.net && m.vrf === r.vrf && m.siteName === r.siteName).map((m) => m.ip)
      t.same(sorted(r.gw as unknown[]), sorted([...new Set(gw)]), `${String(r.id)}: gateways are the interface addresses in it`)
      t.equal(r.gwcount, (r.gw as unknown[]).length)
      // the groups on an interface with an address in this network (its site and VRF) whose virtual address lies in it
      const on = (g: Row) => own.some((m) => m.sn === g.sn && m.intName === g.intName && m.net === r.net && m.vrf === r.vrf && m.siteName === r.siteName)
      const gwV = new Set(groups.filter((g) => on(g) && inNet(g.virtualIp, r.net)).map((g) => g.virtualIp))
      t.same(sorted(r.gwV as unknown[]), sorted([...gwV]), `${String(r.id)}: virtual gateways are the FHRP addresses in it`)
      t.equal(r.gwcountV, gwV.size)
      t.equal(r.hosts, hostIps.filter((h) => h.vrf === r.vrf && inNet(h.ip, r.net)).length, `${String(r.id)}: hosts in it`)
      t.equal(r.mask, Number(String(r.net).split('/')[1]))
    }
    t.ok(redundancy.some((r) => (r.gwcountV as number) > 0 && (r.hosts as number) > 0), 'a user VLAN has a virtual gateway and hosts')

    // FHRP group members: the group-state rows of each group
    const members = await rows('fhrp/group-members', ['protocol', 'groupId', 'vrf', 'virtualIp', 'virtualIpv6', 'count', 'devices'])
    t.same(new Map(members.map((m) => [key(m.protocol, m.groupId, m.virtualIp ?? m.virtualIpv6), m.count])), tally(groups, (g) => key(g.protocol, g.groupId, g.virtualIp)), 'members per group')
    for (const m of members) {
      const of = groups.filter((g) => g.protocol === m.protocol && g.groupId === m.groupId && g.virtualIp === (m.virtualIp ?? m.virtualIpv6))
      t.same(sorted((m.devices as Row[]).map((d) => key(d.sn, d.intName, d.state, d.priority))), sorted(of.map((g) => key(g.sn, g.intName, g.state, g.priority))))
      const vrfs = new Set(managed.filter((a) => of.some((g) => g.sn === a.sn && g.intName === a.intName)).map((a) => a.vrf))
      t.same([...vrfs], [m.vrf], 'the VRF of the members\' interface')
    }
    t.ok(members.some((m) => (m.count as number) > 1), 'a group with more than one member')

    const routes = await rows('networks/routes', ['sn', 'vrf'])
    const detail = await rows('vrf/detail', ['sn', 'vrf', 'intCount', 'routeCount'])
    t.ok(detail.every((d) => d.routeCount === routes.filter((r) => r.sn === d.sn && r.vrf === d.vrf).length), 'routes per device and VRF')
    const summary = await rows('vrf/summary', ['vrf', 'devCount', 'intCount', 'routeCount'])
    t.equal(summary.reduce((s, v) => s + (v.routeCount as number), 0), routes.length, 'VRFs hold every route')
    t.equal(summary.reduce((s, v) => s + (v.intCount as number), 0), (await rows('vrf/interfaces', ['id'])).length)

    // routing protocol summary: routes per device, VRF and protocol, with the neighbours of BGP and OSPF
    const routed = await rows('networks/routes', ['sn', 'vrf', 'protocol'])
    const routed6 = await rows('networks/ipv6-routes', ['sn', 'vrf', 'protocol'])
    const bgp = await rows('routing/protocols/bgp/neighbors', ['sn', 'vrf', 'state'])
    const ospf = await rows('routing/protocols/ospf/neighbors', ['sn', 'vrf', 'state'])
    const ospf6 = await rows('routing/protocols/ospf-v3/neighbors', ['sn', 'hostname', 'vrf', 'area', 'intName', 'instanceId', 'state', 'localCost'])
    const protocols = await rows('networks/summary/protocols', ['id', 'sn', 'vrf', 'protocol', 'routeCount', 'ipv6RouteCount', 'neiCount', 'neiUpCount'])
    const expectedSummary = new Map<string, [number, number, number | null, number | null]>()
    const at = (sn: unknown, vrf: unknown, protocol: string) => {
      const k = key(sn, vrf, protocol)
      if (!expectedSummary.has(k)) expectedSummary.set(k, [0, 0, ['bgp', 'ospf', 'ospfv3'].includes(protocol) ? 0 : null, ['bgp', 'ospf', 'ospfv3'].includes(protocol) ? 0 : null])
      return expectedSummary.get(k)!
    }
    for (const r of routed) at(r.sn, r.vrf, String(r.protocol))[0]++
    for (const r of routed6) at(r.sn, r.vrf, String(r.protocol))[1]++
    for (const [protocol, list, up] of [['bgp', bgp, 'established'], ['ospf', ospf, 'full'], ['ospfv3', ospf6, 'full']] as const) {
      for (const n of list) {
        const e = at(n.sn, n.vrf, protocol)
        e[2]! += 1
        if (n.state === up) e[3]! += 1
      }
    }
    t.same(new Map(protocols.map((p) => [key(p.sn, p.vrf, p.protocol), [p.routeCount, p.ipv6RouteCount, p.neiCount, p.neiUpCount]])), expectedSummary, 'networks/summary/protocols: routes and neighbours per device, VRF and protocol')
    t.ok(bgp.length > 0 && ospf.length > 0 && ospf6.length > 0, 'the sites run BGP, OSPF and OSPFv3')
    // OSPFv3 interfaces: the adjacencies grouped per interface
    const ospf6Interfaces = await rows('routing/protocols/ospf-v3/interfaces', ['sn', 'vrf', 'area', 'intName', 'instanceId', 'cost', 'neiCount', 'neiFullCount'])
    const perInterface = tally(ospf6, (n) => key(n.sn, n.vrf, n.area, n.intName, n.instanceId))
    t.same(new Map(ospf6Interfaces.map((i) => [key(i.sn, i.vrf, i.area, i.intName, i.instanceId), i.neiCount])), perInterface, 'routing/protocols/ospf-v3/interfaces: one row per interface with its adjacencies')
    t.ok(ospf6Interfaces.every((i) => i.neiFullCount === ospf6.filter((n) => key(n.sn, n.vrf, n.area, n.intName, n.instanceId) === key(i.sn, i.vrf, i.area, i.intName, i.instanceId) && n.state === 'full').length), 'full adjacencies counted')
    t.ok(ospf6Interfaces.every((i) => i.cost === ospf6.find((n) => n.sn === i.sn && n.intName === i.intName)!.localCost), 'the interface cost')
    for (const protocol of ['bgp', 'ospf', 'ospfv3', 'eigrp', 'isis', 'rip']) {
      const one = await rows(`networks/summary/protocols/${protocol}`, ['id'])
      t.same(one.map((p) => p.id).sort(), protocols.filter((p) => p.protocol === protocol).map((p) => p.id).sort(), `networks/summary/protocols/${protocol}: its rows of the summary`)
    }

    const neighbours = await rows('neighbors/all', ['id', 'localSn', 'localInt', 'remoteSn', 'remoteInt'])
    const seen = new Set(neighbours.map((n) => key(n.localSn, n.localInt, n.remoteSn, n.remoteInt)))
    const oneWay = neighbours.filter((n) => !seen.has(key(n.remoteSn, n.remoteInt, n.localSn, n.localInt))).map((n) => n.id)
    t.ok(oneWay.length > 0, 'ROME-01 has a link seen from one end')
    t.same((await rows('neighbors/unidirectional', ['id'])).map((n) => n.id).sort(), oneWay.sort(), 'unidirectional: the neighbors/all rows without a reverse')
    const duplex = await rows('interfaces/duplex', ['id', 'duplex', 'neiDuplex', 'status'])
    t.equal(duplex.length, neighbours.length, 'one duplex row per link end')
    t.ok(duplex.every((d) => d.status === (d.neiDuplex === null ? 'missing' : d.duplex === d.neiDuplex ? 'ok' : 'mismatch')))

    // MTU of both ends of each link between discovered devices
    const mtus = new Map((await rows('inventory/interfaces', ['sn', 'intName', 'mtu'])).map((i) => [key(i.sn, i.intName), i.mtu]))
    const links = neighbours.filter((n) => n.remoteSn !== null)
    const mtu = await rows('interfaces/mtu', ['id', 'srcSn', 'srcInt', 'srcMtu', 'dstSn', 'dstInt', 'dstMtu', 'layer'])
    t.same(mtu.map((m) => m.id).sort(), links.map((n) => n.id).sort(), 'one row per link end between discovered devices')
    t.ok(mtu.every((m) => m.srcMtu === mtus.get(key(m.srcSn, m.srcInt)) && m.dstMtu === (mtus.get(key(m.dstSn, m.dstInt)) ?? null) && m.layer === null), 'MTUs of both interfaces')
    t.ok(mtu.some((m) => typeof m.srcMtu === 'number' && typeof m.dstMtu === 'number'), 'MTUs known at both ends')

    // spanning-tree neighbours: the links whose local end is a spanning-tree port, both ends' roles
    const stpPorts = new Map((await rows('spanning-tree/ports', ['sn', 'intName', 'portRole', 'portStatus'])).map((p) => [key(p.sn, p.intName), p]))
    const bridges = new Map((await rows('spanning-tree/bridges', ['sn', 'stpDomain', 'rootId'])).map((b) => [b.sn, b]))
    const stpNeighbours = await rows('spanning-tree/neighbors', ['sn', 'intName', 'stpDomain', 'rootId', 'portRole', 'portStatus', 'neiSn', 'neiIntName', 'portRoleDst', 'portStatusDst'])
    const expected = neighbours
      .filter((n) => stpPorts.has(key(n.localSn, n.localInt)))
      .map((n) => {
        const [local, remote, bridge] = [stpPorts.get(key(n.localSn, n.localInt))!, stpPorts.get(key(n.remoteSn, n.remoteInt)), bridges.get(n.localSn)]
        return key(n.localSn, n.localInt, bridge?.stpDomain ?? null, bridge?.rootId ?? null, local.portRole, local.portStatus, n.remoteSn, n.remoteInt, remote?.portRole ?? null, remote?.portStatus ?? null)
      })
    const found = stpNeighbours.map((s) => key(s.sn, s.intName, s.stpDomain, s.rootId, s.portRole, s.portStatus, s.neiSn, s.neiIntName, s.portRoleDst, s.portStatusDst))
    t.same(found.sort(), expected.sort(), 'spanning-tree/neighbors: each link from a spanning-tree port, with both ends\' roles')
    t.ok(stpNeighbours.some((s) => s.portRole === 'root' && s.portRoleDst === 'designated'), 'a root port faces a designated one')

    const interfaces = await rows('inventory/interfaces', ['id', 'l1', 'l2', 'errDisabled'])
    const disabled = await rows('interfaces/errors/disabled', ['id', 'errorReason'])
    t.same(disabled.map((d) => d.id).sort(), interfaces.filter((i) => i.l1 === 'err-disabled').map((i) => i.id).sort(), 'err-disabled interfaces')
    const load = await rows('interfaces/load', ['inBytes', 'speedValue', 'inLoad'])
    t.ok(load.every((l) => l.speedValue === null || Math.abs((l.inLoad as number) - ((l.inBytes as number) * 800) / (l.speedValue as number)) < 0.01), 'load is bits over speed')
    const errors = await rows('interfaces/errors/bidirectional', ['pkts', 'errPkts', 'errPktsPct', 'impactErr'])
    t.ok(errors.every((e) => (e.errPkts === 0) === (e.impactErr === 0)), 'impact 0 only without errors')
    t.ok(errors.some((e) => (e.impactErr as number) > 0), 'some interfaces have errors')

    const devices = await rows('inventory/devices', ['platform', 'version'])
    const versions = await rows('management/osver-consistency', ['platform', 'version', 'count', 'pct'])
    t.same(new Map(versions.map((v) => [key(v.platform, v.version), v.count])), tally(devices, (d) => key(d.platform, d.version)), 'devices per platform and version')
    for (const [platform, n] of tally(versions, (v) => String(v.platform))) {
      const pcts = versions.filter((v) => v.platform === platform).reduce((s, v) => s + (v.pct as number), 0)
      t.ok(Math.abs(pcts - 100) < 0.05 * n, `${platform}: shares add up to 100 (${pcts})`)
    }
    const eof = await rows('reports/eof/detail', ['pid'])
    t.same(new Map((await rows('reports/eof/summary', ['pid', 'count'])).map((e) => [e.pid, e.count])), tally(eof, (e) => String(e.pid)), 'end of life summary')

    // the snapshot's figures are its rows'
    const snap = (await all(t, app, 'management/snapshots', undefined, ['id', 'interfaceActiveCount', 'interfaceEdgeCount', 'userCount', 'loadedSize', 'unloadedSize', 'fromArchive', 'interfaceCount'])).find((s) => s.id === id)!
    t.equal(snap.interfaceActiveCount, interfaces.filter((i) => i.l2 === 'up').length, 'interfaceActiveCount: interfaces whose line protocol is up')
    t.equal(snap.interfaceCount, interfaces.length)
    // the dynamic MAC count each switch port keeps is its MAC table rows of type dynamic
    const learned = tally((await rows('addressing/mac', ['hostname', 'intName', 'type'])).filter((m) => m.type === 'dynamic'), (m) => key(m.hostname, m.intName))
    const ports = await rows('interfaces/switchports', ['hostname', 'intName', 'dynamicMacCount'])
    t.ok(ports.every((p) => p.dynamicMacCount === (learned.get(key(p.hostname, p.intName)) ?? 0)), 'dynamicMacCount: the dynamic MAC rows of the port')
    t.ok(ports.some((p) => (p.dynamicMacCount as number) > 1), 'ports with several hosts')
    const edges = new Set((await rows('addressing/mac', ['sn', 'intName', 'edge'])).filter((m) => m.edge).map((m) => key(m.sn, m.intName)))
    t.equal(snap.interfaceEdgeCount, edges.size, 'interfaceEdgeCount: ports facing hosts')
    t.equal(snap.userCount, new Set((await rows('addressing/hosts', ['mac'])).map((h) => h.mac)).size, 'userCount: distinct end hosts')
    t.ok((snap.loadedSize as number) > (snap.unloadedSize as number) && (snap.unloadedSize as number) > 0, `sizes: ${snap.loadedSize} with indexes, ${snap.unloadedSize} without`)
    t.equal(snap.fromArchive, false)

    // configurations across snapshots: one row per device and configuration seen
    const second = await app.discover({ profile: 'small', sites: ['ROME-01', 'BERLIN-02'] })
    const configs = await all(t, app, 'management/configuration', undefined, ['sn', 'hash', 'lastChangeAt', 'lastCheckAt', 'snapshotCount'])
    const saved = [...(await all(t, app, 'management/configuration/saved', id, ['sn', 'hash'])), ...(await all(t, app, 'management/configuration/saved', second, ['sn', 'hash']))]
    t.equal(configs.length, new Set(saved.map((c) => key(c.sn, c.hash))).size, 'distinct configurations of both snapshots')
    t.ok(configs.every((c) => (c.lastChangeAt as number) <= (c.lastCheckAt as number)))
    t.ok(configs.some((c) => c.snapshotCount === 2), 'unchanged configurations are seen by both')
    // discovery history: each device of the latest discovery run that holds it
    const history = await all(t, app, 'inventory/discovery-history', undefined, ['sn', 'hostname', 'loginIp', 'loginType', 'ts', 'snapshot', 'username'])
    const latest = await all(t, app, 'inventory/devices', second, ['sn', 'hostname'])
    const tsOf = new Map((await all(t, app, 'management/snapshots', undefined, ['id', 'tsStart'])).map((x) => [x.id, x.tsStart]))
    t.same(history.map((h) => h.sn).sort(), latest.map((d) => d.sn).sort(), 'every device discovered, once')
    t.ok(history.every((h) => h.snapshot === second && h.ts === tsOf.get(second) && h.username === null), 'from the latest run that found it')

  })
}

t.test('v4 camelCase names answer under /api/v1/; GET tables lists the catalog', async (t) => {
  const db = await freshDb(t, 'pglite')
  const app = await startApp(t, db)
  const id = await app.discover({ sites: ['ROME-01'] })
  const v1 = { [INTERNAL_HEADER]: encodeInternal({ secret: SECRET, principal: encodePrincipal(ALICE), apiVersion: 1, generation: 'original' }) }
  const aliases = ENDPOINTS.find((e) => e.path === 'tables/*')!.legacyAliases ?? []
  const legacy = TABLES.flatMap((x) => (x.legacyPaths ?? []).map((p) => [p, x.path] as const))
  t.same(legacy.map(([p]) => `tables/${p}`).filter((p) => !aliases.includes(p)), [], 'the manifest lists every v4 name of the catalog')
  for (const [old, path] of legacy) {
    const body = { snapshot: id, columns: ['id'], pagination: { limit: 3 } }
    const a = await app.call('POST', `tables/${old}`, body, v1)
    const b = await app.call('POST', `tables/${path}`, body)
    t.equal(a.status, 200, `${old}: ${a.text.slice(0, 100)}`)
    t.same(a.body, b.body, `${old} is ${path}`)
  }
  const list = await app.call('GET', 'tables')
  t.equal(list.status, 200)
  const tables = list.body as Array<{ path: string; description: string; snapshotScoped: boolean; columns: Array<{ name: string; type: string; description: string }> }>
  t.same(tables.map((x) => x.path), TABLES.map((x) => x.path), 'every table, in catalog order')
  t.ok(tables.every((x) => x.description.length > 10 && x.columns.length > 0 && x.columns.every((c) => c.type && c.description)), 'each with its description and columns')
  t.match(tables.find((x) => x.path === 'vlan/device-summary'), { legacyPaths: ['vlan/deviceSummary'], snapshotScoped: true, defaultSort: { column: 'hostname' } })
})
