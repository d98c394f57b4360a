/**
 * Discovery of real network software: a lab of eight FRR routers (OSPF, iBGP and eBGP), lldpd
 * and snmpd in network namespaces, three end hosts, reached over a management link. One seed
 * address finds everything; after the lab changes (a link shut, a BGP peer removed, a router
 * added) a second discovery shows exactly those differences; a device with a wrong community or
 * a refused SNMPv3 user is reported, not silently missing; a running discovery can be stopped.
 */
import t from 'tap'
import { defaultTopology, labMissing, truthOf } from '../../../../src/lab/index.js'
import { freshPostgres } from '../../../helpers/db.js'
import { testLab } from '../../../helpers/lab.js'
import { testNeeding } from '../../../helpers/requirements.js'
import { startApp, type Client } from '../../app.js'
import { diff, observe } from './observe.js'

async function discover(client: Client, body: Record<string, unknown> = {}): Promise<{ id: string; job: Record<string, unknown> }> {
  const r = await client.call('POST', 'snapshots', body)
  if (r.status !== 201) throw new Error(`discovery refused: ${r.status} ${r.text}`)
  const { id, jobId } = r.body as { id: string; jobId: string }
  return { id, job: await client.waitJob(jobId) }
}

async function connectivity(client: Client, snapshot: string): Promise<Map<string, Record<string, unknown>>> {
  const r = await client.call('POST', 'tables/discovery/connectivity-report', { snapshot, columns: ['ip', 'result', 'credential', 'error', 'hostname', 'source'] })
  return new Map((r.body as { data: Array<Record<string, unknown>> }).data.map((x) => [String(x.ip), x]))
}

