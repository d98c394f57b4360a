/**
 * Where a packet from an address enters the discovered network: an address of a device itself,
 * the gateway of a known end host (IPv4: the hosts table; IPv6: the neighbour caches; of several,
 * the one whose redundancy group is active on the host's side), a device
 * with the address in its ARP table, or a device attached to a network that contains it (its
 * interface's network).
 */
import type { SnapshotData } from './snapshot-data.js'
import type { PathResult } from './types.js'

export type Entry = NonNullable<PathResult['entry']> & { vrf: string }

export async function findEntry(data: SnapshotData, src: string, vrf: string | undefined): Promise<Entry | null> {
  const fits = (v: string) => vrf === undefined || v === vrf
  const own = (await data.owners(src)).find((o) => fits(o.vrf))
  if (own) return { device: own.device, ingress: null, how: 'device address', vrf: own.vrf }
  const host = await data.host(src)
  if (host && fits(host.vrf)) {
    for (const gw of await byRedundancy(data, host.gateways)) {
      if (!gw.sn) continue
      const device = await data.device(gw.sn)
      if (device) return { device, ingress: gw.intName, how: 'host gateway', vrf: vrf ?? host.vrf }
    }
  }
  for (const a of await data.arpAnywhere(src)) {
    const via = (await data.attached(src)).find((x) => x.device.sn === a.device.sn && fits(x.vrf))
    if (via) return { device: a.device, ingress: a.intName, how: 'arp', vrf: via.vrf }
  }
  const attached = (await data.attached(src)).find((x) => fits(x.vrf))
  if (attached) return { device: attached.device, ingress: attached.intName, how: 'connected network', vrf: attached.vrf }
  return null
}

/**
 * A host's gateways with those first on whose interface a first-hop redundancy group is active
 * (HSRP active, VRRP master): a host behind a redundant pair sends to the group's virtual address,
 * which the active member answers, and the standby member routes nothing of it.
 */
async function byRedundancy<G extends { sn: string; intName: string | null }>(data: SnapshotData, gateways: readonly G[]): Promise<G[]> {
  if (gateways.length < 2) return [...gateways]
  const active = await data.activeRedundancy(gateways.map((g) => g.sn))
  const isActive = (g: G) => (g.intName !== null && active.has(`${g.sn}|${g.intName}`) ? 0 : 1)
  return [...gateways].sort((a, b) => isActive(a) - isActive(b))
}
