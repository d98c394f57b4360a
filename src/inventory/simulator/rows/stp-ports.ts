/**
 * Rows of spanning-tree/ports: the spanning tree of each site's switches, computed as bridges
 * compute it (IEEE 802.1D) over the links the site model has, with the bridge ids, priorities and
 * root of spanning-tree/bridges. Each switch's root path cost is the least sum of port costs to
 * the root; its root port the one offering that cost (ties: the lower designated bridge id, then
 * port ids); on each link the end with the lower (root path cost, bridge id, port id) is the
 * designated port; a switch's other working ports block (alternate). A port that is not up is
 * disabled. Port costs are IEEE 802.1D-2004's (20 Tb/s over the port's speed), port priority 128,
 * the port number the port's position on the device. The tree is VLAN 1's on per-VLAN switches
 * (the trunks; access ports carry other VLANs) and the CIST or the single tree elsewhere (every
 * switch port). `p2p` follows the duplex (RSTP's automatic point-to-point detection); `edge` is
 * configuration the simulator does not model: null.
 */
import type { SimDevice, SimNetwork } from '../network.js'
import type { SimInterface, SiteModel } from '../model.js'
import { deviceFields, isSwitch, type Row } from './common.js'
import { stpBridgeId, stpMode, stpRoot } from './protocols.js'

const PORT_PRIORITY = 128

interface TreePort {
  dev: SimDevice
  intf: SimInterface
  number: number
  cost: number
  up: boolean
  /** The port of another switch at the other end of the link (a port-channel's: the channel its members' peers are in). */
  peer: TreePort | null
}

/** IEEE 802.1D-2004 path cost of a port of `bps`. */
const pathCost = (bps: number): number => Math.max(1, Math.round(2e13 / bps))

const perVlan = (dev: SimDevice): boolean => ['pvst', 'rpvst'].includes(stpMode(dev))

/** "priority.xxxx.xxxx.xxxx" ids compared as bridges compare them: priority, then MAC address. */
function compareIds(a: string, b: string): number {
  const [pa, ...ma] = a.split('.')
  const [pb, ...mb] = b.split('.')
  return Number(pa) - Number(pb) || ma.join('.').localeCompare(mb.join('.'))
}

/** The ports each switch runs the tree on, with the switch port at the other end of each link. */
function treePorts(model: SiteModel, switches: readonly SimDevice[]): TreePort[] {
  const all: TreePort[] = []
  const byIntf = new Map<SimInterface, TreePort>()
  for (const dev of switches) {
    for (const intf of model.interfaces.get(dev)!) {
      if (intf.mode === null || intf.lag !== null) continue
      if (perVlan(dev) && intf.mode !== 'trunk' && intf.accVlan !== 1) continue
      const p: TreePort = { dev, intf, number: intf.slot + 1, cost: pathCost(intf.speedValue ?? dev.platform.portSpeed), up: intf.l1 === 'up' && intf.l2 === 'up', peer: null }
      all.push(p)
      byIntf.set(intf, p)
    }
  }
  for (const p of all) {
    const far = p.intf.kind === 'lag' ? model.interfaces.get(p.dev)!.find((m) => m.lag === p.intf)?.peer?.lag : p.intf.peer
    p.peer = far ? (byIntf.get(far) ?? null) : null
  }
  return all
}

/** Whether a port's link is point-to-point: full duplex (a port-channel: every member up is). */
function pointToPoint(model: SiteModel, p: TreePort): boolean | null {
  if (!p.up) return null
  const links = p.intf.kind === 'lag' ? model.interfaces.get(p.dev)!.filter((m) => m.lag === p.intf && m.l1 === 'up') : [p.intf]
  if (links.length === 0 || links.some((l) => l.duplex === null)) return null
  return links.every((l) => l.duplex === 'full')
}

export function* stpPortRows(_net: SimNetwork, model: SiteModel): Generator<Row> {
  const switches = model.devices.filter(isSwitch)
  const ports = treePorts(model, switches)
  const id = new Map(switches.map((d) => [d, stpBridgeId(model, d)]))
  const root = stpRoot(model)
  // root path costs (Bellman-Ford over the working links); every switch of a site whose root did
  // not answer is its own root, as in spanning-tree/bridges (as is one with no path to the root,
  // which the site model never has: every access switch has an uplink to the root)
  const cost = new Map<SimDevice, number>(switches.map((d) => [d, d === root ? 0 : Infinity]))
  const links = ports.filter((p) => p.up && p.peer?.up)
  for (let round = 0; round < switches.length; round++) {
    for (const p of links) cost.set(p.dev, Math.min(cost.get(p.dev)!, cost.get(p.peer!.dev)! + p.cost))
  }
  const ownRoot = (d: SimDevice) => root === undefined || cost.get(d) === Infinity
  const costOf = (d: SimDevice) => (ownRoot(d) ? 0 : cost.get(d)!)
  const rootPort = new Map<SimDevice, TreePort>()
  for (const p of links) {
    if (p.dev === root || ownRoot(p.dev) || ownRoot(p.peer!.dev)) continue
    const best = rootPort.get(p.dev)
    // the root path cost through each port, then the designated bridge, its port, the own port
    const better = (a: TreePort, b: TreePort) =>
      (costOf(a.peer!.dev) + a.cost - (costOf(b.peer!.dev) + b.cost) || compareIds(id.get(a.peer!.dev)!, id.get(b.peer!.dev)!) || a.peer!.number - b.peer!.number || a.number - b.number) < 0
    if (!best || better(p, best)) rootPort.set(p.dev, p)
  }
  const designated = (p: TreePort): boolean => {
    const far = p.peer
    if (!far?.up || ownRoot(p.dev)) return true
    if (ownRoot(far.dev)) return false
    return (costOf(p.dev) - costOf(far.dev) || compareIds(id.get(p.dev)!, id.get(far.dev)!) || p.number - far.number) < 0
  }
  for (const p of ports) {
    const mode = stpMode(p.dev)
    const role = !p.up ? 'disabled' : rootPort.get(p.dev) === p ? 'root' : designated(p) ? 'designated' : 'alternate'
    // the designated port of the link: the port itself, or the one at the other end
    const by = role === 'disabled' || role === 'designated' ? p : p.peer!
    yield {
      id: `${p.dev.sn}/${p.intf.name}`,
      ...deviceFields(p.dev),
      intName: p.intf.name,
      vlanId: perVlan(p.dev) ? 1 : null,
      instance: mode === 'mstp' ? 0 : null,
      portRole: role,
      portStatus: role === 'disabled' ? 'disabled' : role === 'alternate' ? 'blocking' : 'forwarding',
      portCost: p.cost,
      portPriority: PORT_PRIORITY,
      designatedRoot: id.get(root ?? p.dev)!,
      designatedCost: costOf(by.dev),
      designatedBridge: id.get(by.dev)!,
      designatedPort: `${PORT_PRIORITY}.${by.number}`,
      edge: null,
      p2p: pointToPoint(model, p),
    }
  }
}
