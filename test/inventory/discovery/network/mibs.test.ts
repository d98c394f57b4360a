/**
 * The MIB groups the lab's Linux agents do not serve (ENTITY-MIB, CISCO-CDP-MIB, BRIDGE-MIB and
 * Q-BRIDGE-MIB, the older ipCidrRouteTable and ipNetToMediaTable) and the OSPFV3-MIB cases
 * ospf6d's do not show (an instance other than 0, areas and costs that differ, a neighbour
 * short of full), read from recorded varbinds in the shapes of the MIBs (written from their
 * definitions, RFC 5643 and RFC 5340 for OSPFv3), through the same modules and row mappings as a
 * real discovery.
 */
import t from 'tap'
import { Recorded } from './varbinds.js'
import { collectEntity } from '../../../../src/inventory/discovery/network/mibs/entity.js'
import { collectCdp } from '../../../../src/inventory/discovery/network/mibs/cdp.js'
import { collectBridge } from '../../../../src/inventory/discovery/network/mibs/bridge.js'
import { collectRoutes } from '../../../../src/inventory/discovery/network/mibs/routes.js'
import { collectArp } from '../../../../src/inventory/discovery/network/mibs/ip.js'
import { collectInterfaces } from '../../../../src/inventory/discovery/network/mibs/interfaces.js'
import { deviceSn } from '../../../../src/inventory/discovery/network/identity.js'
import { assemble } from '../../../../src/inventory/discovery/network/assemble.js'
import { partRows } from '../../../../src/inventory/discovery/network/rows/parts.js'
import { fanRows, powerSupplyRows } from '../../../../src/inventory/discovery/network/rows/environment.js'
import { neighborRows } from '../../../../src/inventory/discovery/network/rows/neighbors.js'
import { macRows, vlanRows } from '../../../../src/inventory/discovery/network/rows/layer2.js'
import { switchportRows } from '../../../../src/inventory/discovery/network/rows/switchports.js'
import { hostRows } from '../../../../src/inventory/discovery/network/rows/hosts.js'
import { collectOspfv3 } from '../../../../src/inventory/discovery/network/mibs/ospfv3.js'
import { ospfv3Rows } from '../../../../src/inventory/discovery/network/rows/ospfv3.js'
import { fdbIfIndex, newDevice, type CollectedDevice, type StpData } from '../../../../src/inventory/discovery/network/model.js'
import { applyVlanInstances, collectVlanInstances, fdbPerVlan, instanceVlans } from '../../../../src/inventory/discovery/network/mibs/vlan-instances.js'

const STR = 4
const INT = 2
const OCTETS = (s: string) => Buffer.from(s)

function device(address: string, name: string, extra: Partial<CollectedDevice>): CollectedDevice {
  const system = { name, descr: 'Cisco IOS Software, C2960 Software (C2960-LANBASEK9-M), Version 12.2(55)SE7', objectId: '1.3.6.1.4.1.9.1.1208', uptimeSeconds: 1, location: null, contact: null }
  return { ...newDevice(address, { id: 'c', name: 'lab' }, system), ipForwarding: false, ...extra }
}

const E = '1.3.6.1.2.1.47.1.1.1.1'
const entityAgent = new Recorded([
  [`${E}.2.1`, STR, OCTETS('WS-C2960X-48FPD-L')],
  [`${E}.5.1`, INT, 3],
  [`${E}.4.1`, INT, 0],
  [`${E}.7.1`, STR, OCTETS('1')],
  [`${E}.11.1`, STR, OCTETS('FOC1932X0K1')],
  [`${E}.13.1`, STR, OCTETS('WS-C2960X-48FPD-L')],
  [`${E}.8.1`, STR, OCTETS('V05')],
  [`${E}.2.2`, STR, OCTETS('Power Supply')],
  [`${E}.5.2`, INT, 6],
  [`${E}.4.2`, INT, 1],
  [`${E}.7.2`, STR, OCTETS('Switch 1 - Power Supply A')],
  [`${E}.11.2`, STR, OCTETS('LIT2030A1B2')],
  [`${E}.13.2`, STR, OCTETS('PWR-C2-1025WAC')],
  [`${E}.2.3`, STR, OCTETS('GigabitEthernet1/0/1')],
  [`${E}.5.3`, INT, 10],
  [`${E}.4.3`, INT, 1],
  [`${E}.11.3`, STR, OCTETS('')],
])

