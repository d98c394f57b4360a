/**
 * The spanning-tree inconsistency tables on a hand-made snapshot whose every link is chosen to
 * show one case: a trunk allowing a VLAN its neighbour does not, trunks with different native
 * VLANs, an access port facing a trunk; and links that agree although written differently ("1-10,12"
 * and "1-9, 10,12" with a part that is no VLAN), both ends allowing every VLAN, a trunk whose list
 * is not known. A spanning-tree port with two neighbours (one undiscovered), one with a single
 * neighbour, and a port with two neighbours that is no spanning-tree port. Root and alternate ports
 * whose BPDUs come from the LLDP neighbour (in two trees), from another discovered switch, from a
 * bridge nobody discovered. The rows kept computed per snapshot are those the tables' SQL yields.
 * On PostgreSQL and PGlite.
 */
import t from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { snapshotFileOf, type Row } from '../../helpers/snapshot-file.js'
import { startApp } from '../app.js'
import { checkKept } from '../../helpers/materialised.js'
import { materialisedTables } from '../../../src/inventory/catalog/materialised.js'

const HOST: Record<string, string> = { sw1: 'SW1', sw2: 'SW2', sw3: 'SW3' }
const devices = Object.entries(HOST).map(([sn, hostname]) => ({ id: sn, sn, hostname, siteName: 'SITE-A', devType: 'switch' }))

