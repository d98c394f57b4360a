/**
 * Where a host behind a redundant pair of gateways enters the network: the hand-made snapshot
 * (network.ts) with a host h3 whose gateways are r2 and r3 (listed in that order, as the hosts
 * table sorts them). With r3's redundancy group active on the host's side the lookup enters at r3
 * and goes on from there; with r2's active, at r2; with no group known, at the first listed.
 */
import t from 'tap'
import { freshDb } from '../../helpers/db.js'
import type { Row } from '../../helpers/snapshot-file.js'
import { startApp } from '../app.js'
import { HOSTS, snapshotFile } from './network.js'

const H3 = '10.3.3.10'

const h3: Row = {
  id: 'h3', ip: H3, mac: '0050.5600.0003', vlan: 33, vrf: '', siteName: 'SITE-B', edges: [], type: 'workstation',
  gateways: [{ sn: 'r2', hostname: 'R2', intName: 'Vl33', ip: '10.3.3.2' }, { sn: 'r3', hostname: 'R3', intName: 'Vl33', ip: '10.3.3.3' }],
}
const group = (sn: string, state: string, intName = 'Vl33'): Row => ({
  id: `${sn}/${intName}/vrrp/33`, sn, hostname: sn.toUpperCase(), siteName: 'SITE-B', intName, vlanId: 33, protocol: 'vrrp', groupId: 33, virtualIp: '10.3.3.1', state, priority: state === 'active' ? 110 : 100, preempt: true,
})

interface Answer {
  paths: { entry: { device: { hostname: string }; ingress: string | null; how: string } | null; branches: Array<{ hops: Array<{ device: { hostname: string } }>; end: string }> }
}

t.test('the gateway a host behind a redundant pair uses is the active member of the pair', async (t) => {
  const api = await startApp(t, await freshDb(t, 'pglite'))
  const lookup = async (groups: Row[]) => {
    const file = snapshotFile((tables) => {
      tables['addressing/hosts'] = [...tables['addressing/hosts']!, h3]
      if (groups.length > 0) tables['fhrp/group-state'] = groups
    })
    const up = await api.call('POST', 'snapshots/upload', file, { 'content-type': 'application/x-ndjson' })
    t.equal(up.status, 201, up.text.slice(0, 300))
    const snapshot = (up.body as { id: string }).id
    const r = await api.call('POST', 'graphs', {
      snapshot,
      parameters: { type: 'pathLookup', pathLookupType: 'unicast', protocol: 'icmp', startingPoint: H3, destinationPoint: HOSTS.h2, l4Options: { type: 8, code: 0 } },
    })
    t.equal(r.status, 200, r.text.slice(0, 300))
    const a = (r.body as Answer).paths
    return { entry: `${a.entry?.device.hostname} ${a.entry?.ingress} ${a.entry?.how}`, branches: a.branches.map((b) => `${b.hops.map((h) => h.device.hostname).join('>')} ${b.end}`) }
  }

  t.same(await lookup([group('r2', 'standby'), group('r3', 'active')]), { entry: 'R3 Vl33 host gateway', branches: ['R3>R4>SW1 delivered'] }, 'r3 is active: the packet enters there')
  t.same(await lookup([group('r2', 'active'), group('r3', 'standby')]), { entry: 'R2 Vl33 host gateway', branches: ['R2>R4>SW1 delivered'] }, 'r2 is active')
  t.same(await lookup([group('r2', 'standby'), group('r3', 'active', 'Gi0/1')]), { entry: 'R2 Vl33 host gateway', branches: ['R2>R4>SW1 delivered'] }, 'a group active on another interface of r3 says nothing of the host\'s side')
  t.same(await lookup([]), { entry: 'R2 Vl33 host gateway', branches: ['R2>R4>SW1 delivered'] }, 'no group known: the first gateway listed')
})
