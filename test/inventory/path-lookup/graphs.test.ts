/**
 * Path lookup on a hand-made snapshot (network.ts) through `POST graphs`: every end reason of a
 * branch, ECMP fan-out into both branches, switched hops from MAC tables, recursive next hops,
 * the return path's asymmetry, host to gateway, the answer's graph as IP Fabric's diagram clients
 * read it, and 422s for what cannot be looked up.
 */
import t from 'tap'
import { Resvg } from '@resvg/resvg-js'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { freshDb } from '../../helpers/db.js'
import { asVersion, startApp } from '../app.js'
import { HOSTS, snapshotFile } from './network.js'

const SHOTS = join(resolve(import.meta.dirname, '../../..'), '.tap', 'screenshots', 'path')
const NDJSON = { 'content-type': 'application/x-ndjson' }

interface Branch {
  hops: Array<{ kind: string; device: { hostname: string }; ingress: string | null; egress: string | null; route?: { network: string }; mac?: unknown }>
  end: string
  detail: string
}
interface Answer {
  graphResult: { graphData: { nodes: Record<string, { label: string; type: string }>; edges: Record<string, Record<string, unknown>> }; settings: { edges: Array<{ id: string }> } }
  pathlookup: { passingTraffic: string; decisions: Record<string, { traces: Array<{ trace: Array<{ events: Array<{ type: string; reason?: string }> }> }> }> }
  paths: { branches: Branch[]; entry: { device: { hostname: string }; how: string } | null }
}

const unicast = (snapshot: string, src: string, dst: string, extra: Record<string, unknown> = {}) => ({
  snapshot,
  parameters: {
    type: 'pathLookup', groupBy: 'siteName', pathLookupType: 'unicast', networkMode: false, protocol: 'tcp', ttl: 128, fragmentOffset: 0, securedPath: true,
    enableRegions: false, srcRegions: '.*', dstRegions: '.*', l4Options: { srcPorts: '1024-65535', dstPorts: '80,443', flags: [] }, otherOptions: { applications: '.*', tracked: false },
    firstHopAlgorithm: { type: 'automatic' }, startingPoint: src, destinationPoint: dst, ...extra,
  },
})

const routers = (b: Branch) => b.hops.map((h) => h.device.hostname).join('>')

