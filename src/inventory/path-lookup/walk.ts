/**
 * The unicast path lookup: from where the source enters the network, each router's
 * longest-prefix match for the destination, every equal-cost next hop as a branch of its own,
 * the ARP entry of the next hop (or of the destination on its own network), the switches in
 * between by their MAC tables and CDP/LLDP neighbours (from a VLAN interface, through the port
 * the router's own MAC table names), until the packet is delivered or its branch ends for a
 * reason the snapshot shows.
 */
import type { Queryable } from '../../shared/db/index.js'
import { eui64Mac, isLinkLocal } from '../../shared/ipv6.js'
import { findEntry } from './entry.js'
import { SnapshotData, type StoredRoute } from './snapshot-data.js'
import type { Branch, Device, EndReason, Hop, NextHop, PathQuery, PathResult } from './types.js'

/** Branches one lookup follows at most (ECMP fan-out multiplies them). */
export const MAX_BRANCHES = 64
/** Routed hops of one branch at most (a loop ends a branch sooner). */
export const MAX_HOPS = 64
/** Switches between two routers at most. */
const MAX_L2_HOPS = 16
/** Route types that discard what they match. */
const DISCARD = new Set(['blackhole', 'reject', 'prohibit', 'unreachable'])

export class SourceNotFound extends Error {}

interface Walk {
  data: SnapshotData
  dst: string
  branches: Branch[]
  truncated: boolean
}

export async function lookupPath(db: Queryable, q: PathQuery, data = new SnapshotData(db, q.snapshot)): Promise<PathResult> {
  const entry = await findEntry(data, q.src, q.vrf)
  if (!entry) throw new SourceNotFound(`${q.src} is not in the snapshot: no end host, device address, ARP entry or attached network holds it`)
  const device = (await data.device(entry.device.sn)) ?? entry.device
  const w: Walk = { data, dst: q.dst, branches: [], truncated: false }
  await routeAt(w, device, entry.ingress, entry.vrf, [], new Set())
  return { src: q.src, dst: q.dst, vrf: entry.vrf, entry: { device, ingress: entry.ingress, how: entry.how }, branches: w.branches, truncated: w.truncated }
}

function end(w: Walk, hops: Hop[], reason: EndReason, detail: string): void {
  if (w.branches.length >= MAX_BRANCHES) {
    w.truncated = true
    return
  }
  w.branches.push({ hops, end: reason, detail })
}

/** The next hop's address and egress port, resolving a recursive next hop (no port) through the table. */
async function resolve(w: Walk, sn: string, vrf: string, nh: NextHop): Promise<{ target: string; egress: string | null }> {
  let target = nh.ip ?? w.dst
  let egress = nh.intName
  for (let depth = 0; egress === null && depth < 4; depth++) {
    const r = await w.data.route(sn, vrf, target)
    const via = r?.nexthop.find((x) => x.intName !== null && !DISCARD.has(String(x.type ?? '')))
    if (!via) break
    egress = via.intName
    if (via.ip !== null) target = via.ip
  }
  return { target, egress }
}

/** A packet arrives at a routing device. */
async function routeAt(w: Walk, device: Device, ingress: string | null, vrf: string, hops: Hop[], seen: Set<string>): Promise<void> {
  if (w.truncated) return
  const here: Hop = { kind: 'l3', device, ingress, egress: null }
  if (seen.has(device.sn)) return end(w, [...hops, here], 'loop', `${device.hostname} is reached a second time`)
  if (hops.filter((h) => h.kind === 'l3').length >= MAX_HOPS) return end(w, [...hops, here], 'loop', `more than ${MAX_HOPS} routed hops`)
  const visited = new Set(seen).add(device.sn)
  if ((await w.data.owners(w.dst)).some((o) => o.device.sn === device.sn)) return end(w, [...hops, here], 'delivered', `${w.dst} is an address of ${device.hostname}`)
  const route = await w.data.route(device.sn, vrf, w.dst)
  if (!route || route.nexthop.length === 0) return end(w, [...hops, here], 'no route', `${device.hostname} has no route to ${w.dst}${vrf ? ` in VRF ${vrf}` : ''}`)
  for (const nh of route.nexthop) await forward(w, device, ingress, vrf, route, nh, hops, visited)
}

