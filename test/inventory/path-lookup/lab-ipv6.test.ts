/**
 * IPv6 path lookup against reality: the square lab of lab.test.ts (r1 to r4 over r2 or r3, r5
 * behind r4, a host on r1, r4 and r5) addressed and routed in IPv6 as an operator would with
 * static routes in the kernels (the lab's routing daemons speak IPv4): ECMP from r1 and back from
 * r4, r5 back to r4 over r4's link-local address. For every ordered pair of hosts, `traceroute
 * -6` in the source host's namespace, then a discovery: the routers traceroute saw, in order, are
 * one of netinv's branches, and every branch is delivered. Each host is an IPv6 end host whose
 * gateway is the router its LAN hangs off, as the IPv4 hosts table says of its IPv4 address:
 * host to gateway ends there, and a lookup from the host enters there.
 *
 * Then breaks, each rediscovered and held to what traceroute shows:
 * - a /128 blackhole on r1 inside h2's /64: traceroute -6 gets no answer, netinv ends at r1 with
 *   "blackhole" (and h2 beside it is still delivered over both branches);
 * - h2 loses its addresses and r4 its neighbour entries of h2: traceroute ends at r4 with !H
 *   (neighbour discovery and ARP fail), netinv ends every branch at r4 with "ARP incomplete", in
 *   IPv6 and IPv4;
 * - the r4–r5 link is shut: r4's IPv6 route to h3 goes with it (traceroute: !N from r4) and so do
 *   the BGP routes of h3's IPv4 network (!N from r1); netinv ends there with "no route".
 */
import t from 'tap'
import { hostAddresses, labMissing, type Lab, type Topology } from '../../../src/lab/index.js'
import { canonical } from '../../../src/inventory/path-lookup/prefixes.js'
import { freshPglite } from '../../helpers/db.js'
import { testLab } from '../../helpers/lab.js'
import { hasCommand, testNeeding } from '../../helpers/requirements.js'
import { startApp } from '../app.js'
import { branches, rows, squareTopology, type Branch, type Row } from './lab-square.js'

/** lab.test.ts's square in a supernet of its own, so that both labs run at once. */
const pathTopology = (): Topology => squareTopology('path-lab-v6', 216)

/** The IPv6 plan: link i is 2001:db8:f<i>::/64 (a end ::1, b end ::2), host LAN k is 2001:db8:<k>::/64 (gateway ::1, host ::10). */
const LINK = ['2001:db8:f0::', '2001:db8:f1::', '2001:db8:f2::', '2001:db8:f3::', '2001:db8:f4::']
const LAN = { h1: '2001:db8:101::', h2: '2001:db8:102::', h3: '2001:db8:103::' }
const HOST6 = { h1: `${LAN.h1}10`, h2: `${LAN.h2}10`, h3: `${LAN.h3}10` }

async function addressIpv6(lab: Lab, topo: Topology): Promise<void> {
  for (const [i, l] of topo.links.entries()) {
    await lab.addIpv6Address(l.a, `${LINK[i]!}1/64`)
    await lab.addIpv6Address(l.b, `${LINK[i]!}2/64`)
  }
  for (const h of topo.hosts) {
    const lan = LAN[h.name as keyof typeof LAN]
    await lab.addIpv6Address(`${h.router}:${h.interface}`, `${lan}1/64`)
    await lab.addIpv6Host(h.name, `${lan}10/64`, `${lan}1`)
  }
  const via = (link: number, end: 1 | 2, dev: string) => `${LINK[link]!}${end}@${dev}`
  // r1: both ways over r2 and r3; r2, r3: to r4 and back to r1; r4: back to h1 over r2 and r3, to h3 over r5
  for (const lan of [LAN.h2, LAN.h3]) {
    await lab.addIpv6Route('r1', `${lan}/64`, [via(0, 2, 'eth1'), via(1, 2, 'eth2')])
    await lab.addIpv6Route('r2', `${lan}/64`, [via(2, 2, 'eth2')])
    await lab.addIpv6Route('r3', `${lan}/64`, [via(3, 2, 'eth2')])
  }
  await lab.addIpv6Route('r2', `${LAN.h1}/64`, [via(0, 1, 'eth1')])
  await lab.addIpv6Route('r3', `${LAN.h1}/64`, [via(1, 1, 'eth1')])
  await lab.addIpv6Route('r4', `${LAN.h1}/64`, [via(2, 1, 'eth1'), via(3, 1, 'eth2')])
  await lab.addIpv6Route('r4', `${LAN.h3}/64`, [via(4, 2, 'eth3')])
  // r5 routes everything back over r4's link-local address, as a routing protocol over the link would
  // the kernel gives an interface its link-local address a moment after the link comes up
  let linkLocal: string | undefined
  for (let i = 0; linkLocal === undefined; i++) {
    const addresses = await lab.ipJson('r4', ['-6', 'addr', 'show', 'dev', 'eth3'])
    linkLocal = addresses.flatMap((l) => (l.addr_info as Row[]).filter((a) => a.scope === 'link' && a.local !== undefined).map((a) => String(a.local)))[0]
    if (linkLocal === undefined && i >= 50) throw new Error(`r4 eth3 has no link-local address: ${JSON.stringify(addresses)}`)
    if (linkLocal === undefined) await new Promise((resolve) => setTimeout(resolve, 200))
  }
  await lab.addIpv6Route('r5', '::/0', [`${linkLocal}@eth1`])
}

