/**
 * IPv6 path lookup on the hand-made snapshot (network.ts): longest-prefix match in the IPv6
 * routing tables (a /128 blackhole inside a /64, ::/0 when nothing else matches), both ECMP
 * branches, IPv6 neighbour entries to the next hop's MAC address, a link-local next hop followed
 * over the LLDP neighbour of its port, the switch in front of the host by its MAC table; IPv6
 * end hosts from the neighbour caches (a unicast lookup enters at the host's gateway, host to
 * gateway crosses the switch the host was learned on), and a copy without r4's neighbour entry
 * of h2, where h2 is no end host; and the 422s for an address that is none, no end host, or a
 * pair of two families.
 */
import t from 'tap'
import { freshDb } from '../../helpers/db.js'
import { startApp } from '../app.js'
import { HOSTS, HOSTS6, snapshotFile } from './network.js'

interface Hop {
  kind: string
  device: { hostname: string }
  ingress: string | null
  egress: string | null
  route?: { network: string; protocol: string | null; nhCount: number; nexthop: { ip: string | null } }
  arp?: { ip: string; mac: string }
  mac?: { mac: string; vlan: number | null }
}
interface Branch {
  hops: Hop[]
  end: string
  detail: string
}
interface Answer {
  paths: { src: string; dst: string; branches: Branch[]; entry: { device: { hostname: string }; how: string } | null }
  graphResult: { graphData: { nodes: Record<string, { label: string }>; edges: Record<string, { source: string; target: string }> } }
}

const unicast = (snapshot: string, src: string, dst: string) => ({
  snapshot,
  parameters: { type: 'pathLookup', pathLookupType: 'unicast', protocol: 'icmp', startingPoint: src, destinationPoint: dst, l4Options: { type: 128, code: 0 } },
})
const toGateway = (snapshot: string, src: string, vrf?: string) => ({
  snapshot,
  parameters: { type: 'pathLookup', pathLookupType: 'hostToDefaultGW', startingPoint: src, ...(vrf === undefined ? {} : { vrf }) },
})
const devices = (b: Branch) => b.hops.map((h) => h.device.hostname).join('>')

