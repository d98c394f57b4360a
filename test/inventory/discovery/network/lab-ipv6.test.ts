/**
 * IPv6 on real network software: routers of the lab get IPv6 addresses and static IPv6 routes in
 * their kernels (one over two next hops, one over a link-local next hop, a blackhole), and run
 * OSPFv3 (FRR's ospf6d, answering OSPFV3-MIB over AgentX) on their links, which routes the
 * links' prefixes; the lab's snmpd answers the routes in inetCidrRouteTable as a vendor's agent
 * does, and discovery's networks/ipv6-routes, the IPv6 rows of addressing/managed-devs and the
 * IPv6 neighbours in addressing/arp are held to what `ip -6` says in each router's namespace,
 * routing/protocols/ospf-v3/neighbors to what ospf6d says in vtysh.
 */
import t from 'tap'
import { checkTopology, defaultTopology, labMissing, type Topology } from '../../../../src/lab/index.js'
import { freshPostgres } from '../../../helpers/db.js'
import { testLab } from '../../../helpers/lab.js'
import { testNeeding } from '../../../helpers/requirements.js'
import { startApp, type Client } from '../../app.js'

type Row = Record<string, unknown>

/** r1 between r2 and r3. */
function topology(): Topology {
  return checkTopology({
    ...defaultTopology(),
    supernet: '10.221.0.0/16',
    management: { router: 'r1', network: '10.221.255.0/30' },
    credentials: defaultTopology().credentials,
    routers: [
      { name: 'r1', loopback: '10.221.0.1', as: 65001, location: 'Frankfurt DC2, row 1' },
      { name: 'r2', loopback: '10.221.0.2', as: 65001, location: 'Frankfurt DC2, row 2' },
      { name: 'r3', loopback: '10.221.0.3', as: 65001, location: 'Frankfurt DC2, row 3' },
    ],
    links: [
      { a: 'r1:eth1', b: 'r2:eth1', network: '10.221.1.0/30' },
      { a: 'r1:eth2', b: 'r3:eth1', network: '10.221.1.4/30' },
    ],
    bgp: [],
    bgpDown: [],
    hosts: [],
    ospfv3: true,
  })
}

async function rows(client: Client, table: string, snapshot: string, columns: string[]): Promise<Row[]> {
  const r = await client.call('POST', `tables/${table}`, { snapshot, columns, pagination: { limit: 1000 } })
  if (r.status !== 200) throw new Error(`${table}: ${r.status} ${r.text}`)
  return (r.body as { data: Row[] }).data
}

const linkLocal = (ip: string) => /^fe[89ab][0-9a-f]:/i.test(ip)
/** iproute2's protocol of a route (none said: boot, what `ip route add` installs) as discovery names it. */
const PROTOCOL: Readonly<Record<string, string>> = { kernel: 'connected', boot: 'static', static: 'static', ospf: 'ospfv3' }

