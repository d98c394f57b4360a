/**
 * A switch described once, in the terms of its configuration and state (ports, port-channels),
 * from which come both the recording an SNMP agent replays (the varbinds of the standard MIBs a
 * vendor agent answers: SNMPv2-MIB, IF-MIB with ifStackTable, ENTITY-MIB, IEEE8023-LAG-MIB) and
 * the ground truth the discovered tables are held to.
 */
import { counter32, counter64, gauge, hex, int, oid, str, ticks, type Varbind } from './snmprec.js'

export type MemberState = 'bundled' | 'standby' | 'suspended' | 'down'

export interface SwitchPort {
  ifIndex: number
  /** IANAifType (default ethernetCsmacd). */
  type?: number
  /** ifName, e.g. Gi1/0/1 (ifDescr is the long form). */
  name: string
  descr: string
  alias?: string
  oper: 'up' | 'down'
}

export interface PortChannel {
  ifIndex: number
  name: string
  descr: string
  alias?: string
  /** LACP (members in IEEE8023-LAG-MIB) or static (members in ifStackTable only). */
  lacp: boolean
  members: Array<{ port: string; state: MemberState }>
}

export interface EntityPart {
  class: 'container' | 'powerSupply' | 'fan' | 'module' | 'port'
  name: string
  descr: string
  /** entPhysicalIndex of the part it sits in (1: the chassis). */
  parent: number
  serial?: string
  model?: string
  hardwareRev?: string
}

const ENT_CLASS = { chassis: 3, container: 5, powerSupply: 6, fan: 7, module: 9, port: 10 } as const

export type Switchport =
  | { port: string; mode: 'access'; vlan: number; voice?: number }
  | { port: string; mode: 'trunk'; native: number; allowed: number[] }

export interface RecordedSwitch {
  sysName: string
  sysDescr: string
  sysObjectId: string
  serial: string
  model: string
  baseMac: string
  ports: SwitchPort[]
  channels: PortChannel[]
  vlans: Array<{ id: number; name: string }>
  /** Bridge ports (numbered 1, 2, ... in this order) with their VLAN configuration. */
  switchports: Switchport[]
  /** IPv6 addresses (ipAddressTable), as "2001:db8::1" with their network as "2001:db8::/64"; link-local ones and ::1 too, which discovery leaves out. */
  ipv6?: Array<{ port: string; address: string; network: string }>
  /** Field-replaceable parts besides the chassis (ENTITY-MIB rows 2, 3, ...; parent 1 is the chassis). */
  parts: EntityPart[]
  /**
   * The spanning tree (of VLAN 1): the mode, the bridge priority, the root it sees (its own base
   * MAC on the root), the root port (a bridge port number, 0 on the root) and the bridge ports in
   * the tree (dot1dStpPortTable).
   */
  stp?: StpTreeRecording & {
    mode: 'rpvst' | 'pvst' | 'mstp'
    /** The trees of further VLANs of a per-VLAN switch, in each VLAN's instance of the BRIDGE-MIB. */
    vlans?: Array<StpTreeRecording & { vlan: number }>
    /** The MSTIs of an MSTP switch (IEEE8021-MSTP-MIB), each with the VLANs mapped to it; the tree above is the CIST. */
    instances?: Array<StpTreeRecording & { instance: number; vlans: number[] }>
    /** The MST region (ieee8021MstpConfigIdTable). */
    region?: { name: string; revision: number }
  }
  /** entPhysicalMfgName of its parts (default Cisco's). */
  manufacturer?: string
  /** The ports' spanning-tree protections in CISCO-STP-EXTENSIONS-MIB (Cisco switches only). */
  guards?: StpGuardRecording
  /** MAC addresses learnt, by VLAN: dot1dTpFdbTable of each VLAN's instance (VLAN 1's in the default one). */
  macs?: Array<{ vlan: number; mac: string; port: string }>
  /** Optics levels of its transceivers: sensors in CISCO-ENTITY-SENSOR-MIB on a Cisco switch, ENTITY-SENSOR-MIB on others (whose agents also tie each port entry to its interface in entAliasMappingTable). */
  optics?: OpticRecording[]
}

/**
 * A transceiver's optics levels (digital optical monitoring) as `show interfaces transceiver`
 * shows them: the module's temperature (°C) and supply voltage (V), and per lane (one for a
 * single-lane optic, whose sensors name no lane) the laser bias current (mA) and the transmitted
 * and received power (dBm; null: the sensor has no reading, unavailable).
 */
export interface OpticRecording {
  /** Name of the ENTITY-MIB port entry (one of `parts`) that holds the optic; its sensors are entries contained in it. */
  part: string
  /** The interface the optic is plugged into. */
  port: string
  temperature: number
  voltage: number
  lanes: Array<{ txBias: number; txPower: number; rxPower: number | null }>
}

type Mode = 'enable' | 'disable' | 'default'

/**
 * Spanning-tree protections as configured (the switch-wide defaults and each port's modes, what
 * the agent answers) and as `show spanning-tree interface detail` says they apply (`shows`: the
 * truth).
 */
export interface StpGuardRecording {
  defaults: { portFast: 'enable' | 'disable' | 'network'; bpduGuard: boolean; bpduFilter: boolean }
  ports: Array<{
    port: string
    portFast: 'enable' | 'disable' | 'enableForTrunk' | 'default' | 'network'
    bpduGuard: Mode
    bpduFilter: Mode
    rootGuard: boolean
    loopGuard: Mode
    shows: { portFast: boolean; bpduGuard: boolean; bpduFilter: boolean; rootGuard: boolean; loopGuard: boolean }
  }>
}

/** One spanning tree: the bridge priority in it, the root, the root port (a bridge port number, 0 on the root), the path cost to the root, the ports. */
export interface StpTreeRecording {
  priority: number
  root: BridgeIdParts
  rootPort: number
  rootCost?: number
  ports: StpPort[]
  /** The topology changes seen in the tree and the time since the last, in hundredths of a second (dot1dStpTopChanges, dot1dStpTimeSinceTopologyChange); not answered where absent. */
  changes?: { count: number; since: number }
}

export interface BridgeIdParts {
  priority: number
  mac: string
}

/**
 * A bridge port in the spanning tree as `show spanning-tree` shows it: the role is what the
 * engineer reads there (the truth), the rest is what the agent answers in dot1dStpPortTable, with
 * edge and point-to-point state in RSTP-MIB dot1dStpExtPortTable when set.
 */
export interface StpPort {
  port: string
  /** master: an MSTI's role of the CIST root port of a region's CIST regional root (MSTIs only). */
  role: 'root' | 'designated' | 'alternate' | 'backup' | 'disabled' | 'master'
  state: 'disabled' | 'blocking' | 'listening' | 'learning' | 'forwarding' | 'broken'
  cost: number
  priority: number
  designatedCost: number
  designatedBridge: BridgeIdParts
  designatedPort: { priority: number; number: number }
  /** dot1dStpPortEnable (default true). */
  enabled?: boolean
  edge?: boolean
  p2p?: boolean
}

const STP_STATES = { disabled: 1, blocking: 2, listening: 3, learning: 4, forwarding: 5, broken: 6 } as const

const IF = '1.3.6.1.2.1.2.2.1'
const IFX = '1.3.6.1.2.1.31.1.1.1'
const IF_STACK_STATUS = '1.3.6.1.2.1.31.1.2.1.3'
const ENT = '1.3.6.1.2.1.47.1.1.1.1'
const AGG_PORT = '1.2.840.10006.300.43.1.2.1.1'
/** IANAifType: ethernetCsmacd, ieee8023adLag. */
const ETHERNET = 6
const LAG = 161

const macBytes = (mac: string, last: number) => {
  const b = mac.split(':').map((x) => parseInt(x, 16))
  b[5] = (b[5]! + last) & 0xff
  return b
}

/** The 16 bytes of an IPv6 address written with at most one "::". */
export function ipv6Bytes(text: string): number[] {
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined]
  const h = head ? head.split(':') : []
  const tl = tail ? tail.split(':') : []
  const groups = [...h, ...Array<string>(8 - h.length - tl.length).fill('0'), ...tl].map((g) => parseInt(g, 16))
  if (groups.length !== 8 || groups.some((g) => !(g >= 0 && g <= 0xffff))) throw new Error(`bad IPv6 address ${text}`)
  return groups.flatMap((g) => [g >> 8, g & 0xff])
}

/** LacpState octet: activity, aggregation, synchronization, collecting, distributing as the state asks. */
function actorOperState(state: MemberState): number {
  const activity = 0x80
  const aggregation = 0x20
  if (state === 'bundled') return activity | aggregation | 0x10 | 0x08 | 0x04
  return activity | aggregation
}

const bridgeIdValue = (b: BridgeIdParts) => {
  const id = Buffer.alloc(8)
  id.writeUInt16BE(b.priority, 0)
  Buffer.from(b.mac.replace(/:/g, ''), 'hex').copy(id, 2)
  return hex(id)
}

/** A bridge port's number: its place in the switch's list of bridge ports, from 1. */
function bridgePortOf(sw: RecordedSwitch, port: string): number {
  const n = sw.switchports.findIndex((sp) => sp.port === port) + 1
  if (n === 0) throw new Error(`${sw.sysName}: ${port} is no bridge port`)
  return n
}

