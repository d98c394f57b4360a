/**
 * Host to default gateway: from an end host (addressing/hosts, addressing/ipv6-hosts) over the
 * switch port it was learned on and the switches in between (MAC tables) to each of its
 * gateways. One branch per gateway.
 */
import type { Queryable } from '../../shared/db/index.js'
import { SnapshotData } from './snapshot-data.js'
import type { Branch, Hop, PathResult } from './types.js'
import { SourceNotFound } from './walk.js'

export async function hostToGateway(db: Queryable, snapshot: string, ip: string, vrf: string | undefined): Promise<PathResult> {
  const data = new SnapshotData(db, snapshot)
  const host = await data.host(ip)
  if (!host || (vrf !== undefined && host.vrf !== vrf)) throw new SourceNotFound(`${ip} is no end host of the snapshot${vrf !== undefined ? ` in VRF ${vrf}` : ''}`)
  const branches: Branch[] = []
  for (const gw of host.gateways) {
    const device = gw.sn ? await data.device(gw.sn) : null
    if (!device) continue
    const hops: Hop[] = []
    const edge = host.edges.find((e) => e.sn && e.sn !== gw.sn)
    // towards the gateway: the port each switch learned the gateway's MAC address on
    const gwMac = gw.ip === null ? null : await data.interfaceMac(gw.sn, gw.ip)
    if (edge) {
      let at: { sn: string; port: string | null } = { sn: edge.sn, port: edge.intName }
      const crossed = new Set<string>()
      for (let i = 0; i < 16 && at.sn !== gw.sn && !crossed.has(at.sn); i++) {
        crossed.add(at.sn)
        const sw = await data.device(at.sn)
        if (!sw) break
        const out = gwMac ? await data.mac(at.sn, gwMac) : null
        hops.push({ kind: 'l2', device: sw, ingress: at.port, egress: out?.intName ?? null, ...(out && gwMac ? { mac: { mac: gwMac, vlan: out.vlan, intName: out.intName } } : {}) })
        if (!out) break
        const nei = await data.neighbor(at.sn, out.intName)
        if (!nei) break
        at = { sn: nei.remoteSn, port: nei.remoteInt }
      }
    }
    hops.push({ kind: 'l3', device, ingress: gw.intName, egress: null })
    branches.push({ hops, end: 'delivered', detail: `${gw.ip ?? ''} on ${device.hostname} ${gw.intName ?? ''}`.trim() })
  }
  return { src: ip, dst: host.gateways[0]?.ip ?? ip, vrf: host.vrf, entry: null, branches, truncated: false }
}

