/**
 * A lab of real network software in network namespaces: every router runs FRR (zebra, ospfd,
 * bgpd), lldpd and snmpd; end hosts are namespaces with an address and a default route; a
 * switch is a namespace with a Linux bridge between a router and its hosts, lldpd and snmpd;
 * veth pairs are the links; a management link joins the machine's own namespace to one router and a
 * route for the lab's supernet points at it. Addresses exist only inside the lab's namespaces and
 * on the root end of the management link. `down()` (or `teardown(prefix)` after a crash)
 * removes all of it.
 */
import { chown, mkdir, writeFile } from 'node:fs/promises'
import { LAB_ADMIN_COMMUNITY, bgpNeighborLines, bgpdConf, lldpdConf, ospf6dConf, ospfdConf, snmpdConf, startScript, subagentConf, switchSnmpdConf, switchStartScript, zebraConf } from './configs.js'
import { DOT1D_BRIDGE, bridgeAgentScript } from './bridge-agent.js'
import { PERSISTENT, checkPrefix, inNs, labNamespaces, mgmtLink, nsName, run, runDir, staleLabs, teardown } from './netns.js'
import { waitReady } from './ready.js'
import { ensureSshUser, hostKeyFingerprint, newHostKey, startSshd, stopSshd, writeSshd, type SshdFiles } from './ssh.js'
import { INET_CIDR_ROUTE_ENTRY, routeAgentScript } from './route-agent.js'
import { bgpSessions, checkTopology, findRouter, hostAddresses, linkEnds, managementAddresses, splitEnd, switchAddresses, switchPorts, type LabLink, type LabRouter, type LabSwitch, type Topology } from './topology.js'

export interface LabOptions {
  /** Name prefix of the lab's namespaces (`<prefix>-r1`) and of its management link. */
  prefix: string
  topology: Topology
  /** Progress lines (the command line prints them). */
  log?: (line: string) => void
  /** Longest wait for the lab to converge (routing, BGP, LLDP, AgentX). */
  readyTimeoutMs?: number
  /** Keep the lab when the building process ends (the command line); else it is removed as stale once its builder is gone. */
  persistent?: boolean
}

/** NET-SNMP-AGENT-MIB nsCacheTimeout: seconds each of snmpd's caches stays valid. */
const NS_CACHE_TIMEOUT = '1.3.6.1.4.1.8072.1.5.3.1.2'
const CACHE_SECONDS = 1
/**
 * The switches' MAC address ageing, in hundredths of a second as the kernel takes it: an hour
 * (the kernel's default is 300 s), so that what a test's traffic taught a switch is still in
 * its table when a discovery reads it minutes later.
 */
const SWITCH_AGEING_CENTISECONDS = 360_000

/** Runs `fn` over `items`, at most `limit` at a time. */
async function each<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

export class Lab {
  readonly prefix: string
  /** Number of routers, hosts and switches, for the command line's summary. */
  get size(): { routers: number; hosts: number; switches: number } {
    return { routers: this.topology.routers.length, hosts: this.topology.hosts.length, switches: (this.topology.switches ?? []).length }
  }

  /** The topology as it is now (changes applied): the ground truth. */
  topology: Topology
  private readonly log: (line: string) => void
  private readonly readyTimeoutMs: number
  private readonly persistent: boolean

  private constructor(options: LabOptions) {
    this.persistent = options.persistent ?? false
    this.prefix = checkPrefix(options.prefix)
    this.topology = checkTopology(structuredClone(options.topology))
    this.log = options.log ?? (() => {})
    this.readyTimeoutMs = options.readyTimeoutMs ?? 90_000
  }

  /** Builds the lab and waits until it has converged; on failure removes what it made. */
  static async up(options: LabOptions): Promise<Lab> {
    const lab = new Lab(options)
    for (const stale of await staleLabs()) {
      lab.log(`removing lab ${stale} left by a process that is gone`)
      await teardown(stale)
    }
    if ((await labNamespaces(lab.prefix)).length > 0) throw new Error(`a lab with prefix ${lab.prefix} exists; remove it first (netinv lab down --prefix ${lab.prefix})`)
    const used = await run('ip', ['-4', 'route', 'show', lab.topology.supernet])
    if (used.trim() !== '') throw new Error(`${lab.topology.supernet} is already routed on this machine (${used.trim()}); another lab uses it`)
    try {
      await lab.build()
      return lab
    } catch (err) {
      await teardown(lab.prefix).catch(() => {})
      throw err
    }
  }

