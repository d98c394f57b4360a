/**
 * The MIB groups the lab's Linux agents do not serve (ENTITY-MIB, CISCO-CDP-MIB, BRIDGE-MIB and
 * Q-BRIDGE-MIB, the older ipCidrRouteTable and ipNetToMediaTable), read from recorded varbinds
 * in the shapes of the MIBs, through the same modules and row mappings as a real discovery.
 */
import t from 'tap'
import type { MibReader } from '../../../../src/inventory/discovery/network/snmp/client.js'
import { compareOid, tableRows, type Vb } from '../../../../src/inventory/discovery/network/snmp/values.js'
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
import { hostRows } from '../../../../src/inventory/discovery/network/rows/hosts.js'
import { newDevice, type CollectedDevice } from '../../../../src/inventory/discovery/network/model.js'

const STR = 4
const INT = 2
const OCTETS = (s: string) => Buffer.from(s)


/** An agent made of recorded varbinds. */
class Recorded implements MibReader {
  private readonly vbs: Vb[]
  constructor(vbs: Array<[string, number, unknown]>) {
    this.vbs = vbs.map(([oid, type, value]) => ({ oid, type, value })).sort((a, b) => compareOid(a.oid, b.oid))
  }
  async get(oids: readonly string[]) {
    return new Map(this.vbs.filter((v) => oids.includes(v.oid)).map((v) => [v.oid, v]))
  }
  async walk(columns: readonly string[]) {
    return new Map(columns.map((c) => [c, this.vbs.filter((v) => v.oid.startsWith(`${c}.`))]))
  }
  async table(names: Readonly<Record<string, string>>) {
    return tableRows(await this.walk(Object.values(names)), names)
  }
}

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
  const access = device('192.0.2.10', 'sw1', { interfaces, cdp, bridge })
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
    { dest: '10.1.0.0', prefix: 16, nextHop: '192.0.2.1', ifIndex: 3, protocol: 'ospf', metric: 20 },
    { dest: '192.0.2.0', prefix: 24, nextHop: null, ifIndex: 3, protocol: 'connected', metric: null },
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
    { dest: '10.1.0.0', prefix: 16, nextHop: '192.0.2.1', ifIndex: 3, protocol: 'ospf', metric: 20 },
    { dest: '10.1.0.0', prefix: 16, nextHop: '192.0.2.5', ifIndex: 4, protocol: 'ospf', metric: 20 },
    { dest: '10.8.0.0', prefix: 16, nextHop: null, ifIndex: null, protocol: 'static', metric: 20, discard: 'reject' },
    { dest: '10.9.0.0', prefix: 16, nextHop: null, ifIndex: null, protocol: 'static', metric: 20, discard: 'blackhole' },
  ])
})