/** A tree's BRIDGE-MIB dot1dStp scalars and dot1dStpPortTable, with RSTP-MIB dot1dStpExtPortTable where set. */
function treeVarbinds(sw: RecordedSwitch, tree: StpTreeRecording): Varbind[] {
  const out: Varbind[] = [
    ['1.3.6.1.2.1.17.2.2.0', int(tree.priority)],
    ['1.3.6.1.2.1.17.2.5.0', bridgeIdValue(tree.root)],
    ['1.3.6.1.2.1.17.2.7.0', int(tree.rootPort)],
  ]
  if (tree.rootCost !== undefined) out.push(['1.3.6.1.2.1.17.2.6.0', int(tree.rootCost)])
  if (tree.changes) out.push(['1.3.6.1.2.1.17.2.3.0', ticks(tree.changes.since)], ['1.3.6.1.2.1.17.2.4.0', counter32(tree.changes.count)])
  for (const p of tree.ports) {
    const bridgePort = bridgePortOf(sw, p.port)
    const x = `.${bridgePort}`
    const portId = Buffer.alloc(2)
    portId.writeUInt16BE(((p.designatedPort.priority / 16) << 12) | p.designatedPort.number, 0)
    const entry = '1.3.6.1.2.1.17.2.15.1'
    out.push(
      [`${entry}.1${x}`, int(bridgePort)],
      [`${entry}.2${x}`, int(p.priority)],
      [`${entry}.3${x}`, int(STP_STATES[p.state])],
      [`${entry}.4${x}`, int(p.enabled === false ? 2 : 1)],
      [`${entry}.5${x}`, int(p.cost)],
      [`${entry}.6${x}`, bridgeIdValue(tree.root)],
      [`${entry}.7${x}`, int(p.designatedCost)],
      [`${entry}.8${x}`, bridgeIdValue(p.designatedBridge)],
      [`${entry}.9${x}`, hex(portId)],
      [`${entry}.11${x}`, int(p.cost)],
    )
    const ext = '1.3.6.1.2.1.17.2.19.1'
    if (p.edge !== undefined) out.push([`${ext}.3${x}`, int(p.edge ? 1 : 2)])
    if (p.p2p !== undefined) out.push([`${ext}.5${x}`, int(p.p2p ? 1 : 2)])
  }
  return out
}

/** VLANs as `count` consecutive bit maps of `perMap` VLANs each, the first octet's high bit the first VLAN of its range (IEEE8021-MSTP-MIB's Vids0..3, Cisco's VlansMapped1k2k and 3k4k). */
function vlanMaps(vlans: readonly number[], count: number, perMap: number): Buffer[] {
  const maps = Array.from({ length: count }, () => Buffer.alloc(perMap / 8))
  for (const v of vlans) maps[Math.floor(v / perMap)]![(v % perMap) >> 3]! |= 0x80 >> (v & 7)
  return maps
}

const MSTP = '1.3.111.2.802.1.1.6.1'
/** ieee8021MstpPortState: its own numbering (blocking is 5). */
const MSTP_STATES = { disabled: 1, listening: 2, learning: 3, forwarding: 4, blocking: 5 } as const
const MSTP_ROLES = { root: 1, alternate: 2, designated: 3, backup: 4 } as const

/**
 * IEEE8021-MSTP-MIB of an MSTP switch, component 1: each MSTI's row of ieee8021MstpTable (the
 * switch's bridge id and priority in it, the regional root, the root port and cost, the VLANs
 * mapped to it in four maps of 1,024 VLANs), its ports' rows of ieee8021MstpPortTable (a
 * designated port as a bridge port number, the MIB's IEEE8021BridgePortNumber), and the region's
 * name (32 octets, padded with NULs) and revision in ieee8021MstpConfigIdTable.
 */
function mstpVarbinds(sw: RecordedSwitch): Varbind[] {
  const stp = sw.stp
  if (!stp?.instances) return []
  const out: Varbind[] = []
  for (const i of stp.instances) {
    const x = `.1.${i.instance}`
    const maps = vlanMaps(i.vlans, 4, 1024)
    out.push(
      [`${MSTP}.2.1.3${x}`, bridgeIdValue({ priority: i.priority, mac: bridgeMac(sw) })],
      [`${MSTP}.2.1.7${x}`, bridgeIdValue(i.root)],
      [`${MSTP}.2.1.8${x}`, int(i.rootCost ?? 0)],
      [`${MSTP}.2.1.9${x}`, gauge(i.rootPort)],
      [`${MSTP}.2.1.10${x}`, int(i.priority)],
      ...maps.map((m, n): Varbind => [`${MSTP}.2.1.${11 + n}${x}`, hex(m)]),
    )
    if (i.changes) out.push([`${MSTP}.2.1.4${x}`, ticks(i.changes.since)], [`${MSTP}.2.1.5${x}`, counter64(i.changes.count)])
    for (const p of i.ports) {
      const y = `${x}.${bridgePortOf(sw, p.port)}`
      out.push(
        [`${MSTP}.4.1.5${y}`, int(MSTP_STATES[p.state as keyof typeof MSTP_STATES])],
        [`${MSTP}.4.1.6${y}`, int(p.priority)],
        [`${MSTP}.4.1.7${y}`, int(p.cost)],
        [`${MSTP}.4.1.8${y}`, bridgeIdValue(i.root)],
        [`${MSTP}.4.1.9${y}`, int(p.designatedCost)],
        [`${MSTP}.4.1.10${y}`, bridgeIdValue(p.designatedBridge)],
        [`${MSTP}.4.1.11${y}`, gauge(p.designatedPort.number)],
      )
      if (p.role !== 'disabled' && p.role !== 'master') out.push([`${MSTP}.4.1.12${y}`, int(MSTP_ROLES[p.role])])
    }
  }
  if (stp.region) {
    const name = Buffer.alloc(32)
    name.write(stp.region.name)
    out.push([`${MSTP}.7.1.3.1`, hex(name)], [`${MSTP}.7.1.4.1`, gauge(stp.region.revision)])
  }
  return out
}

/** Whether the switch is a Cisco one (its agent answers CISCO-STP-EXTENSIONS-MIB). */
const isCisco = (sw: RecordedSwitch) => sw.sysObjectId.startsWith('1.3.6.1.4.1.9.')

const STPX = '1.3.6.1.4.1.9.9.82.1'
/** stpxRSTPPortRoleValue. */
const STPX_ROLES = { disabled: 1, root: 2, designated: 3, alternate: 4, backup: 5, master: 7 } as const

/**
 * CISCO-STP-EXTENSIONS-MIB of a Cisco switch in MST mode, which has no IEEE8021-MSTP-MIB: the
 * region's name (stpxMSTRegionName) and revision (stpxSMSTRegionRevision), a row of
 * stpxSMSTInstanceTable for the CIST (instance 0: every VLAN no MSTI has, the CIST regional root
 * and internal cost) and for each MSTI (its VLANs in two maps of 2,048 VLANs, the remaining hops),
 * and the role of every port in every instance in stpxRSTPPortRoleTable. That is all the MIB says
 * of an MSTI.
 */
function ciscoMstVarbinds(sw: RecordedSwitch): Varbind[] {
  const stp = sw.stp
  if (!stp?.instances) return []
  const out: Varbind[] = []
  if (stp.region) out.push([`${STPX}.11.2.0`, str(stp.region.name)], [`${STPX}.14.3.0`, gauge(stp.region.revision)])
  const mapped = new Set(stp.instances.flatMap((i) => i.vlans))
  const cistVlans = Array.from({ length: 4094 }, (_, n) => n + 1).filter((v) => !mapped.has(v))
  const trees: Array<[number, number[], StpTreeRecording]> = [[0, cistVlans, stp], ...stp.instances.map((i): [number, number[], StpTreeRecording] => [i.instance, i.vlans, i])]
  for (const [instance, vlans, tree] of trees) {
    const maps = vlanMaps(vlans, 2, 2048)
    const x = `.${instance}`
    out.push([`${STPX}.14.5.1.2${x}`, hex(maps[0]!)], [`${STPX}.14.5.1.3${x}`, hex(maps[1]!)], [`${STPX}.14.5.1.4${x}`, int(instance === 0 ? 19 : 20)])
    if (instance === 0) out.push([`${STPX}.14.5.1.5${x}`, bridgeIdValue(stp.root)], [`${STPX}.14.5.1.6${x}`, gauge(stp.rootCost ?? 0)])
    for (const p of tree.ports) out.push([`${STPX}.12.2.1.3${x}.${bridgePortOf(sw, p.port)}`, int(STPX_ROLES[p.role])])
  }
  return out
}

/** CISCO-STP-EXTENSIONS-MIB's protections: the switch-wide defaults, then each bridge port's row of the fast-start, root guard and loop guard tables. */
function guardVarbinds(sw: RecordedSwitch): Varbind[] {
  const g = sw.guards
  if (!g) return []
  const truth = (b: boolean) => int(b ? 1 : 2)
  const mode = { enable: 1, disable: 2, default: 3 } as const
  const out: Varbind[] = [
    [`${STPX}.9.1.0`, truth(g.defaults.bpduGuard)],
    [`${STPX}.9.2.0`, truth(g.defaults.bpduFilter)],
    [`${STPX}.9.4.0`, int({ enable: 1, disable: 2, network: 3 }[g.defaults.portFast])],
  ]
  for (const p of g.ports) {
    const x = `.${bridgePortOf(sw, p.port)}`
    out.push(
      [`${STPX}.9.3.1.3${x}`, int({ enable: 1, disable: 2, enableForTrunk: 3, default: 4, network: 5 }[p.portFast])],
      [`${STPX}.9.3.1.4${x}`, int(mode[p.bpduGuard])],
      [`${STPX}.9.3.1.5${x}`, int(mode[p.bpduFilter])],
      [`${STPX}.5.1.1.2${x}`, truth(p.rootGuard)],
      // the older column says whether it applies, the newer how it is configured
      [`${STPX}.8.1.1.2${x}`, truth(p.shows.loopGuard)],
      [`${STPX}.8.1.1.3${x}`, int(mode[p.loopGuard])],
    )
  }
  return out
}

/** What spanning-tree/guards must hold: "host port portFast bpduGuard bpduFilter rootGuard loopGuard". */
export function stpGuardTruth(sw: RecordedSwitch): string[] {
  return (sw.guards?.ports ?? []).map(({ port, shows: s }) => `${sw.sysName} ${port} ${s.portFast} ${s.bpduGuard} ${s.bpduFilter} ${s.rootGuard} ${s.loopGuard}`).sort()
}

/** dot1dTpFdbTable of one VLAN's instance: the learnt (3) addresses of the VLAN, on their bridge ports. */
function fdbVarbinds(sw: RecordedSwitch, vlan: number): Varbind[] {
  return (sw.macs ?? [])
    .filter((m) => m.vlan === vlan)
    .flatMap((m): Varbind[] => {
      const x = `.${m.mac.split(':').map((b) => parseInt(b, 16)).join('.')}`
      return [
        [`1.3.6.1.2.1.17.4.3.1.1${x}`, hex(m.mac.split(':').map((b) => parseInt(b, 16)))],
        [`1.3.6.1.2.1.17.4.3.1.2${x}`, int(bridgePortOf(sw, m.port))],
        [`1.3.6.1.2.1.17.4.3.1.3${x}`, int(3)],
      ]
    })
}

