/**
 * Rows of spanning-tree/bridges: every bridge that reports a spanning tree, with its bridge id
 * (priority and base MAC), the root it sees and whether it is that root. Bridges that see the
 * same root are one domain: `stpDomain` is the root's bridge id. Rows of spanning-tree/ports:
 * each bridge port's state, cost and designated bridge, with the role the standard rules give it.
 */
import type { Row } from '../../../simulator/index.js'
import { ifName, type Device, type Network } from '../assemble.js'
import { shortName } from '../ifname.js'
import type { StpData, StpPort } from '../model.js'

/** "priority.xxxx.xxxx.xxxx" of the device's own bridge, or null. */
export function ownBridgeId(dev: Device): string | null {
  const stp = dev.d.stp
  const mac = dev.d.bridge?.baseMac
  if (!stp || stp.priority === null || !mac) return null
  const hex = mac.replace(/:/g, '')
  return `${stp.priority}.${hex.slice(0, 4)}.${hex.slice(4, 8)}.${hex.slice(8, 12)}`
}

/** The spanning-tree domain of a device: the bridge id of the root it sees. */
export const stpDomain = (dev: Device): string | null => dev.d.stp?.rootId ?? null

export function* stpRows(net: Network): Generator<Row> {
  for (const dev of net.devices) {
    const stp = dev.d.stp
    if (!stp) continue
    const own = ownBridgeId(dev)
    // the root has no root port; its own id is the designated root
    const isRoot = stp.rootPort === 0 || (own !== null && stp.rootId !== null && own.split('.').slice(1).join('.') === stp.rootId.split('.').slice(1).join('.'))
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

export type PortRole = 'root' | 'designated' | 'alternate' | 'backup' | 'disabled'

/** The MAC part of a bridge id ("priority.xxxx.xxxx.xxxx" → "xxxx.xxxx.xxxx"). */
const bridgeMac = (id: string): string => id.split('.').slice(1).join('.')

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
  if (rootPort !== null && rootPort !== 0 && port.port === rootPort) return 'root'
  const self = own !== null && port.designatedBridge !== null && bridgeMac(port.designatedBridge) === bridgeMac(own)
  if (self) {
    const number = port.designatedPort === null ? null : Number(port.designatedPort.split('.')[1])
    return port.state === 'blocking' && number !== null && number !== port.port ? 'backup' : 'designated'
  }
  return port.state === 'blocking' ? 'alternate' : null
}

/** The tree the BRIDGE-MIB answers for: VLAN 1 on per-VLAN switches, the CIST (instance 0) on MSTP ones. */
function treeOf(mode: StpData['mode']): { vlanId: number | null; instance: number | null } {
  if (mode === 'pvst' || mode === 'rpvst') return { vlanId: 1, instance: null }
  if (mode === 'mstp') return { vlanId: null, instance: 0 }
  return { vlanId: null, instance: null }
}

/** Rows of spanning-tree/ports: every port of dot1dStpPortTable that names an interface through dot1dBasePortIfIndex. */
export function* stpPortRows(net: Network): Generator<Row> {
  for (const dev of net.devices) {
    const stp = dev.d.stp
    const bridge = dev.d.bridge
    if (!stp || !bridge) continue
    const own = ownBridgeId(dev)
    const tree = treeOf(stp.mode)
    for (const p of stp.ports) {
      const ifIndex = bridge.portIfIndex.get(p.port)
      const name = ifIndex === undefined ? null : ifName(dev, ifIndex)
      if (ifIndex === undefined || name === null) continue
      yield {
        sn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.siteName,
        id: `${dev.sn}/${ifIndex}`,
        intName: shortName(name),
        ...tree,
        portRole: portRole(p, stp.rootPort, own),
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
