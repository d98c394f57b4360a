/**
 * The lab's routers answer their forwarding table as a vendor's agent does. Stock net-snmp on
 * Linux reads /proc/net/route: the first next hop of a multipath route only, and a blackhole
 * route as an ordinary local one. Each router's snmpd therefore hands IP-FORWARD-MIB's
 * inetCidrRouteTable to this `pass_persist` program, which reads the kernel's routes with
 * `ip -j route` (every next hop of an ECMP route a row, blackhole routes type blackhole(5),
 * unreachable and prohibit reject(2), the protocol FRR installed the route with).
 * It is plain JavaScript run by the same Node as netinv, written into the router's run directory.
 */

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

function json(args) {
  return JSON.parse(execFileSync('ip', ['-j', ...args], { encoding: 'utf8' }) || '[]')
}

function load() {
  if (Date.now() - readAt < 1000) return
  readAt = Date.now()
  const ifIndex = new Map(json(['link', 'show']).map((l) => [l.ifname, l.ifindex]))
  const out = []
  for (const r of json(['-4', 'route', 'show', 'table', 'main'])) {
    const [dest, len] = r.dst === 'default' ? ['0.0.0.0', 0] : r.dst.includes('/') ? [r.dst.split('/')[0], Number(r.dst.split('/')[1])] : [r.dst, 32]
    const kind = KIND[r.type]
    const hops = kind ? [{}] : r.nexthops ?? [{ gateway: r.gateway, dev: r.dev }]
    for (const h of hops) {
      const via = h.gateway ?? '0.0.0.0'
      const type = kind ?? (h.gateway ? 4 : 3)
      const index = [1, 4, ...dest.split('.').map(Number), len, 2, 0, 0, 1, 4, ...via.split('.').map(Number)]
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
  const seen = new Set()
  rows = out.sort((a, b) => compare(a.oid, b.oid)).filter((r) => {
    const key = r.oid.join('.')
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function compare(a, b) {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i]
  return a.length - b.length
}

const parse = (text) => text.trim().replace(/^\./, '').split('.').filter((x) => x !== '').map(Number)
const answer = (row) => (row ? '.' + row.oid.join('.') + '\n' + row.value[0] + '\n' + row.value[1] + '\n' : 'NONE\n')

const lines = createInterface({ input: process.stdin })
let pending = null
lines.on('line', (line) => {
  if (pending === null) {
    const cmd = line.trim()
    if (cmd === 'PING') process.stdout.write('PONG\n')
    else if (cmd === 'get' || cmd === 'getnext' || cmd === 'set') pending = { cmd, lines: [] }
    else if (cmd === '') process.exit(0)
    return
  }
  pending.lines.push(line)
  if (pending.cmd === 'set' && pending.lines.length < 2) return
  const { cmd, lines: args } = pending
  pending = null
  if (cmd === 'set') return void process.stdout.write('not-writable\n')
  try {
    load()
  } catch {
    return void process.stdout.write('NONE\n')
  }
  const oid = parse(args[0])
  if (cmd === 'get') process.stdout.write(answer(rows.find((r) => compare(r.oid, oid) === 0)))
  else process.stdout.write(answer(rows.find((r) => compare(r.oid, oid) > 0)))
})
lines.on('close', () => process.exit(0))
`
}