/** Whether a bridge port carries a VLAN (its access or voice VLAN, or a VLAN its trunk allows). */
function carries(sp: Switchport, vlan: number): boolean {
  return sp.mode === 'access' ? sp.vlan === vlan || sp.voice === vlan : sp.allowed.includes(vlan) || sp.native === vlan
}

/**
 * Each VLAN's instance of the BRIDGE-MIB but VLAN 1's (a Cisco switch's "community@vlan"): the
 * base address, the bridge ports that carry the VLAN, the VLAN's tree where recorded and its MAC
 * addresses. Every VLAN of the switch has one: an instance the switch does not have is silence.
 */
export function switchVlanVarbinds(sw: RecordedSwitch): Map<number, Varbind[]> {
  const ifIndexOf = new Map<string, number>([...sw.ports, ...sw.channels].map((i) => [i.name, i.ifIndex]))
  const out = new Map<number, Varbind[]>()
  for (const v of sw.vlans.filter((x) => x.id !== 1)) {
    const vbs: Varbind[] = [['1.3.6.1.2.1.17.1.1.0', hex(macBytes(sw.baseMac, 0))]]
    for (const sp of sw.switchports.filter((x) => carries(x, v.id))) vbs.push([`1.3.6.1.2.1.17.1.4.1.2.${bridgePortOf(sw, sp.port)}`, int(ifIndexOf.get(sp.port)!)])
    const tree = sw.stp?.vlans?.find((t) => t.vlan === v.id)
    if (tree) vbs.push(...treeVarbinds(sw, tree))
    vbs.push(...fdbVarbinds(sw, v.id))
    out.set(v.id, vbs)
  }
  return out
}

export function switchVarbinds(sw: RecordedSwitch): Varbind[] {
  const out: Varbind[] = [
    ['1.3.6.1.2.1.1.1.0', str(sw.sysDescr)],
    ['1.3.6.1.2.1.1.2.0', oid(sw.sysObjectId)],
    ['1.3.6.1.2.1.1.3.0', ticks(123_456_00)],
    ['1.3.6.1.2.1.1.4.0', str('noc@example.net')],
    ['1.3.6.1.2.1.1.5.0', str(sw.sysName)],
    ['1.3.6.1.2.1.1.6.0', str('Berlin DC1, access row 3')],
  ]
  const portByName = new Map(sw.ports.map((p) => [p.name, p]))
  for (const c of sw.channels) {
    for (const m of c.members) if ((m.state === 'down') !== (portByName.get(m.port)?.oper === 'down')) throw new Error(`${c.name} ${m.port}: a member is down exactly when its port is`)
  }
  const ifaces = [
    ...sw.ports.map((p) => ({ ...p, type: p.type ?? ETHERNET, speed: 1_000_000_000 })),
    ...sw.channels.map((c) => {
      const up = c.members.some((m) => m.state === 'bundled')
      return { ifIndex: c.ifIndex, name: c.name, descr: c.descr, alias: c.alias, oper: up ? ('up' as const) : ('down' as const), type: LAG, speed: 1_000_000_000 * Math.max(1, c.members.filter((m) => m.state === 'bundled').length) }
    }),
  ]
  for (const [n, i] of ifaces.entries()) {
    const x = `.${i.ifIndex}`
    out.push(
      [`${IF}.1${x}`, int(i.ifIndex)],
      [`${IF}.2${x}`, str(i.descr)],
      [`${IF}.3${x}`, int(i.type)],
      [`${IF}.4${x}`, int(1500)],
      [`${IF}.5${x}`, gauge(Math.min(i.speed, 4_294_967_295))],
      [`${IF}.6${x}`, hex(macBytes(sw.baseMac, n + 1))],
      [`${IF}.7${x}`, int(1)],
      [`${IF}.8${x}`, int(i.oper === 'up' ? 1 : 2)],
      [`${IFX}.1${x}`, str(i.name)],
      [`${IFX}.6${x}`, counter64(1000 * (n + 1))],
      [`${IFX}.10${x}`, counter64(2000 * (n + 1))],
      [`${IFX}.15${x}`, gauge(i.speed / 1_000_000)],
      [`${IFX}.18${x}`, str(i.alias ?? '')],
    )
  }
  // ifStackTable: every channel over its members (LACP or static, as vendor agents list them),
  // and the ends of the stack (0: nothing above or below)
  const stacked = new Set<number>()
  for (const c of sw.channels) {
    out.push([`${IF_STACK_STATUS}.0.${c.ifIndex}`, int(1)])
    for (const m of c.members) {
      const p = portByName.get(m.port)
      if (!p) throw new Error(`${c.name}: no port ${m.port}`)
      out.push([`${IF_STACK_STATUS}.${c.ifIndex}.${p.ifIndex}`, int(1)])
      stacked.add(p.ifIndex)
    }
  }
  for (const p of sw.ports) {
    if (!stacked.has(p.ifIndex)) out.push([`${IF_STACK_STATUS}.0.${p.ifIndex}`, int(1)])
    out.push([`${IF_STACK_STATUS}.${p.ifIndex}.0`, int(1)])
  }
  // IEEE8023-LAG-MIB: the LACP ports, with the aggregator they selected and are attached to
  for (const c of sw.channels.filter((x) => x.lacp)) {
    for (const m of c.members) {
      const p = portByName.get(m.port)!
      const attached = m.state === 'bundled' || m.state === 'suspended' || m.state === 'down'
      const x = `.${p.ifIndex}`
      out.push(
        [`${AGG_PORT}.12${x}`, int(c.ifIndex)],
        [`${AGG_PORT}.13${x}`, int(attached ? c.ifIndex : 0)],
        [`${AGG_PORT}.21${x}`, hex([actorOperState(m.state)])],
      )
    }
  }
  // BRIDGE-MIB and Q-BRIDGE-MIB: bridge ports, VLANs with the ports they leave by (tagged or not),
  // port VLANs; CISCO-VLAN-MEMBERSHIP-MIB: voice VLANs
  const ifIndexOf = new Map<string, number>([...sw.ports, ...sw.channels].map((i) => [i.name, i.ifIndex]))
  out.push(['1.3.6.1.2.1.17.1.1.0', hex(macBytes(sw.baseMac, 0))])
  const egress = new Map<number, number[]>()
  const untagged = new Map<number, number[]>()
  const add = (m: Map<number, number[]>, vlan: number, port: number) => m.set(vlan, [...(m.get(vlan) ?? []), port])
  for (const [i, sp] of sw.switchports.entries()) {
    const bridgePort = i + 1
    const ifIndex = ifIndexOf.get(sp.port)
    if (ifIndex === undefined) throw new Error(`no interface ${sp.port}`)
    out.push([`1.3.6.1.2.1.17.1.4.1.2.${bridgePort}`, int(ifIndex)])
    out.push([`1.3.6.1.2.1.17.7.1.4.5.1.1.${bridgePort}`, gauge(sp.mode === 'access' ? sp.vlan : sp.native)])
    if (sp.mode === 'access') {
      add(egress, sp.vlan, bridgePort)
      add(untagged, sp.vlan, bridgePort)
      if (sp.voice !== undefined) {
        add(egress, sp.voice, bridgePort)
        out.push([`1.3.6.1.4.1.9.9.68.1.5.1.1.1.${ifIndex}`, int(sp.voice)])
      }
    } else {
      for (const v of sp.allowed) add(egress, v, bridgePort)
      add(untagged, sp.native, bridgePort)
    }
  }
  const portList = (ports: number[] = []) => {
    const bytes = Buffer.alloc(Math.ceil(Math.max(sw.switchports.length, 8) / 8))
    for (const p of ports) bytes[(p - 1) >> 3]! |= 0x80 >> ((p - 1) & 7)
    return hex(bytes)
  }
  for (const v of sw.vlans) {
    const x = `.${v.id}`
    out.push(
      [`1.3.6.1.2.1.17.7.1.4.3.1.1${x}`, str(v.name)],
      [`1.3.6.1.2.1.17.7.1.4.3.1.2${x}`, portList(egress.get(v.id))],
      [`1.3.6.1.2.1.17.7.1.4.3.1.4${x}`, portList(untagged.get(v.id))],
      [`1.3.6.1.2.1.17.7.1.4.3.1.5${x}`, int(1)],
    )
  }
  // BRIDGE-MIB dot1dStp with dot1dStpPortTable, RSTP-MIB dot1dStpVersion and dot1dStpExtPortTable;
  // CISCO-STP-EXTENSIONS-MIB on Cisco's (stpxSpanningTreeType, MST instances), IEEE8021-MSTP-MIB on other MSTP switches
  if (sw.stp) {
    const { mode } = sw.stp
    out.push(['1.3.6.1.2.1.17.2.1.0', int(3)], ['1.3.6.1.2.1.17.2.16.0', int(mode === 'mstp' ? 3 : mode === 'rpvst' ? 2 : 0)], ...treeVarbinds(sw, sw.stp))
    if (isCisco(sw)) out.push([`${STPX}.6.1.0`, int({ pvst: 1, mstp: 4, rpvst: 5 }[mode])], ...guardVarbinds(sw), ...ciscoMstVarbinds(sw))
    else out.push(...mstpVarbinds(sw))
  }
  // dot1dTpFdbTable: the MAC addresses of VLAN 1 (the others are in each VLAN's instance)
  out.push(...fdbVarbinds(sw, 1))
  // IP-MIB ipAddressTable: IPv6 addresses, each pointing at its prefix in ipAddressPrefixTable
  for (const a of sw.ipv6 ?? []) {
    const ifIndex = ifIndexOf.get(a.port)
    if (ifIndex === undefined) throw new Error(`no interface ${a.port}`)
    const [net, len] = a.network.split('/')
    const x = `.2.16.${ipv6Bytes(a.address).join('.')}`
    out.push(
      [`1.3.6.1.2.1.4.34.1.3${x}`, int(ifIndex)],
      [`1.3.6.1.2.1.4.34.1.4${x}`, int(1)],
      [`1.3.6.1.2.1.4.34.1.5${x}`, oid(`1.3.6.1.2.1.4.32.1.5.${ifIndex}.2.16.${ipv6Bytes(net!).join('.')}.${len}`)],
      [`1.3.6.1.2.1.4.34.1.6${x}`, int(2)],
      [`1.3.6.1.2.1.4.34.1.7${x}`, int(1)],
    )
  }
  // ENTITY-MIB: the chassis (its serial names the device), then its parts
  const entities = [
    { class: 'chassis' as const, name: 'Switch 1', descr: `${sw.model} chassis`, parent: 0, serial: sw.serial, model: sw.model, hardwareRev: 'V07' },
    ...sw.parts,
  ]
  for (const [i, e] of entities.entries()) {
    const x = `.${i + 1}`
    out.push(
      [`${ENT}.2${x}`, str(e.descr)],
      [`${ENT}.4${x}`, int(e.parent)],
      [`${ENT}.5${x}`, int(ENT_CLASS[e.class])],
      [`${ENT}.7${x}`, str(e.name)],
      [`${ENT}.8${x}`, str(e.hardwareRev ?? '')],
      [`${ENT}.11${x}`, str(e.serial ?? '')],
      [`${ENT}.12${x}`, str(sw.manufacturer ?? 'Cisco Systems, Inc.')],
      [`${ENT}.13${x}`, str(e.model ?? '')],
    )
  }
  out.push(...sensorVarbinds(sw, entities.length + 1, ifIndexOf))
  return out
}

