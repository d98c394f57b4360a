/**
 * Discovery of what the lab's Linux agents cannot show (port-channels, ...), from real SNMP
 * agents (snmpsim) replaying recordings of vendor devices that the test helpers write from a
 * description of each device (test/helpers/recorded/), the same description that gives the
 * ground truth. Each table is held to precision and recall of 1.0 against that truth.
 */
import t from 'tap'
import { freshPostgres } from '../../../helpers/db.js'
import { recordedAgentMissing, recordedAgents } from '../../../helpers/recorded/agent.js'
import { rows, score, type Row } from '../../../helpers/recorded/score.js'
import {
  CATALYST_ACCESS,
  CATALYST_CORE,
  CATALYST_MST,
  WHITEBOX_MSTP,
  ipv6Truth,
  partTruth,
  partsOfClass,
  macTruth,
  opticsTruth,
  portChannelTruth,
  stpInstanceTruth,
  stpGuardTruth,
  stpPortTruth,
  stpTopologyTruth,
  stpTruth,
  stpVlanTruth,
  switchRecordings,
  switchportTruth,
  vlanTruth,
} from '../../../helpers/recorded/switch.js'
import { testNeeding } from '../../../helpers/requirements.js'
import { startApp } from '../../app.js'

testNeeding(t, 'discovery of recorded vendor devices replayed by real SNMP agents', recordedAgentMissing(), async (t) => {
  const SWITCHES = [CATALYST_ACCESS, CATALYST_CORE, WHITEBOX_MSTP, CATALYST_MST]
  const vendor = (sw: (typeof SWITCHES)[number]) => (sw === WHITEBOX_MSTP ? 'linux' : 'cisco')
  const agents = await recordedAgents(t, ...switchRecordings(SWITCHES))
  const catalyst = agents.address.get(CATALYST_ACCESS.sysName)!
  const { db } = await freshPostgres(t)
  const client = await startApp(t, db)
  t.equal((await client.call('POST', 'settings/snmp', { name: 'recorded', version: '2c', community: agents.community })).status, 201)
  const network = `${catalyst.split('.').slice(0, 3).join('.')}.0/24`
  t.equal((await client.call('PATCH', 'settings', { allowedSpecialNetworks: [network], limits: { timeoutMs: 1500, retries: 1 } })).status, 200)
  const r = await client.call('POST', 'snapshots', { source: 'network', seeds: [...agents.address.values()] })
  t.equal(r.status, 201, r.text)
  const { id, jobId } = r.body as { id: string; jobId: string }
  t.match(await client.waitJob(jobId), { status: 'done' })
  const devices = await rows(client, 'inventory/devices', id, ['hostname', 'sn', 'vendor', 'stpDomain'])
  const root = CATALYST_CORE.stp!.root
  const domain = `${root.priority}.${root.mac.replace(/:/g, '').replace(/(....)(....)(....)/, '$1.$2.$3')}`
  t.same(
    devices.map((d) => `${String(d.hostname)} ${String(d.sn)} ${String(d.vendor)} ${String(d.stpDomain)}`).sort(),
    SWITCHES.map((sw) => `${sw.sysName} ${sw.serial} ${vendor(sw)} ${domain}`).sort(),
    'the switches, named by their chassis serials, in the spanning-tree domain of their root',
  )

  await t.test('family and platform from sysDescr, the model from the ENTITY-MIB chassis (a stack\'s sysObjectID names no model)', async (t) => {
    const found = await rows(client, 'inventory/devices', id, ['hostname', 'vendor', 'family', 'platform', 'model'])
    const platform: Record<string, string> = { [CATALYST_ACCESS.sysName]: 'ios c2960x', [CATALYST_CORE.sysName]: 'ios-xe cat9k' }
    t.same(
      found.filter((d) => String(d.hostname) in platform).map((d) => `${String(d.hostname)} ${String(d.vendor)} ${String(d.family)} ${String(d.platform)} ${String(d.model)}`).sort(),
      [CATALYST_ACCESS, CATALYST_CORE].map((sw) => `${sw.sysName} cisco ${platform[sw.sysName]!} ${sw.model}`).sort(),
    )
  })

  await t.test('port-channels: members and their state from IEEE8023-LAG-MIB and ifStackTable', async (t) => {
    const found = await rows(client, 'interfaces/port-channel/member-status', id, ['hostname', 'intName', 'dscr', 'protocol', 'members', 'memberCount', 'bundledCount'])
    const seen = found.map((p) => {
      const members = (p.members as Array<{ intName: string; state: string }>).map((m) => `${m.intName}=${m.state}`)
      return `${String(p.hostname)} ${String(p.intName)} ${String(p.protocol)} [${members.join(' ')}] ${String(p.bundledCount)}/${String(p.memberCount)}`
    })
    score(t, 'interfaces/port-channel/member-status', seen.sort(), SWITCHES.flatMap(portChannelTruth).sort())
    t.same(
      found.map((p) => `${String(p.intName)}=${String(p.dscr)}`).sort(),
      SWITCHES.flatMap((sw) => sw.channels).map((c) => `${c.name}=${c.alias ?? null}`).sort(),
      'the description of each port-channel (ifAlias)',
    )
  })

  await t.test('VLANs and switch ports: access, trunk, native, allowed and voice VLANs from Q-BRIDGE-MIB and CISCO-VLAN-MEMBERSHIP-MIB', async (t) => {
    const vlans = await rows(client, 'vlan/device', id, ['hostname', 'vlanId', 'vlanName', 'status'])
    score(t, 'vlan/device', vlans.map((v) => `${String(v.hostname)} ${String(v.vlanId)} ${String(v.vlanName)} ${String(v.status)}`).sort(), SWITCHES.flatMap(vlanTruth).sort())
    const ports = await rows(client, 'interfaces/switchports', id, ['hostname', 'intName', 'mode', 'accVlan', 'nativeVlan', 'trunkVlan', 'voiceVlan'])
    const seen = ports.map((p) => `${String(p.hostname)} ${String(p.intName)} ${String(p.mode)} ${String(p.accVlan)} ${String(p.nativeVlan)} ${String(p.trunkVlan)} ${String(p.voiceVlan)}`)
    score(t, 'interfaces/switchports', seen.sort(), SWITCHES.flatMap(switchportTruth).sort())
  })

  await t.test('hardware: chassis, modules, power supplies, fans and optics with serials and part numbers from ENTITY-MIB', async (t) => {
    const pn = await rows(client, 'inventory/pn', id, ['hostname', 'name', 'sn', 'pid', 'vid', 'deviceSn'])
    score(t, 'inventory/pn', pn.map((p) => `${String(p.hostname)} ${String(p.name)} ${String(p.sn)} ${String(p.pid)} ${String(p.vid)}`).sort(), SWITCHES.flatMap(partTruth).sort())
    const of = async (table: string, cls: 'module' | 'powerSupply' | 'fan', pid: string | null) => {
      const found = await rows(client, table, id, ['hostname', 'name', 'partSn', ...(pid ? [pid] : [])])
      const seen = found.map((p) => `${String(p.hostname)} ${String(p.name)} ${pid ? String(p[pid]) : ''} ${String(p.partSn)}`)
      // fans have no part number column
      const truth = SWITCHES.flatMap((sw) => partsOfClass(sw, cls)).map((x) => (pid ? x : x.replace(/ (\S+) (\S+)$/, '  $2')))
      score(t, table, seen.sort(), truth.sort())
    }
    await of('inventory/modules', 'module', 'pid')
    await of('inventory/power-supplies', 'powerSupply', 'pid')
    await of('inventory/fans', 'fan', null)
  })

  await t.test('IPv6 addresses with their networks from IP-MIB ipAddressTable, link-local ones left out', async (t) => {
    const managed = await rows(client, 'addressing/managed-devs', id, ['hostname', 'intName', 'ip', 'net'])
    const seen = managed.filter((a) => String(a.ip).includes(':')).map((a) => `${String(a.hostname)} ${String(a.intName)} ${String(a.ip)} ${String(a.net)}`)
    score(t, 'addressing/managed-devs (IPv6)', seen.sort(), SWITCHES.flatMap(ipv6Truth).sort())
  })

  await t.test('spanning tree: mode, bridge and root ids, the root bridge of the domain, from BRIDGE-MIB, RSTP-MIB and CISCO-STP-EXTENSIONS-MIB', async (t) => {
    const bridges = await rows(client, 'spanning-tree/bridges', id, ['hostname', 'stpDomain', 'mode', 'priority', 'bridgeId', 'rootId', 'isRoot'])
    const seen = bridges.map((b) => `${String(b.hostname)} ${String(b.stpDomain)} ${String(b.mode)} ${String(b.priority)} ${String(b.bridgeId)} ${String(b.rootId)} ${String(b.isRoot)}`)
    score(t, 'spanning-tree/bridges', seen.sort(), SWITCHES.flatMap(stpTruth).sort())
  })

  await t.test('spanning-tree ports: state, cost, designated bridge and port from dot1dStpPortTable, edge and point-to-point from RSTP-MIB, the role derived (root, designated, alternate, backup, disabled)', async (t) => {
    const columns = ['hostname', 'intName', 'vlanId', 'instance', 'portRole', 'portStatus', 'portCost', 'portPriority', 'designatedRoot', 'designatedCost', 'designatedBridge', 'designatedPort', 'edge', 'p2p']
    const ports = await rows(client, 'spanning-tree/ports', id, ['id', 'sn', 'siteName', ...columns])
    score(t, 'spanning-tree/ports', ports.map((p) => columns.map((c) => String(p[c])).join(' ')).sort(), SWITCHES.flatMap(stpPortTruth).sort())
    const device = new Map(devices.map((d) => [String(d.hostname), String(d.sn)]))
    const ifIndex = (sw: (typeof SWITCHES)[number], name: string) => [...sw.ports, ...sw.channels].find((i) => i.name === name)!.ifIndex
    t.same(
      ports.map((p) => `${String(p.id)} ${String(p.hostname)} ${String(p.sn)} ${String(p.intName)}`).sort(),
      SWITCHES.flatMap((sw) => [
        ...sw.stp!.ports.map((p) => `${device.get(sw.sysName)!}/${ifIndex(sw, p.port)} ${sw.sysName} ${device.get(sw.sysName)!} ${p.port}`),
        ...(sw.stp!.vlans ?? []).flatMap((v) => v.ports.map((p) => `${device.get(sw.sysName)!}/${ifIndex(sw, p.port)}/${v.vlan} ${sw.sysName} ${device.get(sw.sysName)!} ${p.port}`)),
        ...(sw.stp!.instances ?? []).flatMap((i) => i.ports.map((p) => `${device.get(sw.sysName)!}/${ifIndex(sw, p.port)}/mst${i.instance} ${sw.sysName} ${device.get(sw.sysName)!} ${p.port}`)),
      ]).sort(),
      'each port on the switch it was read from, its id the serial and ifIndex (and the VLAN of a tree other than VLAN 1\'s, or the MSTI)',
    )
    const sites = await rows(client, 'inventory/devices', id, ['hostname', 'siteName'])
    const site = new Map(sites.map((d) => [String(d.hostname), String(d.siteName)]))
    t.ok(ports.every((p) => p.siteName === site.get(String(p.hostname))), 'the site of its switch')
  })

  await t.test('the tree of each VLAN of a per-VLAN switch, read in the VLAN\'s instance of the BRIDGE-MIB (community@vlan)', async (t) => {
    const columns = ['hostname', 'vlanId', 'vlanName', 'priority', 'bridgeId', 'rootId', 'isRoot', 'rootPort', 'rootCost', 'forwardingPorts', 'blockingPorts']
    const trees = await rows(client, 'spanning-tree/vlans', id, columns)
    score(t, 'spanning-tree/vlans', trees.map((v) => columns.map((c) => String(v[c])).join(' ')).sort(), SWITCHES.flatMap(stpVlanTruth).sort())
    const report = await rows(client, 'discovery/connectivity-report', id, ['hostname', 'error'])
    t.same(report.map((r) => r.error), SWITCHES.map(() => null), 'every VLAN\'s instance answered')
  })

  await t.test('the instances of an MSTP switch: the CIST from the BRIDGE-MIB, each MSTI with its VLANs and the MST region from IEEE8021-MSTP-MIB, or from CISCO-STP-EXTENSIONS-MIB on a Cisco switch', async (t) => {
    const columns = ['hostname', 'instance', 'vlans', 'regionName', 'revision', 'priority', 'bridgeId', 'rootId', 'isRoot', 'rootPort', 'rootCost', 'forwardingPorts', 'blockingPorts']
    const instances = await rows(client, 'spanning-tree/instances', id, columns)
    score(t, 'spanning-tree/instances', instances.map((i) => columns.map((c) => String(i[c])).join(' ')).sort(), SWITCHES.flatMap(stpInstanceTruth).sort())
    t.equal(instances.length, 6, 'the CIST and two MSTIs of each MSTP switch, nothing of the per-VLAN ones')
    const second = await client.call('POST', 'tables/spanning-tree/instances', { snapshot: id, columns: ['hostname', 'instance'], filters: { instance: ['eq', 2] }, sort: { column: 'hostname', order: 'asc' } })
    t.same((second.body as { data: Row[] }).data, [WHITEBOX_MSTP, CATALYST_MST].map((sw) => ({ hostname: sw.sysName, instance: 2 })), 'filtered by instance')
  })

  await t.test('topology changes of every tree: dot1dStpTopChanges and dot1dStpTimeSinceTopologyChange in each VLAN\'s instance, IEEE8021-MSTP-MIB for each MSTI', async (t) => {
    const columns = ['hostname', 'vlanId', 'instance', 'topologyChanges', 'secondsSinceChange']
    const trees = await rows(client, 'spanning-tree/topology', id, columns)
    score(t, 'spanning-tree/topology', trees.map((x) => columns.map((c) => String(x[c])).join(' ')).sort(), SWITCHES.flatMap(stpTopologyTruth).sort())
  })

  await t.test('spanning-tree protections of each port from CISCO-STP-EXTENSIONS-MIB, a port\'s default resolved to the switch-wide setting', async (t) => {
    const columns = ['hostname', 'intName', 'portFast', 'bpduGuard', 'bpduFilter', 'rootGuard', 'loopGuard']
    const guards = await rows(client, 'spanning-tree/guards', id, columns)
    score(t, 'spanning-tree/guards', guards.map((x) => columns.map((c) => String(x[c])).join(' ')).sort(), SWITCHES.flatMap(stpGuardTruth).sort())
  })

  await t.test('optics levels of each transceiver from CISCO-ENTITY-SENSOR-MIB or ENTITY-SENSOR-MIB, per lane of a multi-lane optic, power in watts as dBm', async (t) => {
    const columns = ['hostname', 'intName', 'channel', 'temperature', 'voltage', 'txBias', 'txPower', 'rxPower']
    const optics = await rows(client, 'interfaces/transceivers/statistics', id, columns)
    score(t, 'interfaces/transceivers/statistics', optics.map((x) => columns.map((c) => String(x[c])).join(' ')).sort(), SWITCHES.flatMap(opticsTruth).sort())
    t.equal(optics.length, 5, 'the Catalyst\'s optic and each lane of the whitebox\'s')
  })

  await t.test('the MAC addresses of every VLAN: dot1dTpFdbTable of each VLAN\'s instance where the switch has no Q-BRIDGE-MIB forwarding table', async (t) => {
    const macs = await rows(client, 'addressing/mac', id, ['hostname', 'vlan', 'mac', 'intName'])
    score(t, 'addressing/mac', macs.map((m) => `${String(m.hostname)} ${String(m.vlan)} ${String(m.mac)} ${String(m.intName)}`).sort(), SWITCHES.flatMap(macTruth).sort())
  })
})
