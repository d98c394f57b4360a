/**
 * Change detection without noise, on real network software: two discoveries of an unchanged lab
 * (FRR routers with OSPF and BGP, an end host, and a neighbour that does not answer SNMP, whose
 * rows have no remote serial) differ in nothing, in every table; after one change (the OSPF cost
 * of one interface) a third discovery differs by exactly that change.
 */
import t from 'tap'
import { checkTopology, defaultTopology, labMissing, type Topology } from '../../../../src/lab/index.js'
import { freshPostgres } from '../../../helpers/db.js'
import { testLab } from '../../../helpers/lab.js'
import { testNeeding } from '../../../helpers/requirements.js'
import { startApp, type Client } from '../../app.js'

type Row = Record<string, unknown>

/** Three routers in a line; r3 answers a community discovery is not given, so it is only seen through LLDP. */
function topology(): Topology {
  return checkTopology({
    name: 'netinv-changes',
    supernet: '10.219.0.0/16',
    management: { router: 'r1', network: '10.219.255.0/30' },
    credentials: defaultTopology().credentials,
    routers: [
      { name: 'r1', loopback: '10.219.0.1', as: 65001, location: 'Berlin DC1, row 1' },
      { name: 'r2', loopback: '10.219.0.2', as: 65001, location: 'Berlin DC1, row 2' },
      { name: 'r3', loopback: '10.219.0.3', as: 65002, location: 'London POP, cage 1', snmp: { community: 'not-given-to-discovery' } },
    ],
    links: [
      { a: 'r1:eth1', b: 'r2:eth1', network: '10.219.1.0/30' },
      { a: 'r2:eth2', b: 'r3:eth1', network: '10.219.1.4/30' },
    ],
    bgp: [
      { a: 'r1', b: 'r2' },
      { a: 'r2', b: 'r3' },
    ],
    bgpDown: [],
    hosts: [{ name: 'h1', router: 'r2', interface: 'eth3', network: '10.219.101.0/24' }],
  })
}

async function discover(client: Client): Promise<string> {
  const r = await client.call('POST', 'snapshots', {})
  if (r.status !== 201) throw new Error(`discovery refused: ${r.status} ${r.text}`)
  const { id, jobId } = r.body as { id: string; jobId: string }
  const job = await client.waitJob(jobId)
  if (job.status !== 'done') throw new Error(`discovery failed: ${JSON.stringify(job)}`)
  return id
}

async function changes(client: Client, newer: string, older: string): Promise<Map<string, { added: number; removed: number; changed: number }>> {
  const r = await client.call('GET', `snapshots/${newer}/changes?against=${older}`)
  if (r.status !== 200) throw new Error(`changes: ${r.status} ${r.text}`)
  return new Map((r.body as { tables: Array<{ table: string; added: number; removed: number; changed: number }> }).tables.map(({ table, ...n }) => [table, n]))
}

async function compared(client: Client, table: string, newer: string, older: string, columns: string[]): Promise<Row[]> {
  const r = await client.call('POST', `tables/${table}`, { snapshot: newer, compare: { snapshot: older }, columns: [...columns, 'change', 'diff'], pagination: { limit: 1000 } })
  if (r.status !== 200) throw new Error(`${table}: ${r.status} ${r.text}`)
  return (r.body as { data: Row[] }).data
}

async function rows(client: Client, table: string, snapshot: string, columns: string[]): Promise<Row[]> {
  const r = await client.call('POST', `tables/${table}`, { snapshot, columns, pagination: { limit: 1000 } })
  if (r.status !== 200) throw new Error(`${table}: ${r.status} ${r.text}`)
  return (r.body as { data: Row[] }).data
}

