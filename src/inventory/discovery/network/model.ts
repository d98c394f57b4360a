/**
 * What the collector learns about one device, MIB group by MIB group, before any table row is
 * made of it. A value the device did not report is null (or an empty list), never a guess.
 */

export interface SystemInfo {
  name: string | null
  descr: string | null
  objectId: string | null
  uptimeSeconds: number | null
  location: string | null
  contact: string | null
}

export type PhysicalClass = 'other' | 'unknown' | 'chassis' | 'backplane' | 'container' | 'powerSupply' | 'fan' | 'sensor' | 'module' | 'port' | 'stack' | 'cpu'

export interface EntityPart {
  index: number
  class: PhysicalClass
  parent: number | null
  name: string | null
  descr: string | null
  serial: string | null
  model: string | null
  hardwareRev: string | null
  firmwareRev: string | null
  softwareRev: string | null
  mfgName: string | null
}

export interface Iface {
  index: number
  /** ifName, else ifDescr. */
  name: string
  descr: string | null
  alias: string | null
  type: number | null
  admin: 'up' | 'down' | 'testing' | null
  oper: 'up' | 'down' | 'testing' | 'unknown' | 'dormant' | 'notPresent' | 'lowerLayerDown' | null
  speedBps: number | null
  mtu: number | null
  mac: string | null
  duplex: 'full' | 'half' | null
  inOctets: number | null
  outOctets: number | null
  inErrors: number | null
  outErrors: number | null
  inDiscards: number | null
  outDiscards: number | null
}

export interface IpAddr {
  ip: string
  prefix: number
  ifIndex: number
}

export interface ArpEntry {
  ifIndex: number
  ip: string
  mac: string
  type: 'dynamic' | 'static' | 'local' | 'other'
}

export interface Route {
  /** VRF of the routing table, '' for the global one. */
  vrf: string
  /** IPv4 dotted or IPv6 text. */
  dest: string
  prefix: number
  nextHop: string | null
  ifIndex: number | null
  /** Protocol the agent reports; null when it does not say (e.g. Linux reports every route as "local"). */
  protocol: string | null
  metric: number | null
  /** Set for a route that discards what it matches (inetCidrRouteType reject or blackhole). */
  discard?: 'reject' | 'blackhole'
}

export interface LldpPort {
  id: string | null
  subtype: number | null
  descr: string | null
}

export interface LldpRemote {
  localPort: number
  chassisId: string | null
  chassisSubtype: number | null
  portId: string | null
  portSubtype: number | null
  portDescr: string | null
  sysName: string | null
  mgmtAddresses: string[]
}

export interface Lldp {
  chassisId: string | null
  chassisSubtype: number | null
  ports: Map<number, LldpPort>
  remotes: LldpRemote[]
}

export interface CdpNeighbor {
  ifIndex: number
  deviceId: string | null
  address: string | null
  port: string | null
  platform: string | null
}

export type BgpState = 'idle' | 'connect' | 'active' | 'opensent' | 'openconfirm' | 'established'

export interface BgpPeer {
  remoteAddress: string
  localAddress: string | null
  remoteAs: number | null
  state: BgpState | null
  /** Seconds in (or, when not established, since leaving) the established state. */
  establishedTime: number | null
}

export interface OspfNeighbor {
  ip: string
  routerId: string | null
  state: string | null
  priority: number | null
}

/** An interface address OSPF runs on, with its area and cost (ospfIfTable; the router LSA, else ospfIfMetricTable). */
export interface OspfInterface {
  ip: string
  area: string | null
  cost: number | null
}

/** A port of IEEE8023-LAG-MIB: the aggregators (ifIndex) it selected and is attached to, and its LACP state. */
export interface LagPort {
  ifIndex: number
  selected: number | null
  attached: number | null
  lacp: { active: boolean; synchronized: boolean; collecting: boolean; distributing: boolean } | null
}

export interface LagData {
  ports: LagPort[]
  /** ifStackTable: interface `higher` runs on interface `lower`. */
  stack: Array<{ higher: number; lower: number }>
}