  private ns(device: string): string {
    return nsName(this.prefix, device)
  }

  private dir(device: string): string {
    return `${runDir(this.prefix)}/${device}`
  }

  /** The address discovery starts from: the management router's end of the management link. */
  get seed(): string {
    return managementAddresses(this.topology).router
  }

  private async build(): Promise<void> {
    const topo = this.topology
    await mkdir(runDir(this.prefix), { recursive: true })
    await writeFile(`${runDir(this.prefix)}/owner`, this.persistent ? PERSISTENT : String(process.pid))
    const switches = topo.switches ?? []
    this.log(`creating ${topo.routers.length} routers, ${topo.hosts.length} hosts and ${switches.length} switches`)
    await each([...topo.routers.map((r) => r.name), ...topo.hosts.map((h) => h.name), ...switches.map((s) => s.name)], 8, async (name) => {
      await run('ip', ['netns', 'add', this.ns(name)])
      await run('ip', ['-n', this.ns(name), 'link', 'set', 'lo', 'up'])
    })
    await each(topo.links, 8, (l) => this.addLink(l))
    await each(switches, 8, (s) => this.addSwitch(s))
    await each(topo.hosts, 8, async (h) => {
      const { gateway, address, prefix } = hostAddresses(h)
      const host = this.ns(h.name)
      const router = this.ns(h.router)
      // a host behind a switch is wired to its port (addSwitch)
      if (h.switch === undefined) {
        await run('ip', ['link', 'add', 'name', h.interface, 'netns', router, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', host])
        await run('ip', ['-n', router, 'addr', 'add', `${gateway}/${prefix}`, 'dev', h.interface])
        await run('ip', ['-n', router, 'link', 'set', h.interface, 'up'])
      }
      await run('ip', ['-n', host, 'addr', 'add', `${address}/${prefix}`, 'dev', 'eth0'])
      await run('ip', ['-n', host, 'link', 'set', 'eth0', 'up'])
      await run('ip', ['-n', host, 'route', 'add', 'default', 'via', gateway])
    })
    const m = managementAddresses(topo)
    const mgmtNs = this.ns(topo.management.router)
    await run('ip', ['link', 'add', mgmtLink(this.prefix), 'type', 'veth', 'peer', 'name', 'mgmt0', 'netns', mgmtNs])
    await run('ip', ['addr', 'add', `${m.root}/${m.prefix}`, 'dev', mgmtLink(this.prefix)])
    await run('ip', ['link', 'set', mgmtLink(this.prefix), 'up'])
    await run('ip', ['-n', mgmtNs, 'addr', 'add', `${m.router}/${m.prefix}`, 'dev', 'mgmt0'])
    await run('ip', ['-n', mgmtNs, 'link', 'set', 'mgmt0', 'up'])
    await run('ip', ['route', 'add', topo.supernet, 'via', m.router, 'dev', mgmtLink(this.prefix)])
    this.log('starting snmpd, FRR and lldpd on every router')
    await each(topo.routers, 6, (r) => this.startRouter(r))
    await each(switches, 6, (s) => this.startSwitch(s))
    await this.ready()
  }

  /**
   * A switch: a bridge (no spanning tree, the kernel's default) with its management address
   * and default route, its uplink port linked to the router's interface (which gets the
   * gateway address of the hosts' network) and a port for each of its hosts (the host's `eth0`).
   */
  private async addSwitch(s: LabSwitch): Promise<void> {
    const ns = this.ns(s.name)
    await run('ip', ['-n', ns, 'link', 'add', 'br0', 'type', 'bridge', 'ageing_time', String(SWITCH_AGEING_CENTISECONDS)])
    const { address, gateway, prefix } = switchAddresses(this.topology, s.name)
    for (const p of switchPorts(this.topology, s.name)) {
      const router = this.topology.routers.some((r) => r.name === p.peer)
      await run('ip', ['link', 'add', 'name', p.port, 'netns', ns, 'type', 'veth', 'peer', 'name', p.interface, 'netns', this.ns(p.peer)])
      await run('ip', ['-n', ns, 'link', 'set', p.port, 'master', 'br0'])
      await run('ip', ['-n', ns, 'link', 'set', p.port, 'up'])
      if (router) {
        await run('ip', ['-n', this.ns(p.peer), 'addr', 'add', `${gateway}/${prefix}`, 'dev', p.interface])
        await run('ip', ['-n', this.ns(p.peer), 'link', 'set', p.interface, 'up'])
      }
    }
    await run('ip', ['-n', ns, 'addr', 'add', `${address}/${prefix}`, 'dev', 'br0'])
    await run('ip', ['-n', ns, 'link', 'set', 'br0', 'up'])
    await run('ip', ['-n', ns, 'route', 'add', 'default', 'via', gateway])
  }

  /** snmpd (BRIDGE-MIB from bridge-agent.ts) and lldpd in a switch's namespace, under its own host name. */
  private async startSwitch(s: LabSwitch): Promise<void> {
    const dir = this.dir(s.name)
    await mkdir(`${dir}/snmp-state`, { recursive: true })
    const files: Array<[string, string]> = [
      ['snmpd.conf', switchSnmpdConf(this.topology, s.name, `${dir}/bridge-agent.sh`)],
      ['bridge-agent.mjs', bridgeAgentScript()],
      ['bridge-agent.sh', `#!/bin/sh\nexec ${process.execPath} ${dir}/bridge-agent.mjs\n`],
      ['lldpd.conf', lldpdConf()],
      ['start.sh', switchStartScript(this.topology, s.name, dir)],
    ]
    for (const [name, text] of files) await writeFile(`${dir}/${name}`, text, { mode: name === 'bridge-agent.sh' ? 0o750 : 0o640 })
    await run('ip', ['netns', 'exec', this.ns(s.name), 'unshare', '--uts', 'sh', `${dir}/start.sh`])
    await this.shortenCaches(s.name, DOT1D_BRIDGE)
  }

  private async addLink(l: LabLink): Promise<void> {
    const [a, b] = linkEnds(l)
    await run('ip', ['link', 'add', 'name', a.interface, 'netns', this.ns(a.router), 'type', 'veth', 'peer', 'name', b.interface, 'netns', this.ns(b.router)])
    for (const e of [a, b]) {
      await run('ip', ['-n', this.ns(e.router), 'addr', 'add', `${e.address}/${e.prefix}`, 'dev', e.interface])
      if (!e.shut) await run('ip', ['-n', this.ns(e.router), 'link', 'set', e.interface, 'up'])
    }
  }

  private async startRouter(r: LabRouter): Promise<void> {
    const topo = this.topology
    const dir = this.dir(r.name)
    await mkdir(`${dir}/snmp`, { recursive: true })
    await mkdir(`${dir}/snmp-state`, { recursive: true })
    const files: Array<[string, string]> = [
      ['snmpd.conf', snmpdConf(topo, r.name, `${dir}/route-agent.sh`)],
      ['route-agent.mjs', routeAgentScript()],
      ['route-agent.sh', `#!/bin/sh\nexec ${process.execPath} ${dir}/route-agent.mjs\n`],
      ['snmp/snmp.conf', subagentConf()],
      ['zebra.conf', zebraConf(r.name)],
      ['ospfd.conf', ospfdConf(topo, r.name)],
      ['bgpd.conf', bgpdConf(topo, r.name)],
      ...(topo.ospfv3 === true ? [['ospf6d.conf', ospf6dConf(topo, r.name)] as [string, string]] : []),
      ['lldpd.conf', lldpdConf()],
      ['start.sh', startScript(topo, r.name, dir)],
    ]
    for (const [name, text] of files) await writeFile(`${dir}/${name}`, text, { mode: name === 'route-agent.sh' ? 0o750 : 0o640 })
    const { uid, gid } = await frrIds()
    await chown(dir, uid, gid)
    for (const [name] of files) if (name !== 'start.sh' && name !== 'snmpd.conf') await chown(`${dir}/${name}`, uid, gid)
    await run('ip', ['-n', this.ns(r.name), 'addr', 'add', `${r.loopback}/32`, 'dev', 'lo'])
    await run('ip', ['netns', 'exec', this.ns(r.name), 'unshare', '--uts', 'sh', `${dir}/start.sh`])
    await this.shortenCaches(r.name, INET_CIDR_ROUTE_ENTRY)
  }

  /**
   * snmpd keeps what it reads from the kernel (interfaces, routes, ARP) for up to a minute;
   * the lab shortens every cache of each agent to CACHE_SECONDS, so that a change shows in the
   * next discovery as it would on a device polled a minute later. `agentOid`: the subtree of
   * the device's `pass_persist` agent, which snmpd starts on its first request.
   */
  private async shortenCaches(device: string, agentOid: string): Promise<void> {
    const ns = this.ns(device)
    const auth = ['-v2c', '-c', LAB_ADMIN_COMMUNITY, '-t', '2', '-r', '3']
    const out = await inNs(ns, 'snmpbulkwalk', [...auth, '-On', '-Oq', '127.0.0.1', NS_CACHE_TIMEOUT])
    const oids = out.split('\n').map((l) => l.split(' ')[0] ?? '').filter((o) => o.startsWith(`.${NS_CACHE_TIMEOUT}.`))
    for (let i = 0; i < oids.length; i += 20) {
      await inNs(ns, 'snmpset', [...auth, '-Oq', '127.0.0.1', ...oids.slice(i, i + 20).flatMap((o) => [o, 'i', String(CACHE_SECONDS)])])
    }
    // snmpd starts its route or bridge agent on the first request: started now, not on discovery's first (short) timeout
    await inNs(ns, 'snmpgetnext', [...auth, '-Oq', '127.0.0.1', `.${agentOid}`])
  }

  /** Waits until routing, BGP, LLDP and the AgentX subagents match the topology. */
  async ready(): Promise<void> {
    await waitReady(this.topology, (d) => this.ns(d), (d) => this.dir(d), this.readyTimeoutMs)
    // the end hosts speak once, so their routers hold ARP entries for them
    await this.refreshArp()
  }

  /**
   * Every host sends one datagram to its gateway, so the router learns the host's address from
   * its ARP request (entries age out of the routers' tables otherwise).
   */
  async refreshArp(): Promise<void> {
    await each(this.topology.hosts, 8, async (h) => {
      await inNs(this.ns(h.name), 'bash', ['-c', `echo > /dev/udp/${hostAddresses(h).gateway}/9`]).catch(() => {})
    })
  }

  private async vtysh(router: string, commands: string[]): Promise<void> {
    const args = ['--vty_socket', this.dir(router), ...commands.flatMap((c) => ['-c', c])]
    await inNs(this.ns(router), 'vtysh', args)
  }

  /** Shuts one end of a link ("r1:eth2") administratively. */
  async shutLink(end: string): Promise<void> {
    const { router, interface: iface } = splitEnd(end)
    const link = this.topology.links.find((l) => l.a === end || l.b === end)
    if (!link) throw new Error(`no link ends at ${end}`)
    await run('ip', ['-n', this.ns(router), 'link', 'set', iface, 'down'])
    link.shut = link.a === end ? 'a' : 'b'
    await this.ready()
  }

  /** Sets the OSPF cost of one end of a link ("r1:eth1"); the routers' adjacencies stay as they are. */
  async setOspfCost(end: string, cost: number): Promise<void> {
    const { router, interface: iface } = splitEnd(end)
    if (!this.topology.links.some((l) => l.a === end || l.b === end)) throw new Error(`no link ends at ${end}`)
    await this.vtysh(router, ['configure terminal', `interface ${iface}`, `ip ospf cost ${cost}`])
    await this.ready()
  }

  /**
   * Sets the OSPFv3 cost of one end of a link ("r1:eth1") in a lab that runs OSPFv3, and waits
   * until the router at the other end holds the router LSA that advertises it.
   */
  async setOspfv3Cost(end: string, cost: number): Promise<void> {
    if (this.topology.ospfv3 !== true) throw new Error('the lab runs no OSPFv3')
    const { router, interface: iface } = splitEnd(end)
    const link = this.topology.links.find((l) => l.a === end || l.b === end)
    if (!link) throw new Error(`no link ends at ${end}`)
    const peer = splitEnd(link.a === end ? link.b : link.a).router
    const [self, other] = [findRouter(this.topology, router).loopback, findRouter(this.topology, peer).loopback]
    await this.vtysh(router, ['configure terminal', `interface ${iface}`, `ipv6 ospf6 cost ${cost}`])
    type Lsdb = { areaScopedLinkStateDb?: Array<{ lsa?: Array<{ type?: string; advertisingRouter?: string; lsaDescription?: Array<{ metric?: number; neighborRouterId?: string }> }> }> }
    const deadline = Date.now() + this.readyTimeoutMs
    for (;;) {
      const db = (await this.showJson(peer, 'show ipv6 ospf6 database router detail json')) as Lsdb
      const lsas = (db.areaScopedLinkStateDb ?? []).flatMap((a) => a.lsa ?? []).filter((l) => l.type === 'Router' && l.advertisingRouter === self)
      if (lsas.some((l) => (l.lsaDescription ?? []).some((d) => d.neighborRouterId === other && d.metric === cost))) return
      if (Date.now() > deadline) throw new Error(`${peer} did not learn the OSPFv3 cost ${cost} of ${end} within ${Math.round(this.readyTimeoutMs / 1000)} s`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }

  /** Removes the BGP session between two routers, on both of them. */
  async removeBgp(a: string, b: string): Promise<void> {
    const sessions = bgpSessions(this.topology).filter((s) => (s.router === a && s.peer === b) || (s.router === b && s.peer === a))
    if (sessions.length === 0) throw new Error(`no BGP session between ${a} and ${b}`)
    for (const s of sessions) await this.vtysh(s.router, ['configure terminal', `router bgp ${s.localAs}`, `no neighbor ${s.peerAddress}`])
    this.topology.bgp = this.topology.bgp.filter((x) => !((x.a === a && x.b === b) || (x.a === b && x.b === a)))
    await this.ready()
  }

  /**
   * Adds a router linked to an existing one (`link.a` on the existing router, `link.b` on the new
   * one), optionally with a BGP session to it, and waits until the lab has converged again.
   */
  async addRouter(router: LabRouter, link: LabLink, bgpWith?: string): Promise<void> {
    const next = structuredClone(this.topology)
    next.routers.push(router)
    next.links.push(link)
    if (bgpWith) next.bgp.push({ a: bgpWith, b: router.name })
    checkTopology(next)
    const [existing] = linkEnds(link)
    if (existing.router === router.name) throw new Error('the link must start on an existing router')
    await run('ip', ['netns', 'add', this.ns(router.name)])
    this.topology = next
    await this.addLink(link)
    await this.vtysh(existing.router, ['configure terminal', `interface ${existing.interface}`, 'ip ospf network point-to-point', 'ip ospf hello-interval 1', 'ip ospf dead-interval 3'])
    if (bgpWith) {
      const s = bgpSessions(next).find((x) => x.router === bgpWith && x.peer === router.name)!
      await this.vtysh(bgpWith, ['configure terminal', `router bgp ${s.localAs}`, ...bgpNeighborLines(s).map((l) => l.trim())])
    }
    await this.startRouter(findRouter(next, router.name))
    await this.ready()
  }

  /** Adds a blackhole route to a router's kernel table (outside FRR, as an operator's static discard). */
  async addBlackhole(router: string, network: string): Promise<void> {
    findRouter(this.topology, router)
    await run('ip', ['-n', this.ns(router), 'route', 'add', 'blackhole', network])
  }

  /**
   * Adds an IPv6 address ("2001:db8:1::1/64") to one end of a link ("r1:eth1") in the kernel,
   * without duplicate address detection, so that it is usable at once (the lab's routing
   * daemons speak IPv4; IPv6 is addressed and routed statically).
   */
  async addIpv6Address(end: string, address: string): Promise<void> {
    const { router, interface: iface } = splitEnd(end)
    findRouter(this.topology, router)
    await run('ip', ['-n', this.ns(router), '-6', 'addr', 'add', address, 'dev', iface, 'nodad'])
  }

  /**
   * Gives an end host an IPv6 address ("2001:db8:1::10/64", without duplicate address detection)
   * and a default route over its gateway's address on the same link.
   */
  async addIpv6Host(host: string, address: string, gateway: string): Promise<void> {
    if (!this.topology.hosts.some((h) => h.name === host)) throw new Error(`no host ${host} in the topology`)
    const ns = this.ns(host)
    await run('ip', ['-n', ns, '-6', 'addr', 'add', address, 'dev', 'eth0', 'nodad'])
    await run('ip', ['-n', ns, '-6', 'route', 'add', 'default', 'via', gateway, 'dev', 'eth0'])
    await inNs(ns, 'sysctl', ['-qw', 'net.ipv6.icmp.ratelimit=0'])
  }

  /** Removes an address ("10.1.1.10/24", "2001:db8:1::10/64") from an end host: it answers no neighbour solicitation for it any more. */
  async removeHostAddress(host: string, address: string): Promise<void> {
    if (!this.topology.hosts.some((h) => h.name === host)) throw new Error(`no host ${host} in the topology`)
    await run('ip', ['-n', this.ns(host), 'addr', 'del', address, 'dev', 'eth0'])
  }

  /** Deletes a router's ARP or IPv6 neighbour entry of an address on one of its interfaces. */
  async forgetNeighbour(router: string, address: string, iface: string): Promise<void> {
    findRouter(this.topology, router)
    await run('ip', ['-n', this.ns(router), 'neigh', 'del', address, 'dev', iface])
  }

  /** Adds a static IPv6 route to a router's kernel table, over one next hop or several (ECMP): each "address@interface". */
  async addIpv6Route(router: string, network: string, hops: readonly string[]): Promise<void> {
    findRouter(this.topology, router)
    const via = hops.map((h) => h.split('@') as [string, string])
    const args = via.length === 1 ? ['via', via[0]![0], 'dev', via[0]![1]] : via.flatMap(([ip, dev]) => ['nexthop', 'via', ip, 'dev', dev])
    await run('ip', ['-n', this.ns(router), '-6', 'route', 'add', network, ...args])
  }

  /**
   * Sets the MTU of both ends of the link that ends at `end` ("r1:eth2"; OSPF forms no adjacency
   * over a mismatch) and waits until routing has converged again.
   */
  async setLinkMtu(end: string, mtu: number): Promise<void> {
    const link = this.topology.links.find((l) => l.a === end || l.b === end)
    if (!link) throw new Error(`no link ends at ${end}`)
    for (const side of [link.a, link.b]) {
      const { router, interface: iface } = splitEnd(side)
      await run('ip', ['-n', this.ns(router), 'link', 'set', 'dev', iface, 'mtu', String(mtu)])
    }
    await this.ready()
  }

  /** What `ip -j` says in a router's, host's or switch's namespace (e.g. ["-6", "route", "show", "table", "main"]). */
  async ipJson(name: string, args: readonly string[]): Promise<Array<Record<string, unknown>>> {
    const all = [...this.topology.routers, ...this.topology.hosts, ...(this.topology.switches ?? [])]
    if (!all.some((x) => x.name === name)) throw new Error(`no ${name} in the topology`)
    return JSON.parse((await run('ip', ['-n', this.ns(name), '-j', ...args])) || '[]') as Array<Record<string, unknown>>
  }

  /**
   * A switch's forwarding database as the kernel has it (`bridge fdb`, the bridge's own entries):
   * each MAC address with the port it is on and whether it was learned (dynamic) or is the
   * switch's own (permanent).
   */
  async fdb(name: string): Promise<Array<{ mac: string; port: string; dynamic: boolean }>> {
    if (!(this.topology.switches ?? []).some((s) => s.name === name)) throw new Error(`no switch ${name} in the topology`)
    const out = JSON.parse((await inNs(this.ns(name), 'bridge', ['-j', 'fdb', 'show', 'br', 'br0'])) || '[]') as Array<{ mac: string; ifname: string; master?: string; state?: string }>
    return out.filter((e) => e.master === 'br0').map((e) => ({ mac: e.mac, port: e.ifname, dynamic: e.state !== 'permanent' && e.state !== 'static' }))
  }

  /** Sends one UDP datagram to an IPv6 address from a router's namespace: neighbour discovery on the way fills the neighbour caches. */
  async reach6(router: string, address: string): Promise<void> {
    findRouter(this.topology, router)
    await inNs(this.ns(router), 'bash', ['-c', `echo > /dev/udp/${address}/9`]).catch(() => {})
  }

  /**
   * Debian's traceroute (UDP probes, one per hop, numeric) from an end host: the address that
   * answered each hop in order, null where none did.
   */
  async traceroute(host: string, destination: string): Promise<Array<string | null>> {
    return (await this.traceHops(host, destination)).map((h) => h.ip)
  }

  /**
   * Debian's traceroute as `traceroute`, IPv6 (`-6`) for an IPv6 destination, with the mark
   * traceroute prints after a hop whose answer was an ICMP unreachable instead of a time
   * exceeded (!N: no route, !H: host unreachable, as when ARP or neighbour discovery fails,
   * !X: administratively prohibited...), null for an ordinary hop. A router answers host
   * unreachable only once neighbour discovery or ARP gave up (three seconds): `waitSeconds`
   * longer than that to see it.
   */
  async traceHops(host: string, destination: string, options: { waitSeconds?: number } = {}): Promise<Array<{ ip: string | null; mark: string | null }>> {
    if (!this.topology.hosts.some((h) => h.name === host)) throw new Error(`no host ${host} in the topology`)
    const family = destination.includes(':') ? ['-6'] : []
    const wait = String(options.waitSeconds ?? 1)
    const out = await inNs(this.ns(host), 'traceroute', [...family, '-n', '-q', '1', '-w', wait, '-m', '12', destination], { timeoutMs: 30_000 + 12_000 * Number(wait) })
    const hops: Array<{ ip: string | null; mark: string | null }> = []
    for (const line of out.split('\n')) {
      const m = /^\s*\d+\s+(\S+)(?:\s+[\d.]+ ms)?(?:\s+(!\S*))?/.exec(line)
      if (m) hops.push({ ip: m[1] === '*' ? null : m[1]!, mark: m[2] ?? null })
    }
    return hops
  }

  private readonly sshd = new Map<string, SshdFiles>()

  /**
   * Starts sshd in a router's namespace on `port` (ssh.ts): the lab's user logs in with
   * `password` and gets the router's vtysh. Returns the user and the host key's fingerprint.
   */
  async startSsh(router: string, options: { port: number; password: string }): Promise<{ user: string; fingerprint: string }> {
    findRouter(this.topology, router)
    if (this.sshd.has(router)) throw new Error(`sshd runs on ${router} already`)
    const user = await ensureSshUser(this.prefix, options.password)
    const files = await writeSshd(`${this.dir(router)}/ssh`, this.dir(router), user, options.port)
    await startSshd(this.ns(router), files)
    this.sshd.set(router, files)
    return { user, fingerprint: await hostKeyFingerprint(files.hostKey) }
  }

  /** Gives a router's sshd a new host key (a replaced device, or a man in the middle); returns its fingerprint. */
  async rekeySsh(router: string): Promise<string> {
    const files = this.sshd.get(router)
    if (!files) throw new Error(`no sshd runs on ${router}`)
    await stopSshd(files)
    await newHostKey(files.hostKey)
    await startSshd(this.ns(router), files)
    return hostKeyFingerprint(files.hostKey)
  }

  /** What a `show ... json` command of vtysh says in a router's namespace (the lab's ground truth). */
  async showJson(router: string, command: string): Promise<unknown> {
    findRouter(this.topology, router)
    if (!/^show .* json$/.test(command)) throw new Error(`not a show command with JSON output: ${command}`)
    return JSON.parse(await inNs(this.ns(router), 'vtysh', ['--vty_socket', this.dir(router), '-c', command])) as unknown
  }

  /** Runs commands in a router's vtysh (configuration changes a discovery should see). */
  async configure(router: string, lines: string[]): Promise<void> {
    findRouter(this.topology, router)
    await this.vtysh(router, ['configure terminal', ...lines])
  }

  async down(): Promise<void> {
    await teardown(this.prefix)
  }
}

let ids: { uid: number; gid: number } | undefined
/** Uid and gid of the `frr` user the FRR daemons run as (they write pid files and sockets). */
async function frrIds(): Promise<{ uid: number; gid: number }> {
  if (ids) return ids
  const [uid, gid] = await Promise.all([run('id', ['-u', 'frr']), run('id', ['-g', 'frr'])])
  ids = { uid: Number(uid.trim()), gid: Number(gid.trim()) }
  return ids
}
