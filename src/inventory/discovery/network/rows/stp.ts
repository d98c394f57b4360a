/**
 * Rows of spanning-tree/bridges: every bridge that reports a spanning tree, with its bridge id
 * (priority and base MAC), the root it sees and whether it is that root. Bridges that see the
 * same root are one domain: `stpDomain` is the root's bridge id. Rows of spanning-tree/ports:
 * each bridge port's state, cost and designated bridge, with the role the standard rules give it,
 * in every tree of the switch (each VLAN's on a per-VLAN switch, each instance's on an MSTP one).
 * Rows of spanning-tree/vlans: the tree of each VLAN of a per-VLAN switch, its root and the
 * switch's way to it; of spanning-tree/instances: the same of each instance of an MSTP switch; of
 * spanning-tree/topology: the topology changes each tree of each switch has seen; of
 * spanning-tree/guards: the protections of each port.
 */
import type { Row } from '../../../simulator/index.js'
import { ifName, type Device, type Network } from '../assemble.js'
import { shortName } from '../ifname.js'
import { perVlanTrees, type BridgeData, type StpData, type StpPort, type StpPortState, type StpTree } from '../model.js'
import { bridgeMac } from '../mibs/stp.js'
import { vlanRanges } from './switchports.js'

/** "priority.xxxx.xxxx.xxxx" of the bridge in a tree of the given priority, or null. */
function bridgeIdIn(bridge: BridgeData | null, priority: number | null): string | null {
  const mac = bridge?.baseMac
  if (priority === null || !mac) return null
  const hex = mac.replace(/:/g, '')
  return `${priority}.${hex.slice(0, 4)}.${hex.slice(4, 8)}.${hex.slice(8, 12)}`
}

/** "priority.xxxx.xxxx.xxxx" of the device's own bridge (in VLAN 1's tree or the CIST), or null. */
export const ownBridgeId = (dev: Device): string | null => bridgeIdIn(dev.d.bridge, dev.d.stp?.priority ?? null)

/**
 * Whether a bridge is the root of a tree: it has no root port, or the root's MAC is its own; it is
 * not where it has a root port. Null where the bridge says neither (a Cisco switch's MSTI without a
 * root port: the MIB does not say whether it is the instance's root).
 */
function isRootOf(tree: StpTree, own: string | null): boolean | null {
  if (tree.rootPort === 0) return true
  if (own !== null && tree.rootId !== null) return bridgeMac(own) === bridgeMac(tree.rootId)
  return tree.rootPort === null ? null : false
}

/** The spanning-tree domain of a device: the bridge id of the root it sees. */
export const stpDomain = (dev: Device): string | null => dev.d.stp?.rootId ?? null

export function* stpRows(net: Network): Generator<Row> {
  for (const dev of net.devices) {
    const stp = dev.d.stp
    if (!stp) continue
    const own = ownBridgeId(dev)
    const isRoot = isRootOf(stp, own)
    yield {
      sn: dev.sn,
      hostname: dev.hostname,
      siteName: dev.siteName,
      id: dev.sn,
      stpDomain: stpDomain(dev),
      mode: stp.mode,
      priority: stp.priority,
      bridgeId: own,
      rootId: stp.rootId,
      isRoot,
    }
  }
}

export type PortRole = 'root' | 'designated' | 'alternate' | 'backup' | 'disabled' | 'boundary' | 'master'


/**
 * A port's role by the standard rules, from what the bridge reports: a port that is not enabled
 * (or whose state is disabled) is disabled; the bridge's root port is root; a port whose
 * designated bridge is the bridge itself is designated, unless it blocks while the designated
 * port is another of the bridge's ports (backup); any other blocking port is alternate. A port
 * the rules do not place (listening, learning or forwarding toward another bridge without being
 * the root port, or broken) has no role: null.
 */
export function portRole(port: StpPort, rootPort: number | null, own: string | null): PortRole | null {
  if (port.enabled === false || port.state === 'disabled') return 'disabled'
  // an MSTI's port: the role its bridge reports (ieee8021MstpPortRole, stpxRSTPPortRoleValue)
  if (port.role !== undefined) return port.role
  if (rootPort !== null && rootPort !== 0 && port.port === rootPort) return 'root'
  const self = own !== null && port.designatedBridge !== null && bridgeMac(port.designatedBridge) === bridgeMac(own)
  if (self) {
    const number = port.designatedPort === null ? null : Number(port.designatedPort.split('.')[1])
    return port.state === 'blocking' && number !== null && number !== port.port ? 'backup' : 'designated'
  }
  return port.state === 'blocking' ? 'alternate' : null
}

