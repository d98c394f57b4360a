/**
 * Path lookup against reality: a lab of FRR routers (OSPF, iBGP and eBGP, ECMP over a square),
 * whose agents answer their forwarding table as a vendor's do (every ECMP next hop, blackhole
 * routes as such: src/lab/route-agent.ts). For every ordered pair of end hosts, Debian's
 * traceroute inside the source host's namespace, then a discovery: the routers traceroute saw,
 * in order, are one of netinv's branches, and every branch is delivered. Then a blackhole route
 * on h1's gateway, the gateway discovered again: the path ends there with reason blackhole,
 * where traceroute gets no answer at all.
 */
import t from 'tap'
import { hostAddresses, labMissing, type Topology } from '../../../src/lab/index.js'
import { freshPglite } from '../../helpers/db.js'
import { testLab } from '../../helpers/lab.js'
import { hasCommand, testNeeding } from '../../helpers/requirements.js'
import { startApp } from '../app.js'
import { branches, rows, squareTopology, type Branch } from './lab-square.js'

const pathTopology = (): Topology => squareTopology('path-lab', 215)

const routers = (b: Branch) => b.hops.filter((h) => h.kind === 'l3').map((h) => h.device.hostname).join('>')
const missing = labMissing() ?? (hasCommand('traceroute', ['-V']) ? undefined : 'traceroute (Debian package traceroute)')

testNeeding(t, 'paths in a lab of real routers against traceroute', missing, async (t) => {
  const topo = pathTopology()
  const lab = await testLab(t, topo)
  const client = await startApp(t, await freshPglite(t))
  t.equal((await client.call('POST', 'settings/snmp', { name: 'lab', version: '2c', community: topo.credentials.community })).status, 201)
  t.equal((await client.call('PUT', 'settings/seed', [lab.seed])).status, 200)
  t.equal((await client.call('PATCH', 'settings', { include: [topo.supernet], limits: { timeoutMs: 1000, retries: 1 } })).status, 200)

  const hosts = topo.hosts.map((h) => ({ name: h.name, ip: hostAddresses(h).address }))
  const pairs = hosts.flatMap((a) => hosts.filter((b) => b !== a).map((b) => [a, b] as const))
  // the probes also leave the ARP entries along each path that a discovery then reads
  const traced = new Map<string, Array<string | null>>()
  for (const [a, b] of pairs) traced.set(`${a.name}>${b.name}`, await lab.traceroute(a.name, b.ip))

  const snapshot = await client.discover()
  const owner = new Map((await rows(client, 'addressing/managed-devs', { snapshot, columns: ['hostname', 'ip'] })).map((r) => [String(r.ip), String(r.hostname)]))

  await t.test('the route table holds every ECMP next hop', async (t) => {
    const ecmp = await rows(client, 'networks/routes', { snapshot, columns: ['nexthop'], filters: { hostname: ['eq', 'r1'], network: ['eq', topo.hosts[1]!.network] } })
    t.match(ecmp, [{ nexthop: [{ ip: '10.215.1.2', intName: 'eth1' }, { ip: '10.215.1.6', intName: 'eth2' }] }], 'r1 reaches h2 over r2 and r3')
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
    })
  }

  await t.test('a blackhole route on h1\'s gateway: traceroute gets no answer, netinv ends the path there with reason blackhole', async (t) => {
    const [h1, h2] = hosts as [(typeof hosts)[number], (typeof hosts)[number]]
    const gateway = topo.hosts.find((h) => h.name === h1.name)!.router
    await lab.addBlackhole(gateway, `${h2.ip}/32`)
    t.same(await lab.traceroute(h1.name, h2.ip).then((x) => x.filter((ip) => ip !== null)), [], 'traceroute: no hop answers')
    const device = (await rows(client, 'inventory/devices', { snapshot, columns: ['loginIp'], filters: { hostname: ['eq', gateway] } }))[0]!
    const again = await client.call('POST', `snapshots/${snapshot}/devices`, { ipList: [device.loginIp] })
    t.equal(again.status, 202, again.text)
    t.match(await client.waitJob((again.body as { jobId: string }).jobId), { status: 'done' })
    const route = await rows(client, 'networks/routes', { snapshot, columns: ['nexthop'], filters: { hostname: ['eq', gateway], network: ['eq', `${h2.ip}/32`] } })
    t.match(route, [{ nexthop: [{ type: 'blackhole', ip: null, intName: null }] }], 'the blackhole route is collected as one')
    const found = await branches(client, snapshot, h1.ip, h2.ip)
    t.same(found.map((x) => [routers(x), x.end]), [[gateway, 'blackhole']])
  })
})
