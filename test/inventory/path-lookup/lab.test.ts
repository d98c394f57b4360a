/**
 * Path lookup against reality: a lab of FRR routers (OSPF, iBGP and eBGP, ECMP over a square),
 * whose agents answer their forwarding table as a vendor's do (every ECMP next hop, blackhole
 * routes as such: src/lab/route-agent.ts), with h1 behind a switch (a Linux bridge answering
 * BRIDGE-MIB: src/lab/bridge-agent.ts) on r1. For every ordered pair of end hosts, Debian's
 * traceroute inside the source host's namespace, then a discovery: the routers traceroute saw,
 * in order, are one of netinv's branches, and every branch is delivered; the switch is
 * discovered with its MAC table as the kernel's bridge has it, a path to h1 crosses it as a
 * switched hop after r1, and h1's way to its gateway goes over the switch port h1 was learned on.
 *
 * Then breaks, each held to what traceroute shows, rediscovering only the routers they change:
 * - h2 gone from its LAN (its address removed, r4's ARP entry of it deleted): traceroute ends at
 *   r4 with !H, netinv ends every branch at r4 with "ARP incomplete";
 * - a blackhole route on h1's gateway: traceroute gets no answer at all, netinv ends the path
 *   there with "blackhole";
 * - the r4–r5 link shut: r1's BGP route to h3's network is withdrawn, traceroute gets !N from r1,
 *   netinv says "no route" there.
 */
import t, { type Test } from 'tap'
import { hostAddresses, labMissing, type Topology } from '../../../src/lab/index.js'
import { freshPglite } from '../../helpers/db.js'
import { testLab } from '../../helpers/lab.js'
import { hasCommand, testNeeding } from '../../helpers/requirements.js'
import { startApp, type Client } from '../app.js'
import { branches, rows, squareTopology, type Branch } from './lab-square.js'

const pathTopology = (): Topology => squareTopology('path-lab', 215, { switched: true })

const routers = (b: Branch) => b.hops.filter((h) => h.kind === 'l3').map((h) => h.device.hostname).join('>')
const missing = labMissing() ?? (hasCommand('traceroute', ['-V']) ? undefined : 'traceroute (Debian package traceroute)')

/** Collects some devices of the snapshot again (what a break changed), not the whole lab. */
async function rediscover(t: Test, client: Client, snapshot: string, hostnames: string[]): Promise<void> {
  const devices = await rows(client, 'inventory/devices', { snapshot, columns: ['hostname', 'loginIp'], filters: { hostname: ['reg', `^(${hostnames.join('|')})$`] } })
  t.equal(devices.length, hostnames.length, `${hostnames.join(', ')} found in the snapshot`)
  const again = await client.call('POST', `snapshots/${snapshot}/devices`, { ipList: devices.map((d) => d.loginIp) })
  t.equal(again.status, 202, again.text)
  t.match(await client.waitJob((again.body as { jobId: string }).jobId), { status: 'done' })
}