/** ENTITY-SENSOR-MIB's entPhySensorTable, or CISCO-ENTITY-SENSOR-MIB's entSensorValueTable (the same columns): type, scale, precision, value, status. */
const SENSOR_TABLE = { standard: '1.3.6.1.2.1.99.1.1.1', cisco: '1.3.6.1.4.1.9.9.91.1.1.1.1' } as const
/** EntitySensorDataType and EntitySensorDataScale. */
const SENSOR_TYPE = { voltsDC: 4, amperes: 5, watts: 6, celsius: 8, dBm: 14 } as const
const SCALE = { micro: 7, milli: 8, units: 9 } as const

/**
 * A whitebox agent's optical power, in watts as ENTITY-SENSOR-MIB has it: tenths of a microwatt
 * (scale micro, precision 1), for a power given in dBm.
 */
export const powerInWatts = (dbm: number) => Math.round(10 ** (dbm / 10) * 10_000)

/**
 * The sensors of the switch's optics, ENTITY-MIB entries from `first` on, each contained in the
 * port entry that holds its optic, and their readings: as a Cisco agent answers them (names such
 * as "GigabitEthernet1/0/49 Receive Power Sensor"; °C and volts in units with 1 and 2 decimals,
 * the bias in milliamperes with 1, the power in dBm with 1) or a whitebox's (names such as "DOM
 * RX Power for Port 1 Lane 2"; millidegrees, millivolts, microamperes, the power in watts:
 * tenths of a microwatt), which also maps each port entry to its interface in entAliasMappingTable.
 */
function sensorVarbinds(sw: RecordedSwitch, first: number, ifIndexOf: ReadonlyMap<string, number>): Varbind[] {
  const out: Varbind[] = []
  const cisco = isCisco(sw)
  const table = cisco ? SENSOR_TABLE.cisco : SENSOR_TABLE.standard
  let index = first
  for (const o of sw.optics ?? []) {
    const part = sw.parts.findIndex((p) => p.name === o.part) + 2
    if (part === 1) throw new Error(`${sw.sysName}: no part ${o.part}`)
    const sensor = (name: string, type: keyof typeof SENSOR_TYPE, scale: keyof typeof SCALE, precision: number, value: number | null) => {
      const x = `.${index++}`
      out.push(
        [`${ENT}.2${x}`, str(name)],
        [`${ENT}.4${x}`, int(part)],
        [`${ENT}.5${x}`, int(8)],
        [`${ENT}.7${x}`, str(name)],
        [`${table}.1${x}`, int(SENSOR_TYPE[type])],
        [`${table}.2${x}`, int(SCALE[scale])],
        [`${table}.3${x}`, int(precision)],
        [`${table}.4${x}`, int(value ?? 0)],
        // ok(1), unavailable(2)
        [`${table}.5${x}`, int(value === null ? 2 : 1)],
      )
    }
    const lanes = o.lanes.length > 1
    if (cisco) {
      sensor(`${o.part} Temperature Sensor`, 'celsius', 'units', 1, Math.round(o.temperature * 10))
      sensor(`${o.part} Supply Voltage Sensor`, 'voltsDC', 'units', 2, Math.round(o.voltage * 100))
      o.lanes.forEach((l, n) => {
        const lane = lanes ? ` Lane ${n + 1}` : ''
        sensor(`${o.part}${lane} Bias Current Sensor`, 'amperes', 'milli', 1, Math.round(l.txBias * 10))
        sensor(`${o.part}${lane} Transmit Power Sensor`, 'dBm', 'units', 1, Math.round(l.txPower * 10))
        sensor(`${o.part}${lane} Receive Power Sensor`, 'dBm', 'units', 1, l.rxPower === null ? null : Math.round(l.rxPower * 10))
      })
    } else {
      sensor(`DOM Temperature for ${o.part}`, 'celsius', 'units', 3, Math.round(o.temperature * 1000))
      sensor(`DOM Voltage for ${o.part}`, 'voltsDC', 'milli', 0, Math.round(o.voltage * 1000))
      o.lanes.forEach((l, n) => {
        const lane = lanes ? ` Lane ${n + 1}` : ''
        sensor(`DOM TX Bias for ${o.part}${lane}`, 'amperes', 'micro', 0, Math.round(l.txBias * 1000))
        sensor(`DOM TX Power for ${o.part}${lane}`, 'watts', 'micro', 1, powerInWatts(l.txPower))
        sensor(`DOM RX Power for ${o.part}${lane}`, 'watts', 'micro', 1, l.rxPower === null ? null : powerInWatts(l.rxPower))
      })
      const ifIndex = ifIndexOf.get(o.port)
      if (ifIndex === undefined) throw new Error(`${sw.sysName}: no interface ${o.port}`)
      out.push([`1.3.6.1.2.1.47.1.3.2.1.2.${part}.0`, oid(`1.3.6.1.2.1.2.2.1.1.${ifIndex}`)])
    }
  }
  return out
}

/**
 * What interfaces/transceivers/statistics must hold: "host port channel temperature voltage
 * txBias txPower rxPower" of each optic (a row per lane of a multi-lane one, channel null for a
 * single-lane one); a whitebox's power as its watts give it back in dBm.
 */
export function opticsTruth(sw: RecordedSwitch): string[] {
  const dbm = (p: number | null) => (p === null ? null : isCisco(sw) ? p : Number((10 * Math.log10(powerInWatts(p) / 10_000)).toFixed(2)))
  return (sw.optics ?? [])
    .flatMap((o) =>
      o.lanes.map((l, n) => [sw.sysName, o.port, o.lanes.length > 1 ? n + 1 : null, o.temperature, o.voltage, l.txBias, dbm(l.txPower), dbm(l.rxPower)].map(String).join(' ')),
    )
    .sort()
}

/** What interfaces/port-channel/member-status must hold for the switch. */
export function portChannelTruth(sw: RecordedSwitch): string[] {
  return sw.channels
    .map((c) => {
      const members = [...c.members].sort((a, b) => a.port.localeCompare(b.port, 'en', { numeric: true })).map((m) => `${m.port}=${m.state}`)
      return `${sw.sysName} ${c.name} ${c.lacp ? 'lacp' : 'null'} [${members.join(' ')}] ${c.members.filter((m) => m.state === 'bundled').length}/${c.members.length}`
    })
    .sort()
}

