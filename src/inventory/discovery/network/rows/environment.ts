/**
 * Rows of inventory/fans, inventory/power-supplies and inventory/modules: the ENTITY-MIB parts of
 * those classes. Their operational state needs vendor environment MIBs the collector does not
 * read: it stays null.
 */
import type { Row } from '../../../simulator/index.js'
import type { Device, Network } from '../assemble.js'
import type { EntityPart, PhysicalClass } from '../model.js'

function* parts(net: Network, cls: PhysicalClass, row: (dev: Device, p: EntityPart) => Row): Generator<Row> {
  for (const dev of net.devices) {
    for (const p of dev.d.entity) if (p.class === cls) yield { sn: dev.sn, hostname: dev.hostname, siteName: dev.siteName, id: `${dev.sn}/${p.index}`, ...row(dev, p) }
  }
}

export const fanRows = (net: Network) => parts(net, 'fan', (_d, p) => ({ name: p.name, partSn: p.serial, fanState: null, speed: null }))
export const powerSupplyRows = (net: Network) => parts(net, 'powerSupply', (_d, p) => ({ name: p.name, dscr: p.descr, pid: p.model, partSn: p.serial, pwSupplyState: null }))
export const moduleRows = (net: Network) => parts(net, 'module', (_d, p) => ({ name: p.name, dscr: p.descr, pid: p.model, partSn: p.serial, moduleState: null }))
