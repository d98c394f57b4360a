/**
 * Rows of management/configuration/saved: the fingerprint of each device's running
 * configuration read over SSH (ssh/collect.ts), and whether it was saved to the startup
 * configuration (null where the device does not show it); a device without a configuration has
 * no row.
 */
import type { Row } from '../../../simulator/index.js'
import type { Network } from '../assemble.js'

export function* configRows(net: Network): Generator<Row> {
  for (const d of net.devices) {
    const c = net.configs.get(d.sn)
    if (!c) continue
    yield { id: d.sn, sn: d.sn, hostname: d.hostname, siteName: d.siteName, hash: c.hash, status: c.status }
  }
}