const IF = '1.3.6.1.2.1.2.2.1'
const IFX = '1.3.6.1.2.1.31.1.1.1'
const mac = (s: string) => Buffer.from(s.split(':').map((x) => parseInt(x, 16)))
const ifAgent = new Recorded([
  [`${IF}.2.10101`, STR, OCTETS('GigabitEthernet1/0/1')],
  [`${IF}.3.10101`, INT, 6],
  [`${IF}.6.10101`, STR, mac('00:1e:7a:00:00:01')],
  [`${IF}.7.10101`, INT, 1],
  [`${IF}.8.10101`, INT, 1],
  [`${IFX}.1.10101`, STR, OCTETS('Gi1/0/1')],
  [`${IF}.2.10102`, STR, OCTETS('GigabitEthernet1/0/2')],
  [`${IF}.3.10102`, INT, 6],
  [`${IF}.7.10102`, INT, 1],
  [`${IF}.8.10102`, INT, 1],
  [`${IFX}.1.10102`, STR, OCTETS('Gi1/0/2')],
])

t.test('ENTITY-MIB: the chassis serial is the device serial; field-replaceable parts become part-number rows', async (t) => {
  const entity = await collectEntity(entityAgent)
  const d = device('192.0.2.10', 'sw1.example.net', { entity })
  t.equal(deviceSn(d), 'FOC1932X0K1')
  const net = assemble({ devices: [{ sn: deviceSn(d), device: d }], attempts: [] }, [], 'default', 'job')
  t.same(net.devices[0]!.hostname, 'sw1')
  t.same(net.devices[0]!.domain, 'example.net')
  const parts = [...partRows(net)]
  t.same(
    parts.map((p) => [p.name, p.sn, p.pid, p.vid]),
    [
      ['1', 'FOC1932X0K1', 'WS-C2960X-48FPD-L', 'V05'],
      ['Switch 1 - Power Supply A', 'LIT2030A1B2', 'PWR-C2-1025WAC', null],
    ],
    'the port without an optic is no part',
  )
  t.same(
    [...powerSupplyRows(net)].map((r) => [r.name, r.pid, r.partSn, r.pwSupplyState]),
    [['Switch 1 - Power Supply A', 'PWR-C2-1025WAC', 'LIT2030A1B2', null]],
    'the power supply, its state unknown without an environment MIB',
  )
  t.same([...fanRows(net)], [])
  const noEntity = device('192.0.2.11', 'r', { interfaces: await collectInterfaces(ifAgent) })
  t.match(deviceSn(noEntity), /^SNMP[0-9A-F]{12}$/, 'without a serial: derived from sysObjectID and the chassis MAC')
  t.equal(deviceSn(noEntity), deviceSn({ ...noEntity, address: '192.0.2.99' }), 'the same device by another address has the same serial')
})