/** The tree the BRIDGE-MIB answers for: VLAN 1 on per-VLAN switches, the CIST (instance 0) on MSTP ones. */
function treeOf(stp: StpData): { vlanId: number | null; instance: number | null } {
  if (perVlanTrees(stp)) return { vlanId: 1, instance: null }
  if (stp.mode === 'mstp') return { vlanId: null, instance: 0 }
  return { vlanId: null, instance: null }
}

interface TreeOfSwitch {
  tree: StpTree
  vlanId: number | null
  instance: number | null
  /** The bridge's own id in the tree: from its base MAC and its priority in the tree, or as an MSTI reports it. */
  own: string | null
  /** The interface of one of the tree's bridge ports: its instance's dot1dBasePortIfIndex, else the default instance's. */
  ifIndexOf: (port: number) => number | undefined
  /** What the ids of its port rows end with: nothing for the default instance's tree, "/" and the VLAN for another VLAN's, "/mst" and the instance for an MSTI's. */
  suffix: string
}

/** The trees of a switch: the default instance's (VLAN 1 or the CIST), then each further VLAN's or MSTI's. */
function treesOf(stp: StpData, bridge: BridgeData): TreeOfSwitch[] {
  const ifIndexOf = (port: number): number | undefined => bridge.portIfIndex.get(port)
  return [
    { tree: stp, ...treeOf(stp), own: bridgeIdIn(bridge, stp.priority), ifIndexOf, suffix: '' },
    ...stp.vlans.map((t) => ({
      tree: t,
      vlanId: t.vlanId,
      instance: null,
      own: bridgeIdIn(bridge, t.priority),
      ifIndexOf: (port: number) => t.portIfIndex.get(port) ?? bridge.portIfIndex.get(port),
      suffix: `/${t.vlanId}`,
    })),
    ...stp.instances.map((t) => ({ tree: t, vlanId: null, instance: t.instance, own: t.bridgeId ?? bridgeIdIn(bridge, t.priority), ifIndexOf, suffix: `/mst${t.instance}` })),
  ]
}

/** The devices with a bridge that reports a spanning tree, with both. */
function* switchesOf(net: Network): Generator<{ dev: Device; stp: StpData; bridge: BridgeData }> {
  for (const dev of net.devices) {
    const { stp, bridge } = dev.d
    if (stp && bridge) yield { dev, stp, bridge }
  }
}

/** Rows of spanning-tree/ports: every port of dot1dStpPortTable (of each tree) that names an interface through dot1dBasePortIfIndex. */
export function* stpPortRows(net: Network): Generator<Row> {
  for (const { dev, stp, bridge } of switchesOf(net)) {
    for (const { tree, vlanId, instance, own, ifIndexOf, suffix } of treesOf(stp, bridge)) {
      for (const p of tree.ports) {
        const ifIndex = ifIndexOf(p.port)
        const name = ifIndex === undefined ? null : ifName(dev, ifIndex)
        if (ifIndex === undefined || name === null) continue
        yield {
          sn: dev.sn,
          hostname: dev.hostname,
          siteName: dev.siteName,
          id: `${dev.sn}/${ifIndex}${suffix}`,
          intName: shortName(name),
          vlanId,
          instance,
          portRole: portRole(p, tree.rootPort, own),
          portStatus: p.state,
          portCost: p.pathCost,
          portPriority: p.priority,
          designatedRoot: p.designatedRoot,
          designatedCost: p.designatedCost,
          designatedBridge: p.designatedBridge,
          designatedPort: p.designatedPort,
          edge: p.edge,
          p2p: p.p2p,
        }
      }
    }
  }
}

/** The ports of a tree in a state; null where the switch reports its ports' roles but none of their states (a Cisco switch's MSTI). */
function countState(tree: StpTree, state: StpPortState): number | null {
  if (tree.ports.length > 0 && tree.ports.every((p) => p.state === null)) return null
  return tree.ports.filter((p) => p.state === state).length
}

