/**
 * A path lookup's answer (`POST graphs`, its `paths`) as text: the hops as a table, the branches
 * as a tree, and whether the way back takes other routers than the way there.
 */
import { TextTable } from './output.js'

export interface PathHop {
  kind: 'l3' | 'l2'
  device: { sn: string; hostname: string }
  ingress: string | null
  egress: string | null
  route?: { network: string; protocol: string | null; vrf: string; nexthop: { ip: string | null; type?: string | null }; nhCount: number }
  arp?: { ip: string; mac: string }
  mac?: { mac: string; vlan: number | null; intName: string }
}

export interface PathBranch {
  hops: PathHop[]
  end: string
  detail: string
}

export interface PathAnswer {
  src: string
  dst: string
  vrf: string
  entry: { device: { hostname: string }; ingress: string | null; how: string } | null
  branches: PathBranch[]
  truncated: boolean
}

/** What decided a hop, in a few words. */
export function decidedBy(h: PathHop): string {
  if (h.route) {
    const nh = h.route.nexthop
    const via = nh.type ? ` ${nh.type}` : nh.ip === null ? (h.route.protocol === 'connected' ? '' : ' directly connected') : ` via ${nh.ip}`
    const ecmp = h.route.nhCount > 1 ? ` (1 of ${h.route.nhCount})` : ''
    return `route ${h.route.network}${h.route.protocol ? ` ${h.route.protocol}` : ''}${via}${ecmp}${h.arp ? `, ${h.arp.ip.includes(':') ? 'ND' : 'ARP'} ${h.arp.mac}` : ''}${h.mac ? ` on ${h.mac.intName}` : ''}`
  }
  if (h.mac) return `MAC ${h.mac.mac}${h.mac.vlan !== null ? ` vlan ${h.mac.vlan}` : ''} on ${h.mac.intName}`
  return ''
}

const hopKey = (h: PathHop) => `${h.device.sn}|${h.ingress ?? ''}|${h.egress ?? ''}|${h.route?.nexthop.ip ?? ''}`
const label = (h: PathHop) => `${h.device.hostname} ${h.ingress ?? '-'} → ${h.egress ?? '-'}`

/** Every distinct hop of the branches, in the order first met. */
export function writeHops(a: PathAnswer, out: NodeJS.WritableStream): void {
  const seen = new Set<string>()
  const rows: Array<Record<string, unknown>> = []
  for (const b of a.branches) {
    for (const h of b.hops) {
      if (seen.has(hopKey(h))) continue
      seen.add(hopKey(h))
      rows.push({ '#': String(rows.length + 1), device: h.device.hostname, layer: h.kind === 'l3' ? 'routed' : 'switched', in: h.ingress ?? '-', out: h.egress ?? '-', 'decided by': decidedBy(h) })
    }
  }
  const table = new TextTable(['#', 'device', 'layer', 'in', 'out', 'decided by'], out)
  table.write(rows)
  table.end()
}

interface TreeNode {
  text: string
  children: Map<string, TreeNode>
  ends: string[]
}

/** The branches as a tree: hops they share once, each end under its last hop. */
export function writeTree(a: PathAnswer, out: NodeJS.WritableStream): void {
  const root: TreeNode = { text: '', children: new Map(), ends: [] }
  for (const b of a.branches) {
    let node = root
    for (const h of b.hops) {
      const key = hopKey(h)
      let next = node.children.get(key)
      if (!next) node.children.set(key, (next = { text: label(h), children: new Map(), ends: [] }))
      node = next
    }
    node.ends.push(`${b.end === 'delivered' ? '✓' : '✗'} ${b.end}: ${b.detail}`)
  }
  const walk = (n: TreeNode, prefix: string) => {
    const items: Array<{ text: string; node?: TreeNode }> = [...[...n.children.values()].map((c) => ({ text: c.text, node: c })), ...n.ends.map((e) => ({ text: e }))]
    items.forEach((item, i) => {
      const last = i === items.length - 1
      out.write(`${prefix}${last ? '└─ ' : '├─ '}${item.text}\n`)
      if (item.node) walk(item.node, prefix + (last ? '   ' : '│  '))
    })
  }
  walk(root, '')
  if (a.truncated) out.write('(more branches than shown: the lookup stopped fanning out)\n')
}

/** The routers of each branch, in order. */
export function routerSequences(a: PathAnswer): string[] {
  return [...new Set(a.branches.map((b) => b.hops.filter((h) => h.kind === 'l3').map((h) => h.device.hostname).join(' > ')))]
}

/** Return branches whose routers, reversed, are no forward branch's: the asymmetric ones. */
export function asymmetry(forward: PathAnswer, back: PathAnswer): string[] {
  const there = new Set(routerSequences(forward))
  return routerSequences(back).filter((s) => !there.has(s.split(' > ').reverse().join(' > ')))
}

export function writePath(a: PathAnswer, title: string, out: NodeJS.WritableStream): void {
  const entry = a.entry ? ` (enters at ${a.entry.device.hostname}${a.entry.ingress ? ` ${a.entry.ingress}` : ''}: ${a.entry.how})` : ''
  out.write(`${title} ${a.src} → ${a.dst}${a.vrf ? ` in VRF ${a.vrf}` : ''}${entry}\n`)
  writeHops(a, out)
  out.write('\n')
  writeTree(a, out)
}
