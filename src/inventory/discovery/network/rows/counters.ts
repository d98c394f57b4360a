/** Rows of interfaces/counters: the traffic rates of every operationally up interface, from two readings of IF-MIB. */
import type { Row } from '../../../simulator/index.js'
import type { Network } from '../assemble.js'
import { shortName } from '../ifname.js'
import { speedOf } from './interfaces.js'

export function* counterRows(net: Network): Generator<Row> {
  for (const dev of net.devices) {
    const rates = dev.d.rates
    if (rates === null) continue
    for (const i of dev.d.interfaces) {
      const r = rates.get(i.index)
      if (i.oper !== 'up' || r === undefined) continue
      const name = shortName(i.name)
      yield {
        id: `${dev.sn}/${name}`,
        sn: dev.sn,
        hostname: dev.hostname,
        siteName: dev.siteName,
        intName: name,
        dscr: i.alias,
        speedValue: speedOf(i),
        ...r,
      }
    }
  }
}
