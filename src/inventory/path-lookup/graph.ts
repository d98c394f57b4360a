/**
 * A path as the graph IP Fabric's clients read from `POST graphs`: `graphResult` with nodes and
 * edges keyed by id (each edge with its interfaces, the edges before and after it, the packet,
 * severity and traffic counts) and the edge settings their ids refer to; `pathlookup` with the
 * decisions per device (the route, ARP and MAC entries matched, the drop with its reason) and
 * whether traffic passes. netinv adds `paths`: the branches themselves, as the command line and
 * the web interface show them.
 */
import type { Branch, Hop, PathResult } from './types.js'

/** Ids of the two kinds of path edges netinv draws (fixed, so that settings and edges agree). */
export const EDGE_SETTINGS = {
  routed: '3f0c6d0e-5b0a-4d55-9a8e-0b6f2f7c1a01',
  switched: '3f0c6d0e-5b0a-4d55-9a8e-0b6f2f7c1a02',
  neighbors: '3f0c6d0e-5b0a-4d55-9a8e-0b6f2f7c1a03',
} as const

const style = (color: string) => ({ color, pattern: 'solid', thicknessThresholds: [2, 4, 8] })

export function pathSettings(): Record<string, unknown> {
  return {
    edges: [
      { id: EDGE_SETTINGS.routed, name: 'ip', type: 'pathLookupEdge', visible: true, grouped: false, labels: ['intName', 'protocol'], style: style('#6abf40') },
      { id: EDGE_SETTINGS.switched, name: 'ethernet', type: 'pathLookupEdge', visible: true, grouped: false, labels: ['intName', 'protocol'], style: style('#99ccff') },
      { id: EDGE_SETTINGS.neighbors, name: 'cdp/lldp', type: 'edge', visible: true, grouped: true, labels: ['intName', 'protocol'], style: style('#8a8a8a') },
    ],
    hiddenDeviceTypes: [],
    pathLookup: { ignoredTopics: [], colorDetectedLoops: true },
  }
}

const checks = (green: number, red: number) => ({ '0': green, '10': 0, '20': 0, '30': red })

export interface PacketOptions {
  protocol: 'tcp' | 'udp' | 'icmp'
  srcPorts: string
  dstPorts: string
  ttl: number
  flags: string[]
  icmp: { type: number; code: number }
}

function packet(r: PathResult, p: PacketOptions): Array<Record<string, unknown>> {
  const ip = { type: 'ip', src: [r.src], dst: [r.dst], 'fragment offset': 0, protocol: p.protocol, ttl: p.ttl }
  if (p.protocol === 'icmp') return [ip, { type: 'icmp', icmpType: p.icmp.type, icmpCode: p.icmp.code }]
  const l4 = { type: p.protocol, src: p.srcPorts.split(','), dst: p.dstPorts.split(',') }
  return [ip, p.protocol === 'tcp' ? { ...l4, flags: p.flags } : l4]
}

const nodeId = (h: Hop) => `device/${h.device.sn}`
const hostId = (ip: string) => `host/${ip}`

interface GraphEdge {
  id: string
  source: string
  target: string
  sourceIfaceName: string | null
  targetIfaceName: string | null
  switched: boolean
  prev: Set<string>
  next: Set<string>
  delivered: number
  dropped: number
}

/** The events of one hop: what it matched, and how its branch ended when it is the last. */
function events(h: Hop, last: Branch | null): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = []
  if (h.route) out.push({ type: 'table entry match', table: 'route', filter: { vrf: h.route.vrf, prefix: h.route.network, ip: h.route.nexthop.ip } })
  if (h.arp) out.push({ type: 'table entry match', table: 'arp', filter: { ip: h.arp.ip, mac: h.arp.mac, inIfaceName: h.arp.intName } })
  if (h.mac) out.push({ type: 'table entry match', table: 'mac', filter: { mac: h.mac.mac, vlanNum: h.mac.vlan } })
  if (last) {
    if (last.end === 'no route') out.push({ type: 'table entry not found', table: 'route', filter: { prefix: last.detail } })
    if (last.end === 'ARP incomplete') out.push({ type: 'table entry not found', table: 'arp', filter: { ip: last.detail } })
    if (last.end === 'delivered') out.push({ type: 'accept packet' })
    else out.push({ type: 'drop packet', reason: last.end, severityInfo: { name: last.end, severity: 30, topic: 'FORWARDING', details: [last.detail] } })
  }
  return out
}

