/**
 * A device that stops answering for a moment in the middle of its collection (an agent busy with
 * a routing change or a configuration save, a loaded machine) loses nothing: the groups it did not
 * answer are read again after the others. One that goes silent for good is not asked for every
 * group twice. The device is a real SNMP agent (snmpsim replaying a recorded switch) behind a UDP
 * relay of the test's own that drops requests when told to.
 */
import { createSocket, type Socket } from 'node:dgram'
import t, { type Test } from 'tap'
import { freshPglite } from '../../../helpers/db.js'
import { recordedAgentMissing, recordedAgents } from '../../../helpers/recorded/agent.js'
import { CATALYST_ACCESS, switchRecordings, switchVarbinds } from '../../../helpers/recorded/switch.js'
import { testNeeding } from '../../../helpers/requirements.js'
import { startApp, type Client } from '../../app.js'

interface Relay {
  address: string
  /** Requests dropped so far. */
  dropped(): number
}

/** Relays SNMP requests from `address`:161 to `target`:161 and the answers back; drops the requests `drop` says to. */
async function relay(t: Test, address: string, target: string, drop: (msg: Buffer) => boolean): Promise<Relay> {
  const front = createSocket('udp4')
  const backs = new Map<string, Socket>()
  let dropped = 0
  front.on('message', (msg, rinfo) => {
    if (drop(msg)) {
      dropped++
      return
    }
    const key = `${rinfo.address}:${rinfo.port}`
    let back = backs.get(key)
    if (back === undefined) {
      back = createSocket('udp4')
      back.on('message', (answer) => front.send(answer, rinfo.port, rinfo.address))
      backs.set(key, back)
    }
    back.send(msg, 161, target)
  })
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject)
    front.bind(161, address, () => resolve())
  })
  t.teardown(() => {
    front.close()
    for (const b of backs.values()) b.close()
  })
  return { address, dropped: () => dropped }
}

/** Drops every request from the `from`-th on (1-based) while `deaf(ms since that request)` says so. */
function deafFrom(from: number, deaf: (ms: number) => boolean): (msg: Buffer) => boolean {
  let seen = 0
  let since = 0
  return () => {
    seen++
    if (seen === from) since = performance.now()
    return seen >= from && deaf(performance.now() - since)
  }
}

/** A request that names an OID under BRIDGE-MIB (1.3.6.1.2.1.17: its BER encoding). */
const BRIDGE_MIB = Buffer.from([0x2b, 0x06, 0x01, 0x02, 0x01, 0x11])

const TABLES: ReadonlyArray<[string, string[]]> = [
  ['inventory/interfaces', ['hostname', 'intName', 'dscr', 'l1', 'l2', 'mtu', 'speed', 'mac', 'primaryIp']],
  ['interfaces/switchports', ['hostname', 'intName', 'mode', 'accVlan', 'nativeVlan', 'trunkVlan', 'voiceVlan']],
  ['interfaces/port-channel/member-status', ['hostname', 'intName', 'protocol', 'members']],
  ['vlan/device', ['hostname', 'vlanId', 'vlanName', 'status']],
  ['spanning-tree/ports', ['hostname', 'intName', 'vlanId', 'portRole', 'portStatus', 'designatedBridge']],
  ['inventory/pn', ['hostname', 'name', 'pid', 'sn']],
]

async function collected(client: Client, seed: string): Promise<{ tables: Record<string, unknown[]>; report: Record<string, unknown> }> {
  const r = await client.call('POST', 'snapshots', { source: 'network', seeds: [seed] })
  if (r.status !== 201) throw new Error(`discovery refused: ${r.status} ${r.text}`)
  const { id, jobId } = r.body as { id: string; jobId: string }
  await client.waitJob(jobId)
  const tables: Record<string, unknown[]> = {}
  for (const [table, columns] of TABLES) {
    const q = await client.call('POST', `tables/${table}`, { snapshot: id, columns, pagination: { limit: 1000 } })
    if (q.status !== 200) throw new Error(`${table}: ${q.status} ${q.text}`)
    tables[table] = (q.body as { data: unknown[] }).data.map((row) => JSON.stringify(row)).sort()
  }
  const report = await client.call('POST', 'tables/discovery/connectivity-report', { snapshot: id, columns: ['ip', 'result', 'error'] })
  return { tables, report: (report.body as { data: Array<Record<string, unknown>> }).data[0]! }
}