t.test('CISCO-CDP-MIB neighbours resolve to discovered devices; BRIDGE-MIB and Q-BRIDGE-MIB fill the MAC table, VLANs and host edges', async (t) => {
  const CDP = '1.3.6.1.4.1.9.9.23.1.2.1.1'
  const cdp = await collectCdp(
    new Recorded([
      [`${CDP}.3.10101.1`, INT, 1],
      [`${CDP}.4.10101.1`, STR, Buffer.from([192, 0, 2, 20])],
      [`${CDP}.6.10101.1`, STR, OCTETS('dist1.example.net')],
      [`${CDP}.7.10101.1`, STR, OCTETS('TenGigabitEthernet1/1/1')],
      [`${CDP}.8.10101.1`, STR, OCTETS('cisco C9500-48Y4C')],
    ]),
  )
  t.same(cdp, [{ ifIndex: 10101, deviceId: 'dist1.example.net', address: '192.0.2.20', port: 'TenGigabitEthernet1/1/1', platform: 'cisco C9500-48Y4C' }])
  const Q = '1.3.6.1.2.1.17.7.1'
  const bridge = await collectBridge(
    new Recorded([
      ['1.3.6.1.2.1.17.1.1.0', STR, mac('00:1e:7a:00:00:00')],
      ['1.3.6.1.2.1.17.1.4.1.2.1', INT, 10101],
      ['1.3.6.1.2.1.17.1.4.1.2.2', INT, 10102],
      [`${Q}.4.3.1.1.10`, STR, OCTETS('users')],
      [`${Q}.4.3.1.5.10`, INT, 1],
      [`${Q}.2.2.1.2.10.0.80.86.1.2.3`, INT, 2],
      [`${Q}.2.2.1.3.10.0.80.86.1.2.3`, INT, 3],
      [`${Q}.2.2.1.2.10.0.30.122.0.0.32`, INT, 1],
      [`${Q}.2.2.1.3.10.0.30.122.0.0.32`, INT, 3],
    ]),
  )
  t.match(bridge, { baseMac: '00:1e:7a:00:00:00', vlans: [{ id: 10, name: 'users', status: 'active' }] })
  const interfaces = await collectInterfaces(ifAgent)
  const switchports = { pvid: new Map([[1, 10], [2, 10]]), egress: new Map(), untagged: new Map(), voiceVlan: new Map() }
  const access = device('192.0.2.10', 'sw1', { interfaces, cdp, bridge, switchports })
  const dist = device('192.0.2.20', 'dist1', {
    system: { name: 'dist1.example.net', descr: null, objectId: '1.3.6.1.4.1.9.1.2592', uptimeSeconds: 1, location: null, contact: null },
    addresses: [{ ip: '192.0.2.20', prefix: 24, ifIndex: 5 }, { ip: '10.0.10.1', prefix: 24, ifIndex: 6 }],
    interfaces: [{ index: 6, name: 'Vlan10', descr: null, alias: null, type: 136, admin: 'up', oper: 'up', speedBps: null, mtu: 1500, mac: '00:1e:7a:00:00:20', duplex: null, inOctets: null, outOctets: null, inErrors: null, outErrors: null, inDiscards: null, outDiscards: null }],
    arp: [{ ifIndex: 6, ip: '10.0.10.50', mac: '00:50:56:01:02:03', type: 'dynamic' }],
  })
  const net = assemble(
    {
      devices: [
        { sn: 'A', device: access },
        { sn: 'B', device: dist },
      ],
      attempts: [],
    },
    [],
    'default',
    'job',
  )
  t.match([...neighborRows(net)], [{ localHost: 'sw1', localInt: 'Gi1/0/1', remoteSn: 'B', remoteHost: 'dist1', remoteInt: 'Te1/1/1', remoteIp: '192.0.2.20', protocols: ['cdp'] }])
  t.same(
    [...macRows(net)].map((r) => [r.intName, r.mac, r.vlan, r.edge, r.type]),
    [
      ['Gi1/0/1', '00:1e:7a:00:00:20', 10, false, 'dynamic'],
      ['Gi1/0/2', '00:50:56:01:02:03', 10, true, 'dynamic'],
    ],
  )
  t.same([...vlanRows(net)].map((r) => [r.hostname, r.vlanId, r.vlanName, r.status]), [['sw1', 10, 'users', 'active']])
  // each port keeps the number of MAC addresses it learned dynamically
  t.same([...switchportRows(net)].map((r) => [r.intName, r.accVlan, r.dynamicMacCount]), [
    ['Gi1/0/1', 10, 1],
    ['Gi1/0/2', 10, 1],
  ])
  t.match([...hostRows(net)], [
    {
      ip: '10.0.10.50',
      mac: '00:50:56:01:02:03',
      vlan: 10,
      edges: [{ sn: 'A', hostname: 'sw1', intName: 'Gi1/0/2' }],
      gateways: [{ sn: 'B', hostname: 'dist1', intName: 'Vl10', ip: '10.0.10.1' }],
    },
  ])
})

t.test('agents without the newer IP-MIB and IP-FORWARD-MIB tables: ipNetToMediaTable and ipCidrRouteTable', async (t) => {
  const R = '1.3.6.1.2.1.4.24.4.1'
  const idx = '10.1.0.0.255.255.0.0.0.192.0.2.1'
  const routes = await collectRoutes(
    new Recorded([
      [`${R}.5.${idx}`, INT, 3],
      [`${R}.6.${idx}`, INT, 4],
      [`${R}.7.${idx}`, INT, 13],
      [`${R}.11.${idx}`, INT, 20],
      [`${R}.5.192.0.2.0.255.255.255.0.0.0.0.0.0`, INT, 3],
      [`${R}.6.192.0.2.0.255.255.255.0.0.0.0.0.0`, INT, 3],
      [`${R}.7.192.0.2.0.255.255.255.0.0.0.0.0.0`, INT, 2],
    ]),
  )
  t.same(routes, [
    { vrf: '', dest: '10.1.0.0', prefix: 16, nextHop: '192.0.2.1', ifIndex: 3, protocol: 'ospf', metric: 20 },
    { vrf: '', dest: '192.0.2.0', prefix: 24, nextHop: null, ifIndex: 3, protocol: 'connected', metric: null },
  ])
  const M = '1.3.6.1.2.1.4.22.1'
  const arp = await collectArp(
    new Recorded([
      [`${M}.2.3.192.0.2.7`, STR, mac('00:50:56:aa:bb:cc')],
      [`${M}.4.3.192.0.2.7`, INT, 3],
      [`${M}.2.3.192.0.2.8`, STR, mac('00:50:56:aa:bb:cd')],
      [`${M}.4.3.192.0.2.8`, INT, 2],
    ]),
  )
  t.same(arp, [{ ifIndex: 3, ip: '192.0.2.7', mac: '00:50:56:aa:bb:cc', type: 'dynamic' }], 'invalid entries are left out')
})