/** What spanning-tree/vlans and spanning-tree/instances say of one tree of a switch: its own id and priority in it, the root and its way there, its ports forwarding and blocking. */
function treeSummary(dev: Device, { tree, own, ifIndexOf }: TreeOfSwitch): Row {
  const isRoot = isRootOf(tree, own)
  const rootIfIndex = isRoot || tree.rootPort === null ? undefined : ifIndexOf(tree.rootPort)
  const rootPort = rootIfIndex === undefined ? null : ifName(dev, rootIfIndex)
  return {
    priority: tree.priority,
    bridgeId: own,
    rootId: tree.rootId,
    isRoot,
    rootPort: rootPort === null ? null : shortName(rootPort),
    rootCost: tree.rootCost,
    forwardingPorts: countState(tree, 'forwarding'),
    blockingPorts: countState(tree, 'blocking'),
  }
}

/** Rows of spanning-tree/vlans: the tree of each VLAN of a per-VLAN switch (VLAN 1's from the default instance). */
export function* stpVlanRows(net: Network): Generator<Row> {
  for (const { dev, stp, bridge } of switchesOf(net)) {
    if (!perVlanTrees(stp)) continue
    const names = new Map(bridge.vlans.map((v) => [v.id, v.name]))
    for (const tree of treesOf(stp, bridge)) {
      const { vlanId } = tree
      yield {
        sn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.siteName,
        id: `${dev.sn}/${vlanId}`,
        vlanId,
        vlanName: vlanId === null ? null : (names.get(vlanId) ?? null),
        ...treeSummary(dev, tree),
      }
    }
  }
}

/**
 * Rows of spanning-tree/instances: the instances of an MSTP switch, the CIST (instance 0, from the
 * BRIDGE-MIB, with every VLAN of the switch no MSTI has) and each MSTI, with the switch's MST region.
 */
export function* stpInstanceRows(net: Network): Generator<Row> {
  for (const { dev, stp, bridge } of switchesOf(net)) {
    if (stp.mode !== 'mstp') continue
    const mapped = new Set(stp.instances.flatMap((i) => i.vlans))
    const cistVlans = bridge.vlans.map((v) => v.id).filter((id) => !mapped.has(id))
    for (const tree of treesOf(stp, bridge)) {
      if (tree.instance === null) continue
      const vlans = tree.instance === 0 ? cistVlans : stp.instances.find((i) => i.instance === tree.instance)!.vlans
      yield {
        sn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.siteName,
        id: `${dev.sn}/mst${tree.instance}`,
        instance: tree.instance,
        vlans: vlans.length === 0 ? null : vlanRanges(vlans),
        regionName: stp.region?.name ?? null,
        revision: stp.region?.revision ?? null,
        ...treeSummary(dev, tree),
      }
    }
  }
}

/** Rows of spanning-tree/topology: each tree of each switch (as spanning-tree/ports has them) with the topology changes it has seen and how long ago the last was. */
export function* stpTopologyRows(net: Network): Generator<Row> {
  for (const { dev, stp, bridge } of switchesOf(net)) {
    for (const { tree, vlanId, instance, suffix } of treesOf(stp, bridge)) {
      yield {
        sn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.siteName,
        id: `${dev.sn}${suffix}`,
        vlanId,
        instance,
        topologyChanges: tree.topologyChanges,
        secondsSinceChange: tree.secondsSinceChange,
      }
    }
  }
}

/** Rows of spanning-tree/guards: the protections of each bridge port of a switch that reports them, on the interface dot1dBasePortIfIndex names. */
export function* stpGuardRows(net: Network): Generator<Row> {
  for (const { dev, stp, bridge } of switchesOf(net)) {
    for (const [port, g] of [...stp.guards].sort((a, b) => a[0] - b[0])) {
      const ifIndex = bridge.portIfIndex.get(port)
      const name = ifIndex === undefined ? null : ifName(dev, ifIndex)
      if (ifIndex === undefined || name === null) continue
      yield { sn: dev.sn, hostname: dev.hostname, siteName: dev.siteName, id: `${dev.sn}/${ifIndex}`, intName: shortName(name), ...g }
    }
  }
}