testNeeding(t, 'a device silent for a moment mid-collection', recordedAgentMissing(), async (t) => {
  const agents = await recordedAgents(t, ...switchRecordings([CATALYST_ACCESS]))
  const device = agents.address.get(CATALYST_ACCESS.sysName)!
  const net = device.split('.').slice(0, 3).join('.')
  const client = await startApp(t, await freshPglite(t))
  t.equal((await client.call('POST', 'settings/snmp', { name: 'recorded', version: '2c', community: agents.community })).status, 201)
  // one try per request: a dropped request is a timeout at once, as the busy device's would be after its retries
  t.equal((await client.call('PATCH', 'settings', { allowedSpecialNetworks: [`${net}.0/24`], limits: { timeoutMs: 1500, retries: 0 } })).status, 200)
  const direct = await collected(client, device)
  t.match(direct.report, { result: 'ok', error: null }, 'the device answers everything when asked directly')
  for (const [table] of TABLES) t.ok(direct.tables[table]!.length > 0, `${table} has rows`)

  await t.test('silent for 4 s after its first groups: every group is read, no warning', async (t) => {
    const busy = await relay(t, `${net}.201`, device, deafFrom(4, (ms) => ms < 4000))
    const seen = await collected(client, busy.address)
    t.ok(busy.dropped() > 0, `the relay dropped ${busy.dropped()} requests`)
    t.match(seen.report, { result: 'ok', error: null }, 'no group is missing')
    t.same(seen.tables, direct.tables, 'what a direct collection reads')
  })

  await t.test('silent for good after its first groups: each group is a warning, the groups it did not answer are not all asked again', async (t) => {
    const gone = await relay(t, `${net}.202`, device, deafFrom(4, () => true))
    const seen = await collected(client, gone.address)
    const warnings = String(seen.report.error).split('; ')
    t.match(seen.report, { result: 'ok', error: /^[\w ]+: no answer in time, twice; / })
    t.ok(warnings.length > 5, `${warnings.length} groups unanswered: ${String(seen.report.error)}`)
    t.ok(warnings.slice(1).every((w) => / not asked again, the device stopped answering$/.test(w)), 'the groups after the first silent again are not asked')
    // once per group, then once more: the first group asked again and silent again ends the second chance
    t.ok(gone.dropped() < 2 * warnings.length, `${gone.dropped()} requests dropped for ${warnings.length} groups`)
  })

  await t.test('the bridge group not answered at first: read again, and the VLANs\' instances after it', async (t) => {
    let bridgeRequests = 0
    const once = await relay(t, `${net}.203`, device, (msg) => msg.includes(BRIDGE_MIB) && ++bridgeRequests === 1)
    const seen = await collected(client, once.address)
    t.equal(once.dropped(), 1, 'the first BRIDGE-MIB request dropped')
    t.match(seen.report, { result: 'ok', error: null }, 'no group is missing')
    t.same(seen.tables, direct.tables, 'what a direct collection reads, each VLAN\'s tree included')
  })

  await t.test('a per-VLAN switch whose VLAN instances do not answer (no community indexing): one timeout, one warning, the rest collected', async (t) => {
    const plain = await recordedAgents(t, new Map([[CATALYST_ACCESS.sysName, switchVarbinds(CATALYST_ACCESS)]]))
    const address = plain.address.get(CATALYST_ACCESS.sysName)!
    const settings = await client.call('PATCH', 'settings', { allowedSpecialNetworks: [`${net}.0/24`, `${address.split('.').slice(0, 3).join('.')}.0/24`] })
    t.equal(settings.status, 200, settings.text)
    t.equal((await client.call('POST', 'settings/snmp', { name: 'plain', version: '2c', community: plain.community })).status, 201)
    const seen = await collected(client, address)
    t.match(seen.report, { result: 'ok', error: /^bridge per VLAN: no answer/ })
    t.notMatch(String(seen.report.error), /;/, 'the first VLAN that does not answer ends the reading')
    for (const table of ['inventory/interfaces', 'interfaces/switchports', 'vlan/device', 'inventory/pn']) t.same(seen.tables[table], direct.tables[table], table)
    t.same(seen.tables['spanning-tree/ports'], direct.tables['spanning-tree/ports']!.filter((r) => !/"vlanId":(10|30)\b/.test(r as string)), 'the tree of VLAN 1')
  })
})
