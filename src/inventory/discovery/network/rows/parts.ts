/** Rows of inventory/pn: field-replaceable parts of ENTITY-MIB (chassis, modules, power supplies, fans, transceivers). */
import type { Row } from '../../../simulator/index.js'
import type { Network } from '../assemble.js'

const PART_CLASSES = new Set(['chassis', 'module', 'powerSupply', 'fan', 'port', 'stack'])

export function* partRows(net: Network): Generator<Row> {
  for (const dev of net.devices) {
    for (const p of dev.d.entity) {
      // a part is something with a serial or an orderable model (ports only when they hold an optic)
      if (!PART_CLASSES.has(p.class) || (p.serial === null && (p.model === null || p.class === 'port'))) continue
      yield {
        id: `${dev.sn}/${p.index}`,
        sn: p.serial,
        deviceSn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.siteName,
        name: p.name,
        dscr: p.descr,
        pid: p.model,
        vid: p.hardwareRev,
        vendor: dev.identity.vendor,
        platform: dev.identity.platform,
        model: dev.identity.model,
      }
    }
  }
}
