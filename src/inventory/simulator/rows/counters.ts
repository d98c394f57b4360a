/**
 * Rows of interfaces/counters: traffic rates of every operationally up interface. Utilisation
 * depends on what the port faces (a user, an uplink, the WAN); errors come from half-duplex ports
 * (late collisions) and now and then a bad cable; drops from busy uplinks and WAN circuits.
 * Rates move between discoveries.
 */
import { TAG, hash, unit } from '../prng.js'
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
function share(lo: number, hi: number, u: number): number {
  return lo + (hi - lo) * u ** 3
}

export function* counterRows(net: SimNetwork, model: SiteModel): Generator<Row> {
  const { seed, generation } = net.settings
  for (const dev of model.devices) {
    for (const i of model.interfaces.get(dev)!) {
      if (!COUNTED.has(i.kind) || i.l2 !== 'up') continue
      // one hash per interface for what lasts (cables, packet sizes), one per discovery for what
      // moves; the draws are cheap hashes of those (a row costs a few hashes, not a dozen)
      const stable = hash(seed, TAG.counters, dev.index, i.slot)
      const now = hash(stable, generation)
      const speed = i.speedValue ?? 1e9
      const [lo, hi] = utilisationRange(i)
      const inBytes = Math.round((speed * share(lo, hi, unit(now, 1))) / 8)
      const outBytes = Math.round((speed * share(lo, hi, unit(now, 2))) / 8)
      // average packet sizes: small for phones and management, large for bulk transfers
      const inPkts = Math.round(inBytes / (180 + 1020 * unit(stable, 3)))
      const outPkts = Math.round(outBytes / (180 + 1020 * unit(stable, 4)))
      let errPct = 0
      if (i.duplex === 'half') errPct = 1 + 7 * unit(now, 5)
      else if (unit(stable, 6) < BAD_CABLE) errPct = unit(stable, 7) < VERY_BAD ? 10 + 15 * unit(now, 8) : 3 * unit(now, 8)
      const congested = (i.kind === 'uplink' || i.kind === 'lag' || i.dscr === 'WAN provider circuit') && unit(now, 9) < CONGESTED
      const dropPct = congested ? 2.5 * unit(now, 10) ** 2 : 0
      const inputDrops = unit(now, 11) < 0.02 ? 1 + Math.floor(20 * unit(now, 12)) : 0
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
        inDropPkts: inputDrops,
        outDropPkts: Math.round((outPkts * dropPct) / 100),
      }
    }
  }
}