t.test('IPv6 path lookups on a hand-made snapshot', async (t) => {
  const api = await startApp(t, await freshDb(t, 'pglite'))
  const up = await api.call('POST', 'snapshots/upload', snapshotFile(), { 'content-type': 'application/x-ndjson' })
  t.equal(up.status, 201, up.text.slice(0, 300))
  const id = (up.body as { id: string }).id
  const look = async (src: string, dst: string): Promise<Answer> => {
    const r = await api.call('POST', 'graphs', unicast(id, src, dst))
    t.equal(r.status, 200, r.text.slice(0, 300))
    return r.body as Answer
  }
  const ends = async (src: string, dst: string) => (await look(src, dst)).paths.branches.map((b) => [devices(b), b.end]).sort()

  await t.test('h1 to h2: both ECMP branches, neighbour entries to each next hop, a link-local next hop, the switch', async (t) => {
    const a = await look(HOSTS6.h1, HOSTS6.h2)
    t.match(a.paths.entry, { device: { hostname: 'R1' }, how: 'host gateway' }, 'h1 is an end host: it enters at its gateway r1, whose neighbour cache holds it')
    t.same(a.paths.branches.map((b) => [devices(b), b.end]).sort(), [['R1>R2>R4>SW1', 'delivered'], ['R1>R3>R4>SW1', 'delivered']])
    const [viaR2, viaR3] = [...a.paths.branches].sort((x, y) => devices(x).localeCompare(devices(y)))
    t.match(viaR2!.hops[0], { kind: 'l3', ingress: 'Gi0/0', egress: 'Gi0/1', route: { network: '2001:db8:2::/64', protocol: 'ospfv3', nhCount: 2, nexthop: { ip: '2001:db8:12::2' } }, arp: { ip: '2001:db8:12::2', mac: '0c00.0002.0000' } })
    t.match(viaR2!.hops[1], { kind: 'l3', device: { hostname: 'R2' }, ingress: 'Gi0/0', egress: 'Gi0/1', route: { nexthop: { ip: 'fe80::4' } } })
    t.notOk(viaR2!.hops[1]!.arp, 'no neighbour entry for a link-local next hop: discovery keeps none')
    t.match(viaR2!.hops[2], { kind: 'l3', device: { hostname: 'R4' }, ingress: 'Gi0/1', egress: 'Gi0/0', route: { network: '2001:db8:2::/64', protocol: 'connected' }, arp: { ip: HOSTS6.h2, mac: '0050.5600.0002' } })
    t.match(viaR2!.hops[3], { kind: 'l2', device: { hostname: 'SW1' }, ingress: 'Gi1/24', egress: 'Gi1/2', mac: { mac: '0050.5600.0002', vlan: 10 } })
    t.match(viaR3!.hops[1], { device: { hostname: 'R3' }, ingress: 'Gi0/0', egress: 'Gi0/1', arp: { ip: '2001:db8:34::2' } })
    t.match(viaR2!.detail, HOSTS6.h2)
    t.same(Object.values(a.graphResult.graphData.nodes).map((n) => n.label).sort(), [HOSTS6.h1, HOSTS6.h2, 'R1', 'R2', 'R3', 'R4', 'SW1'].sort(), 'the graph draws both IPv6 hosts')
    t.ok(Object.values(a.graphResult.graphData.edges).some((e) => e.source === `host/${HOSTS6.h1}` && e.target === 'device/r1'), 'the source host joins its gateway')
  })

  await t.test('host to gateway from IPv6 end hosts: over the switch port the host was learned on, to the router whose neighbour cache holds it', async (t) => {
    const r = await api.call('POST', 'graphs', toGateway(id, HOSTS6.h2))
    t.equal(r.status, 200, r.text.slice(0, 300))
    const a = r.body as Answer
    t.equal(a.paths.src, HOSTS6.h2)
    t.equal(a.paths.dst, '2001:db8:2::1', 'the gateway\'s own address on the host\'s network')
    t.same(a.paths.branches.map((b) => [devices(b), b.end]), [['SW1>R4', 'delivered']])
    const [sw1, r4] = a.paths.branches[0]!.hops
    t.match(sw1, { kind: 'l2', device: { hostname: 'SW1' }, ingress: 'Gi1/2', egress: 'Gi1/24', mac: { mac: '0c00.0004.0000', vlan: 10 } }, 'the access port of h2, out towards the gateway\'s MAC address')
    t.match(r4, { kind: 'l3', device: { hostname: 'R4' }, ingress: 'Gi0/0', egress: null })
    t.equal(a.paths.branches[0]!.detail, '2001:db8:2::1 on R4 Gi0/0')
    t.same(Object.values(a.graphResult.graphData.nodes).map((n) => n.label).sort(), [HOSTS6.h2, 'R4', 'SW1'].sort())
    const long = await api.call('POST', 'graphs', toGateway(id, '2001:0db8:0001:0000:0000:0000:0000:0010/128'))
    t.equal(long.status, 200, long.text.slice(0, 300))
    t.same((long.body as Answer).paths.branches.map((b) => [devices(b), b.end, b.detail]), [['R1', 'delivered', '2001:db8:1::1 on R1 Gi0/0']], 'h1, written in its long form: no switch in front of it, its gateway r1')
  })

  await t.test('a link-local next hop behind a switch: the MAC address of its EUI-64 identifier, through the switch\'s MAC table, to the router past it', async (t) => {
    // r2 reaches r4 over a switch sw2, by r4's EUI-64 link-local address fe80::e00:ff:fe04:1
    // (made from r4 Gi0/1's MAC address 0c00.0004.0001); sw2 learned that MAC on its port to r4
    const file = snapshotFile((tables) => {
      tables['inventory/devices'] = [...tables['inventory/devices']!, { id: 'sw2', sn: 'sw2', hostname: 'SW2', siteName: 'SITE-B', devType: 'switch' }]
      const link = (a: [string, string, string], b: [string, string, string]) => ({ id: `${a[0]}-${b[0]}`, localSn: a[0], localHost: a[1], localInt: a[2], remoteSn: b[0], remoteHost: b[1], remoteInt: b[2], siteName: 'SITE-B' })
      const r2: [string, string, string] = ['r2', 'R2', 'Gi0/1']
      const r4: [string, string, string] = ['r4', 'R4', 'Gi0/1']
      const toR2: [string, string, string] = ['sw2', 'SW2', 'Gi1/1']
      const toR4: [string, string, string] = ['sw2', 'SW2', 'Gi1/2']
      tables['neighbors/all'] = [...tables['neighbors/all']!.filter((n) => !String(n.id).includes('r2-r4') && !String(n.id).includes('r4-r2')), link(r2, toR2), link(toR2, r2), link(r4, toR4), link(toR4, r4)]
      tables['addressing/mac'] = [
        ...tables['addressing/mac']!,
        { id: 'sw2/20/r4', sn: 'sw2', hostname: 'SW2', siteName: 'SITE-B', intName: 'Gi1/2', mac: '0c00.0004.0001', vlan: 20, edge: false, type: 'dynamic', source: 'forwarding' },
        { id: 'sw2/20/r2', sn: 'sw2', hostname: 'SW2', siteName: 'SITE-B', intName: 'Gi1/1', mac: '0c00.0002.0001', vlan: 20, edge: false, type: 'dynamic', source: 'forwarding' },
      ]
      for (const r of tables['networks/ipv6-routes']!) {
        if (r.sn === 'r2' && r.network === '2001:db8:2::/64') r.nexthop = [{ ip: 'fe80::e00:ff:fe04:1', intName: 'Gi0/1', ad: 110, metric: 20, vrfLeak: null }]
      }
    })
    const up2 = await api.call('POST', 'snapshots/upload', file, { 'content-type': 'application/x-ndjson' })
    t.equal(up2.status, 201, up2.text.slice(0, 300))
    const other = (up2.body as { id: string }).id
    const r = await api.call('POST', 'graphs', unicast(other, HOSTS6.h1, HOSTS6.h2))
    t.equal(r.status, 200, r.text.slice(0, 300))
    const branches = (r.body as Answer).paths.branches
    t.same(branches.map((b) => [devices(b), b.end]).sort(), [['R1>R2>SW2>R4>SW1', 'delivered'], ['R1>R3>R4>SW1', 'delivered']], 'the switch is a hop, r4 the next router')
    const viaR2 = branches.find((b) => devices(b).startsWith('R1>R2'))!
    t.match(viaR2.hops[2], { kind: 'l2', device: { hostname: 'SW2' }, ingress: 'Gi1/1', egress: 'Gi1/2', mac: { mac: '0c:00:00:04:00:01', vlan: 20 } })
    t.match(viaR2.hops[3], { kind: 'l3', device: { hostname: 'R4' }, ingress: 'Gi0/1' })
  })

  await t.test('addressing/ipv6-hosts: the end hosts path lookup starts from, as a table', async (t) => {
    const r = await api.call('POST', 'tables/addressing/ipv6-hosts', { snapshot: id, columns: ['id', 'ipv6', 'mac', 'vlan', 'vrf', 'siteName', 'edges', 'gateways', 'type', 'uniqId'] })
    t.equal(r.status, 200, r.text.slice(0, 300))
    const rows = (r.body as { data: Array<Record<string, unknown>> }).data
    t.same(rows.map((x) => x.ipv6), [HOSTS6.h1, HOSTS6.h2], 'the two hosts, no router address among them')
    t.same(rows[1], {
      id: HOSTS6.h2,
      ipv6: HOSTS6.h2,
      mac: '0050.5600.0002',
      vlan: 10,
      vrf: '',
      siteName: 'SITE-B',
      edges: [{ sn: 'sw1', hostname: 'SW1', intName: 'Gi1/2' }],
      gateways: [{ sn: 'r4', hostname: 'R4', intName: 'Gi0/0', ip: '2001:db8:2::1' }],
      type: null,
      uniqId: `/${HOSTS6.h2}`,
    })
    t.match(rows[0], { edges: [], gateways: [{ sn: 'r1', intName: 'Gi0/0', ip: '2001:db8:1::1' }] }, 'h1: no switch in front of it')
  })

  await t.test('a copy where r4 has no neighbour entry of h2: h2 is no end host, and its way out enters at the router attached to its network', async (t) => {
    const file = snapshotFile((tables) => {
      tables['addressing/arp'] = tables['addressing/arp']!.filter((r) => r.ip !== HOSTS6.h2)
    })
    const copy = await api.call('POST', 'snapshots/upload', file, { 'content-type': 'application/x-ndjson' })
    t.equal(copy.status, 201, copy.text.slice(0, 300))
    const other = (copy.body as { id: string }).id
    const hosts = await api.call('POST', 'tables/addressing/ipv6-hosts', { snapshot: other, columns: ['ipv6'] })
    t.same((hosts.body as { data: unknown[] }).data, [{ ipv6: HOSTS6.h1 }], 'h2 is no row of the table')
    const r = await api.call('POST', 'graphs', toGateway(other, HOSTS6.h2))
    t.equal(r.status, 422, r.text.slice(0, 300))
    t.match(r.body, { code: 'API_INVALID_INPUT', errors: [{ message: `"parameters.startingPoint" ${HOSTS6.h2} is no end host of the snapshot` }] })
    const u = await api.call('POST', 'graphs', unicast(other, HOSTS6.h2, HOSTS6.h1))
    t.equal(u.status, 200, u.text.slice(0, 300))
    t.match((u.body as Answer).paths.entry, { device: { hostname: 'R4' }, how: 'connected network' })
  })

  await t.test('the longest prefix wins: a /128 blackhole inside the /64, ::/0 only for what nothing else matches', async (t) => {
    t.same(await ends(HOSTS6.h1, '2001:db8:2::99'), [['R1', 'blackhole']])
    t.same(await ends(HOSTS6.h1, '2001:db8:2::98'), [['R1>R2>R4', 'ARP incomplete'], ['R1>R3>R4', 'ARP incomplete']], 'beside the /128: the /64, and r4 has no neighbour entry')
    const far = await look(HOSTS6.h1, '2001:db8:99::1')
    t.same(far.paths.branches.map((b) => [devices(b), b.end]), [['R1>R2', 'no route']], 'over the default route to r2, which has none')
    t.match(far.paths.branches[0]!.hops[0]!.route, { network: '::/0', nhCount: 1 })
    t.match(far.paths.branches[0]!.detail, 'R2 has no route to 2001:db8:99::1')
  })

  await t.test('the return path, from a router address, and addresses written in their long form', async (t) => {
    t.same(await ends(HOSTS6.h2, HOSTS6.h1), [['R4>R3>R1', 'delivered']], 'r4 returns through r3 only')
    const a = await look('2001:db8:34::2', HOSTS6.h1)
    t.equal(a.paths.entry?.how, 'device address')
    t.same(await ends('2001:0DB8:0001:0000:0000:0000:0000:0010/128', '2001:db8:2:0::10'), [['R1>R2>R4>SW1', 'delivered'], ['R1>R3>R4>SW1', 'delivered']])
    t.equal((await look('2001:0DB8:0001::0010', HOSTS6.h2)).paths.src, HOSTS6.h1, 'the answer names the address in its short form')
  })

  await t.test('what cannot be looked up is a 422 in the documented shape', async (t) => {
    const bad: Array<[string, unknown, RegExp]> = [
      ['IPv6 to IPv4', unicast(id, HOSTS6.h1, HOSTS.h2), /^"parameters\.destinationPoint" must be an IPv6 address as "parameters\.startingPoint" is/],
      ['IPv4 to IPv6', unicast(id, HOSTS.h1, HOSTS6.h2), /^"parameters\.destinationPoint" must be an IPv4 address as "parameters\.startingPoint" is/],
      ['a subnet', unicast(id, '2001:db8:1::/64', HOSTS6.h2), /^"parameters\.startingPoint" must be an IPv4 or IPv6 address/],
      ['a /32 of an IPv6 address', unicast(id, '2001:db8:1::10/32', HOSTS6.h2), /^"parameters\.startingPoint" must be an IPv4 or IPv6 address/],
      ['two double colons', unicast(id, HOSTS6.h1, '2001::db8::1'), /^"parameters\.destinationPoint" must be an IPv4 or IPv6 address/],
      ['a zone', unicast(id, 'fe80::1%eth0', HOSTS6.h2), /^"parameters\.startingPoint" must be an IPv4 or IPv6 address/],
      ['no hex', unicast(id, HOSTS6.h1, '2001:db8::g'), /^"parameters\.destinationPoint" must be an IPv4 or IPv6 address/],
      ['an unknown source', unicast(id, '2001:db8:77::1', HOSTS6.h2), /^"parameters\.startingPoint" 2001:db8:77::1 is not in the snapshot/],
      ['host to gateway from a router\'s own address, which r1\'s neighbour cache holds', toGateway(id, '2001:db8:12::2'), /^"parameters\.startingPoint" 2001:db8:12::2 is no end host of the snapshot$/],
      ['host to gateway from an address in no neighbour cache', toGateway(id, '2001:db8:2::20'), /^"parameters\.startingPoint" 2001:db8:2::20 is no end host of the snapshot$/],
      ['host to gateway from a host of another VRF', toGateway(id, HOSTS6.h2, 'blue'), /^"parameters\.startingPoint" 2001:db8:2::10 is no end host of the snapshot in VRF blue$/],
      ['host to gateway from a subnet', toGateway(id, '2001:db8:2::/64'), /^"parameters\.startingPoint" must be an IPv4 or IPv6 address/],
    ]
    for (const [what, body, message] of bad) {
      const r = await api.call('POST', 'graphs', body)
      t.equal(r.status, 422, what)
      t.match(r.body, { code: 'API_INVALID_INPUT', message, errors: [{ message }] }, what)
    }
  })
})
