/**
 * Configuration files of one lab router: snmpd (master agent, AgentX over TCP on the
 * namespace's own loopback), FRR's zebra, ospfd, bgpd and ospf6d when asked (AgentX subagents found through
 * SNMPCONFPATH), lldpd (AgentX subagent, port ids as interface names, fast timers) and the
 * script that starts them all in the router's namespace under its own host name; of one lab
 * switch, snmpd and lldpd the same way.
 */
import { INET_CIDR_ROUTE_ENTRY } from './route-agent.js'
import { DOT1D_BRIDGE } from './bridge-agent.js'
import { bgpSessions, findRouter, findSwitch, routerEnds, switchAddresses, type RouterSnmp, type Topology } from './topology.js'

export const AGENTX = 'tcp:127.0.0.1:705'
export const FRR_DAEMONS = ['zebra', 'ospfd', 'bgpd'] as const

/** The FRR daemons a router of the topology runs (ospf6d when it asks for OSPFv3), zebra first. */
export function frrDaemons(topo: Topology): string[] {
  return topo.ospfv3 === true ? [...FRR_DAEMONS, 'ospf6d'] : [...FRR_DAEMONS]
}
/** Community the lab uses on each router's loopback (127.0.0.1 only) to tune snmpd. */
export const LAB_ADMIN_COMMUNITY = 'lab-admin'

/** `routeAgent`: the program snmpd hands inetCidrRouteTable to (route-agent.ts). */
export function snmpdConf(topo: Topology, router: string, routeAgent?: string): string {
  const r = findRouter(topo, router)
  // every next hop and the blackhole routes, as a vendor's agent answers them (ahead of snmpd's own table)
  const pass = routeAgent === undefined ? [] : [`pass_persist -p 1 .${INET_CIDR_ROUTE_ENTRY.split('.').slice(0, -1).join('.')} ${routeAgent}`]
  return agentConf(topo, r.name, r.location, r.snmp ?? 'v2c', pass)
}

/** A switch's snmpd: the lab's community and SNMPv3 user, BRIDGE-MIB answered by `bridgeAgent` (bridge-agent.ts). */
export function switchSnmpdConf(topo: Topology, name: string, bridgeAgent: string): string {
  const s = findSwitch(topo, name)
  return agentConf(topo, s.name, s.location, 'v2c', [`pass_persist .${DOT1D_BRIDGE} ${bridgeAgent}`])
}

function agentConf(topo: Topology, name: string, location: string, access: RouterSnmp, pass: string[]): string {
  const { v3 } = topo.credentials
  const lines = [
    'agentAddress udp:161',
    'master agentx',
    `agentXSocket ${AGENTX}`,
    `sysName ${name}`,
    `sysLocation ${location}`,
    'sysContact noc@lab.invalid',
  ]
  if (access === 'v2c') lines.push(`rocommunity ${topo.credentials.community} default`)
  else if (typeof access === 'object') lines.push(`rocommunity ${access.community} default`)
  // a router with a community of its own has no SNMPv3 user
  if (typeof access !== 'object') lines.push(`createUser ${v3.user} ${v3.authProtocol} ${v3.authPassword} ${v3.privProtocol} ${v3.privPassword}`, `rouser ${v3.user} priv`)
  // the lab itself, from inside the namespace only, shortens the agent's caches (see CACHE_SECONDS)
  lines.push(`rwcommunity ${LAB_ADMIN_COMMUNITY} 127.0.0.1`)
  lines.push(...pass)
  return `${lines.join('\n')}\n`
}

/** Read by every net-snmp subagent library (FRR's daemons) through SNMPCONFPATH. */
export function subagentConf(): string {
  return `agentXSocket ${AGENTX}\n`
}

function ospfInterface(name: string, passive: boolean): string[] {
  if (passive) return [`interface ${name}`, ' ip ospf passive', 'exit']
  return [`interface ${name}`, ' ip ospf network point-to-point', ' ip ospf hello-interval 1', ' ip ospf dead-interval 3', 'exit']
}

export function zebraConf(router: string): string {
  return `hostname ${router}\nagentx\n`
}

export function ospfdConf(topo: Topology, router: string): string {
  const r = findRouter(topo, router)
  const lines = [`hostname ${router}`, 'agentx']
  for (const e of routerEnds(topo, router)) lines.push(...ospfInterface(e.interface, false))
  for (const h of topo.hosts.filter((x) => x.router === router)) lines.push(...ospfInterface(h.interface, true))
  if (topo.management.router === router) lines.push(...ospfInterface('mgmt0', true))
  lines.push('router ospf', ` ospf router-id ${r.loopback}`, ` network ${topo.supernet} area 0`, 'exit')
  return `${lines.join('\n')}\n`
}