/** VLANs of the bridge ports (Q-BRIDGE-MIB; bridge port numbers) and voice VLANs (by ifIndex). */
export interface SwitchportData {
  pvid: Map<number, number>
  /** Bridge port → VLANs it sends (tagged or untagged), and those it sends untagged. */
  egress: Map<number, Set<number>>
  untagged: Map<number, Set<number>>
  voiceVlan: Map<number, number>
}

/** One spanning tree as a bridge reports it (BRIDGE-MIB dot1dStp): VLAN 1's or the CIST in the default instance, a VLAN's in the VLAN's instance. */
export interface StpTree {
  priority: number | null
  /** The designated root as "priority.xxxx.xxxx.xxxx". */
  rootId: string | null
  /** 0 on the root bridge. */
  rootPort: number | null
  /** dot1dStpRootCost: the cost of the path to the root from this bridge. */
  rootCost: number | null
  /** dot1dStpTopChanges: the topology changes the bridge has seen since it started (in this tree). */
  topologyChanges: number | null
  /** dot1dStpTimeSinceTopologyChange, in whole seconds, when it was read. */
  secondsSinceChange: number | null
  /** dot1dStpPortTable, with RSTP-MIB dot1dStpExtPortTable where the device has it. */
  ports: StpPort[]
}

/** The spanning tree the bridge reports (BRIDGE-MIB dot1dStp, of VLAN 1 on per-VLAN switches), with its mode and the other VLANs' trees. */
export interface StpData extends StpTree {
  mode: 'rpvst' | 'pvst' | 'mstp' | 'rstp' | null
  /**
   * The tree of each further VLAN of a per-VLAN switch (PVST+, Rapid PVST+), read in the VLAN's
   * BRIDGE-MIB instance, with that instance's bridge ports (dot1dBasePortIfIndex); empty elsewhere.
   */
  vlans: Array<StpTree & { vlanId: number; portIfIndex: Map<number, number> }>
  /** The MSTIs of an MSTP bridge (IEEE8021-MSTP-MIB), the CIST being the tree above; empty elsewhere. */
  instances: MstInstance[]
  /** The MST region of an MSTP bridge (ieee8021MstpConfigIdTable), null where the agent does not say. */
  region: { name: string | null; revision: number | null } | null
  /** The protections of each bridge port (CISCO-STP-EXTENSIONS-MIB), by bridge port number; empty where the switch has none of them. */
  guards: Map<number, StpGuards>
}

/** A bridge port's spanning-tree protections as they apply to it (a port's "default" resolved to the switch-wide setting); null where the switch does not say. */
export interface StpGuards {
  /** PortFast: the port is an edge port from the start. */
  portFast: boolean | null
  bpduGuard: boolean | null
  bpduFilter: boolean | null
  rootGuard: boolean | null
  loopGuard: boolean | null
}

/** One MSTI of an MSTP bridge (ieee8021MstpTable, with its ports from ieee8021MstpPortTable; a Cisco switch's from CISCO-STP-EXTENSIONS-MIB). */
export interface MstInstance extends StpTree {
  /** ieee8021MstpId, 1–4094. */
  instance: number
  /** The bridge's own id in the instance (ieee8021MstpBridgeId). */
  bridgeId: string | null
  /** The VLANs mapped to the instance (ieee8021MstpVids0..3). */
  vlans: number[]
}

/** Whether the device runs a tree per VLAN (pvst, rpvst), each in the VLAN's instance of the BRIDGE-MIB, VLAN 1's in the default one. */
export const perVlanTrees = (stp: StpData): boolean => stp.mode === 'pvst' || stp.mode === 'rpvst'

/** dot1dStpPortState. */
export type StpPortState = 'disabled' | 'blocking' | 'listening' | 'learning' | 'forwarding' | 'broken'

