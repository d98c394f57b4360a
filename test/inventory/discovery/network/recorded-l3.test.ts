/**
 * Discovery of layer 3 devices the lab's Linux agents cannot be (VRFs, vendor route tables,
 * first-hop redundancy), from real SNMP agents (snmpsim) replaying recordings written from one
 * description of each device (test/helpers/recorded/router.ts) that also gives the ground truth:
 * an Arista leaf (ARISTA-VRF-MIB, IPv6 and IPv4 ECMP, VRRPv3), a Juniper PE (MPLS-L3VPN-STD-MIB
 * VRFs with their routes, VRRP-MIB) and a Cisco WAN router (ipCidrRouteTable beside IPv6 in
 * inetCidrRouteTable, a VRF, CISCO-HSRP-MIB). Each table is held to precision and recall of 1.0,
 * and a second discovery of the same devices differs from the first in nothing.
 */
import t from 'tap'
import { freshPostgres } from '../../../helpers/db.js'
import { recordedAgentMissing, recordedAgents } from '../../../helpers/recorded/agent.js'
import {
  ARISTA_LEAF,
  CISCO_WAN,
  JUNIPER_PE,
  addressTruth,
  fhrpTruth,
  domTruth,
  neighbourTruth,
  routeTruth,
  routerVarbinds,
  vrfTruth,
  type RecordedRouter,
} from '../../../helpers/recorded/router.js'
import { testNeeding } from '../../../helpers/requirements.js'
import { shortName } from '../../../../src/inventory/discovery/network/ifname.js'
import { startApp, type Client } from '../../app.js'
import { rows, score, type Row } from '../../../helpers/recorded/score.js'

async function discover(client: Client, seeds: string[]): Promise<string> {
  const r = await client.call('POST', 'snapshots', { source: 'network', seeds })
  if (r.status !== 201) throw new Error(`discovery refused: ${r.status} ${r.text}`)
  const { id, jobId } = r.body as { id: string; jobId: string }
  const job = await client.waitJob(jobId)
  if (job.status !== 'done') throw new Error(`discovery failed: ${JSON.stringify(job)}`)
  return id
}

const hopText = (h: Row) => (typeof h.type === 'string' ? h.type : `${String(h.ip)}@${String(h.intName)}:${String(h.metric)}`)

