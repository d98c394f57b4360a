/**
 * Rows of interfaces/counters: traffic rates of every operationally up interface. Utilisation
 * depends on what the port faces (a user, an uplink, the WAN); errors come from half-duplex ports
 * (late collisions) and now and then a bad cable; drops from busy uplinks and WAN circuits.
 * Rates move between discoveries.
 */
import { TAG, between, hash, unit } from '../prng.js'
import type { SimInterface, SiteModel } from '../model.js'
import type { SimNetwork } from '../network.js'
import { deviceFields, type Row } from './common.js'

/** Interfaces that carry traffic of their own (not loopbacks or SVIs, whose traffic the ports carry). */
const COUNTED = new Set<SimInterface['kind']>(['port', 'uplink', 'lag', 'sub', 'mgmt', 'radio'])
/** Ports with a bad cable or optic (CRC errors), and the few of them that are very bad. */
const BAD_CABLE = 0.005
const VERY_BAD = 0.1
/** Uplinks and WAN circuits that drop packets on output (congestion). */
const CONGESTED = 0.1

/** Typical share of the speed in use, by what the interface faces. */
function utilisationRange(i: SimInterface): readonly [number, number] {
  if (i.kind === 'mgmt') return [0.00001, 0.0005]
  if (i.dscr === 'WAN provider circuit') return [0.1, 0.85]
  if (i.host) return [0.0005, 0.05]
  if (i.kind === 'radio') return [0.01, 0.3]
  if (i.kind === 'sub') return [0.001, 0.2]
  return [0.02, 0.45]
}

/** A share in [lo, hi], skewed towards lo (most ports are quiet). */
function share(lo: number, hi: number, ...parts: number[]): number {
  return lo + (hi - lo) * unit(...parts) ** 3
}

export function* counterRows(net: SimNetwork, model: SiteModel): Generator<Row> {
  const { seed, generation } = net.settings
  for (const dev of model.devices) {
    for (const i of model.interfaces.get(dev)!) {
      if (!COUNTED.has(i.kind) || i.l2 !== 'up') continue
      const at = [seed, TAG.counters, dev.index, i.slot] as const
      const speed = i.speedValue ?? 1e9
      const [lo, hi] = utilisationRange(i)
      const inBytes = Math.round((speed * share(lo, hi, ...at, generation, 1)) / 8)
      const outBytes = Math.round((speed * share(lo, hi, ...at, generation, 2)) / 8)
      // average packet sizes: small for phones and management, large for bulk transfers
      const inPkts = Math.round(inBytes / between(180, 1200, ...at, 3))
      const outPkts = Math.round(outBytes / between(180, 1200, ...at, 4))
      let errPct = 0
      if (i.duplex === 'half') errPct = 1 + 7 * unit(...at, generation, 5)
      else if (unit(...at, 6) < BAD_CABLE) errPct = unit(...at, 7) < VERY_BAD ? 10 + 15 * unit(...at, generation, 8) : 3 * unit(...at, generation, 8)
      const congested = (i.kind === 'uplink' || i.kind === 'lag' || i.dscr === 'WAN provider circuit') && unit(...at, generation, 9) < CONGESTED
      const dropPct = congested ? 2.5 * unit(...at, generation, 10) ** 2 : 0
      yield {
        id: `${dev.sn}/${i.name}`,
        ...deviceFields(dev),
        intName: i.name,
        dscr: i.dscr,
        speedValue: i.speedValue,
        inBytes,
        outBytes,
        inPkts,
        outPkts,
        inErrPkts: Math.round((inPkts * errPct) / 100),
        outErrPkts: i.duplex === 'half' ? Math.round((outPkts * errPct) / 200) : 0,
        inDropPkts: hash(...at, generation, 11) % 50 === 0 ? between(1, 20, ...at, generation, 12) : 0,
        outDropPkts: Math.round((outPkts * dropPct) / 100),
      }
    }
  }
}