/** ospf6d: every link between routers point-to-point with the fast timers of ospfd, in area 0. */
export function ospf6dConf(topo: Topology, router: string): string {
  const r = findRouter(topo, router)
  const ends = routerEnds(topo, router)
  const lines = [`hostname ${router}`, 'agentx']
  for (const e of ends) lines.push(`interface ${e.interface}`, ' ipv6 ospf6 network point-to-point', ' ipv6 ospf6 hello-interval 1', ' ipv6 ospf6 dead-interval 3', 'exit')
  lines.push('router ospf6', ` ospf6 router-id ${r.loopback}`, ...ends.map((e) => ` interface ${e.interface} area 0.0.0.0`), 'exit')
  return `${lines.join('\n')}\n`
}

/** The lines under `router bgp` that configure one session (also used to add one at run time). */
export function bgpNeighborLines(session: { peerAddress: string; peerAs: number; localAs: number }): string[] {
  const lines = [` neighbor ${session.peerAddress} remote-as ${session.peerAs}`, ` neighbor ${session.peerAddress} timers 1 3`, ` neighbor ${session.peerAddress} timers connect 1`]
  if (session.peerAs === session.localAs) lines.push(` neighbor ${session.peerAddress} update-source lo`)
  return lines
}

export function bgpdConf(topo: Topology, router: string): string {
  const r = findRouter(topo, router)
  const lines = [`hostname ${router}`, 'agentx', `router bgp ${r.as}`, ` bgp router-id ${r.loopback}`, ' no bgp ebgp-requires-policy', ' no bgp network import-check']
  for (const s of bgpSessions(topo).filter((x) => x.router === router)) lines.push(...bgpNeighborLines(s))
  lines.push(' address-family ipv4 unicast', `  network ${r.loopback}/32`, ' exit-address-family', 'exit')
  return `${lines.join('\n')}\n`
}

/** Commands lldpcli runs when lldpd starts. */
export function lldpdConf(): string {
  return ['configure lldp portidsubtype ifname', 'configure lldp tx-interval 1', 'configure lldp tx-hold 4', ''].join('\n')
}

/** Shell script run in the router's namespace (and a UTS namespace of its own). */
export function startScript(topo: Topology, router: string, dir: string): string {
  const r = findRouter(topo, router)
  const frr = frrDaemons(topo).map(
    (d) =>
      `/usr/lib/frr/${d} -d -M snmp -u frr -g frr -f ${dir}/${d}.conf -i ${dir}/${d}.pid -z ${dir}/zserv.api --vty_socket ${dir} -P 0${d === 'bgpd' ? ' -p 179' : ''} --log file:${dir}/${d}.log`,
  )
  return [
    'set -e',
    `hostname ${router}`,
    'ip link set lo up',
    'sysctl -qw net.ipv4.ip_forward=1',
    // routers forward IPv6 too, and answer every traceroute probe (ICMPv6 errors are rate limited to one a second otherwise)
    'sysctl -qw net.ipv6.conf.all.forwarding=1',
    'sysctl -qw net.ipv6.icmp.ratelimit=0',
    `SNMP_PERSISTENT_DIR=${dir}/snmp-state snmpd -C -c ${dir}/snmpd.conf -Lf ${dir}/snmpd.log -p ${dir}/snmpd.pid`,
    `export SNMPCONFPATH=${dir}/snmp`,
    frr[0],
    `for i in $(seq 1 100); do [ -S ${dir}/zserv.api ] && break; sleep 0.05; done`,
    ...frr.slice(1),
    `lldpd -u ${dir}/lldpd.socket -X ${AGENTX} -I 'eth*' -m ${r.loopback} -O ${dir}/lldpd.conf`,
    '',
  ].join('\n')
}

/** Shell script run in a switch's namespace (and a UTS namespace of its own): snmpd and lldpd, no forwarding of IP. */
export function switchStartScript(topo: Topology, name: string, dir: string): string {
  const { address } = switchAddresses(topo, name)
  return [
    'set -e',
    `hostname ${name}`,
    'ip link set lo up',
    'sysctl -qw net.ipv4.ip_forward=0',
    'sysctl -qw net.ipv6.conf.all.forwarding=0',
    `SNMP_PERSISTENT_DIR=${dir}/snmp-state snmpd -C -c ${dir}/snmpd.conf -Lf ${dir}/snmpd.log -p ${dir}/snmpd.pid`,
    `lldpd -u ${dir}/lldpd.socket -X ${AGENTX} -I 'eth*' -m ${address} -O ${dir}/lldpd.conf`,
    '',
  ].join('\n')
}
