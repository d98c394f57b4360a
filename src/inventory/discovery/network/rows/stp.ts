/**
 * Rows of spanning-tree/bridges: every bridge that reports a spanning tree, with its bridge id
 * (priority and base MAC), the root it sees and whether it is that root. Bridges that see the
 * same root are one domain: `stpDomain` is the root's bridge id.
 */
import type { Row } from '../../../simulator/index.js'
import type { Device, Network } from '../assemble.js'

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