testNeeding(t, 'paths in a lab of real routers and a switch against traceroute', missing, async (t) => {
  const topo = pathTopology()
  const lab = await testLab(t, topo)
  const client = await startApp(t, await freshPglite(t))
  t.equal((await client.call('POST', 'settings/snmp', { name: 'lab', version: '2c', community: topo.credentials.community })).status, 201)
  t.equal((await client.call('PUT', 'settings/seed', [lab.seed])).status, 200)
  t.equal((await client.call('PATCH', 'settings', { include: [topo.supernet], limits: { timeoutMs: 1000, retries: 1 } })).status, 200)

  const hosts = topo.hosts.map((h) => ({ name: h.name, ip: hostAddresses(h).address }))
  const [h1, h2, h3] = hosts as [(typeof hosts)[number], (typeof hosts)[number], (typeof hosts)[number]]
  const pairs = hosts.flatMap((a) => hosts.filter((b) => b !== a).map((b) => [a, b] as const))
  // the probes also leave the ARP entries along each path, and the switch's MAC entries, that a discovery then reads
  const traced = new Map<string, Array<string | null>>()
  for (const [a, b] of pairs) traced.set(`${a.name}>${b.name}`, await lab.traceroute(a.name, b.ip))

  const snapshot = await client.discover()
  const owner = new Map((await rows(client, 'addressing/managed-devs', { snapshot, columns: ['hostname', 'ip'] })).map((r) => [String(r.ip), String(r.hostname)]))
  const macOf = async (name: string, dev: string) => String((await lab.ipJson(name, ['link', 'show', 'dev', dev]))[0]!.address)
  const h1Mac = await macOf('h1', 'eth0')
  const r1Mac = await macOf('r1', 'eth3')

  await t.test('the route table holds every ECMP next hop', async (t) => {
    const ecmp = await rows(client, 'networks/routes', { snapshot, columns: ['nexthop'], filters: { hostname: ['eq', 'r1'], network: ['eq', topo.hosts[1]!.network] } })
    t.match(ecmp, [{ nexthop: [{ ip: '10.215.1.2', intName: 'eth1' }, { ip: '10.215.1.6', intName: 'eth2' }] }], 'r1 reaches h2 over r2 and r3')
  })

  await t.test('the switch is discovered with the MAC table its bridge has', async (t) => {
    t.match(await rows(client, 'inventory/devices', { snapshot, columns: ['hostname', 'devType', 'loginIp'], filters: { hostname: ['eq', 'sw1'] } }), [{ hostname: 'sw1', devType: 'switch', loginIp: '10.215.101.2' }], 'a switch: it bridges and forwards no IP')
    const addressing = await rows(client, 'addressing/managed-devs', { snapshot, columns: ['intName', 'ip', 'mac'], filters: { hostname: ['eq', 'sw1'] } })
    t.comment(`sw1's addresses: ${JSON.stringify(addressing)}`)
    // beside 127.0.0.1 on lo, which every lab agent lists
    t.same(addressing.filter((r) => r.intName !== 'lo').map((r) => [r.intName, r.ip, r.mac]), [['br0', '10.215.101.2', await macOf('sw1', 'br0')]], "managed on its bridge interface, in h1's network")
    const table = await rows(client, 'addressing/mac', { snapshot, columns: ['intName', 'mac', 'edge', 'type'], filters: { hostname: ['eq', 'sw1'] }, sort: { column: 'mac', order: 'asc' } })
    t.comment(`sw1's MAC table: ${JSON.stringify(table)}`)
    const learned = (await lab.fdb('sw1')).filter((e) => e.dynamic).map((e) => `${e.mac} ${e.port}`).sort()
    t.same(table.map((r) => `${String(r.mac)} ${String(r.intName)}`).sort(), learned, 'every learned entry of the bridge, and none of its own addresses')
    t.match(table.find((r) => r.mac === h1Mac), { intName: 'eth2', edge: true, type: 'dynamic' }, "h1's MAC on the host-facing port, an edge port")
    t.match(table.find((r) => r.mac === r1Mac), { intName: 'eth1', edge: false, type: 'dynamic' }, "r1's MAC on the uplink, where r1 is an LLDP neighbour")
    t.match(await rows(client, 'addressing/hosts', { snapshot, columns: ['ip', 'mac', 'edges', 'gateways'], filters: { ip: ['eq', h1.ip] } }), [{ mac: h1Mac, edges: [{ hostname: 'sw1', intName: 'eth2' }], gateways: [{ hostname: 'r1', intName: 'eth3' }] }], 'h1 is an end host learned on sw1 eth2, behind r1 eth3')
  })

  for (const [a, b] of pairs) {
    await t.test(`${a.name} → ${b.name}: the routers traceroute saw are one of netinv's branches`, async (t) => {
      const hops = traced.get(`${a.name}>${b.name}`)!
      t.equal(hops[hops.length - 1], b.ip, `traceroute reached ${b.ip}: ${JSON.stringify(hops)}`)
      t.notOk(hops.includes(null), 'every hop answered')
      const seen = hops.slice(0, -1).map((ip) => owner.get(String(ip)) ?? `unknown ${String(ip)}`).join('>')
      const found = await branches(client, snapshot, a.ip, b.ip)
      t.same(found.filter((x) => x.end !== 'delivered').map((x) => [routers(x), x.end, x.detail]), [], 'every branch is delivered')
      t.ok(found.map(routers).includes(seen), `traceroute ${seen} among netinv's ${found.map(routers).join(' | ')}`)
      const switched = found.map((x) => x.hops.filter((h) => h.kind === 'l2').map((h) => `${h.device.hostname} ${String(h.ingress)}>${String(h.egress)} ${h.mac?.mac ?? ''}`))
      if (b === h1) {
        // the last two hops of every branch: r1 out of eth3, then the switch from its uplink to h1's port
        t.same(found.map((x) => x.hops.slice(-2).map((h) => [h.kind, h.device.hostname, h.egress])), found.map(() => [['l3', 'r1', 'eth3'], ['l2', 'sw1', 'eth2']]), 'r1 routes out of eth3, sw1 switches to h1')
        t.same(switched, found.map(() => [`sw1 eth1>eth2 ${h1Mac}`]), "sw1 from its uplink to the port h1's MAC address was learned on")
      } else {
        // a lookup from h1 enters at its gateway: h1's way to it is host to gateway's (below), not part of the path
        t.same(switched, found.map(() => []), 'no switched hop')
      }
    })
  }

  await t.test("h1's way to its gateway: over the switch port h1 was learned on, then the uplink to r1", async (t) => {
    const r = await client.call('POST', 'graphs', { snapshot, parameters: { type: 'pathLookup', pathLookupType: 'hostToDefaultGW', startingPoint: h1.ip } })
    t.equal(r.status, 200, r.text.slice(0, 300))
    const paths = (r.body as { paths: { dst: string; branches: Branch[] } }).paths
    t.equal(paths.dst, hostAddresses(topo.hosts[0]!).gateway)
    t.same(
      paths.branches.map((b) => [b.end, b.hops.map((h) => [h.kind, h.device.hostname, h.ingress, h.egress, h.mac?.mac ?? null])]),
      [['delivered', [['l2', 'sw1', 'eth2', 'eth1', r1Mac], ['l3', 'r1', 'eth3', null, null]]]],
      "sw1 from h1's port to the port r1's MAC address was learned on, then r1 eth3",
    )
  })

  await t.test('h2 gone from its LAN: traceroute ends at r4 with !H, netinv ends each branch at r4 with ARP incomplete', async (t) => {
    const lan = topo.hosts[1]!
    await lab.removeHostAddress('h2', `${h2.ip}/${hostAddresses(lan).prefix}`)
    await lab.forgetNeighbour('r4', h2.ip, lan.interface)
    const hops = await lab.traceHops('h1', h2.ip, { waitSeconds: 6 })
    t.equal(hops[hops.length - 1]!.mark, '!H', `the last hop answers host unreachable: ${JSON.stringify(hops)}`)
    // r4 answers time exceeded for its own hop, then host unreachable: one router
    const seen = hops.map((h) => owner.get(String(h.ip)) ?? `unknown ${String(h.ip)}`).filter((x, i, all) => x !== all[i - 1]).join('>')
    await rediscover(t, client, snapshot, ['r4'])
    t.same(await rows(client, 'addressing/arp', { snapshot, columns: ['ip', 'mac'], filters: { hostname: ['eq', 'r4'], ip: ['eq', h2.ip] } }), [], `r4 holds no ARP entry with a MAC address for ${h2.ip}`)
    const found = await branches(client, snapshot, h1.ip, h2.ip)
    t.same([...new Set(found.map((x) => `${x.end} at ${routers(x).split('>').pop()!}`))], ['ARP incomplete at r4'], `every branch: ${found.map((x) => `${routers(x)} ${x.end} (${x.detail})`).join(' | ')}`)
    t.equal(found.length, 2, 'both ECMP branches')
    t.ok(found.map(routers).includes(seen), `traceroute ${seen} among netinv's ${found.map(routers).join(' | ')}`)
  })

  await t.test("a blackhole route on h1's gateway: traceroute gets no answer, netinv ends the path there with reason blackhole", async (t) => {
    const gateway = topo.hosts.find((h) => h.name === h1.name)!.router
    await lab.addBlackhole(gateway, `${h2.ip}/32`)
    t.same(await lab.traceroute(h1.name, h2.ip).then((x) => x.filter((ip) => ip !== null)), [], 'traceroute: no hop answers')
    await rediscover(t, client, snapshot, [gateway])
    const route = await rows(client, 'networks/routes', { snapshot, columns: ['nexthop'], filters: { hostname: ['eq', gateway], network: ['eq', `${h2.ip}/32`] } })
    t.match(route, [{ nexthop: [{ type: 'blackhole', ip: null, intName: null }] }], 'the blackhole route is collected as one')
    const found = await branches(client, snapshot, h1.ip, h2.ip)
    t.same(found.map((x) => [routers(x), x.end]), [[gateway, 'blackhole']])
  })

  await t.test('the r4–r5 link shut: traceroute gets !N from r1 where netinv says no route', async (t) => {
    await lab.shutLink('r4:eth3')
    const hops = await lab.traceHops('h1', h3.ip)
    t.equal(hops[hops.length - 1]!.mark, '!N', `network unreachable: ${JSON.stringify(hops)}`)
    const seen = hops.map((h) => owner.get(String(h.ip)) ?? `unknown ${String(h.ip)}`).join('>')
    t.equal(seen, 'r1', "r1, whose BGP route to h3's network was withdrawn, answers")
    await rediscover(t, client, snapshot, ['r1', 'r4'])
    const found = await branches(client, snapshot, h1.ip, h3.ip)
    t.same(found.map((x) => [routers(x), x.end]), [['r1', 'no route']], found.map((x) => x.detail).join(' | '))
  })
})