testNeeding(t, 'two discoveries of an unchanged lab differ in nothing; one change shows as exactly that', labMissing() ?? undefined, async (t) => {
  const topo = topology()
  const lab = await testLab(t, topo)
  const { db } = await freshPostgres(t)
  const client = await startApp(t, db)
  t.equal((await client.call('POST', 'settings/snmp', { name: 'lab', version: '2c', community: topo.credentials.community })).status, 201)
  t.equal((await client.call('PUT', 'settings/seed', [lab.seed])).status, 200)
  t.equal((await client.call('PATCH', 'settings', { include: [topo.supernet], limits: { timeoutMs: 1500, retries: 1 } })).status, 200)

  const first = await discover(client)
  await lab.refreshArp()
  const second = await discover(client)

  await t.test('what the lab holds is in the snapshot: a neighbour without serial, OSPF costs', async (t) => {
    const neighbors = await rows(client, 'neighbors/all', second, ['localHost', 'localInt', 'remoteSn', 'remoteHost'])
    t.ok(
      neighbors.some((n) => n.localHost === 'r2' && n.localInt === 'eth2' && n.remoteSn === null),
      'r2 sees r3, which does not answer discovery, through LLDP: a row whose remoteSn is null',
    )
    const ospf = await rows(client, 'routing/protocols/ospf/neighbors', second, ['hostname', 'intName', 'localCost', 'neiCost'])
    t.ok(ospf.length >= 2, 'OSPF adjacencies')
    for (const o of ospf) t.ok(typeof o.localCost === 'number' && o.localCost > 0, `${String(o.hostname)} ${String(o.intName)}: the cost FRR reports (as its router LSA advertises it)`)
    for (const o of ospf) t.ok(typeof o.neiCost === 'number' && o.neiCost > 0, `${String(o.hostname)} ${String(o.intName)}: the neighbour's cost, r3's too (from its router LSA)`)
  })

  await t.test('the second discovery of the unchanged lab differs from the first in no table', async (t) => {
    const counts = await changes(client, second, first)
    t.ok(['neighbors/all', 'neighbors/unidirectional', 'addressing/hosts', 'routing/protocols/ospf/neighbors'].every((x) => counts.has(x)), 'every table of a snapshot is counted')
    for (const [table, n] of counts) {
      if (n.added + n.removed + n.changed === 0) {
        t.pass(`${table}: no change`)
        continue
      }
      const differences = await compared(client, table, second, first, ['id'])
      t.fail(`${table}: ${JSON.stringify(n)} ${JSON.stringify(differences.slice(0, 3))}`)
    }
    const volatile = await client.call('GET', `snapshots/${second}/changes?against=${first}&volatile=true`)
    const devices = (volatile.body as { tables: Array<{ table: string; changed: number }> }).tables.find((x) => x.table === 'inventory/devices')
    t.equal(devices?.changed, 2, 'asked for, the volatile columns show (the uptime of both devices grew)')
  })

  await t.test('one change, the OSPF cost of r1:eth1, shows as exactly that change', async (t) => {
    const before = await rows(client, 'routing/protocols/ospf/neighbors', second, ['hostname', 'intName', 'localCost', 'neiCost'])
    const r1 = before.find((o) => o.hostname === 'r1' && o.intName === 'eth1')!
    const r2 = before.find((o) => o.hostname === 'r2' && o.intName === 'eth1')!
    const cost = Number(r1.localCost) + 40
    await lab.setOspfCost('r1:eth1', cost)
    await lab.refreshArp()
    const third = await discover(client)
    const counts = await changes(client, third, second)
    for (const [table, n] of counts) {
      if (table === 'routing/protocols/ospf/neighbors') t.same(n, { added: 0, removed: 0, changed: 2 }, `${table}: the two ends of the link`)
      // the OSPF interfaces (from the neighbours) carry the cost of the interface whose cost changed
      else if (table === 'routing/protocols/ospf/interfaces') t.same(n, { added: 0, removed: 0, changed: 1 }, `${table}: r1:eth1`)
      else if (table === 'networks/routes') {
        // routes through the link may carry the new cost as their metric, and nothing else changes
        t.same([n.added, n.removed], [0, 0], `${table}: no route comes or goes`)
        for (const route of await compared(client, table, third, second, ['hostname', 'network'])) {
          t.same(Object.keys((route.diff as Row | null) ?? { none: 1 }).filter((c) => !/^metric/.test(c)), [], `${String(route.hostname)} ${String(route.network)}: only its metric changed`)
        }
      } else t.same(n, { added: 0, removed: 0, changed: 0 }, `${table}: no change`)
    }
    const ospf = await compared(client, 'routing/protocols/ospf/neighbors', third, second, ['hostname', 'intName'])
    const byHost = new Map(ospf.map((o) => [o.hostname, o]))
    t.same(byHost.get('r1'), { hostname: 'r1', intName: 'eth1', change: 'changed', diff: { localCost: { old: r1.localCost, new: cost } } }, "r1's own cost")
    t.same(byHost.get('r2'), { hostname: 'r2', intName: 'eth1', change: 'changed', diff: { neiCost: { old: r2.neiCost, new: cost } } }, "r2's neighbour's cost")
  })
})
