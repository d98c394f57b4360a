/**
 * The lab's routers answer their forwarding table as a vendor's agent does. Stock net-snmp on
 * Linux reads /proc/net/route: the first next hop of a multipath route only, and a blackhole
 * route as an ordinary local one. Each router's snmpd therefore hands IP-FORWARD-MIB's
 * inetCidrRouteTable to this `pass_persist` program, which reads the kernel's routes with
 * `ip -j route` (every next hop of an ECMP route a row, blackhole routes type blackhole(5),
 * unreachable and prohibit reject(2), the protocol FRR installed the route with), IPv4 and IPv6
 * (a link-local IPv6 next hop as an ipv6z address whose zone is the interface's index).
 * It is plain JavaScript run by the same Node as netinv, written into the router's run directory.
 */
import { PASS_PERSIST_LOOP } from './pass-persist.js'

/** inetCidrRouteTable's entry; the agent answers every column under it. */
export const INET_CIDR_ROUTE_ENTRY = '1.3.6.1.2.1.4.24.7.1'

export function routeAgentScript(): string {
  return String.raw`// pass_persist agent of inetCidrRouteTable (written by netinv's lab)
import { execFileSync } from 'node:child_process'
import { createInterface } from 'node:readline'

const ENTRY = '${INET_CIDR_ROUTE_ENTRY}'.split('.').map(Number)
// iproute2 protocol names and numbers → IANAipRouteProtocol
const PROTO = { kernel: 2, boot: 3, static: 3, zebra: 3, '196': 3, ospf: 13, '188': 13, bgp: 14, '186': 14, rip: 8, '189': 8, isis: 9, '187': 9, eigrp: 16, '192': 16 }
const KIND = { blackhole: 5, unreachable: 2, prohibit: 2 }

let rows = []
let readAt = 0
let ifIndex = new Map()

function json(args) {
  return JSON.parse(execFileSync('ip', ['-j', ...args], { encoding: 'utf8' }) || '[]')
}

// the 16 octets of an IPv6 address in text
function v6(text) {
  const [head, tail] = text.includes('::') ? text.split('::') : [text, '']
  const h = head ? head.split(':') : []
  const t = tail ? tail.split(':') : []
  const groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t].map((g) => parseInt(g, 16))
  return groups.flatMap((g) => [g >> 8, g & 0xff])
}

// an InetAddress as an index: type, length, octets (a link-local IPv6 address with its interface as zone: ipv6z)
function inet(family, address, zone) {
  if (family === 4) return [1, 4, ...address.split('.').map(Number)]
  if (/^fe[89ab]/i.test(address) && zone) return [4, 20, ...v6(address), (zone >>> 24) & 0xff, (zone >>> 16) & 0xff, (zone >>> 8) & 0xff, zone & 0xff]
  return [2, 16, ...v6(address)]
}

function load() {
  if (Date.now() - readAt < 1000) return
  readAt = Date.now()
  const out = []
  const routes = [...json(['-4', 'route', 'show', 'table', 'main']).map((r) => [4, r]), ...json(['-6', 'route', 'show', 'table', 'main']).map((r) => [6, r])]
  // an interface keeps its index: the links are read again only when a route names one not seen yet (one command less per reading)
  const devices = routes.flatMap(([, r]) => [r.dev, ...(r.nexthops ?? []).map((h) => h.dev)]).filter((d) => d)
  if (devices.some((d) => !ifIndex.has(d))) ifIndex = new Map(json(['link', 'show']).map((l) => [l.ifname, l.ifindex]))
  for (const [family, r] of routes) {
    const any = family === 4 ? '0.0.0.0' : '::'
    const [dest, len] = r.dst === 'default' ? [any, 0] : r.dst.includes('/') ? [r.dst.split('/')[0], Number(r.dst.split('/')[1])] : [r.dst, family === 4 ? 32 : 128]
    const kind = KIND[r.type]
    const hops = kind ? [{}] : r.nexthops ?? [{ gateway: r.gateway, dev: r.dev }]
    for (const h of hops) {
      const via = h.gateway ?? any
      const type = kind ?? (h.gateway ? 4 : 3)
      const index = [...inet(family, dest), len, 2, 0, 0, ...inet(family, via, ifIndex.get(h.dev))]
      const cells = {
        7: ['integer', kind ? 0 : ifIndex.get(h.dev) ?? 0],
        8: ['integer', type],
        9: ['integer', PROTO[String(r.protocol ?? 'boot')] ?? 1],
        10: ['gauge', 0],
        11: ['gauge', 0],
        12: ['integer', r.metric ?? 0],
        13: ['integer', -1], 14: ['integer', -1], 15: ['integer', -1], 16: ['integer', -1],
        17: ['integer', 1],
      }
      for (const [column, value] of Object.entries(cells)) out.push({ oid: [...ENTRY, Number(column), ...index], value })
    }
  }
  rows = sortRows(out)
}
${PASS_PERSIST_LOOP}`
}