const port = (sn: string, intName: string, mode: 'access' | 'trunk', vlans: number | string | null, nativeVlan: number | null = 1): Row => ({
  id: `${sn}/${intName}`, sn, hostname: HOST[sn], siteName: 'SITE-A', intName, mode,
  accVlan: mode === 'access' ? vlans : null, nativeVlan: mode === 'trunk' ? nativeVlan : null, trunkVlan: mode === 'trunk' ? vlans : null,
})
const switchports = [
  port('sw1', 'Gi1/1', 'trunk', '1,10,20'), port('sw2', 'Gi1/1', 'trunk', '1,10'),
  port('sw1', 'Gi1/2', 'trunk', '10,99', 99), port('sw2', 'Gi1/2', 'trunk', '10,99', 1),
  port('sw1', 'Gi1/3', 'access', 10), port('sw2', 'Gi1/3', 'access', 10),
  port('sw1', 'Gi1/4', 'trunk', '1-4094'), port('sw3', 'Gi0/1', 'trunk', '1-4094'),
  port('sw1', 'Gi1/5', 'trunk', '1-10,12'), port('sw3', 'Gi0/2', 'trunk', '1-9, 10,12,abc'),
  port('sw1', 'Gi1/6', 'access', 30), port('sw2', 'Gi1/6', 'trunk', '30'),
  port('sw1', 'Gi1/8', 'trunk', null), port('sw3', 'Gi0/3', 'trunk', '1-5'),
]
/** Both directions of a link. */
const link = (a: string, ai: string, b: string, bi: string): Row[] => [
  { id: `${a}:${ai}`, localSn: a, localHost: HOST[a], localInt: ai, remoteSn: b, remoteHost: HOST[b], remoteInt: bi, siteName: 'SITE-A', protocols: ['lldp'] },
  { id: `${b}:${bi}`, localSn: b, localHost: HOST[b], localInt: bi, remoteSn: a, remoteHost: HOST[a], remoteInt: ai, siteName: 'SITE-A', protocols: ['lldp'] },
]
const neighbors = [
  ...link('sw1', 'Gi1/1', 'sw2', 'Gi1/1'), ...link('sw1', 'Gi1/2', 'sw2', 'Gi1/2'), ...link('sw1', 'Gi1/3', 'sw2', 'Gi1/3'), ...link('sw1', 'Gi1/4', 'sw3', 'Gi0/1'),
  ...link('sw1', 'Gi1/5', 'sw3', 'Gi0/2'), ...link('sw1', 'Gi1/6', 'sw2', 'Gi1/6'), ...link('sw1', 'Gi1/8', 'sw3', 'Gi0/3'),
  // sw1 Gi1/7: a discovered switch and a phone nobody discovered, both heard on one port
  { id: 'sw1:Gi1/7:a', localSn: 'sw1', localHost: 'SW1', localInt: 'Gi1/7', remoteSn: 'sw2', remoteHost: 'SW2', remoteInt: 'Gi1/7', siteName: 'SITE-A', protocols: ['lldp'] },
  { id: 'sw1:Gi1/7:b', localSn: 'sw1', localHost: 'SW1', localInt: 'Gi1/7', remoteSn: null, remoteHost: 'PHONE-3', remoteInt: 'eth0', siteName: 'SITE-A', protocols: ['lldp'] },
  // sw3 Gi0/9: two neighbours, but no spanning-tree port
  { id: 'sw3:Gi0/9:a', localSn: 'sw3', localHost: 'SW3', localInt: 'Gi0/9', remoteSn: null, remoteHost: 'AP-1', remoteInt: 'eth0', siteName: 'SITE-A', protocols: ['lldp'] },
  { id: 'sw3:Gi0/9:b', localSn: 'sw3', localHost: 'SW3', localInt: 'Gi0/9', remoteSn: null, remoteHost: 'AP-2', remoteInt: 'eth0', siteName: 'SITE-A', protocols: ['lldp'] },
]
const stpPort = (sn: string, intName: string, portRole = 'designated', designatedBridge: string | null = null, vlanId = 1): Row => ({
  id: `${sn}/${intName}${vlanId === 1 ? '' : `/${vlanId}`}`, sn, hostname: HOST[sn], siteName: 'SITE-A', intName, vlanId, instance: null, portRole,
  portStatus: portRole === 'alternate' ? 'blocking' : 'forwarding', designatedBridge,
})
const BRIDGE: Record<string, string> = { sw1: '32769.0000.0000.0001', sw2: '24577.0000.0000.0002', sw3: '32769.0000.0000.0003' }
const bridges = Object.entries(BRIDGE).map(([sn, bridgeId]) => ({ id: sn, sn, hostname: HOST[sn], siteName: 'SITE-A', stpDomain: BRIDGE.sw2, mode: 'rpvst', priority: Number(bridgeId.split('.')[0]), bridgeId, rootId: BRIDGE.sw2, isRoot: sn === 'sw2' }))
const stpPorts = [
  stpPort('sw1', 'Gi1/7'),
  stpPort('sw2', 'Gi1/1', 'designated', BRIDGE.sw2),
  // BPDUs from the neighbour LLDP names (in another VLAN's tree its priority differs: the MAC is what counts)
  stpPort('sw1', 'Gi1/1', 'root', BRIDGE.sw2),
  stpPort('sw1', 'Gi1/1', 'root', '24586.0000.0000.0002', 10),
  // BPDUs from sw3 on a port whose LLDP neighbour is sw2; from an undiscovered bridge in VLAN 10's tree
  stpPort('sw1', 'Gi1/2', 'alternate', BRIDGE.sw3),
  stpPort('sw1', 'Gi1/3', 'root', '32778.0000.0000.00ff', 10),
]

const MISMATCH_COLUMNS = ['hostname', 'srcIntName', 'srcMode', 'srcNativeVlan', 'srcVlans', 'srcVlanCount', 'dstSn', 'dstHostname', 'dstIntName', 'dstMode', 'dstNativeVlan', 'dstVlans', 'dstVlanCount', 'srcOnlyVlans', 'dstOnlyVlans']