t.test('path lookups on a hand-made snapshot', async (t) => {
  const db = await freshDb(t, 'pglite')
  const api = await startApp(t, db)
  const upload = async (file: string) => {
    const r = await api.call('POST', 'snapshots/upload', file, NDJSON)
    t.equal(r.status, 201, r.text.slice(0, 300))
    return (r.body as { id: string }).id
  }
  const id = await upload(snapshotFile())
  const look = async (src: string, dst: string, snapshot = id): Promise<Answer> => {
    const r = await api.call('POST', 'graphs', unicast(snapshot, `${src}/32`, `${dst}/32`))
    t.equal(r.status, 200, r.text.slice(0, 300))
    return r.body as Answer
  }
  const ends = async (src: string, dst: string) => (await look(src, dst)).paths.branches.map((b) => [routers(b), b.end])

  await t.test('ECMP: both equal-cost branches, each through the switch to the host', async (t) => {
    const a = await look(HOSTS.h1, HOSTS.h2)
    t.same(a.paths.entry?.device.hostname, 'R1')
    t.same(a.paths.entry?.how, 'host gateway')
    t.same(a.paths.branches.map((b) => [routers(b), b.end]).sort(), [['R1>R2>R4>SW1', 'delivered'], ['R1>R3>R4>SW1', 'delivered']])
    const b = a.paths.branches[0]!
    t.match(b.hops[0], { kind: 'l3', ingress: 'Gi0/0', egress: 'Gi0/1', route: { network: '10.2.2.0/24', protocol: 'ospf', nhCount: 2 }, arp: { ip: '10.0.12.2' } })
    t.match(b.hops[3], { kind: 'l2', ingress: 'Gi1/24', egress: 'Gi1/2', mac: { mac: '0050.5600.0002', vlan: 10 } })
    t.equal(a.pathlookup.passingTraffic, 'all')
    const nodes = Object.values(a.graphResult.graphData.nodes).map((n) => n.label).sort()
    t.same(nodes, [HOSTS.h1, HOSTS.h2, 'R1', 'R2', 'R3', 'R4', 'SW1'], 'the graph: both hosts, every device of both branches')
    const edges = a.graphResult.graphData.edges
    const ids = new Set(Object.keys(edges))
    const settings = new Set(a.graphResult.settings.edges.map((e) => e.id))
    for (const e of Object.values(edges)) {
      t.ok(a.graphResult.graphData.nodes[String(e.source)] && a.graphResult.graphData.nodes[String(e.target)], 'each edge joins two nodes')
      t.ok(settings.has(String(e.edgeSettingsId)), 'each edge names edge settings of the answer')
      for (const x of [...(e.prevEdgeIds as string[]), ...(e.nextEdgeIds as string[])]) t.ok(ids.has(x), 'prev and next edges exist')
    }
    const r1 = Object.keys(edges).find((k) => k.startsWith('device/r1@Gi0/1'))!
    t.same(edges[r1]!.nextEdgeIds, ['device/r2@Gi0/1--device/r4@Gi0/1'])
  })

  await t.test('every end reason', async (t) => {
    t.same(await ends(HOSTS.h1, '10.9.1.1'), [['R1', 'blackhole']])
    t.same(await ends(HOSTS.h1, '172.16.0.1'), [['R1', 'no route']])
    t.same(await ends(HOSTS.h1, '10.7.0.1'), [['R1>R2>R1', 'loop']])
    t.same(await ends(HOSTS.h1, '10.5.0.1'), [['R1', 'unmanaged neighbour']], 'a recursive next hop resolved to its port')
    t.same(await ends(HOSTS.h1, '10.6.0.1'), [['R1', 'left the discovered network']])
    t.same((await ends(HOSTS.h1, '10.2.2.20')).sort(), [['R1>R2>R4', 'ARP incomplete'], ['R1>R3>R4', 'ARP incomplete']])
    t.same(await ends(HOSTS.h1, '10.0.0.4'), [['R1>R2>R4', 'delivered']], 'an address of a device')
    const drop = (await look(HOSTS.h1, '10.9.1.1')).pathlookup
    t.equal(drop.passingTraffic, 'none')
    t.match(drop.decisions['device/r1']!.traces[0]!.trace[0]!.events, [{ type: 'table entry match' }, { type: 'drop packet', reason: 'blackhole' }])
  })

  await t.test('the return path differs: r4 sends back through r2 only', async (t) => {
    t.same(await ends(HOSTS.h2, HOSTS.h1), [['R4>R2>R1', 'delivered']])
  })

  await t.test('a lookup from a router address and from an address only ARP knows', async (t) => {
    const a = await look('10.0.24.2', HOSTS.h1)
    t.equal(a.paths.entry?.how, 'device address')
    t.same(a.paths.branches.map(routers), ['R4>R2>R1'])
  })

  await t.test('host to default gateway: over the switch the host was learned on', async (t) => {
    const r = await api.call('POST', 'graphs', { snapshot: id, parameters: { pathLookupType: 'hostToDefaultGW', type: 'pathLookup', groupBy: 'siteName', startingPoint: HOSTS.h2 } })
    t.equal(r.status, 200, r.text.slice(0, 300))
    const a = r.body as Answer
    t.same(a.paths.branches.map((b) => [routers(b), b.end]), [['SW1>R4', 'delivered']])
    t.match(a.paths.branches[0]!.hops[0], { ingress: 'Gi1/2', egress: 'Gi1/24' })
  })

  await t.test('site topology: the devices of the sites, one edge per link from the neighbours table', async (t) => {
    const site = await api.call('POST', 'graphs', { snapshot: id, parameters: { type: 'topology', groupBy: 'siteName', paths: ['SITE-B'] } })
    t.equal(site.status, 200, site.text.slice(0, 300))
    const g = (site.body as { graphResult: { graphData: { nodes: Record<string, { label: string; boxId: string }>; edges: Record<string, { source: string; target: string; labels: { source: Array<{ text: string }> } }> } } }).graphResult.graphData
    t.same(Object.values(g.nodes).map((n) => n.label).sort(), ['R2', 'R3', 'R4', 'SW1'])
    t.same(Object.values(g.edges).map((e) => [e.source, e.target, e.labels.source[0]!.text]).sort(), [['device/r2', 'device/r4', 'Gi0/1'], ['device/r4', 'device/sw1', 'Gi0/0']], 'each link both ends report, once')
    const all = await api.call('POST', 'graphs', { snapshot: id, parameters: { type: 'topology', paths: ['$main'] } })
    t.equal(Object.keys((all.body as { graphResult: { graphData: { nodes: object } } }).graphResult.graphData.nodes).length, 5, '$main: every site')
  })

  await t.test('a broken copy: the ARP entry of h2 removed', async (t) => {
    const broken = await upload(snapshotFile((tables) => (tables['addressing/arp'] = tables['addressing/arp']!.filter((r) => r.ip !== HOSTS.h2))))
    const a = await look(HOSTS.h1, HOSTS.h2, broken)
    t.same(a.paths.branches.map((b) => b.end), ['ARP incomplete', 'ARP incomplete'])
    t.match(a.paths.branches[0]!.detail, /no device has an ARP entry for 10\.2\.2\.10 \(R4 Gi0\/0\)/)
  })

  await t.test('drawings: graphs/svg and graphs/png draw the same graph', async (t) => {
    const raw = async (path: string, body: unknown) => {
      const r = await fetch(`${api.url}/api/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...asVersion(1) }, body: JSON.stringify(body) })
      return { status: r.status, type: r.headers.get('content-type'), bytes: Buffer.from(await r.arrayBuffer()) }
    }
    const ask = unicast(id, `${HOSTS.h1}/32`, `${HOSTS.h2}/32`)
    const json = (await api.call('POST', 'graphs', ask)).body as Answer
    const svg = await raw('graphs/svg', ask)
    t.equal(svg.status, 200)
    t.equal(svg.type, 'image/svg+xml; charset=utf-8')
    const text = svg.bytes.toString('utf8')
    const parsed = new Resvg(text)
    t.ok(parsed.width > 0 && parsed.height > 0, 'an SVG a renderer reads')
    for (const n of Object.values(json.graphResult.graphData.nodes)) t.match(text, `>${n.label}</text>`, `${n.label} is drawn`)
    t.equal(text.match(/<g class="edge">/g)?.length, Object.keys(json.graphResult.graphData.edges).length, 'every edge of the graph, once')
    t.match(text, '>Gi0/1</text>', 'interfaces at the link ends')
    t.match(text, 'marker-end="url(#arrow', 'the path has a direction')
    t.notMatch(text, '#d62728', 'every branch delivers: nothing red')
    t.match(text, `<title>netinv path from ${HOSTS.h1} to ${HOSTS.h2}</title>`)

    const dropped = await raw('graphs/svg', unicast(id, `${HOSTS.h1}/32`, '10.9.1.1/32'))
    t.match(dropped.bytes.toString('utf8'), /stroke="#d62728" stroke-width="2" stroke-dasharray/, 'a blackholed branch is red and dashed')
    t.match(dropped.bytes.toString('utf8'), '<text class="drop"', 'the device that drops it says why')
    t.match(dropped.bytes.toString('utf8'), '>dropped: blackhole</text>')
    t.notMatch(text, 'class="drop"', 'no drop on a delivered path')

    const site = await raw('graphs/svg', { snapshot: id, parameters: { type: 'topology', groupBy: 'siteName', paths: ['SITE-B'] } })
    t.equal(site.status, 200)
    t.match(site.bytes.toString('utf8'), /<g class="site">.*>SITE-B<\/text>/s, 'a site is a box with its name')
    t.notMatch(site.bytes.toString('utf8'), 'marker-end', 'links of a topology have no direction')

    const png = await raw('graphs/png', ask)
    // Kept to be looked at, as the browser tests' screenshots are.
    mkdirSync(SHOTS, { recursive: true })
    writeFileSync(join(SHOTS, 'ecmp-path.png'), png.bytes)
    writeFileSync(join(SHOTS, 'blackhole-path.png'), (await raw('graphs/png', unicast(id, `${HOSTS.h1}/32`, '10.9.1.1/32'))).bytes)
    writeFileSync(join(SHOTS, 'site-b.png'), (await raw('graphs/png', { snapshot: id, parameters: { type: 'topology', groupBy: 'siteName', paths: ['$main'] } })).bytes)
    t.equal(png.status, 200)
    t.equal(png.type, 'image/png')
    t.same([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG file')
    t.same([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)], [parsed.width, parsed.height], 'the size of the SVG drawing')

    const bad = await api.call('POST', 'graphs/png', unicast(id, '10.1.1.0/24', HOSTS.h2))
    t.equal(bad.status, 422, 'a lookup that cannot be made is the same 422 as for graphs')
    t.match(bad.body, { code: 'API_INVALID_INPUT', message: /startingPoint/ })
  })

  await t.test('what cannot be looked up is a 422 naming it', async (t) => {
    const bad: Array<[string, unknown, RegExp]> = [
      ['a subnet', unicast(id, '10.1.1.0/24', HOSTS.h2), /^"parameters\.startingPoint" must be an IPv4 or IPv6 address/],
      ['no destination', { snapshot: id, parameters: { type: 'pathLookup', pathLookupType: 'unicast', startingPoint: HOSTS.h1 } }, /^"parameters\.destinationPoint" is required/],
      ['multicast', { snapshot: id, parameters: { type: 'pathLookup', pathLookupType: 'multicast', startingPoint: HOSTS.h1 } }, /^"parameters\.pathLookupType" must be one of \[unicast, hostToDefaultGW\]/],
      ['a bad port list', unicast(id, HOSTS.h1, HOSTS.h2, { l4Options: { dstPorts: '80-20' } }), /^"parameters\.l4Options\.dstPorts" must be ports/],
      ['an unknown key', { ...unicast(id, HOSTS.h1, HOSTS.h2), extra: 1 }, /^"extra" is not allowed/],
      ['an unknown source', unicast(id, '192.0.2.1', HOSTS.h2), /^"parameters\.startingPoint" 192\.0\.2\.1 is not in the snapshot/],
      ['no snapshot', { parameters: unicast(id, HOSTS.h1, HOSTS.h2).parameters }, /^"snapshot" must be a snapshot id/],
    ]
    for (const [what, body, message] of bad) {
      const r = await api.call('POST', 'graphs', body)
      t.equal(r.status, 422, what)
      t.match(r.body, { code: 'API_INVALID_INPUT', message }, what)
    }
    const missing = await api.call('POST', 'graphs', unicast('no-such-snapshot', HOSTS.h1, HOSTS.h2))
    t.equal(missing.status, 404)
    const host = await api.call('POST', 'graphs', { snapshot: id, parameters: { type: 'pathLookup', pathLookupType: 'hostToDefaultGW', startingPoint: '10.0.24.2' } })
    t.equal(host.status, 422, 'host to gateway from an address that is no end host')
  })
})