const routers = (b: Branch) => b.hops.filter((h) => h.kind === 'l3').map((h) => h.device.hostname).join('>')
const missing = labMissing() ?? (hasCommand('traceroute', ['-V']) ? undefined : 'traceroute (Debian package traceroute)')

testNeeding(t, 'IPv6 paths in a lab of real routers against traceroute -6, and the reasons of broken paths', missing, async (t) => {
  const topo = pathTopology()
  const lab = await testLab(t, topo)
  await addressIpv6(lab, topo)
  const client = await startApp(t, await freshPglite(t))
  t.equal((await client.call('POST', 'settings/snmp', { name: 'lab', version: '2c', community: topo.credentials.community })).status, 201)
  t.equal((await client.call('PUT', 'settings/seed', [lab.seed])).status, 200)
  t.equal((await client.call('PATCH', 'settings', { include: [topo.supernet], limits: { timeoutMs: 1000, retries: 2 } })).status, 200)

  const hosts = topo.hosts.map((h) => ({ name: h.name, ip: HOST6[h.name as keyof typeof HOST6], ip4: hostAddresses(h).address }))
  const pairs = hosts.flatMap((a) => hosts.filter((b) => b !== a).map((b) => [a, b] as const))
  // the probes also leave the neighbour entries along each path that a discovery then reads
  const traced = new Map<string, Array<string | null>>()
  for (const [a, b] of pairs) traced.set(`${a.name}>${b.name}`, await lab.traceroute(a.name, b.ip))

  let snapshot = await client.discover()
  const owners = async () => new Map((await rows(client, 'addressing/managed-devs', { snapshot, columns: ['hostname', 'ip'] })).map((r) => [String(r.ip), String(r.hostname)]))
  const owner = await owners()
  // a router that answers unreachable for a packet it could not deliver answered time exceeded for its own hop just before: one router
  const named = (hops: Array<string | null>) =>
    hops.map((ip) => (ip === null ? '*' : (owner.get(canonical(ip)) ?? `unknown ${ip}`))).filter((x, i, all) => x !== all[i - 1]).join('>')

  await t.test('the IPv6 routing tables hold every ECMP next hop and the link-local one', async (t) => {
    const ecmp = await rows(client, 'networks/ipv6-routes', { snapshot, columns: ['nexthop'], filters: { hostname: ['eq', 'r1'], network: ['eq', `${LAN.h2}/64`] } })
    t.match(ecmp, [{ nexthop: [{ intName: 'eth1' }, { intName: 'eth2' }] }], 'r1 reaches h2 over r2 and r3')
    const back = await rows(client, 'networks/ipv6-routes', { snapshot, columns: ['nexthop'], filters: { hostname: ['eq', 'r5'], network: ['eq', '::/0'] } })
    t.match(back, [{ nexthop: [{ ip: /^fe80:/, intName: 'eth1' }] }], 'r5 routes back over r4\'s link-local address')
  })

  await t.test('each host is an IPv6 end host behind the router of its LAN, as its IPv4 address is in the hosts table', async (t) => {
    const toGateway = async (ip: string) => {
      const r = await client.call('POST', 'graphs', { snapshot, parameters: { type: 'pathLookup', pathLookupType: 'hostToDefaultGW', startingPoint: ip } })
      t.equal(r.status, 200, r.text.slice(0, 300))
      const paths = (r.body as { paths: { dst: string; branches: Branch[] } }).paths
      return { dst: paths.dst, ends: paths.branches.map((b) => [routers(b), b.end, b.detail]) }
    }
    for (const h of topo.hosts) {
      const lan = LAN[h.name as keyof typeof LAN]
      const six = await toGateway(HOST6[h.name as keyof typeof HOST6])
      t.same(six, { dst: `${lan}1`, ends: [[h.router, 'delivered', `${lan}1 on ${h.router} ${h.interface}`]] }, `${h.name}: its gateway ${h.router} ${h.interface}`)
      const four = await toGateway(hostAddresses(h).address)
      t.same(four.ends.map((e) => e[0]), six.ends.map((e) => e[0]), `${h.name}: the same gateway as for its IPv4 address`)
      const r = await client.call('POST', 'graphs', { snapshot, parameters: { type: 'pathLookup', pathLookupType: 'unicast', startingPoint: HOST6[h.name as keyof typeof HOST6], destinationPoint: `${LINK[0]!}1`, protocol: 'udp' } })
      t.match((r.body as { paths: { entry: unknown } }).paths.entry, { device: { hostname: h.router }, ingress: h.interface, how: 'host gateway' }, `a lookup from ${h.name} enters at its gateway`)
    }
  })

  for (const [a, b] of pairs) {
    await t.test(`${a.name} → ${b.name}: the routers traceroute -6 saw are one of netinv's branches`, async (t) => {
      const hops = traced.get(`${a.name}>${b.name}`)!
      t.equal(canonical(String(hops[hops.length - 1])), b.ip, `traceroute -6 reached ${b.ip}: ${JSON.stringify(hops)}`)
      t.notOk(hops.includes(null), 'every hop answered')
      const seen = named(hops.slice(0, -1))
      const found = await branches(client, snapshot, a.ip, b.ip)
      t.same(found.filter((x) => x.end !== 'delivered').map((x) => [routers(x), x.end, x.detail]), [], 'every branch is delivered')
      t.ok(found.map(routers).includes(seen), `traceroute ${seen} among netinv's ${found.map(routers).join(' | ')}`)
    })
  }

  await t.test('a /128 blackhole inside h2\'s /64 on r1: traceroute -6 gets no answer, netinv ends the path at r1 with reason blackhole', async (t) => {
    const target = `${LAN.h2}99`
    await lab.addBlackhole('r1', `${target}/128`)
    t.same((await lab.traceroute('h1', target)).filter((ip) => ip !== null), [], 'traceroute -6: no hop answers')
    snapshot = await client.discover()
    const route = await rows(client, 'networks/ipv6-routes', { snapshot, columns: ['nexthop'], filters: { hostname: ['eq', 'r1'], network: ['eq', `${target}/128`] } })
    t.match(route, [{ nexthop: [{ type: 'blackhole', ip: null, intName: null }] }], 'the blackhole route is collected as one')
    const found = await branches(client, snapshot, HOST6.h1, target)
    t.same(found.map((x) => [routers(x), x.end]), [['r1', 'blackhole']], 'the longest prefix wins: the /128, not the /64 over r2 and r3')
    t.same((await branches(client, snapshot, HOST6.h1, HOST6.h2)).map((x) => x.end), ['delivered', 'delivered'], 'h2 beside it is still reached over both branches')
  })

  await t.test('h2 gone from its LAN: traceroute ends at r4 with !H, netinv ends each branch at r4 with ARP incomplete', async (t) => {
    const h2 = hosts[1]!
    const lan = topo.hosts[1]!
    for (const ip of [h2.ip, h2.ip4]) {
      await lab.removeHostAddress('h2', `${ip}/${ip.includes(':') ? 64 : hostAddresses(lan).prefix}`)
      await lab.forgetNeighbour('r4', ip, lan.interface)
    }
    const seen: Record<string, string> = {}
    for (const ip of [h2.ip, h2.ip4]) {
      const hops = await lab.traceHops('h1', ip, { waitSeconds: 6 })
      const last = hops[hops.length - 1]!
      t.equal(last.mark, '!H', `traceroute to ${ip}: the last hop answers host unreachable: ${JSON.stringify(hops)}`)
      seen[ip] = named(hops.map((h) => h.ip))
    }
    snapshot = await client.discover()
    for (const ip of [h2.ip, h2.ip4]) {
      const arp = await rows(client, 'addressing/arp', { snapshot, columns: ['ip', 'mac'], filters: { hostname: ['eq', 'r4'], ip: ['eq', ip] } })
      t.same(arp, [], `r4 holds no neighbour entry with a MAC address for ${ip}`)
      const found = await branches(client, snapshot, ip.includes(':') ? hosts[0]!.ip : hosts[0]!.ip4, ip)
      t.same([...new Set(found.map((x) => [x.end, routers(x).split('>').pop()].join(' at ')))], ['ARP incomplete at r4'], `every branch: ${found.map((x) => `${routers(x)} ${x.end} (${x.detail})`).join(' | ')}`)
      t.ok(found.map(routers).includes(seen[ip]!), `traceroute ${seen[ip]!} among netinv's ${found.map(routers).join(' | ')}`)
    }
  })

  await t.test('the r4–r5 link shut: traceroute gets !N where netinv says no route', async (t) => {
    await lab.shutLink('r4:eth3')
    const h1 = hosts[0]!
    const h3 = hosts[2]!
    const six = await lab.traceHops('h1', h3.ip)
    t.equal(six[six.length - 1]!.mark, '!N', `IPv6: network unreachable: ${JSON.stringify(six)}`)
    const four = await lab.traceHops('h1', h3.ip4)
    t.equal(four[four.length - 1]!.mark, '!N', `IPv4: network unreachable: ${JSON.stringify(four)}`)
    snapshot = await client.discover()
    for (const [src, dst, hops] of [[h1.ip, h3.ip, six], [h1.ip4, h3.ip4, four]] as const) {
      const seen = named(hops.map((h) => h.ip))
      const found = await branches(client, snapshot, src, dst)
      t.same([...new Set(found.map((x) => x.end))], ['no route'], `${dst}: ${found.map((x) => `${routers(x)} ${x.end} (${x.detail})`).join(' | ')}`)
      t.ok(found.map(routers).includes(seen), `${dst}: traceroute ${seen} (the last answering !N) among netinv's ${found.map(routers).join(' | ')}`)
    }
  })
})
