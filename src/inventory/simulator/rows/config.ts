/**
 * Rows of management/configuration/saved: each device's running configuration changes now and
 * then between discoveries (a new fingerprint), and a change is not always saved at once.
 */
import { TAG, hash, unit } from '../prng.js'
import type { SimNetwork } from '../network.js'
import type { SiteModel } from '../model.js'
import { deviceFields, type Row } from './common.js'

/** Share of devices whose configuration changes between two discoveries. */
const CHANGE = 0.05
/** Share of those changes not saved to the startup configuration by the next discovery. */
const UNSAVED = 0.4

/** 40 hex digits (the length of a SHA-1) from a hash of the parts. */
function fingerprint(...parts: number[]): string {
  return [0, 1, 2, 3, 4].map((k) => hash(...parts, k).toString(16).padStart(8, '0')).join('')
}

export function* configRows(net: SimNetwork, model: SiteModel): Generator<Row> {
  const { seed, generation } = net.settings
  for (const dev of model.devices) {
    const changed = (g: number) => g > 0 && unit(seed, TAG.config, dev.index, g) < CHANGE
    let version = 0
    for (let g = 1; g <= generation; g++) if (changed(g)) version++
    const unsaved = changed(generation) && unit(seed, TAG.config, dev.index, generation, 1) < UNSAVED
    yield { id: dev.sn, ...deviceFields(dev), hash: fingerprint(seed, TAG.config, dev.index, version), status: unsaved ? 'unsaved' : 'saved' }
  }
}
