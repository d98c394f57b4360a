/**
 * Discovery of the recorded Catalyst switches (per-VLAN spanning tree) over SNMPv3 only, from real
 * SNMP agents (snmpsim) that answer one user (authPriv: SHA and AES) and no community. As a Cisco
 * switch does, each agent answers its device's default instance in the empty context and each
 * VLAN's instance of the BRIDGE-MIB (the VLAN's spanning tree and its MAC addresses) in the
 * context "vlan-N" only: the trees and MAC addresses of the VLANs other than 1 are found only
 * where the client asks each VLAN's instance in its context. Held to precision and recall of 1.0
 * against the description the recordings are written from.
 */
import t, { type Test } from 'tap'
import { freshPostgres } from '../../../helpers/db.js'
import { recordedAgentMissing, recordedV3Agents } from '../../../helpers/recorded/agent.js'
import { rows, score } from '../../../helpers/recorded/score.js'
import { CATALYST_ACCESS, CATALYST_CORE, macTruth, stpVlanTruth, switchRecordings } from '../../../helpers/recorded/switch.js'
import { testNeeding } from '../../../helpers/requirements.js'
import { startApp, type Client } from '../../app.js'

/** A discovery of the seeds to its end: the snapshot's id. */
async function discover(t: Test, client: Client, seeds: string[]): Promise<string> {
  const r = await client.call('POST', 'snapshots', { source: 'network', seeds })
  t.equal(r.status, 201, r.text)
  const { id, jobId } = r.body as { id: string; jobId: string }
  t.match(await client.waitJob(jobId), { status: 'done' })
  return id
}

testNeeding(t, 'discovery over SNMPv3 of recorded per-VLAN switches: each VLAN\'s instance read in its context "vlan-N"', recordedAgentMissing(), async (t) => {
  const SWITCHES = [CATALYST_ACCESS, CATALYST_CORE]
  const agents = await recordedV3Agents(t, ...switchRecordings(SWITCHES))
  const seeds = [...agents.address.values()]
  const { db } = await freshPostgres(t)
  const client = await startApp(t, db)
  const created = await client.call('POST', 'settings/snmp', { name: 'recorded-v3', version: '3', ...agents.v3 })
  t.equal(created.status, 201, created.text)
  const credential = (created.body as { id: string }).id
  const network = `${seeds[0]!.split('.').slice(0, 3).join('.')}.0/24`
  t.equal((await client.call('PATCH', 'settings', { allowedSpecialNetworks: [network], limits: { timeoutMs: 1500, retries: 1 } })).status, 200)
  const id = await discover(t, client, seeds)

  await t.test('the SNMPv3 user answers for both switches, every VLAN\'s instance included', async (t) => {
    const report = await rows(client, 'discovery/connectivity-report', id, ['ip', 'result', 'credential', 'error', 'hostname'])
    t.same(
      report.map((r) => `${String(r.ip)} ${String(r.result)} ${String(r.credential)} ${String(r.error)} ${String(r.hostname)}`).sort(),
      SWITCHES.map((sw) => `${agents.address.get(sw.sysName)!} ok recorded-v3 null ${sw.sysName}`).sort(),
    )
    const devices = await rows(client, 'inventory/devices', id, ['hostname', 'sn'])
    t.same(devices.map((d) => `${String(d.hostname)} ${String(d.sn)}`).sort(), SWITCHES.map((sw) => `${sw.sysName} ${sw.serial}`).sort(), 'the switches, named by their chassis serials')
  })

  await t.test('the tree of each VLAN, read in the VLAN\'s context (VLAN 1\'s in the empty one)', async (t) => {
    const columns = ['hostname', 'vlanId', 'vlanName', 'priority', 'bridgeId', 'rootId', 'isRoot', 'rootPort', 'rootCost', 'forwardingPorts', 'blockingPorts']
    const trees = await rows(client, 'spanning-tree/vlans', id, columns)
    score(t, 'spanning-tree/vlans', trees.map((v) => columns.map((c) => String(v[c])).join(' ')).sort(), SWITCHES.flatMap(stpVlanTruth).sort())
    t.ok(trees.some((v) => v.vlanId !== 1), 'trees of VLANs other than 1 (which only their contexts hold)')
  })

  await t.test('the MAC addresses of every VLAN: dot1dTpFdbTable in each VLAN\'s context', async (t) => {
    const macs = await rows(client, 'addressing/mac', id, ['hostname', 'vlan', 'mac', 'intName'])
    score(t, 'addressing/mac', macs.map((m) => `${String(m.hostname)} ${String(m.vlan)} ${String(m.mac)} ${String(m.intName)}`).sort(), SWITCHES.flatMap(macTruth).sort())
    t.ok(macs.some((m) => m.vlan !== 1), 'addresses of VLANs other than 1 (which only their contexts hold)')
  })

  await t.test('a wrong authentication key: refused at once, reported, and nothing of the switches found', async (t) => {
    t.equal((await client.call('PATCH', `settings/snmp/${credential}`, { authPassword: 'not-the-authentication-key' })).status, 200)
    const started = Date.now()
    const refused = await discover(t, client, seeds)
    t.ok(Date.now() - started < 10_000, `over in less than 10 s (${Date.now() - started} ms)`)
    const report = await rows(client, 'discovery/connectivity-report', refused, ['ip', 'result', 'credential', 'error'])
    t.equal(report.length, SWITCHES.length, 'both switches tried')
    for (const r of report) t.match(r, { result: 'auth', credential: null, error: /^authentication failed: /i }, String(r.ip))
    t.same(await rows(client, 'inventory/devices', refused, ['hostname']), [], 'no device')
  })
})
