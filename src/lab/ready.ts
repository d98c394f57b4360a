/**
 * When a lab has converged: on every router the AgentX subagents are connected, OSPF has a
 * route to every loopback it can reach, the BGP sessions that should be up are established,
 * LLDP sees exactly one neighbour per link that is up (and per switch hanging off the router),
 * and (OSPFv3 labs) ospf6d holds one full adjacency per link that is up; on every switch lldpd
 * is connected to snmpd and sees its uplink router.
 */
import { inNs } from './netns.js'
import { bgpSessions, linkEnds, routerEnds, routerSwitches, type Topology } from './topology.js'

/** AgentX subagents per router: zebra, ospfd, bgpd, lldpd, and ospf6d when the topology runs OSPFv3. */
const subagents = (topo: Topology) => (topo.ospfv3 === true ? 5 : 4)

/** Routers reachable from `start` over links that are up. */
export function reachable(topo: Topology, start: string): Set<string> {
  const seen = new Set([start])
  const queue = [start]
  while (queue.length > 0) {
    const r = queue.shift()!
    for (const l of topo.links) {
      const [a, b] = linkEnds(l)
      if (!a.up) continue
      const other = a.router === r ? b.router : b.router === r ? a.router : null
      if (other && !seen.has(other)) {
        seen.add(other)
        queue.push(other)
      }
    }
  }
  return seen
}

async function agentxProblems(ns: string, wanted: number): Promise<string[]> {
  const agentx = await inNs(ns, 'ss', ['-Htn', 'state', 'established', '( dport = :705 )'])
  const connected = agentx.split('\n').filter((l) => l.trim() !== '').length
  return connected < wanted ? [`${connected}/${wanted} AgentX subagents connected`] : []
}

async function lldpNeighbours(ns: string, dir: string): Promise<number> {
  const lldp = JSON.parse(await inNs(ns, 'lldpcli', ['-u', `${dir}/lldpd.socket`, '-f', 'json', 'show', 'neighbors'])) as { lldp?: { interface?: unknown } }
  const ifaces = lldp.lldp?.interface
  return Array.isArray(ifaces) ? ifaces.length : ifaces && typeof ifaces === 'object' ? Object.keys(ifaces).length : 0
}

/** A switch: lldpd connected to snmpd, and its uplink router seen over LLDP. */
async function switchProblems(ns: string, dir: string): Promise<string[]> {
  const out = await agentxProblems(ns, 1)
  const seen = await lldpNeighbours(ns, dir)
  if (seen !== 1) out.push(`LLDP sees ${seen} neighbours, not its uplink router only`)
  return out
}

async function problems(topo: Topology, router: string, ns: string, dir: string): Promise<string[]> {
  const out = await agentxProblems(ns, subagents(topo))

  const routes = new Set((await inNs(ns, 'ip', ['-4', 'route', 'show'])).split('\n').map((l) => l.split(' ')[0]))
  for (const other of reachable(topo, router)) {
    const lo = topo.routers.find((r) => r.name === other)!.loopback
    if (other !== router && !routes.has(lo)) out.push(`no route to ${other} (${lo})`)
  }
  if (router !== topo.management.router && reachable(topo, router).has(topo.management.router) && !routes.has(topo.management.network)) {
    out.push(`no route to the management network ${topo.management.network}`)
  }

  const wanted = bgpSessions(topo).filter((s) => s.router === router && s.established)
  if (wanted.length > 0) {
    const summary = JSON.parse(await inNs(ns, 'vtysh', ['--vty_socket', dir, '-c', 'show bgp summary json'])) as {
      ipv4Unicast?: { peers?: Record<string, { state?: string }> }
    }
    const peers = summary.ipv4Unicast?.peers ?? {}
    for (const s of wanted) if (peers[s.peerAddress]?.state !== 'Established') out.push(`BGP to ${s.peerAddress} is ${peers[s.peerAddress]?.state ?? 'not configured'}`)
  }

  const upLinks = routerEnds(topo, router).filter((e) => e.up).length
  if (topo.ospfv3 === true) {
    const ospf6 = JSON.parse(await inNs(ns, 'vtysh', ['--vty_socket', dir, '-c', 'show ipv6 ospf6 neighbor json'])) as { neighbors?: Array<{ state?: string }> }
    const full = (ospf6.neighbors ?? []).filter((n) => n.state === 'Full').length
    if (full !== upLinks) out.push(`OSPFv3 has ${full} full adjacencies, ${upLinks} links are up`)
  }
  const seen = await lldpNeighbours(ns, dir)
  const switches = routerSwitches(topo, router).length
  if (seen !== upLinks + switches) out.push(`LLDP sees ${seen} neighbours, ${upLinks} links are up${switches > 0 ? ` and ${switches} switches hang off it` : ''}`)
  return out
}

/** Polls every router and switch until none has a problem left; throws listing them after `timeoutMs`. */
export async function waitReady(topo: Topology, ns: (device: string) => string, dir: (device: string) => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  const switches = new Set((topo.switches ?? []).map((s) => s.name))
  let pending = [...topo.routers.map((r) => r.name), ...switches]
  let last: Map<string, string[]>
  for (;;) {
    const found = new Map<string, string[]>()
    for (const r of pending) {
      const p = await (switches.has(r) ? switchProblems(ns(r), dir(r)) : problems(topo, r, ns(r), dir(r))).catch((err: unknown) => [err instanceof Error ? err.message : String(err)])
      if (p.length > 0) found.set(r, p)
    }
    pending = [...found.keys()]
    last = found
    if (pending.length === 0) return
    if (Date.now() > deadline) break
    await new Promise((resolve) => setTimeout(resolve, 300))
  }
  const detail = [...last].map(([r, p]) => `${r}: ${p.join('; ')}`).join(' | ')
  throw new Error(`the lab did not converge within ${Math.round(timeoutMs / 1000)} s: ${detail}`)
}