t.test('inetCidrRouteTable: every next hop of an ECMP route a row; blackhole and reject routes kept as such', async (t) => {
  const R = '1.3.6.1.2.1.4.24.7.1'
  const row = (dest: string, prefix: number, hop: string, ifIndex: number, type: number, proto: number): Array<[string, number, number]> => {
    const idx = `1.4.${dest}.${prefix}.2.0.0.1.4.${hop}`
    return [[`${R}.7.${idx}`, INT, ifIndex], [`${R}.8.${idx}`, INT, type], [`${R}.9.${idx}`, INT, proto], [`${R}.12.${idx}`, INT, 20]]
  }
  const routes = await collectRoutes(
    new Recorded([
      ...row('10.1.0.0', 16, '192.0.2.1', 3, 4, 13),
      ...row('10.1.0.0', 16, '192.0.2.5', 4, 4, 13),
      ...row('10.9.0.0', 16, '0.0.0.0', 0, 5, 3),
      ...row('10.8.0.0', 16, '0.0.0.0', 0, 2, 3),
    ]),
  )
  t.same(routes, [
    { vrf: '', dest: '10.1.0.0', prefix: 16, nextHop: '192.0.2.1', ifIndex: 3, protocol: 'ospf', metric: 20 },
    { vrf: '', dest: '10.1.0.0', prefix: 16, nextHop: '192.0.2.5', ifIndex: 4, protocol: 'ospf', metric: 20 },
    { vrf: '', dest: '10.8.0.0', prefix: 16, nextHop: null, ifIndex: null, protocol: 'static', metric: 20, discard: 'reject' },
    { vrf: '', dest: '10.9.0.0', prefix: 16, nextHop: null, ifIndex: null, protocol: 'static', metric: 20, discard: 'blackhole' },
  ])
})

t.test('OSPFV3-MIB: neighbours by interface, instance and router id; area and cost of the interface; the neighbour\'s cost from its router LSA', async (t) => {
  const V3 = '1.3.6.1.2.1.191.1'
  const GAUGE = 66
  // router LSA (RFC 5340 A.4.3) advertised by 10.0.0.2 in area 0.0.0.1: a point-to-point link of metric 25
  // under its interface id 7 towards 10.0.0.1 (interface id 3), and a transit link of metric 40
  const lsa = Buffer.alloc(24 + 32)
  lsa.writeUInt16BE(0x2001, 2)
  lsa.writeUInt32BE(0x0a000002, 8)
  lsa.writeUInt16BE(lsa.length, 18)
  lsa.writeUInt32BE(0x13, 20)
  Buffer.from([1, 0, 0, 25, 0, 0, 0, 7, 0, 0, 0, 3, 10, 0, 0, 1]).copy(lsa, 24)
  Buffer.from([2, 0, 0, 40, 0, 0, 0, 9, 0, 0, 0, 9, 10, 0, 0, 5]).copy(lsa, 40)
  const linkLocal = Buffer.from('fe800000000000000000000000000002', 'hex')
  const agent = new Recorded([
    [`${V3}.1.1.0`, GAUGE, 0x0a000001],
    // ospfv3NbrTable: ifIndex 10101, instance 1, router id 10.0.0.2
    [`${V3}.9.1.4.10101.1.167772162`, INT, 2],
    [`${V3}.9.1.5.10101.1.167772162`, STR, linkLocal],
    [`${V3}.9.1.7.10101.1.167772162`, INT, 1],
    [`${V3}.9.1.8.10101.1.167772162`, INT, 8],
    [`${V3}.9.1.12.10101.1.167772162`, INT, 7],
    // a neighbour in exstart on the second interface, instance 0, whose address the agent does not give
    [`${V3}.9.1.8.10102.0.167772163`, INT, 5],
    // ospfv3IfTable: area 0.0.0.1, metric 10 on 10101 instance 1; area 0.0.0.0 on 10102
    [`${V3}.7.1.3.10101.1`, GAUGE, 1],
    [`${V3}.7.1.18.10101.1`, INT, 10],
    [`${V3}.7.1.3.10102.0`, GAUGE, 0],
    [`${V3}.4.1.8.1.8193.167772162.0`, STR, lsa],
  ])
  const ospfv3 = await collectOspfv3(agent)
  t.equal(ospfv3.routerId, '10.0.0.1')
  t.same([...ospfv3.linkCosts], [['10.0.0.2/7', 25], ['10.0.0.2/9', 40]], 'every link of the router LSA by advertising router and interface id')
  const d = device('10.0.0.1', 'edge1', { interfaces: await collectInterfaces(ifAgent), ospfv3 })
  const net = assemble({ devices: [{ sn: deviceSn(d), device: d }], attempts: [] }, [], 'default', 'job')
  const rows = [...ospfv3Rows(net)]
  t.match(rows, [
    { intName: 'Gi1/0/1', instanceId: 1, area: '0.0.0.1', neiRouterId: '10.0.0.2', neiIp: 'fe80::2', state: 'full', localCost: 10, neiCost: 25, neiHostname: null, currStateTime: null },
    { intName: 'Gi1/0/2', instanceId: 0, area: '0.0.0.0', neiRouterId: '10.0.0.3', neiIp: null, state: 'exstart', localCost: null, neiCost: null },
  ])
})