testNeeding(t, 'discovery of recorded layer 3 devices: IPv6, VRFs, ECMP, first-hop redundancy', recordedAgentMissing(), async (t) => {
  const ROUTERS: RecordedRouter[] = [ARISTA_LEAF, JUNIPER_PE, CISCO_WAN]
  const agents = await recordedAgents(t, new Map(ROUTERS.map((r) => [r.sysName, routerVarbinds(r)])))
  const seeds = [...agents.address.values()]
  const { db } = await freshPostgres(t)
  const client = await startApp(t, db)
  t.equal((await client.call('POST', 'settings/snmp', { name: 'recorded', version: '2c', community: agents.community })).status, 201)
  const network = `${seeds[0]!.split('.').slice(0, 3).join('.')}.0/24`
  // snmpsim answers slowly on a busy machine: generous time limits, this test is about what is collected
  t.equal((await client.call('PATCH', 'settings', { allowedSpecialNetworks: [network], limits: { timeoutMs: 5000, retries: 2 } })).status, 200)
  const id = await discover(client, seeds)
  const devices = await rows(client, 'inventory/devices', id, ['hostname', 'sn', 'vendor'])
  t.same(
    devices.map((d) => `${String(d.hostname)} ${String(d.sn)} ${String(d.vendor)}`).sort(),
    [`${ARISTA_LEAF.sysName} ${ARISTA_LEAF.serial} arista`, `${JUNIPER_PE.sysName} ${JUNIPER_PE.serial} juniper`, `${CISCO_WAN.sysName} ${CISCO_WAN.serial} cisco`].sort(),
    'the three routers, named by their chassis serials',
  )

  await t.test('vendor, family, platform and model: sysDescr, the product identifier (vendors\' MIBs) and the ENTITY-MIB chassis', async (t) => {
    const found = await rows(client, 'inventory/devices', id, ['hostname', 'vendor', 'family', 'platform', 'model', 'objectId'])
    const identity = (d: Row) => `${String(d.hostname)} ${String(d.vendor)} ${String(d.family)} ${String(d.platform)} ${String(d.model)}`
    t.same(
      found.map(identity).sort(),
      [
        `${ARISTA_LEAF.sysName} arista eos 7050sx3 ${ARISTA_LEAF.model}`,
        `${JUNIPER_PE.sysName} juniper junos mx ${JUNIPER_PE.model}`,
        // the IOS-XE router image names no platform: CISCO-PRODUCTS-MIB's ciscoISR4451 does
        `${CISCO_WAN.sysName} cisco ios-xe isr4400 ${CISCO_WAN.model}`,
      ].sort(),
    )
    t.same(found.map((d) => d.objectId).sort(), ROUTERS.map((r) => r.sysObjectId).sort(), 'objectId is sysObjectID as the device answers it')
  })

  await t.test('routes of both families with every ECMP next hop, discards, VRF tables (IP-FORWARD-MIB, MPLS-L3VPN-STD-MIB)', async (t) => {
    for (const [table, family] of [
      ['networks/routes', 4],
      ['networks/ipv6-routes', 6],
    ] as const) {
      const found = await rows(client, table, id, ['hostname', 'vrf', 'network', 'protocol', 'nexthop', 'nhCount'])
      const seen = found.map((r) => {
        const hops = (r.nexthop as Row[]).map(hopText).sort()
        t.equal(r.nhCount, hops.length, `${table} ${String(r.hostname)} ${String(r.network)}: nhCount counts the next hops`)
        return `${String(r.hostname)} ${String(r.vrf)} ${String(r.network)} ${String(r.protocol)} [${hops.join(' ')}]`
      })
      score(t, table, seen.sort(), ROUTERS.flatMap((r) => routeTruth(r, family)).sort())
    }
  })

  await t.test('ARP entries and IPv6 neighbours, per VRF, link-local ones left out (IP-MIB ipNetToPhysicalTable)', async (t) => {
    const found = await rows(client, 'addressing/arp', id, ['hostname', 'vrf', 'intName', 'ip', 'mac'])
    const seen = found.map((a) => `${String(a.hostname)} ${String(a.vrf)} ${String(a.intName)} ${String(a.ip)} ${String(a.mac)}`)
    score(t, 'addressing/arp', seen.sort(), ROUTERS.flatMap(neighbourTruth).sort())
  })

  await t.test('the vendor of each neighbour\'s and host\'s MAC address: the IEEE registry (OUI)', async (t) => {
    // the organisations the IEEE's MA-L registry lists for the recordings' prefixes
    const REGISTERED: Record<string, string> = {
      '28:99:3a': 'Arista Networks',
      '00:50:56': 'VMware, Inc.',
      '00:1b:17': 'Palo Alto Networks',
      '2c:6b:f5': 'Juniper Networks',
      '00:0c:29': 'VMware, Inc.',
      '00:00:5e': 'ICANN, IANA Department',
      '70:ea:1a': 'Cisco Systems, Inc',
      '00:00:0c': 'Cisco Systems, Inc',
      'a4:83:e7': 'Apple, Inc.',
    }
    const vendorOf = (mac: unknown) => REGISTERED[String(mac).slice(0, 8)] ?? 'unregistered'
    const arp = await rows(client, 'addressing/arp', id, ['ip', 'mac', 'vendor'])
    t.ok(arp.length > 0)
    t.same(arp.map((a) => `${String(a.ip)} ${String(a.vendor)}`).sort(), arp.map((a) => `${String(a.ip)} ${vendorOf(a.mac)}`).sort())
    const hosts = await rows(client, 'addressing/hosts', id, ['ip', 'mac', 'vendor'])
    t.ok(hosts.length > 0)
    t.same(hosts.map((h) => `${String(h.ip)} ${String(h.vendor)}`).sort(), hosts.map((h) => `${String(h.ip)} ${vendorOf(h.mac)}`).sort())
  })

  await t.test('the VRF of every address, and the VRFs of each device (MPLS-L3VPN-STD-MIB, ARISTA-VRF-MIB)', async (t) => {
    const managed = await rows(client, 'addressing/managed-devs', id, ['hostname', 'intName', 'ip', 'vrf'])
    score(t, 'addressing/managed-devs', managed.map((a) => `${String(a.hostname)} ${String(a.intName)} ${String(a.ip)} ${String(a.vrf)}`).sort(), ROUTERS.flatMap(addressTruth).sort())
    const detail = await rows(client, 'vrf/detail', id, ['hostname', 'vrf', 'intCount', 'routeCount'])
    score(t, 'vrf/detail', detail.map((v) => `${String(v.hostname)} ${String(v.vrf)} ${String(v.intCount)} ${String(v.routeCount)}`).sort(), ROUTERS.flatMap(vrfTruth).sort())
    const hosts = await rows(client, 'addressing/hosts', id, ['vrf', 'ip'])
    const own = new Set(ROUTERS.flatMap((r) => r.ipv4.map((a) => a.address)))
    const vrfOf = (r: RecordedRouter, port: string) => r.ports.find((p) => p.name === port)?.vrf ?? ''
    const hostTruth = ROUTERS.flatMap((r) => r.neighbours.filter((n) => n.type !== 'local' && !n.ip.includes(':') && !own.has(n.ip)).map((n) => `${vrfOf(r, n.port)} ${n.ip}`))
    score(t, 'addressing/hosts', hosts.map((h) => `${String(h.vrf)} ${String(h.ip)}`).sort(), [...new Set(hostTruth)].sort())
  })

  await t.test('optics levels of a Juniper device from JUNIPER-DOM-MIB, per lane of a multi-lane optic', async (t) => {
    const columns = ['hostname', 'intName', 'channel', 'temperature', 'voltage', 'txBias', 'txPower', 'rxPower']
    const optics = await rows(client, 'interfaces/transceivers/statistics', id, columns)
    score(t, 'interfaces/transceivers/statistics', optics.map((x) => columns.map((c) => String(x[c])).join(' ')).sort(), ROUTERS.flatMap(domTruth).sort())
  })

  await t.test('first-hop redundancy groups: VRRPv3-MIB, VRRP-MIB, CISCO-HSRP-MIB', async (t) => {
    const found = await rows(client, 'fhrp/group-state', id, ['hostname', 'intName', 'protocol', 'groupId', 'virtualIp', 'state', 'priority', 'preempt'])
    const seen = found.map((g) => `${String(g.hostname)} ${String(g.intName)} ${String(g.protocol)} ${String(g.groupId)} ${String(g.virtualIp)} ${String(g.state)} ${String(g.priority)} ${String(g.preempt)}`)
    score(t, 'fhrp/group-state', seen.sort(), ROUTERS.flatMap(fhrpTruth).sort())
  })

  await t.test('the tables of the API family read from those: IPv6 addresses and neighbours, FHRP group members, gateway redundancy', async (t) => {
    const v6 = (line: string) => line.split(' ').some((w) => w.includes(':') && !/^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/.test(w))
    const own = await rows(client, 'addressing/ipv6-managed-devs', id, ['hostname', 'intName', 'ip', 'vrf'])
    score(t, 'addressing/ipv6-managed-devs', own.map((a) => `${String(a.hostname)} ${String(a.intName)} ${String(a.ip)} ${String(a.vrf)}`).sort(), ROUTERS.flatMap(addressTruth).filter(v6).sort())
    const neighbours = await rows(client, 'addressing/ipv6-neighbors', id, ['hostname', 'vrf', 'intName', 'ipv6', 'mac'])
    const neighbourLines = neighbours.map((a) => `${String(a.hostname)} ${String(a.vrf)} ${String(a.intName)} ${String(a.ipv6)} ${String(a.mac)}`)
    score(t, 'addressing/ipv6-neighbors', neighbourLines.sort(), ROUTERS.flatMap(neighbourTruth).filter(v6).sort())

    // one group per protocol, number and virtual address, its members' interfaces in one VRF
    const truth = new Map<string, string[]>()
    for (const r of ROUTERS) {
      for (const line of fhrpTruth(r)) {
        const [host, port, protocol, group, vip] = line.split(' ')
        const vrf = r.ports.find((p) => shortName(p.name) === port)?.vrf ?? ''
        const k = `${protocol} ${group} ${vrf} ${vip}`
        truth.set(k, [...(truth.get(k) ?? []), `${host} ${port}`])
      }
    }
    const members = await rows(client, 'fhrp/group-members', id, ['protocol', 'groupId', 'vrf', 'virtualIp', 'virtualIpv6', 'count', 'devices'])
    score(
      t,
      'fhrp/group-members',
      members.map((m) => `${String(m.protocol)} ${String(m.groupId)} ${String(m.vrf)} ${String(m.virtualIp ?? m.virtualIpv6)} ${String(m.count)} ${(m.devices as Row[]).map((d) => `${String(d.hostname)} ${String(d.intName)}`).sort().join(',')}`).sort(),
      [...truth].map(([k, list]) => `${k} ${list.length} ${list.sort().join(',')}`).sort(),
    )
    t.ok(members.some((m) => m.virtualIpv6 !== null && m.virtualIp === null), 'an IPv6 group')

    // every IPv4 virtual address is a virtual gateway of the network it lies in, on its device's site
    const redundancy = await rows(client, 'networks/gateway-redundancy', id, ['net', 'vrf', 'siteName', 'gw', 'gwV', 'gwcountV'])
    const vips = new Set([...truth.keys()].map((k) => k.split(' ')[3]!).filter((ip) => !ip.includes(':')))
    const listed = redundancy.flatMap((r) => (r.gwV as string[]).map(String))
    t.same([...new Set(listed)].sort(), [...vips].sort(), 'the IPv4 virtual addresses, each in its network')
    t.ok(redundancy.every((r) => r.gwcountV === (r.gwV as unknown[]).length))
  })

  await t.test('a second discovery of the same devices differs from the first in no table', async (t) => {
    const again = await discover(client, seeds)
    const r = await client.call('GET', `snapshots/${again}/changes?against=${id}`)
    t.equal(r.status, 200, r.text)
    const tables = (r.body as { tables: Array<{ table: string; added: number; removed: number; changed: number }> }).tables
    for (const table of ['networks/routes', 'networks/ipv6-routes', 'addressing/arp', 'addressing/managed-devs', 'addressing/hosts', 'vrf/detail', 'fhrp/group-state',
      'addressing/ipv6-managed-devs', 'addressing/ipv6-neighbors', 'addressing/ipv6-hosts', 'fhrp/group-members', 'networks/gateway-redundancy']) {
      t.ok(tables.some((x) => x.table === table), `${table} is compared`)
    }
    for (const { table, added, removed, changed } of tables) t.same({ added, removed, changed }, { added: 0, removed: 0, changed: 0 }, `${table}: no change`)
  })
})