export function pathGraph(r: PathResult, p: PacketOptions, hostSource: boolean): Record<string, unknown> {
  const nodes: Record<string, Record<string, unknown>> = {}
  const edges = new Map<string, GraphEdge>()
  const decisions: Record<string, { traces: unknown[]; trafficIn: Record<string, string[]>; trafficOut: Record<string, string[]> }> = {}
  const pkt = packet(r, p)
  const addNode = (id: string, label: string, sn: string, siteName: string | null, type: string) => {
    nodes[id] ??= { id, label, sn, boxId: siteName, children: [], graphType: 'pathLookup', parentPath: null, type }
  }
  const traffic = (node: string, dir: 'trafficIn' | 'trafficOut', iface: string | null, edge: string) => {
    const d = (decisions[node] ??= { traces: [], trafficIn: {}, trafficOut: {} })
    const list = (d[dir][iface ?? ''] ??= [])
    if (!list.includes(edge)) list.push(edge)
  }
  const edge = (source: string, sIf: string | null, target: string, tIf: string | null, switched: boolean): GraphEdge => {
    const id = `${source}@${sIf ?? ''}--${target}@${tIf ?? ''}`
    let e = edges.get(id)
    if (!e) {
      e = { id, source, target, sourceIfaceName: sIf, targetIfaceName: tIf, switched, prev: new Set(), next: new Set(), delivered: 0, dropped: 0 }
      edges.set(id, e)
      traffic(source, 'trafficOut', sIf, id)
      traffic(target, 'trafficIn', tIf, id)
    }
    return e
  }
  if (hostSource) addNode(hostId(r.src), r.src, r.src, r.entry?.device.siteName ?? null, 'host')
  for (const b of r.branches) {
    const chain: GraphEdge[] = []
    if (hostSource && b.hops[0]) chain.push(edge(hostId(r.src), null, nodeId(b.hops[0]), b.hops[0].ingress, true))
    b.hops.forEach((h, i) => {
      addNode(nodeId(h), h.device.hostname, h.device.sn, h.device.siteName, h.device.devType ?? (h.kind === 'l2' ? 'switch' : 'router'))
      const next = b.hops[i + 1]
      if (next) chain.push(edge(nodeId(h), h.egress, nodeId(next), next.ingress, next.kind === 'l2'))
      const d = (decisions[nodeId(h)] ??= { traces: [], trafficIn: {}, trafficOut: {} })
      const isLast = i === b.hops.length - 1
      d.traces.push({
        severityInfo: checks(isLast && b.end !== 'delivered' ? 0 : 1, isLast && b.end !== 'delivered' ? 1 : 0),
        sourcePacketId: `${nodeId(h)}@${h.ingress ?? ''}`,
        targetPacketId: `${nodeId(h)}@${h.egress ?? ''}`,
        trace: [{ chain: h.kind === 'l3' ? 'routing' : 'switching', phase: 'forwarding', events: events(h, isLast ? b : null) }],
      })
    })
    const last = b.hops[b.hops.length - 1]
    if (last && b.end === 'delivered' && last.egress !== null && !b.detail.includes(' is an address of ')) {
      addNode(hostId(r.dst), r.dst, r.dst, last.device.siteName, 'host')
      chain.push(edge(nodeId(last), last.egress, hostId(r.dst), null, true))
    }
    chain.forEach((e, i) => {
      if (i > 0) e.prev.add(chain[i - 1]!.id)
      if (i < chain.length - 1) e.next.add(chain[i + 1]!.id)
      if (b.end === 'delivered') e.delivered++
      else e.dropped++
    })
  }
  const graphEdges: Record<string, unknown> = {}
  for (const e of edges.values()) {
    const label = (text: string | null) => (text === null ? [] : [{ type: 'intName', visible: true, text }])
    graphEdges[e.id] = {
      id: e.id,
      source: e.source,
      target: e.target,
      direction: 'forward',
      edgeSettingsId: e.switched ? EDGE_SETTINGS.switched : EDGE_SETTINGS.routed,
      labels: { center: [], source: label(e.sourceIfaceName), target: label(e.targetIfaceName) },
      sourceIfaceName: e.sourceIfaceName,
      targetIfaceName: e.targetIfaceName,
      prevEdgeIds: [...e.prev],
      nextEdgeIds: [...e.next],
      packet: pkt,
      severityInfo: checks(e.delivered > 0 ? 1 : 0, e.dropped > 0 && e.delivered === 0 ? 1 : 0),
      trafficScore: { accepted: e.delivered, dropped: e.dropped, forwarded: e.delivered + e.dropped, total: e.delivered + e.dropped },
    }
  }
  const delivered = r.branches.filter((b) => b.end === 'delivered').length
  const dropped = r.branches.length - delivered
  return {
    graphResult: { graphData: { nodes, edges: graphEdges }, settings: pathSettings(), boxLabels: {} },
    pathlookup: {
      eventsSummary: { flags: [], topics: { ACL: checks(0, 0), FORWARDING: checks(delivered, dropped), ZONEFW: checks(0, 0) }, global: [] },
      decisions,
      passingTraffic: dropped === 0 && delivered > 0 ? 'all' : delivered === 0 ? 'none' : 'part',
      check: { exists: true },
    },
    paths: r,
  }
}