/** One bridge port in the spanning tree (BRIDGE-MIB dot1dStpPortEntry). */
export interface StpPort {
  /** Bridge port number (dot1dStpPort, as in dot1dBasePortIfIndex). */
  port: number
  priority: number | null
  state: StpPortState | null
  /** dot1dStpPortEnable: enabled(1), disabled(2). */
  enabled: boolean | null
  /** dot1dStpPortPathCost32 where the agent has it, else dot1dStpPortPathCost. */
  pathCost: number | null
  designatedRoot: string | null
  designatedCost: number | null
  /** Bridge ids as "priority.xxxx.xxxx.xxxx". */
  designatedBridge: string | null
  /** The designated port's id as "priority.number" (802.1t: 4 bits of priority, 12 of port number). */
  designatedPort: string | null
  /** RSTP-MIB dot1dStpPortOperEdgePort, null when the agent has no dot1dStpExtPortTable. */
  edge: boolean | null
  /** RSTP-MIB dot1dStpPortOperPointToPoint, null likewise. */
  p2p: boolean | null
  /**
   * The role the agent reports (ieee8021MstpPortRole; Cisco's stpxRSTPPortRoleValue, with the MST
   * region's boundary and master ports); absent where it reports none (the BRIDGE-MIB), and the
   * role is derived.
   */
  role?: 'root' | 'alternate' | 'designated' | 'backup' | 'disabled' | 'boundary' | 'master' | null
}

export interface OspfData {
  neighbors: OspfNeighbor[]
  interfaces: OspfInterface[]
  /** Cost of each router link in the router LSAs of the device's areas, by the address that ends the link (its own and its neighbours'). */
  linkCosts: Map<string, number>
}

/** An OSPFv3 adjacency (ospfv3NbrTable): on an interface and instance, with a neighbour router. */
export interface Ospfv3Neighbor {
  ifIndex: number
  instanceId: number
  routerId: string
  /** The neighbour's address on the link (link-local, as a rule). */
  address: string | null
  state: string | null
  priority: number | null
  /** The interface id the neighbour gave its end of the link (its router LSA names the link by it). */
  neighborIfId: number | null
}

/** An interface OSPFv3 runs on, per instance, with its area and cost (ospfv3IfTable). */
export interface Ospfv3Interface {
  ifIndex: number
  instanceId: number
  area: string | null
  cost: number | null
}

export interface Ospfv3Data {
  /** ospfv3RouterId, null where the device runs no OSPFv3. */
  routerId: string | null
  neighbors: Ospfv3Neighbor[]
  interfaces: Ospfv3Interface[]
  /** Metric of each link of the router LSAs in the device's areas, by "advertising router id/interface id". */
  linkCosts: Map<string, number>
}

export interface BridgeData {
  baseMac: string | null
  /** Bridge port number → ifIndex. */
  portIfIndex: Map<number, number>
  vlans: Array<{ id: number; name: string | null; status: 'active' | 'suspend' | null }>
  /** MAC table entries; `ifIndex` where the entry was read in a VLAN's instance, whose bridge ports are its own. */
  fdb: Array<{ mac: string; port: number; vlan: number | null; status: 'dynamic' | 'static' | 'other'; ifIndex?: number }>
}

/** The interface a MAC table entry was learnt on. */
export const fdbIfIndex = (bridge: BridgeData, e: BridgeData['fdb'][number]): number | undefined => e.ifIndex ?? bridge.portIfIndex.get(e.port)

/** A first-hop redundancy group on one interface (VRRP-MIB, VRRPv3-MIB, CISCO-HSRP-MIB). */
export interface FhrpGroup {
  ifIndex: number
  protocol: 'vrrp' | 'hsrp'
  groupId: number
  /** The first virtual address (VRRP may have several), null when the agent lists none. */
  virtualIp: string | null
  state: 'active' | 'standby' | 'listen' | 'init' | null
  priority: number | null
  preempt: boolean | null
}

export interface Memory {
  totalBytes: number
  usedBytes: number
}

/** A problem with one MIB group of a device that did not stop its collection. */
export interface Warning {
  type: string
  message: string
}