for (const engine of ENGINES) {
  t.test(`spanning-tree inconsistencies from a hand-made snapshot (${engine})`, async (t) => {
    const db = await freshDb(t, engine)
    const api = await startApp(t, db)
    const file = snapshotFileOf('stp inconsistencies', { 'inventory/devices': devices, 'interfaces/switchports': switchports, 'neighbors/all': neighbors, 'spanning-tree/bridges': bridges, 'spanning-tree/ports': stpPorts }, devices.length)
    const up = await api.call('POST', 'snapshots/upload', file, { 'content-type': 'application/x-ndjson' })
    t.equal(up.status, 201, up.text.slice(0, 300))
    const snapshot = (up.body as { id: string }).id
    // the uploaded snapshot's links are kept computed, as the tables' SQL yields them
    await checkKept(t, db, snapshot, 'uploaded', materialisedTables().filter((table) => table.path.startsWith('spanning-tree/')))

    await t.test('neighbour ports with different VLANs: each end of each link that disagrees, the VLANs compared as sets', async (t) => {
      const r = await api.call('POST', 'tables/spanning-tree/inconsistencies/neighbor-ports-vlan-mismatch', { snapshot, columns: MISMATCH_COLUMNS, pagination: { limit: 100 } })
      t.equal(r.status, 200, r.text.slice(0, 300))
      const rows = (r.body as { data: Row[] }).data.map((x) => MISMATCH_COLUMNS.map((c) => String(x[c])).join(' ')).sort()
      t.same(rows, [
        'SW1 Gi1/1 trunk 1 1,10,20 3 sw2 SW2 Gi1/1 trunk 1 1,10 2 20 null',
        'SW1 Gi1/2 trunk 99 10,99 2 sw2 SW2 Gi1/2 trunk 1 10,99 2 null null',
        'SW1 Gi1/6 access null 30 1 sw2 SW2 Gi1/6 trunk 1 30 1 null null',
        'SW2 Gi1/1 trunk 1 1,10 2 sw1 SW1 Gi1/1 trunk 1 1,10,20 3 null 20',
        'SW2 Gi1/2 trunk 1 10,99 2 sw1 SW1 Gi1/2 trunk 99 10,99 2 null null',
        'SW2 Gi1/6 trunk 1 30 1 sw1 SW1 Gi1/6 access null 30 1 null null',
      ])
      const filtered = await api.call('POST', 'tables/spanning-tree/inconsistencies/neighbor-ports-vlan-mismatch', { snapshot, columns: ['srcIntName'], filters: { srcOnlyVlans: ['empty', false] } })
      t.same((filtered.body as { data: Row[] }).data, [{ srcIntName: 'Gi1/1' }], 'filtered to the end with VLANs of its own')
    })

    await t.test('spanning-tree ports with several neighbours, the undiscovered one among them', async (t) => {
      const r = await api.call('POST', 'tables/spanning-tree/inconsistencies/ports-multiple-neighbors', { snapshot, columns: ['id', 'sn', 'hostname', 'siteName', 'srcIntName', 'neiCount', 'neighbors'] })
      t.equal(r.status, 200, r.text.slice(0, 300))
      t.same((r.body as { data: Row[] }).data, [{ id: 'sw1/Gi1/7', sn: 'sw1', hostname: 'SW1', siteName: 'SITE-A', srcIntName: 'Gi1/7', neiCount: 2, neighbors: ['PHONE-3 eth0', 'SW2 Gi1/7'] }])
    })

    await t.test('root and alternate ports whose BPDUs come from another bridge than the CDP/LLDP neighbour', async (t) => {
      const columns = ['hostname', 'intName', 'vlanId', 'portRole', 'designatedBridge', 'stpNeiHostname', 'neiHostname', 'neiIntName', 'neiBridgeId']
      const r = await api.call('POST', 'tables/spanning-tree/inconsistencies/stp-cdp-ports-mismatch', { snapshot, columns })
      t.equal(r.status, 200, r.text.slice(0, 300))
      t.same((r.body as { data: Row[] }).data.map((x) => columns.map((c) => String(x[c])).join(' ')).sort(), [
        'SW1 Gi1/2 1 alternate 32769.0000.0000.0003 SW3 SW2 Gi1/2 24577.0000.0000.0002',
        'SW1 Gi1/3 10 root 32778.0000.0000.00ff null SW2 Gi1/3 24577.0000.0000.0002',
      ])
    })
  })
}