const ranges = (ids: number[]) => {
  const sorted = [...new Set(ids)].sort((a, b) => a - b)
  const out: string[] = []
  for (let i = 0; i < sorted.length; ) {
    let j = i
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++
    out.push(j === i ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`)
    i = j + 1
  }
  return out.join(',')
}

/** What interfaces/switchports must hold: "host port mode access native allowed voice". */
export function switchportTruth(sw: RecordedSwitch): string[] {
  return sw.switchports
    .map((sp) =>
      sp.mode === 'access'
        ? `${sw.sysName} ${sp.port} access ${sp.vlan} null null ${sp.voice ?? null}`
        : `${sw.sysName} ${sp.port} trunk null ${sp.native} ${ranges(sp.allowed.filter((v) => sw.vlans.some((x) => x.id === v)))} null`,
    )
    .sort()
}

const bridgeIdOf = (priority: number, mac: string) => {
  const h = mac.replace(/:/g, '')
  return `${priority}.${h.slice(0, 4)}.${h.slice(4, 8)}.${h.slice(8, 12)}`
}

/** What spanning-tree/bridges must hold: "host domain mode priority bridgeId rootId isRoot". */
export function stpTruth(sw: RecordedSwitch): string[] {
  if (!sw.stp) return []
  const { mode, priority, root } = sw.stp
  const rootId = bridgeIdOf(root.priority, root.mac)
  const own = bridgeIdOf(priority, bridgeMac(sw))
  return [`${sw.sysName} ${rootId} ${mode} ${priority} ${own} ${rootId} ${root.mac === bridgeMac(sw)}`]
}

/** Where the agent answers a tree: the BRIDGE-MIB (VLAN 1's, the CIST, each VLAN's instance), IEEE8021-MSTP-MIB or, for a Cisco switch's MSTI, CISCO-STP-EXTENSIONS-MIB (the ports' roles alone). */
type TreeSource = 'bridge' | 'mstp' | 'cisco'

/** Every tree of a switch as "vlanId instance" (VLAN 1's or the CIST, each further VLAN's, each MSTI), the tree, and where the agent answers it. */
function recordedTrees(sw: RecordedSwitch): Array<[string, StpTreeRecording, TreeSource]> {
  if (!sw.stp) return []
  const msti: TreeSource = isCisco(sw) ? 'cisco' : 'mstp'
  return [
    [sw.stp.mode === 'mstp' ? 'null 0' : '1 null', sw.stp, 'bridge'],
    ...(sw.stp.vlans ?? []).map((t): [string, StpTreeRecording, TreeSource] => [`${t.vlan} null`, t, 'bridge']),
    ...(sw.stp.instances ?? []).map((t): [string, StpTreeRecording, TreeSource] => [`null ${t.instance}`, t, msti]),
  ]
}

/**
 * What spanning-tree/ports must hold: "host port vlanId instance role state cost priority
 * designatedRoot designatedCost designatedBridge designatedPort edge p2p" (the BRIDGE-MIB's tree
 * is VLAN 1 on a per-VLAN switch, the CIST on an MSTP one).
 */
export function stpPortTruth(sw: RecordedSwitch): string[] {
  return recordedTrees(sw)
    .flatMap(([tree, { root, ports }, source]) =>
      ports.map((p) => {
        if (source === 'cisco') return [sw.sysName, p.port, tree, p.role, ...Array<null>(9).fill(null)].map(String).join(' ')
        // IEEE8021-MSTP-MIB names a designated port by its number only: its priority is known on the switch's own ports
        const ownPort = p.designatedBridge.mac === bridgeMac(sw)
        const designatedPort = source === 'bridge' || ownPort ? `${p.designatedPort.priority}.${p.designatedPort.number}` : null
        return [
          sw.sysName, p.port, tree, p.role, p.state, p.cost, p.priority, bridgeIdOf(root.priority, root.mac), p.designatedCost,
          bridgeIdOf(p.designatedBridge.priority, p.designatedBridge.mac), designatedPort, p.edge ?? null, p.p2p ?? null,
        ]
          .map(String)
          .join(' ')
      }),
    )
    .sort()
}

/**
 * What spanning-tree/instances must hold for an MSTP switch: "host instance vlans regionName
 * revision priority bridgeId rootId isRoot rootPort rootCost forwarding blocking" of the CIST
 * (instance 0, the switch's VLANs that no MSTI has) and each MSTI. Of a Cisco switch's MSTI, only
 * what its ports' roles say: the root port, and that the switch is not the root where it has one.
 */
export function stpInstanceTruth(sw: RecordedSwitch): string[] {
  if (!sw.stp || sw.stp.mode !== 'mstp') return []
  const mapped = new Set((sw.stp.instances ?? []).flatMap((i) => i.vlans))
  const trees: Array<[number, number[], StpTreeRecording]> = [
    [0, sw.vlans.map((v) => v.id).filter((v) => !mapped.has(v)), sw.stp],
    ...(sw.stp.instances ?? []).map((i): [number, number[], StpTreeRecording] => [i.instance, i.vlans, i]),
  ]
  const region = sw.stp.region
  return trees
    .map(([instance, vlans, t]) => {
      const isRoot = t.rootPort === 0
      const rootPort = isRoot ? null : sw.switchports[t.rootPort - 1]!.port
      if (instance > 0 && isCisco(sw)) {
        return [sw.sysName, instance, ranges(vlans), region?.name ?? null, region?.revision ?? null, null, null, null, isRoot ? null : false, rootPort, null, null, null].map(String).join(' ')
      }
      const count = (state: StpPort['state']) => t.ports.filter((p) => p.state === state).length
      return [
        sw.sysName, instance, vlans.length === 0 ? null : ranges(vlans), region?.name ?? null, region?.revision ?? null, t.priority, bridgeIdOf(t.priority, bridgeMac(sw)),
        bridgeIdOf(t.root.priority, t.root.mac), isRoot, rootPort, t.rootCost ?? null, count('forwarding'), count('blocking'),
      ]
        .map(String)
        .join(' ')
    })
    .sort()
}

/**
 * What spanning-tree/vlans must hold for a per-VLAN switch: "host vlanId vlanName priority bridgeId
 * rootId isRoot rootPort rootCost forwarding blocking" of VLAN 1's tree and each recorded VLAN's.
 */
export function stpVlanTruth(sw: RecordedSwitch): string[] {
  if (!sw.stp || sw.stp.mode === 'mstp') return []
  const trees: Array<[number, StpTreeRecording]> = [[1, sw.stp], ...(sw.stp.vlans ?? []).map((t): [number, StpTreeRecording] => [t.vlan, t])]
  return trees
    .map(([vlan, t]) => {
      const isRoot = t.rootPort === 0
      const rootPort = isRoot ? null : sw.switchports[t.rootPort - 1]!.port
      const count = (state: StpPort['state']) => t.ports.filter((p) => p.state === state).length
      const name = sw.vlans.find((v) => v.id === vlan)?.name ?? null
      return [sw.sysName, vlan, name, t.priority, bridgeIdOf(t.priority, bridgeMac(sw)), bridgeIdOf(t.root.priority, t.root.mac), isRoot, rootPort, t.rootCost ?? null, count('forwarding'), count('blocking')].map(String).join(' ')
    })
    .sort()
}

/**
 * What spanning-tree/topology must hold: "host vlanId instance topologyChanges secondsSinceChange"
 * of every tree of the switch (VLAN 1's or the CIST, each further VLAN's, each MSTI).
 */
export function stpTopologyTruth(sw: RecordedSwitch): string[] {
  return recordedTrees(sw)
    .map(([tree, t, source]) => {
      const changes = source === 'cisco' ? undefined : t.changes
      return `${sw.sysName} ${tree} ${changes?.count ?? null} ${changes ? Math.floor(changes.since / 100) : null}`
    })
    .sort()
}

/** What addressing/mac must hold: "host vlan mac port" of every address learnt. */
export function macTruth(sw: RecordedSwitch): string[] {
  return (sw.macs ?? []).map((m) => `${sw.sysName} ${m.vlan} ${m.mac} ${m.port}`).sort()
}

/** The bridge's base MAC (dot1dBaseBridgeAddress), as the recording has it. */
export function bridgeMac(sw: RecordedSwitch): string {
  return macBytes(sw.baseMac, 0)
    .map((b) => b.toString(16).padStart(2, '0'))
    .join(':')
}

/**
 * What inventory/pn must hold: "host name serial pid vid" of the chassis and of every part with a
 * serial or an orderable model (a port only when it holds a serialised optic).
 */
export function partTruth(sw: RecordedSwitch): string[] {
  const parts = sw.parts.filter((p) => p.class !== 'container' && (p.serial !== undefined || (p.model !== undefined && p.class !== 'port')))
  return [
    `${sw.sysName} Switch 1 ${sw.serial} ${sw.model} V07`,
    ...parts.map((p) => `${sw.sysName} ${p.name} ${p.serial ?? null} ${p.model ?? null} ${p.hardwareRev ?? null}`),
  ].sort()
}

/** What inventory/modules, power-supplies and fans must hold: "host name pid serial" of the parts of that class. */
export function partsOfClass(sw: RecordedSwitch, cls: EntityPart['class']): string[] {
  return sw.parts
    .filter((p) => p.class === cls)
    .map((p) => `${sw.sysName} ${p.name} ${p.model ?? null} ${p.serial ?? null}`)
    .sort()
}

/** The IPv6 rows addressing/managed-devs must hold: "host port address network" (no link-local address). */
export function ipv6Truth(sw: RecordedSwitch): string[] {
  return (sw.ipv6 ?? [])
    .filter((a) => !a.address.startsWith('fe80:') && a.address !== '::1')
    .map((a) => `${sw.sysName} ${a.port} ${a.address} ${a.network}`)
    .sort()
}

/** What vlan/device must hold: "host id name status". */
export function vlanTruth(sw: RecordedSwitch): string[] {
  return sw.vlans.map((v) => `${sw.sysName} ${v.id} ${v.name} active`).sort()
}

/** An access switch of the Catalyst kind: an LACP uplink with a standby port, a static channel with a member down, a port of its own. */
export const CATALYST_ACCESS: RecordedSwitch = {
  sysName: 'ber-acc-sw1',
  sysDescr: 'Cisco IOS Software, C2960X Software (C2960X-UNIVERSALK9-M), Version 15.2(7)E4, RELEASE SOFTWARE (fc2)',
  sysObjectId: '1.3.6.1.4.1.9.1.1208',
  serial: 'FOC2101X0AB',
  model: 'WS-C2960X-48FPD-L',
  baseMac: '00:1b:d4:a1:b2:00',
  ports: [
    { ifIndex: 10101, name: 'Gi1/0/1', descr: 'GigabitEthernet1/0/1', oper: 'up', alias: 'uplink core1 Te1/1/1' },
    { ifIndex: 10102, name: 'Gi1/0/2', descr: 'GigabitEthernet1/0/2', oper: 'up', alias: 'uplink core1 Te1/1/2' },
    { ifIndex: 10103, name: 'Gi1/0/3', descr: 'GigabitEthernet1/0/3', oper: 'up', alias: 'uplink core1 Te1/1/3' },
    { ifIndex: 10104, name: 'Gi1/0/4', descr: 'GigabitEthernet1/0/4', oper: 'up' },
    { ifIndex: 10105, name: 'Gi1/0/5', descr: 'GigabitEthernet1/0/5', oper: 'down' },
    { ifIndex: 10106, name: 'Gi1/0/6', descr: 'GigabitEthernet1/0/6', oper: 'up' },
    { ifIndex: 10107, name: 'Gi1/0/7', descr: 'GigabitEthernet1/0/7', oper: 'up' },
    { ifIndex: 10108, name: 'Gi1/0/8', descr: 'GigabitEthernet1/0/8', oper: 'up' },
    { ifIndex: 10109, name: 'Gi1/0/9', descr: 'GigabitEthernet1/0/9', oper: 'up', alias: 'uplink core1 Te1/1/3' },
    { ifIndex: 10110, name: 'Gi1/0/10', descr: 'GigabitEthernet1/0/10', oper: 'up', alias: 'desk switch room 3.14' },
    { ifIndex: 10111, name: 'Gi1/0/11', descr: 'GigabitEthernet1/0/11', oper: 'up', alias: 'desk switch room 3.14' },
    { ifIndex: 10112, name: 'Gi1/0/12', descr: 'GigabitEthernet1/0/12', oper: 'down' },
    { ifIndex: 10149, name: 'Gi1/0/49', descr: 'GigabitEthernet1/0/49', oper: 'up', alias: 'fiber to building B' },
  ],
  channels: [
    {
      ifIndex: 5001,
      name: 'Po1',
      descr: 'Port-channel1',
      alias: 'uplink core1',
      lacp: true,
      members: [
        { port: 'Gi1/0/1', state: 'bundled' },
        { port: 'Gi1/0/2', state: 'bundled' },
        { port: 'Gi1/0/3', state: 'standby' },
      ],
    },
    {
      ifIndex: 5002,
      name: 'Po2',
      descr: 'Port-channel2',
      lacp: false,
      members: [
        { port: 'Gi1/0/4', state: 'bundled' },
        { port: 'Gi1/0/5', state: 'down' },
      ],
    },
    {
      ifIndex: 5003,
      name: 'Po3',
      descr: 'Port-channel3',
      lacp: true,
      members: [
        { port: 'Gi1/0/7', state: 'bundled' },
        { port: 'Gi1/0/8', state: 'suspended' },
      ],
    },
  ],
  vlans: [
    { id: 1, name: 'default' },
    { id: 10, name: 'users' },
    { id: 20, name: 'voice' },
    { id: 21, name: 'printers' },
    { id: 22, name: 'cameras' },
    { id: 30, name: 'servers' },
    { id: 99, name: 'native-mgmt' },
  ],
  switchports: [
    { port: 'Po1', mode: 'trunk', native: 1, allowed: [1, 10, 20, 21, 22, 30] },
    { port: 'Po2', mode: 'trunk', native: 99, allowed: [10, 99] },
    { port: 'Po3', mode: 'access', vlan: 30 },
    { port: 'Gi1/0/6', mode: 'access', vlan: 10, voice: 20 },
    { port: 'Gi1/0/9', mode: 'trunk', native: 1, allowed: [1, 10] },
    { port: 'Gi1/0/10', mode: 'access', vlan: 1 },
    { port: 'Gi1/0/11', mode: 'access', vlan: 1 },
    { port: 'Gi1/0/12', mode: 'access', vlan: 1 },
  ],
  parts: [
    { class: 'container', name: 'Switch 1 - Power Supply A Container', descr: 'Power Supply Container', parent: 1 },
    { class: 'powerSupply', name: 'Switch 1 - Power Supply A', descr: 'FRU Power Supply', parent: 2, model: 'PWR-C2-1025WAC', serial: 'LIT2110A1B2', hardwareRev: 'V02' },
    { class: 'fan', name: 'Switch 1 - FAN 1', descr: 'Switch 1 - FAN 1', parent: 1 },
    { class: 'module', name: 'Switch 1 - FlexStackPlus Module', descr: 'Stacking Module', parent: 1, model: 'C2960X-STACK', serial: 'FOC2111Z9YZ', hardwareRev: 'V01' },
    { class: 'port', name: 'GigabitEthernet1/0/49', descr: '1000BaseLX SFP', parent: 1, model: 'GLC-LH-SMD', serial: 'AVD1234ABCD', hardwareRev: 'V01' },
    { class: 'port', name: 'GigabitEthernet1/0/50', descr: 'Gigabit Ethernet Port', parent: 1 },
  ],
  // the 1000BASE-LX optic's levels, as `show interfaces transceiver` shows them
  optics: [{ part: 'GigabitEthernet1/0/49', port: 'Gi1/0/49', temperature: 31.4, voltage: 3.29, lanes: [{ txBias: 6.5, txPower: -5.8, rxPower: -9.3 }] }],
  // VLAN 1 runs over the uplink channel (root port) and a second uplink to the core, which
  // blocks (alternate); a desk switch hangs off two ports, the second of which hears the first's
  // BPDUs and blocks (backup); one port is down. No RSTP-MIB: edge and p2p are not said.
  stp: {
    mode: 'rpvst',
    priority: 32769,
    root: { priority: 24577, mac: '00:1e:7a:00:04:00' },
    rootPort: 1,
    changes: { count: 14, since: 360_017 },
    ports: [
      { port: 'Po1', role: 'root', state: 'forwarding', cost: 3, priority: 128, designatedCost: 0, designatedBridge: { priority: 24577, mac: '00:1e:7a:00:04:00' }, designatedPort: { priority: 128, number: 1 } },
      { port: 'Gi1/0/9', role: 'alternate', state: 'blocking', cost: 4, priority: 128, designatedCost: 0, designatedBridge: { priority: 24577, mac: '00:1e:7a:00:04:00' }, designatedPort: { priority: 128, number: 3 } },
      { port: 'Gi1/0/10', role: 'designated', state: 'forwarding', cost: 4, priority: 128, designatedCost: 3, designatedBridge: { priority: 32769, mac: '00:1b:d4:a1:b2:00' }, designatedPort: { priority: 128, number: 6 } },
      { port: 'Gi1/0/11', role: 'backup', state: 'blocking', cost: 4, priority: 128, designatedCost: 3, designatedBridge: { priority: 32769, mac: '00:1b:d4:a1:b2:00' }, designatedPort: { priority: 128, number: 6 } },
      { port: 'Gi1/0/12', role: 'disabled', state: 'disabled', cost: 4, priority: 128, designatedCost: 3, designatedBridge: { priority: 32769, mac: '00:1b:d4:a1:b2:00' }, designatedPort: { priority: 128, number: 8 } },
    ],
    // VLAN 10: this switch is its root (priority 24576 + 10), every port of the VLAN designated;
    // VLAN 30: the core is the root, reached over the uplink channel. VLANs 20, 21, 22 and 99
    // have no port up in this recording: their instances report no tree.
    vlans: [
      {
        vlan: 10,
        priority: 24586,
        root: { priority: 24586, mac: '00:1b:d4:a1:b2:00' },
        rootPort: 0,
        rootCost: 0,
        changes: { count: 3, since: 86_400_050 },
        ports: [
          { port: 'Po1', role: 'designated', state: 'forwarding', cost: 3, priority: 128, designatedCost: 0, designatedBridge: { priority: 24586, mac: '00:1b:d4:a1:b2:00' }, designatedPort: { priority: 128, number: 1 } },
          { port: 'Po2', role: 'designated', state: 'forwarding', cost: 4, priority: 128, designatedCost: 0, designatedBridge: { priority: 24586, mac: '00:1b:d4:a1:b2:00' }, designatedPort: { priority: 128, number: 2 } },
          { port: 'Gi1/0/6', role: 'designated', state: 'forwarding', cost: 4, priority: 128, designatedCost: 0, designatedBridge: { priority: 24586, mac: '00:1b:d4:a1:b2:00' }, designatedPort: { priority: 128, number: 4 } },
          { port: 'Gi1/0/9', role: 'designated', state: 'forwarding', cost: 4, priority: 128, designatedCost: 0, designatedBridge: { priority: 24586, mac: '00:1b:d4:a1:b2:00' }, designatedPort: { priority: 128, number: 5 } },
        ],
      },
      {
        vlan: 30,
        priority: 32798,
        root: { priority: 24606, mac: '00:1e:7a:00:04:00' },
        rootPort: 1,
        rootCost: 3,
        ports: [
          { port: 'Po1', role: 'root', state: 'forwarding', cost: 3, priority: 128, designatedCost: 0, designatedBridge: { priority: 24606, mac: '00:1e:7a:00:04:00' }, designatedPort: { priority: 128, number: 1 } },
          { port: 'Po3', role: 'designated', state: 'forwarding', cost: 4, priority: 128, designatedCost: 3, designatedBridge: { priority: 32798, mac: '00:1b:d4:a1:b2:00' }, designatedPort: { priority: 128, number: 3 } },
        ],
      },
    ],
  },
  // the global BPDU guard protects the PortFast ports; the alternate uplink has loop guard; the
  // desk switch's port has root guard and BPDU filter
  guards: {
    defaults: { portFast: 'disable', bpduGuard: true, bpduFilter: false },
    ports: [
      { port: 'Po1', portFast: 'disable', bpduGuard: 'default', bpduFilter: 'default', rootGuard: false, loopGuard: 'enable', shows: { portFast: false, bpduGuard: false, bpduFilter: false, rootGuard: false, loopGuard: true } },
      { port: 'Gi1/0/6', portFast: 'enable', bpduGuard: 'default', bpduFilter: 'default', rootGuard: false, loopGuard: 'default', shows: { portFast: true, bpduGuard: true, bpduFilter: false, rootGuard: false, loopGuard: false } },
      { port: 'Gi1/0/9', portFast: 'default', bpduGuard: 'default', bpduFilter: 'disable', rootGuard: false, loopGuard: 'enable', shows: { portFast: false, bpduGuard: false, bpduFilter: false, rootGuard: false, loopGuard: true } },
      { port: 'Gi1/0/10', portFast: 'enable', bpduGuard: 'disable', bpduFilter: 'enable', rootGuard: true, loopGuard: 'disable', shows: { portFast: true, bpduGuard: false, bpduFilter: true, rootGuard: true, loopGuard: false } },
      { port: 'Po3', portFast: 'network', bpduGuard: 'enable', bpduFilter: 'default', rootGuard: false, loopGuard: 'default', shows: { portFast: false, bpduGuard: true, bpduFilter: false, rootGuard: false, loopGuard: false } },
    ],
  },
  macs: [
    { vlan: 1, mac: '00:50:56:00:01:0a', port: 'Gi1/0/10' },
    { vlan: 10, mac: '00:50:56:00:0a:06', port: 'Gi1/0/6' },
    { vlan: 30, mac: '00:50:56:00:1e:03', port: 'Po3' },
  ],
}

/** The core switch the access switch's uplink runs to: the root of the spanning tree. */
export const CATALYST_CORE: RecordedSwitch = {
  sysName: 'ber-core-sw1',
  sysDescr: 'Cisco IOS Software [Cupertino], Catalyst L3 Switch Software (CAT9K_IOSXE), Version 17.9.4, RELEASE SOFTWARE (fc5)',
  sysObjectId: '1.3.6.1.4.1.9.1.2494',
  serial: 'FOC2333Y1CD',
  model: 'C9300-48P',
  baseMac: '00:1e:7a:00:04:00',
  ports: [
    { ifIndex: 9, name: 'Te1/1/1', descr: 'TenGigabitEthernet1/1/1', oper: 'up', alias: 'ber-acc-sw1 Gi1/0/1' },
    { ifIndex: 10, name: 'Te1/1/2', descr: 'TenGigabitEthernet1/1/2', oper: 'up', alias: 'ber-acc-sw1 Gi1/0/2' },
    { ifIndex: 11, name: 'Te1/1/3', descr: 'TenGigabitEthernet1/1/3', oper: 'up', alias: 'ber-acc-sw1 Gi1/0/9' },
    { ifIndex: 48, name: 'Gi1/0/48', descr: 'GigabitEthernet1/0/48', oper: 'up', alias: 'noc workstation' },
    { ifIndex: 51, name: 'Vl10', descr: 'Vlan10', oper: 'up', type: 53, alias: 'users' },
    { ifIndex: 52, name: 'Lo0', descr: 'Loopback0', oper: 'up', type: 24 },
  ],
  ipv6: [
    { port: 'Vl10', address: '2001:db8:10::1', network: '2001:db8:10::/64' },
    { port: 'Vl10', address: '2001:db8:10:0:1::1', network: '2001:db8:10::/64' },
    { port: 'Vl10', address: 'fe80::21e:7aff:fe00:401', network: 'fe80::/64' },
    { port: 'Lo0', address: '::1', network: '::1/128' },
    { port: 'Lo0', address: '2001:db8:ff::1', network: '2001:db8:ff::1/128' },
    { port: 'Te1/1/1', address: '2001:db8:0:1::', network: '2001:db8:0:1::/127' },
  ],
  channels: [],
  vlans: [
    { id: 1, name: 'default' },
    { id: 10, name: 'users' },
  ],
  switchports: [
    { port: 'Te1/1/1', mode: 'trunk', native: 1, allowed: [1, 10] },
    { port: 'Te1/1/2', mode: 'trunk', native: 1, allowed: [1, 10] },
    { port: 'Te1/1/3', mode: 'trunk', native: 1, allowed: [1, 10] },
    { port: 'Gi1/0/48', mode: 'access', vlan: 1 },
  ],
  parts: [
    { class: 'powerSupply', name: 'Switch 1 - Power Supply A', descr: 'Switch 1 - Power Supply A', parent: 1, model: 'PWR-C1-715WAC', serial: 'DCB2201G0AA', hardwareRev: 'V01' },
    { class: 'powerSupply', name: 'Switch 1 - Power Supply B', descr: 'Switch 1 - Power Supply B', parent: 1, model: 'PWR-C1-715WAC', serial: 'DCB2201G0AB', hardwareRev: 'V01' },
    { class: 'fan', name: 'Switch 1 - FAN - T1 1', descr: 'Switch 1 - FAN - T1 1', parent: 1, model: 'FAN-T1', serial: 'FAN-T1-0001' },
    { class: 'module', name: 'Switch 1 FRU Uplink Module 1', descr: '8x10G Uplink Module', parent: 1, model: 'C9300-NM-8X', serial: 'FOC2330A0XY', hardwareRev: 'V02' },
  ],
  // the root: every port designated; RSTP-MIB says which are edge and point-to-point ports
  stp: {
    mode: 'rpvst',
    priority: 24577,
    root: { priority: 24577, mac: '00:1e:7a:00:04:00' },
    rootPort: 0,
    changes: { count: 2, since: 8_640_000 },
    ports: [
      { port: 'Te1/1/1', role: 'designated', state: 'forwarding', cost: 2, priority: 128, designatedCost: 0, designatedBridge: { priority: 24577, mac: '00:1e:7a:00:04:00' }, designatedPort: { priority: 128, number: 1 }, edge: false, p2p: true },
      { port: 'Te1/1/2', role: 'designated', state: 'forwarding', cost: 2, priority: 128, designatedCost: 0, designatedBridge: { priority: 24577, mac: '00:1e:7a:00:04:00' }, designatedPort: { priority: 128, number: 2 }, edge: false, p2p: true },
      { port: 'Te1/1/3', role: 'designated', state: 'forwarding', cost: 2, priority: 128, designatedCost: 0, designatedBridge: { priority: 24577, mac: '00:1e:7a:00:04:00' }, designatedPort: { priority: 128, number: 3 }, edge: false, p2p: true },
      { port: 'Gi1/0/48', role: 'designated', state: 'forwarding', cost: 4, priority: 128, designatedCost: 0, designatedBridge: { priority: 24577, mac: '00:1e:7a:00:04:00' }, designatedPort: { priority: 128, number: 4 }, edge: true, p2p: false },
    ],
    // VLAN 10's root is the access switch: the first uplink is the root port, the others block
    vlans: [
      {
        vlan: 10,
        priority: 32778,
        root: { priority: 24586, mac: '00:1b:d4:a1:b2:00' },
        rootPort: 1,
        rootCost: 2,
        ports: [
          { port: 'Te1/1/1', role: 'root', state: 'forwarding', cost: 2, priority: 128, designatedCost: 0, designatedBridge: { priority: 24586, mac: '00:1b:d4:a1:b2:00' }, designatedPort: { priority: 128, number: 1 }, edge: false, p2p: true },
          { port: 'Te1/1/2', role: 'alternate', state: 'blocking', cost: 2, priority: 128, designatedCost: 0, designatedBridge: { priority: 24586, mac: '00:1b:d4:a1:b2:00' }, designatedPort: { priority: 128, number: 1 }, edge: false, p2p: true },
          { port: 'Te1/1/3', role: 'alternate', state: 'blocking', cost: 2, priority: 128, designatedCost: 0, designatedBridge: { priority: 24586, mac: '00:1b:d4:a1:b2:00' }, designatedPort: { priority: 128, number: 5 }, edge: false, p2p: true },
        ],
      },
    ],
  },
  // PortFast on by default, with BPDU filter: the workstation's port takes both; root guard on it
  guards: {
    defaults: { portFast: 'enable', bpduGuard: false, bpduFilter: true },
    ports: [
      { port: 'Gi1/0/48', portFast: 'default', bpduGuard: 'default', bpduFilter: 'default', rootGuard: true, loopGuard: 'default', shows: { portFast: true, bpduGuard: false, bpduFilter: true, rootGuard: true, loopGuard: false } },
      { port: 'Te1/1/1', portFast: 'disable', bpduGuard: 'default', bpduFilter: 'default', rootGuard: false, loopGuard: 'enable', shows: { portFast: false, bpduGuard: false, bpduFilter: false, rootGuard: false, loopGuard: true } },
    ],
  },
  macs: [{ vlan: 1, mac: '00:50:56:00:01:30', port: 'Gi1/0/48' }],
}

/**
 * A distribution switch of a whitebox kind (a Linux network OS whose agent answers the standard
 * MIBs, IEEE8021-MSTP-MIB among them), running MSTP in region "campus-a": the CIST's root is the
 * core, reached over the first uplink; it is the root of MSTI 1 (VLANs 10 and 20) and reaches the
 * root of MSTI 2 (VLANs 30 and 40) over the second uplink, so that each uplink forwards one
 * instance and blocks the other.
 */
export const WHITEBOX_MSTP: RecordedSwitch = {
  sysName: 'ber-dist-sw3',
  sysDescr: 'Linux ber-dist-sw3 5.10.0-cl-1-amd64 #1 SMP Debian 5.10.189-1+cl5.9.0u14 x86_64',
  sysObjectId: '1.3.6.1.4.1.8072.3.2.10',
  serial: 'WBX2231A0017',
  model: 'AS4610-54P',
  manufacturer: 'Accton',
  baseMac: '02:00:00:3a:0a:00',
  ports: [
    { ifIndex: 1, name: 'swp1', descr: 'swp1', oper: 'up', alias: 'uplink ber-core-sw1' },
    { ifIndex: 2, name: 'swp2', descr: 'swp2', oper: 'up', alias: 'uplink ber-core-sw2' },
    { ifIndex: 3, name: 'swp3', descr: 'swp3', oper: 'up' },
    { ifIndex: 4, name: 'swp4', descr: 'swp4', oper: 'up' },
    { ifIndex: 5, name: 'swp5', descr: 'swp5', oper: 'down' },
  ],
  channels: [],
  vlans: [
    { id: 1, name: 'default' },
    { id: 10, name: 'users' },
    { id: 20, name: 'voice' },
    { id: 30, name: 'servers' },
    { id: 40, name: 'storage' },
    { id: 50, name: 'lab' },
  ],
  switchports: [
    { port: 'swp1', mode: 'trunk', native: 1, allowed: [1, 10, 20, 30, 40, 50] },
    { port: 'swp2', mode: 'trunk', native: 1, allowed: [1, 10, 20, 30, 40, 50] },
    { port: 'swp3', mode: 'access', vlan: 10 },
    { port: 'swp4', mode: 'access', vlan: 30 },
    { port: 'swp5', mode: 'access', vlan: 50 },
  ],
  parts: [
    { class: 'powerSupply', name: 'PSU1', descr: 'Power supply 1', parent: 1, model: 'YM-2651Y', serial: 'SA070U331733000123' },
    { class: 'port', name: 'Port 1', descr: 'QSFP28 100GBASE-SR4', parent: 1, model: 'QSFP-100G-SR4', serial: 'F2231Q0045' },
  ],
  // the uplink's 4-lane optic: lane 3 receives no light its sensor can read
  optics: [
    {
      part: 'Port 1',
      port: 'swp1',
      temperature: 38.125,
      voltage: 3.284,
      lanes: [
        { txBias: 7.252, txPower: -0.5, rxPower: -1.21 },
        { txBias: 7.31, txPower: -0.62, rxPower: -1.4 },
        { txBias: 7.108, txPower: -0.41, rxPower: null },
        { txBias: 7.4, txPower: -0.7, rxPower: -2.05 },
      ],
    },
  ],
  stp: {
    mode: 'mstp',
    region: { name: 'campus-a', revision: 3 },
    // the CIST (VLANs 1 and 50): the core is its root, over the first uplink; the second blocks
    priority: 32768,
    root: { priority: 24577, mac: '00:1e:7a:00:04:00' },
    rootPort: 1,
    rootCost: 2000,
    changes: { count: 5, since: 1_209_600_00 },
    ports: [
      { port: 'swp1', role: 'root', state: 'forwarding', cost: 2000, priority: 128, designatedCost: 0, designatedBridge: { priority: 24577, mac: '00:1e:7a:00:04:00' }, designatedPort: { priority: 128, number: 7 }, edge: false, p2p: true },
      { port: 'swp2', role: 'alternate', state: 'blocking', cost: 2000, priority: 128, designatedCost: 1000, designatedBridge: { priority: 28672, mac: '00:1e:7a:00:05:00' }, designatedPort: { priority: 128, number: 7 }, edge: false, p2p: true },
      { port: 'swp3', role: 'designated', state: 'forwarding', cost: 20000, priority: 128, designatedCost: 2000, designatedBridge: { priority: 32768, mac: '02:00:00:3a:0a:00' }, designatedPort: { priority: 128, number: 3 }, edge: true, p2p: true },
      { port: 'swp4', role: 'designated', state: 'forwarding', cost: 20000, priority: 128, designatedCost: 2000, designatedBridge: { priority: 32768, mac: '02:00:00:3a:0a:00' }, designatedPort: { priority: 128, number: 4 }, edge: true, p2p: true },
      { port: 'swp5', role: 'disabled', state: 'disabled', cost: 20000, priority: 128, designatedCost: 2000, designatedBridge: { priority: 32768, mac: '02:00:00:3a:0a:00' }, designatedPort: { priority: 128, number: 5 }, enabled: false, edge: false, p2p: false },
    ],
    instances: [
      {
        // MSTI 1: this switch is the regional root (priority 4096 + the instance)
        instance: 1,
        vlans: [10, 20],
        priority: 4097,
        root: { priority: 4097, mac: '02:00:00:3a:0a:00' },
        rootPort: 0,
        rootCost: 0,
        ports: [
          { port: 'swp1', role: 'designated', state: 'forwarding', cost: 2000, priority: 128, designatedCost: 0, designatedBridge: { priority: 4097, mac: '02:00:00:3a:0a:00' }, designatedPort: { priority: 128, number: 1 } },
          { port: 'swp2', role: 'designated', state: 'forwarding', cost: 2000, priority: 128, designatedCost: 0, designatedBridge: { priority: 4097, mac: '02:00:00:3a:0a:00' }, designatedPort: { priority: 128, number: 2 } },
          { port: 'swp3', role: 'designated', state: 'forwarding', cost: 20000, priority: 128, designatedCost: 0, designatedBridge: { priority: 4097, mac: '02:00:00:3a:0a:00' }, designatedPort: { priority: 128, number: 3 } },
        ],
      },
      {
        // MSTI 2: the second core is the regional root, over the second uplink; the first blocks
        instance: 2,
        vlans: [30, 40],
        priority: 32770,
        root: { priority: 8194, mac: '00:1e:7a:00:05:00' },
        rootPort: 2,
        rootCost: 2000,
        // a port of the instance flapping: many changes, the last two minutes ago
        changes: { count: 27, since: 12_034 },
        ports: [
          { port: 'swp1', role: 'alternate', state: 'blocking', cost: 2000, priority: 128, designatedCost: 1000, designatedBridge: { priority: 24578, mac: '00:1e:7a:00:04:00' }, designatedPort: { priority: 128, number: 7 } },
          { port: 'swp2', role: 'root', state: 'forwarding', cost: 2000, priority: 128, designatedCost: 0, designatedBridge: { priority: 8194, mac: '00:1e:7a:00:05:00' }, designatedPort: { priority: 128, number: 7 } },
          { port: 'swp4', role: 'designated', state: 'forwarding', cost: 20000, priority: 128, designatedCost: 2000, designatedBridge: { priority: 32770, mac: '02:00:00:3a:0a:00' }, designatedPort: { priority: 128, number: 4 } },
        ],
      },
    ],
  },
}

/**
 * A distribution switch of the Catalyst kind in MST mode, in region "campus-b": Cisco's agent has
 * no IEEE8021-MSTP-MIB, it answers the instances in CISCO-STP-EXTENSIONS-MIB, with nothing of an
 * MSTI but its VLANs and its ports' roles. The CIST's root is the core, outside the region, over
 * the first uplink, which is the master port of both MSTIs; MSTI 1's regional root is another
 * switch of the region, over the second uplink; it is MSTI 2's regional root itself, VLAN 3001
 * (past the first map of 2,048 VLANs) with VLANs 30 and 40, its server port down.
 */
export const CATALYST_MST: RecordedSwitch = {
  sysName: 'ber-dist-sw4',
  sysDescr: 'Cisco IOS Software [Cupertino], Catalyst L3 Switch Software (CAT9K_IOSXE), Version 17.9.4, RELEASE SOFTWARE (fc5)',
  sysObjectId: '1.3.6.1.4.1.9.1.2494',
  serial: 'FOC2418L0QZ',
  model: 'C9300-48P',
  baseMac: '00:1e:7a:00:0b:00',
  ports: [
    { ifIndex: 9, name: 'Te1/1/1', descr: 'TenGigabitEthernet1/1/1', oper: 'up', alias: 'uplink ber-core-sw1' },
    { ifIndex: 10, name: 'Te1/1/2', descr: 'TenGigabitEthernet1/1/2', oper: 'up', alias: 'uplink ber-dist-sw5' },
    { ifIndex: 11, name: 'Gi1/0/1', descr: 'GigabitEthernet1/0/1', oper: 'up', alias: 'users' },
    { ifIndex: 12, name: 'Gi1/0/2', descr: 'GigabitEthernet1/0/2', oper: 'down', alias: 'backup server' },
  ],
  channels: [],
  vlans: [
    { id: 1, name: 'default' },
    { id: 10, name: 'users' },
    { id: 20, name: 'voice' },
    { id: 30, name: 'servers' },
    { id: 40, name: 'storage' },
    { id: 3001, name: 'backup' },
  ],
  switchports: [
    { port: 'Te1/1/1', mode: 'trunk', native: 1, allowed: [1, 10, 20, 30, 40, 3001] },
    { port: 'Te1/1/2', mode: 'trunk', native: 1, allowed: [1, 10, 20, 30, 40, 3001] },
    { port: 'Gi1/0/1', mode: 'access', vlan: 10 },
    { port: 'Gi1/0/2', mode: 'access', vlan: 3001 },
  ],
  parts: [{ class: 'powerSupply', name: 'Switch 1 - Power Supply A', descr: 'Switch 1 - Power Supply A', parent: 1, model: 'PWR-C1-715WAC', serial: 'DCB2310G1CC', hardwareRev: 'V01' }],
  stp: {
    mode: 'mstp',
    region: { name: 'campus-b', revision: 1 },
    // the CIST (VLAN 1): the core, outside the region, is its root, over the first uplink (so this
    // switch is the region's CIST regional root); the second uplink blocks
    priority: 32768,
    root: { priority: 24577, mac: '00:1e:7a:00:04:00' },
    rootPort: 1,
    rootCost: 2000,
    ports: [
      { port: 'Te1/1/1', role: 'root', state: 'forwarding', cost: 2000, priority: 128, designatedCost: 0, designatedBridge: { priority: 24577, mac: '00:1e:7a:00:04:00' }, designatedPort: { priority: 128, number: 8 }, edge: false, p2p: true },
      { port: 'Te1/1/2', role: 'alternate', state: 'blocking', cost: 2000, priority: 128, designatedCost: 2000, designatedBridge: { priority: 32768, mac: '00:1e:7a:00:0c:00' }, designatedPort: { priority: 128, number: 1 }, edge: false, p2p: true },
      { port: 'Gi1/0/1', role: 'designated', state: 'forwarding', cost: 20000, priority: 128, designatedCost: 2000, designatedBridge: { priority: 32768, mac: '00:1e:7a:00:0b:00' }, designatedPort: { priority: 128, number: 3 }, edge: true, p2p: true },
      { port: 'Gi1/0/2', role: 'disabled', state: 'disabled', cost: 20000, priority: 128, designatedCost: 2000, designatedBridge: { priority: 32768, mac: '00:1e:7a:00:0b:00' }, designatedPort: { priority: 128, number: 4 }, edge: false, p2p: false },
    ],
    instances: [
      {
        // MSTI 1: ber-dist-sw5 is the regional root, over the second uplink; the first, the CIST root
        // port at the region's boundary, is the master port
        instance: 1,
        vlans: [10, 20],
        priority: 32769,
        root: { priority: 4097, mac: '00:1e:7a:00:0c:00' },
        rootPort: 2,
        rootCost: 2000,
        ports: [
          { port: 'Te1/1/1', role: 'master', state: 'forwarding', cost: 2000, priority: 128, designatedCost: 0, designatedBridge: { priority: 24577, mac: '00:1e:7a:00:04:00' }, designatedPort: { priority: 128, number: 8 } },
          { port: 'Te1/1/2', role: 'root', state: 'forwarding', cost: 2000, priority: 128, designatedCost: 0, designatedBridge: { priority: 4097, mac: '00:1e:7a:00:0c:00' }, designatedPort: { priority: 128, number: 1 } },
          { port: 'Gi1/0/1', role: 'designated', state: 'forwarding', cost: 20000, priority: 128, designatedCost: 2000, designatedBridge: { priority: 32769, mac: '00:1e:7a:00:0b:00' }, designatedPort: { priority: 128, number: 3 } },
        ],
      },
      {
        // MSTI 2: this switch is the regional root (priority 8192 + the instance); the first uplink is the master port
        instance: 2,
        vlans: [30, 40, 3001],
        priority: 8194,
        root: { priority: 8194, mac: '00:1e:7a:00:0b:00' },
        rootPort: 0,
        rootCost: 0,
        ports: [
          { port: 'Te1/1/1', role: 'master', state: 'forwarding', cost: 2000, priority: 128, designatedCost: 0, designatedBridge: { priority: 24577, mac: '00:1e:7a:00:04:00' }, designatedPort: { priority: 128, number: 8 } },
          { port: 'Te1/1/2', role: 'designated', state: 'forwarding', cost: 2000, priority: 128, designatedCost: 0, designatedBridge: { priority: 8194, mac: '00:1e:7a:00:0b:00' }, designatedPort: { priority: 128, number: 2 } },
          { port: 'Gi1/0/2', role: 'disabled', state: 'disabled', cost: 20000, priority: 128, designatedCost: 0, designatedBridge: { priority: 8194, mac: '00:1e:7a:00:0b:00' }, designatedPort: { priority: 128, number: 4 } },
        ],
      },
    ],
  },
}

/** The switches' recordings as recordedAgents takes them: each one's default instance and its VLANs' instances. */
export function switchRecordings(switches: readonly RecordedSwitch[]): [Map<string, Varbind[]>, Map<string, Map<number, Varbind[]>>] {
  return [new Map(switches.map((sw) => [sw.sysName, switchVarbinds(sw)])), new Map(switches.map((sw) => [sw.sysName, switchVlanVarbinds(sw)]))]
}