/** Per second, as interfaces/counters stores them (rounded to whole units). */
export interface InterfaceRates {
  inBytes: number | null
  outBytes: number | null
  inPkts: number | null
  outPkts: number | null
  inErrPkts: number | null
  outErrPkts: number | null
  inDropPkts: number | null
  outDropPkts: number | null
}

/** The kinds of sensor reading an optic reports (EntitySensorDataType). */
export type SensorType = 'voltsDC' | 'amperes' | 'watts' | 'celsius' | 'dBm'

/** A sensor's reading (ENTITY-SENSOR-MIB, CISCO-ENTITY-SENSOR-MIB), in its type's unit (volts, amperes, watts, °C, dBm); null unless the sensor is ok. */
export interface SensorReading {
  /** entPhysicalIndex of the sensor (its ENTITY-MIB entry names what it measures). */
  index: number
  type: SensorType
  value: number | null
}

/** An optic's levels (digital optical monitoring): °C, volts, milliamperes, dBm; null where it does not say. */
export interface OpticLevels {
  temperature: number | null
  voltage: number | null
  txBias: number | null
  txPower: number | null
  rxPower: number | null
}

/** An optic's levels as a whole and, for a multi-lane optic, each lane's (by the lane's number as the device gives it). */
export interface OpticReadings {
  module: OpticLevels
  lanes: Map<number, OpticLevels>
}

export interface CollectedDevice {
  /** Address the device answered on. */
  address: string
  credential: { id: string; name: string }
  system: SystemInfo
  entity: EntityPart[]
  /** Sensor readings of the kinds optics report. */
  sensors: SensorReading[]
  /** The interface (ifIndex) of each physical port entAliasMappingTable ties to one, by entPhysicalIndex. */
  entityPorts: Map<number, number>
  /** Optics levels a vendor MIB gives by interface (JUNIPER-DOM-MIB), by ifIndex. */
  dom: Map<number, OpticReadings>
  interfaces: Iface[]
  addresses: IpAddr[]
  arp: ArpEntry[]
  routes: Route[]
  ipForwarding: boolean | null
  lldp: Lldp | null
  cdp: CdpNeighbor[]
  bgp: { localAs: number | null; peers: BgpPeer[] }
  ospf: OspfData
  ospfv3: Ospfv3Data
  lag: LagData
  switchports: SwitchportData
  stp: StpData | null
  /** IPv6 addresses (ipAddressTable), with their network; `addresses` holds the IPv4 ones. */
  addresses6: Array<IpAddr & { net: string }>
  bridge: BridgeData | null
  /** VRF of each interface that is in one (MPLS-L3VPN-STD-MIB, ARISTA-VRF-MIB); the others are in the global table. */
  vrfs: Map<number, string>
  fhrp: FhrpGroup[]
  memory: Memory | null
  /** Traffic rates by ifIndex from two readings of the counters, null when no second reading was made. */
  rates: Map<number, InterfaceRates> | null
  warnings: Warning[]
  /** Requests sent and time taken (the connectivity report and the bench read them). */
  requests: number
  durationMs: number
}

/** A device that answered on `address` with `credential`, before any MIB group beyond the system group is read. */
export function newDevice(address: string, credential: { id: string; name: string }, system: SystemInfo): CollectedDevice {
  return {
    address,
    credential,
    system,
    entity: [],
    sensors: [],
    entityPorts: new Map(),
    dom: new Map(),
    interfaces: [],
    addresses: [],
    arp: [],
    routes: [],
    ipForwarding: null,
    lldp: null,
    cdp: [],
    bgp: { localAs: null, peers: [] },
    ospf: { neighbors: [], interfaces: [], linkCosts: new Map() },
    ospfv3: { routerId: null, neighbors: [], interfaces: [], linkCosts: new Map() },
    lag: { ports: [], stack: [] },
    switchports: { pvid: new Map(), egress: new Map(), untagged: new Map(), voiceVlan: new Map() },
    stp: null,
    addresses6: [],
    bridge: null,
    vrfs: new Map(),
    fhrp: [],
    memory: null,
    rates: null,
    warnings: [],
    requests: 0,
    durationMs: 0,
  }
}