t.test('a Cisco switch without Q-BRIDGE-MIB: VLANs from CISCO-VTP-MIB, each VLAN\'s MAC table and tree from its own instance, whose bridge ports may be numbered apart', async (t) => {
  const VTP = '1.3.6.1.4.1.9.9.46.1.3.1.1'
  const FDB = '1.3.6.1.2.1.17.4.3.1'
  const base = '1.3.6.1.2.1.17.1.4.1.2'
  const mac6 = '0.80.86.1.2.3'
  const agent = new Recorded(
    [
      ['1.3.6.1.2.1.17.1.1.0', STR, mac('00:1b:d4:a1:b2:00')],
      [`${base}.1`, INT, 10101],
      // VTP domain 1: VLAN 1 and 10 (Ethernet, operational), 20 suspended, 1002 FDDI
      ...[1, 10, 20, 1002].flatMap((v): Array<[string, number, unknown]> => [
        [`${VTP}.2.1.${v}`, INT, v === 20 ? 2 : 1],
        [`${VTP}.3.1.${v}`, INT, v === 1002 ? 2 : 1],
        [`${VTP}.4.1.${v}`, STR, OCTETS(`vlan${v}`)],
      ]),
      [`${FDB}.2.0.30.122.0.0.32`, INT, 1],
      [`${FDB}.3.0.30.122.0.0.32`, INT, 3],
    ],
    new Map([
      [
        10,
        [
          // in VLAN 10's instance, bridge port 7 is ifIndex 10106
          [`${base}.7`, INT, 10106],
          [`${FDB}.2.${mac6}`, INT, 7],
          [`${FDB}.3.${mac6}`, INT, 3],
          ['1.3.6.1.2.1.17.2.2.0', INT, 32778],
          ['1.3.6.1.2.1.17.2.5.0', STR, Buffer.from([0x60, 0x0a, 0x00, 0x1e, 0x7a, 0x00, 0x04, 0x00])],
          ['1.3.6.1.2.1.17.2.6.0', INT, 4],
          ['1.3.6.1.2.1.17.2.7.0', INT, 7],
        ],
      ],
    ]),
  )
  const bridge = (await collectBridge(agent))!
  t.same(bridge.vlans, [
    { id: 1, name: 'vlan1', status: 'active' },
    { id: 10, name: 'vlan10', status: 'active' },
    { id: 20, name: 'vlan20', status: 'suspend' },
  ], 'the Ethernet VLANs of the VTP table')
  t.same(instanceVlans(bridge), [10], 'VLAN 1 is the default instance\'s, a suspended VLAN has none')
  const stp: StpData = { priority: 32769, rootId: null, rootPort: 0, rootCost: 0, topologyChanges: null, secondsSinceChange: null, ports: [], mode: 'rpvst', vlans: [], instances: [], region: null, guards: new Map() }
  t.ok(fdbPerVlan(bridge), 'no VLANs in the default instance\'s MAC table')
  applyVlanInstances(bridge, stp, await collectVlanInstances(agent, bridge))
  t.same(
    bridge.fdb.map((e) => [e.mac, e.vlan, fdbIfIndex(bridge, e)]),
    [
      ['00:1e:7a:00:00:20', 1, 10101],
      ['00:50:56:01:02:03', 10, 10106],
    ],
    'the default instance\'s addresses are VLAN 1\'s; VLAN 10\'s on the port its instance numbers',
  )
  t.match(stp.vlans, [{ vlanId: 10, priority: 32778, rootId: '24586.001e.7a00.0400', rootCost: 4, rootPort: 7, portIfIndex: new Map([[7, 10106]]) }])
})