testNeeding(t, 'network discovery of a lab of real routers', labMissing() ?? undefined, async (t) => {
  const topo = defaultTopology()
  const lab = await testLab(t, topo)
  const { db } = await freshPostgres(t)
  const client = await startApp(t, db)
  const { v3 } = topo.credentials
  const creds: Record<string, string> = {}
  for (const c of [
    { name: 'lab', version: '2c', community: topo.credentials.community },
    { name: 'paris', version: '2c', community: 'paris-ro' },
    { name: 'lab-v3', version: '3', user: v3.user, authProtocol: v3.authProtocol, authPassword: v3.authPassword, privProtocol: v3.privProtocol, privPassword: v3.privPassword },
  ]) {
    const r = await client.call('POST', 'settings/snmp', c)
    t.equal(r.status, 201)
    creds[c.name] = (r.body as { id: string }).id
  }
  t.same((await client.call('PUT', 'settings/seed', [lab.seed])).body, [lab.seed])
  t.equal((await client.call('PATCH', 'settings', { include: [topo.supernet], limits: { timeoutMs: 1000, retries: 1 } })).status, 200)

  const first = await discover(client)
  t.equal(first.job.status, 'done', JSON.stringify(first.job))
  const seen1 = await observe(client, first.id, topo)
  const truth1 = truthOf(topo)
  await t.test('one seed address finds every device, neighbour pair, interface state, ARP entry, route, BGP session and OSPF adjacency', async (t) => {
    for (const key of Object.keys(truth1) as Array<keyof typeof truth1>) {
      if (key === 'loopbackRoutes') t.same(seen1[key].filter((x) => truth1[key].includes(x)), truth1[key], key)
      else t.same(seen1[key], truth1[key], key)
    }
    const snap = (await client.call('GET', `snapshots/${first.id}`)).body as Record<string, unknown>
    t.equal(snap.origin, 'network')
    t.equal(snap.totalDevCount, topo.routers.length)
    const report = await connectivity(client, first.id)
    t.match(report.get(lab.seed), { result: 'ok', credential: 'lab', hostname: 'r1', source: 'seed' })
    t.match(report.get('10.213.0.7'), { result: 'ok', credential: 'lab-v3', hostname: 'r7', source: 'lldp' }, 'an SNMPv3 user with SHA-256 and AES answers')
    t.match(report.get('10.213.0.8'), { result: 'ok', credential: 'paris' })
  })

  await t.test('devices of a network snapshot are removed, then collected again by SNMP into it', async (t) => {
    const find = async (hostname: string) => {
      const r = await client.call('POST', 'tables/inventory/devices', { snapshot: first.id, columns: ['sn', 'loginIp'], filters: { hostname: ['eq', hostname] } })
      return (r.body as { data: Array<{ sn: string; loginIp: string }> }).data[0]!
    }
    const r3 = await find('r3')
    const r2 = await find('r2')
    const sites = async () => {
      const r = await client.call('POST', 'tables/inventory/sites', { snapshot: first.id, columns: ['siteName', 'devicesCount', 'networksCount', 'vlanCount', 'usersCount'], sort: { column: 'siteName', order: 'asc' } })
      return (r.body as { data: unknown[] }).data
    }
    const sitesBefore = await sites()
    t.equal((await client.call('DELETE', `snapshots/${first.id}/devices`, [r3.sn])).status, 204)
    t.notSame(await sites(), sitesBefore, 'the sites follow the removal')
    t.notOk((await observe(client, first.id, topo)).devices.includes('r3'), 'r3 removed')
    const add = await client.call('POST', `snapshots/${first.id}/devices`, { ipList: [r3.loginIp] })
    t.equal(add.status, 202, add.text)
    t.match(await client.waitJob((add.body as { jobId: string }).jobId), { name: 'discoveryAdd', status: 'done' })
    t.same(await sites(), sitesBefore, 'and come back with the device (its site too, had it gone)')
    await db.query('UPDATE inventory.interfaces SET l1 = $2 WHERE snapshot_id = $1 AND sn = $3', [first.id, 'stale', r2.sn])
    const refresh = await client.call('POST', `snapshots/${first.id}/devices`, { snList: [r2.sn] })
    t.equal(refresh.status, 202, refresh.text)
    t.match(await client.waitJob((refresh.body as { jobId: string }).jobId), { name: 'discoveryRefresh', status: 'done' })
    t.same(await observe(client, first.id, topo), seen1, 'what the first discovery saw, collected again')
    t.match((await client.call('GET', `snapshots/${first.id}`)).body, { totalDevCount: topo.routers.length })
  })

  await t.test('the lab changes; a second discovery shows exactly those differences', async (t) => {
    const before = structuredClone(lab.topology)
    await lab.shutLink('r1:eth2')
    await lab.removeBgp('r6', 'r8')
    await lab.addRouter({ name: 'r9', loopback: '10.213.0.9', as: 65003, location: 'Paris POP, suite 4' }, { a: 'r8:eth3', b: 'r9:eth1', network: '10.213.1.40/30' }, 'r8')
    await lab.refreshArp()
    const second = await discover(client)
    t.equal(second.job.status, 'done', JSON.stringify(second.job))
    const seen2 = await observe(client, second.id, lab.topology)
    const truth2 = truthOf(lab.topology)
    const expected = diff(truthOf(before), truth2)
    const got = diff(seen1, seen2)
    for (const key of ['devices', 'neighbors', 'interfaces', 'bgp', 'ospf', 'connected'] as const) t.same(got[key], expected[key], key)
    t.ok(expected.neighbors.length > 0 && expected.bgp.length > 0 && expected.devices.length === 1, 'the changes show in the truth')
    const snap = (await client.call('GET', `snapshots/${second.id}`)).body as Record<string, unknown>
    t.match(snap, { deviceAddedCount: 1, deviceRemovedCount: 0, totalDevCount: topo.routers.length + 1 })
  })

  await t.test('a wrong community and a refused SNMPv3 user are reported in the connectivity table', async (t) => {
    t.equal((await client.call('DELETE', `settings/snmp/${creds.paris}`)).status, 204)
    t.equal((await client.call('PATCH', `settings/snmp/${creds['lab-v3']}`, { authPassword: 'not-the-password' })).status, 200)
    const third = await discover(client)
    t.equal(third.job.status, 'done')
    const report = await connectivity(client, third.id)
    t.match(report.get('10.213.0.7'), { result: 'auth', credential: null, error: /lab-v3: authentication failed: Wrong Digest/ })
    // r8 answers neither the lab's community nor (it has no SNMPv3 user) the lab's user
    t.match(report.get('10.213.0.8'), { result: 'auth', credential: null, error: /lab: no answer.*lab-v3: authentication failed: Unknown User Name/ })
    const seen = await observe(client, third.id, lab.topology)
    t.notOk(seen.devices.includes('r7') || seen.devices.includes('r8'))
    const snap = (await client.call('GET', `snapshots/${third.id}`)).body as { errors: Array<{ errorType: string; count: number }> }
    t.same(
      snap.errors.filter((e) => e.errorType.startsWith('SNMP_')),
      [{ errorType: 'SNMP_AUTHENTICATION', count: 2 }],
    )
  })

  await t.test('a running discovery is stopped: the snapshot ends in error and nothing of it is visible', async (t) => {
    // addresses of the lab's range where nothing answers keep the crawl busy
    const r = await client.call('POST', 'snapshots', { source: 'network', seeds: ['10.213.200.0/24'] })
    t.equal(r.status, 201)
    const { id, jobId } = r.body as { id: string; jobId: string }
    const stop = await client.call('POST', `jobs/${jobId}/stop`)
    t.equal(stop.status, 200)
    t.match(stop.body, { status: 'error', isDone: true, message: 'stopped by alice' })
    const snap = (await client.call('GET', `snapshots/${id}`)).body as Record<string, unknown>
    t.match(snap, { status: 'error', state: 'unloaded', errors: [{ errorType: 'STOPPED', count: 1 }] })
    const q = await client.call('POST', 'tables/discovery/connectivity-report', { snapshot: id, columns: ['ip'] })
    t.not(q.status, 200, 'no rows of a stopped discovery can be read')
    t.equal((await client.call('POST', `jobs/${jobId}/stop`)).status, 409, 'a finished job cannot be stopped again')
  })
})