testNeeding(t, 'IPv6 addresses, routes with every next hop and neighbours of a lab of real routers, against ip -6', labMissing() ?? undefined, async (t) => {
  const topo = topology()
  const lab = await testLab(t, topo)
  await lab.addIpv6Address('r1:eth1', '2001:db8:12::1/64')
  await lab.addIpv6Address('r2:eth1', '2001:db8:12::2/64')
  await lab.addIpv6Address('r1:eth2', '2001:db8:13::1/64')
  await lab.addIpv6Address('r3:eth1', '2001:db8:13::3/64')
  await lab.addIpv6Address('r1:lo', '2001:db8:ff::1/128')
  await lab.addIpv6Route('r1', '2001:db8:99::/48', ['2001:db8:12::2@eth1', '2001:db8:13::3@eth2'])
  // the kernel gives an interface its link-local address a moment after the link comes up
  let r2LinkLocal: string | undefined
  for (let i = 0; r2LinkLocal === undefined; i++) {
    const addresses = await lab.ipJson('r2', ['-6', 'addr', 'show', 'dev', 'eth1'])
    r2LinkLocal = addresses.flatMap((l) => (l.addr_info as Row[]).filter((a) => a.scope === 'link').map((a) => String(a.local)))[0]
    if (r2LinkLocal === undefined && i >= 50) throw new Error(`r2 eth1 has no link-local address: ${JSON.stringify(addresses)}`)
    if (r2LinkLocal === undefined) await new Promise((resolve) => setTimeout(resolve, 200))
  }
  await lab.addIpv6Route('r1', '2001:db8:77::/48', [`${r2LinkLocal}@eth1`])
  await lab.addIpv6Route('r2', '::/0', ['2001:db8:12::1@eth1'])
  await lab.addBlackhole('r3', '2001:db8:dead::/48')
  // OSPFv3 costs that differ at the two ends of the r1–r2 link
  await lab.setOspfv3Cost('r2:eth1', 25)
  // the r1–r3 link with a smaller MTU than the other
  await lab.setLinkMtu('r1:eth2', 1400)
  await lab.reach6('r1', '2001:db8:12::2')
  await lab.reach6('r1', '2001:db8:13::3')

  const { db } = await freshPostgres(t)
  const client = await startApp(t, db)
  t.equal((await client.call('POST', 'settings/snmp', { name: 'lab', version: '2c', community: topo.credentials.community })).status, 201)
  t.equal((await client.call('PUT', 'settings/seed', [lab.seed])).status, 200)
  // the machine may be busy: generous time limits, this test is about what is collected
  t.equal((await client.call('PATCH', 'settings', { include: [topo.supernet], limits: { timeoutMs: 3000, retries: 2, counterIntervalMs: 2000 } })).status, 200)
  const r = await client.call('POST', 'snapshots', {})
  t.equal(r.status, 201, r.text)
  const { id, jobId } = r.body as { id: string; jobId: string }
  t.match(await client.waitJob(jobId), { status: 'done' })
  const names = topo.routers.map((x) => x.name)
  t.same((await rows(client, 'inventory/devices', id, ['hostname'])).map((d) => d.hostname).sort(), names, 'every router')

  await t.test('networks/ipv6-routes: every route of the kernel tables but link-local and multicast ones, each next hop of an ECMP route', async (t) => {
    const truth: string[] = []
    for (const name of names) {
      for (const route of await lab.ipJson(name, ['-6', 'route', 'show', 'table', 'main'])) {
        const dst = route.dst === 'default' ? '::/0' : String(route.dst).includes('/') ? String(route.dst) : `${String(route.dst)}/128`
        if (linkLocal(dst) || /^ff/i.test(dst)) continue
        const hops = route.type === 'blackhole' ? ['blackhole'] : ((route.nexthops as Row[] | undefined) ?? [route]).map((h) => `${String(h.gateway ?? null)}@${String(h.dev)}`)
        truth.push(`${name} ${dst} ${route.type === 'blackhole' ? 'static' : PROTOCOL[String(route.protocol ?? 'boot')]} [${hops.sort().join(' ')}]`)
      }
    }
    const found = await rows(client, 'networks/ipv6-routes', id, ['hostname', 'vrf', 'network', 'protocol', 'nexthop'])
    const seen = found.map((x) => {
      const hops = (x.nexthop as Row[]).map((h) => (typeof h.type === 'string' ? h.type : `${String(h.ip)}@${String(h.intName)}`))
      return `${String(x.hostname)} ${String(x.network)} ${String(x.protocol)} [${hops.sort().join(' ')}]`
    })
    t.same(seen.sort(), truth.sort(), 'the kernel routes, no more, no fewer')
    t.ok(seen.some((x) => x.startsWith('r1 2001:db8:99::/48 static [2001:db8:12::2@eth1 2001:db8:13::3@eth2]')), 'both next hops of the ECMP route')
    t.ok(seen.some((x) => x === `r1 2001:db8:77::/48 static [${r2LinkLocal}@eth1]`), 'a link-local next hop, with its interface')
    t.ok(seen.includes('r3 2001:db8:dead::/48 static [blackhole]'), 'the blackhole as such')
  })

  await t.test('interfaces/counters: the rates of every interface up, from two readings of its counters 2 s apart', async (t) => {
    const up = (await rows(client, 'inventory/interfaces', id, ['hostname', 'intName', 'l1'])).filter((i) => i.l1 === 'up').map((i) => `${String(i.hostname)} ${String(i.intName)}`)
    const rates = ['inBytes', 'outBytes', 'inPkts', 'outPkts', 'inErrPkts', 'outErrPkts', 'inDropPkts', 'outDropPkts']
    const counters = await rows(client, 'interfaces/counters', id, ['hostname', 'intName', ...rates])
    t.same(counters.map((c) => `${String(c.hostname)} ${String(c.intName)}`).sort(), up.sort(), 'a row per interface up')
    t.ok(counters.every((c) => rates.every((r) => Number.isInteger(c[r]) && (c[r] as number) >= 0)), `every rate known, whole and not negative: ${JSON.stringify(counters.slice(0, 3))}`)
    // the discovery's own requests (and OSPFv3's hellos) pass between the two readings
    for (const name of names) t.ok(counters.some((c) => c.hostname === name && (c.inPkts as number) > 0 && (c.inBytes as number) > 0 && (c.outPkts as number) > 0), `${name}: traffic in and out`)
    const load = await rows(client, 'interfaces/load', id, ['hostname', 'intName', 'inBytes'])
    t.equal(load.length, counters.length, 'interfaces/load reads them')
  })

  await t.test('routing/protocols/ospf-v3/neighbors: the adjacencies ospf6d holds, with area, link-local address and costs', async (t) => {
    const truth: string[] = []
    const costs = new Map<string, number>()
    for (const name of names) {
      const ifs = (await lab.showJson(name, 'show ipv6 ospf6 interface json')) as Record<string, { cost?: number; instanceId?: number; routerId?: string }>
      for (const [iface, i] of Object.entries(ifs)) if (typeof i.cost === 'number') costs.set(`${name} ${iface}`, i.cost)
    }
    const routerOf = new Map(topo.routers.map((r) => [r.loopback, r.name]))
    for (const name of names) {
      const detail = (await lab.showJson(name, 'show ipv6 ospf6 neighbor detail json')) as Record<string, { area: string; interface: string; linkLocalAddress: string; neighborState: string }>
      for (const [key, n] of Object.entries(detail)) {
        const routerId = key.split('%')[0]!
        const peer = routerOf.get(routerId)!
        // the neighbour's end of the link: its interface whose OSPFv3 neighbour is this router
        const back = Object.entries((await lab.showJson(peer, 'show ipv6 ospf6 neighbor detail json')) as Record<string, { interface: string }>).find(([k]) => k.startsWith(`${topo.routers.find((r) => r.name === name)!.loopback}%`))
        const neiCost = back ? costs.get(`${peer} ${back[1].interface}`) : undefined
        truth.push(`${name} ${n.interface} 0 ${n.area} ${routerId} ${n.linkLocalAddress} ${peer} ${n.neighborState.toLowerCase()} ${costs.get(`${name} ${n.interface}`)} ${neiCost}`)
      }
    }
    const found = await rows(client, 'routing/protocols/ospf-v3/neighbors', id, ['hostname', 'intName', 'instanceId', 'area', 'neiRouterId', 'neiIp', 'neiHostname', 'state', 'localCost', 'neiCost', 'currStateTime'])
    const seen = found.map((n) => [n.hostname, n.intName, n.instanceId, n.area, n.neiRouterId, n.neiIp, n.neiHostname, n.state, n.localCost, n.neiCost].map(String).join(' '))
    const hits = seen.filter((x) => truth.includes(x)).length
    t.equal(truth.length, 4, 'ospf6d holds an adjacency at each end of both links')
    t.equal(hits / seen.length, 1, `precision: ${JSON.stringify(seen)}`)
    t.equal(hits / truth.length, 1, `recall: ${JSON.stringify(truth)}`)
    t.ok(found.every((n) => linkLocal(String(n.neiIp))), 'neighbours by their link-local addresses')
    const r1r2 = found.find((n) => n.hostname === 'r1' && n.intName === 'eth1')
    t.match(r1r2, { localCost: 10, neiCost: 25, neiHostname: 'r2' }, 'r1 says its own cost, r2 advertises its own')
    t.ok(found.every((n) => n.currStateTime === null), 'OSPFV3-MIB does not say how long an adjacency is in its state')

    // the interfaces of those adjacencies, with the area and cost ospf6d reports and their neighbours
    const interfaces: string[] = []
    for (const name of names) {
      const ifs = (await lab.showJson(name, 'show ipv6 ospf6 interface json')) as Record<string, { cost?: number }>
      const detail = Object.values((await lab.showJson(name, 'show ipv6 ospf6 neighbor detail json')) as Record<string, { area: string; interface: string }>)
      for (const [iface, i] of Object.entries(ifs)) {
        const on = detail.filter((n) => n.interface === iface)
        if (on.length > 0) interfaces.push(`${name} ${iface} 0 ${on[0]!.area} ${i.cost} ${on.length}`)
      }
    }
    const perInterface = await rows(client, 'routing/protocols/ospf-v3/interfaces', id, ['hostname', 'intName', 'instanceId', 'area', 'cost', 'neiCount', 'neiFullCount'])
    t.same(perInterface.map((i) => [i.hostname, i.intName, i.instanceId, i.area, i.cost, i.neiCount].map(String).join(' ')).sort(), interfaces.sort(), 'routing/protocols/ospf-v3/interfaces: the interfaces ospf6d holds adjacencies on')
    t.ok(perInterface.every((i) => i.neiFullCount === i.neiCount), 'every adjacency is full')
  })

  await t.test('addressing/managed-devs: the global IPv6 addresses of every router', async (t) => {
    const truth: string[] = []
    for (const name of names) {
      for (const link of await lab.ipJson(name, ['-6', 'addr', 'show'])) {
        for (const a of link.addr_info as Row[]) {
          const ip = String(a.local)
          if (!linkLocal(ip) && ip !== '::1') truth.push(`${name} ${String(link.ifname)} ${ip}/${String(a.prefixlen)}`)
        }
      }
    }
    const found = await rows(client, 'addressing/managed-devs', id, ['hostname', 'intName', 'ip', 'net'])
    const seen = found.filter((a) => String(a.ip).includes(':')).map((a) => `${String(a.hostname)} ${String(a.intName)} ${String(a.ip)}/${String(a.net).split('/')[1]}`)
    t.same(seen.sort(), truth.sort())
    // the API family's table of IPv6 addresses holds the same, and no IPv4 address
    const own = await rows(client, 'addressing/ipv6-managed-devs', id, ['hostname', 'intName', 'ip', 'net', 'stateL1'])
    t.same(own.map((a) => `${String(a.hostname)} ${String(a.intName)} ${String(a.ip)}/${String(a.net).split('/')[1]}`).sort(), truth.sort(), 'addressing/ipv6-managed-devs')
    t.ok(own.every((a) => a.stateL1 === 'up'))
  })

  await t.test('interfaces/mtu: both ends of every LLDP link between the routers with the MTU ip link says', async (t) => {
    const mtuOf = new Map<string, number>()
    for (const name of names) for (const link of await lab.ipJson(name, ['link', 'show'])) mtuOf.set(`${name} ${String(link.ifname)}`, Number(link.mtu))
    const found = await rows(client, 'interfaces/mtu', id, ['srcDev', 'srcInt', 'srcMtu', 'dstDev', 'dstInt', 'dstMtu'])
    const seen = found.map((m) => `${String(m.srcDev)} ${String(m.srcInt)} ${String(m.srcMtu)} ${String(m.dstDev)} ${String(m.dstInt)} ${String(m.dstMtu)}`)
    const end = (a: string) => `${a.replace(':', ' ')} ${mtuOf.get(a.replace(':', ' '))}`
    const truth = [
      ['r1:eth1', 'r2:eth1'],
      ['r1:eth2', 'r3:eth1'],
    ].flatMap(([a, b]) => [`${end(a!)} ${end(b!)}`, `${end(b!)} ${end(a!)}`])
    t.same(seen.sort(), truth.sort())
    t.ok(seen.includes('r1 eth2 1400 r3 eth1 1400') && seen.includes('r1 eth1 1500 r2 eth1 1500'), 'the MTU of each link')
  })

  await t.test('addressing/arp: the IPv6 neighbours r1 reached, with their MAC addresses', async (t) => {
    const found = await rows(client, 'addressing/arp', id, ['hostname', 'intName', 'ip', 'mac'])
    const seen = found.filter((a) => a.hostname === 'r1' && String(a.ip).includes(':')).map((a) => `${String(a.intName)} ${String(a.ip)} ${String(a.mac)}`)
    const peers = new Map<string, string>()
    for (const [name, dev, ip] of [
      ['r2', 'eth1', '2001:db8:12::2'],
      ['r3', 'eth1', '2001:db8:13::3'],
    ] as const) {
      const [link] = await lab.ipJson(name, ['link', 'show', 'dev', dev])
      peers.set(ip, String(link!.address))
    }
    const expected = [`eth1 2001:db8:12::2 ${peers.get('2001:db8:12::2')}`, `eth2 2001:db8:13::3 ${peers.get('2001:db8:13::3')}`].sort()
    t.same(seen.sort(), expected)
    // the API family's table of IPv6 neighbours holds them under ipv6
    const neighbours = await rows(client, 'addressing/ipv6-neighbors', id, ['hostname', 'intName', 'ipv6', 'mac', 'vrf'])
    t.same(neighbours.filter((a) => a.hostname === 'r1').map((a) => `${String(a.intName)} ${String(a.ipv6)} ${String(a.mac)}`).sort(), expected, 'addressing/ipv6-neighbors')
    t.equal(neighbours.length, found.filter((a) => String(a.ip).includes(':')).length, 'every IPv6 row of addressing/arp, no IPv4 one')
  })
})