/** One next hop of a route: the packet leaves the device towards it. */
async function forward(w: Walk, device: Device, ingress: string | null, vrf: string, route: StoredRoute, nh: NextHop, hops: Hop[], seen: Set<string>): Promise<void> {
  if (w.truncated) return
  const decision = { network: route.network, protocol: route.protocol, vrf: route.vrf, nexthop: nh, nhCount: route.nexthop.length }
  const hop: Hop = { kind: 'l3', device, ingress, egress: nh.intName, route: decision }
  if (DISCARD.has(String(nh.type ?? ''))) return end(w, [...hops, hop], 'blackhole', `${route.network} is a ${String(nh.type)} route on ${device.hostname}`)
  const { target, egress } = await resolve(w, device.sn, vrf, nh)
  hop.egress = egress
  if (egress === null) return end(w, [...hops, hop], 'no route', `${device.hostname} cannot resolve next hop ${target}`)
  if (isLinkLocal(target)) return overLink(w, device, vrf, target, egress, [...hops, hop], seen)
  const owner = (await w.data.owners(target)).find((o) => o.device.sn !== device.sn)
  // the device's own ARP entry; else another device's (e.g. the other gateway of a VLAN): the address answers ARP
  const arp = (await w.data.arp(device.sn, target)) ?? (await w.data.arpAnywhere(target))[0] ?? null
  if (!arp) {
    // towards a neighbour the snapshot does not cover (a provider edge): its ARP entry says nothing the snapshot can check
    const name = owner ? null : await w.data.unmanaged(device.sn, egress)
    if (name !== null && name !== undefined) return end(w, [...hops, hop], 'unmanaged neighbour', `next hop ${target} is behind ${name || 'a neighbour'} that was not discovered`)
    return end(w, [...hops, hop], 'ARP incomplete', `no device has an ARP entry for ${target} (${device.hostname} ${egress})`)
  }
  hop.arp = { ip: arp.ip, mac: arp.mac, intName: arp.device.sn === device.sn ? arp.intName : null }
  // a VLAN interface (SVI) leaves through the port the device's own MAC table learned the next hop on
  const port = (await w.data.neighbor(device.sn, egress)) ? null : await w.data.mac(device.sn, arp.mac)
  if (port) hop.mac = { mac: arp.mac, vlan: port.vlan, intName: port.intName }
  const path = [...hops, hop, ...(await switched(w, device.sn, port?.intName ?? egress, arp.mac, owner?.device.sn ?? null))]
  if (owner) {
    const next = (await w.data.device(owner.device.sn)) ?? owner.device
    return routeAt(w, next, owner.intName, owner.vrf || vrf, path, seen)
  }
  if (target === w.dst) return end(w, path, 'delivered', `${w.dst} (${arp.mac}) on ${device.hostname} ${egress}`)
  const last = path[path.length - 1]!
  const name = await w.data.unmanaged(last.device.sn, last.egress ?? egress)
  if (name !== null) return end(w, path, 'unmanaged neighbour', `next hop ${target} is behind ${name || 'a neighbour'} that was not discovered`)
  return end(w, path, 'left the discovered network', `next hop ${target} (${arp.mac}) is no discovered device`)
}

/**
 * A link-local IPv6 next hop (what OSPFv3 and BGP over a link install): the address is on every
 * link and discovery keeps no link-local neighbour entries. When it is a modified EUI-64
 * address (what most routers make from their interface's MAC address), the MAC address it was
 * made from is followed through the switches' MAC tables, as an ARP entry's would be, and the
 * next device is the CDP/LLDP neighbour past the last switch that learned it; otherwise (a
 * manual or random identifier) it is the neighbour on the egress port.
 */
async function overLink(w: Walk, device: Device, vrf: string, target: string, egress: string, hops: Hop[], seen: Set<string>): Promise<void> {
  const mac = eui64Mac(target)
  const l2 = mac === null ? [] : await switched(w, device.sn, egress, mac, null)
  const last = l2[l2.length - 1]
  const from = last ? { sn: last.device.sn, port: last.egress ?? egress } : { sn: device.sn, port: egress }
  const path = [...hops, ...l2]
  const nei = await w.data.neighbor(from.sn, from.port)
  const next = nei ? await w.data.device(nei.remoteSn) : null
  if (nei && next) return routeAt(w, next, nei.remoteInt, vrf, path, seen)
  const name = await w.data.unmanaged(from.sn, from.port)
  const at = last ? last.device.hostname : device.hostname
  if (name !== null) return end(w, path, 'unmanaged neighbour', `link-local next hop ${target} is behind ${name || 'a neighbour'} that was not discovered`)
  return end(w, path, 'left the discovered network', `link-local next hop ${target} on ${at} ${from.port}: no discovered neighbour on that port`)
}

/** Switches between a port and the device owning `mac`, followed by neighbours and MAC tables. */
async function switched(w: Walk, sn: string, port: string, mac: string, until: string | null): Promise<Hop[]> {
  const out: Hop[] = []
  let at = { sn, port }
  const crossed = new Set([sn])
  for (let i = 0; i < MAX_L2_HOPS; i++) {
    const nei = await w.data.neighbor(at.sn, at.port)
    if (!nei || nei.remoteSn === until || crossed.has(nei.remoteSn)) break
    const entry = await w.data.mac(nei.remoteSn, mac)
    if (!entry) break
    const device = await w.data.device(nei.remoteSn)
    if (!device) break
    out.push({ kind: 'l2', device, ingress: nei.remoteInt, egress: entry.intName, mac: { mac, vlan: entry.vlan, intName: entry.intName } })
    crossed.add(nei.remoteSn)
    at = { sn: nei.remoteSn, port: entry.intName }
  }
  return out
}
