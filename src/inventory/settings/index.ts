/** Global discovery settings, kept in inventory.settings under the key "discovery". */
import type { Queryable } from '../../shared/db/index.js'
import { simulatorSettings } from './bodies.js'
import type { SimulatorSettingsPatch } from './schemas.js'
import { DEFAULT_SETTINGS, mergeSettings, type DiscoverySettings } from './validate.js'

export { DEFAULT_SETTINGS, SETTING_KEYS, applySettings, mergeSettings, siteProblems, type DiscoverySettings } from './validate.js'

const KEY = 'discovery'

export async function getSettings(db: Queryable): Promise<DiscoverySettings> {
  const r = await db.query<{ value: unknown }>('SELECT value FROM inventory.settings WHERE key = $1', [KEY])
  if (r.rows.length === 0) return { ...DEFAULT_SETTINGS, sites: [] }
  // stored values were validated on the way in; merging re-checks them against the catalog of today
  try {
    return mergeSettings(DEFAULT_SETTINGS, simulatorSettings.parse(r.rows[0]!.value))
  } catch {
    return { ...DEFAULT_SETTINGS, sites: [] }
  }
}

/** Applies a checked change and stores the result; returns it (422 when a site is not the profile's). */
export async function patchSettings(db: Queryable, patch: SimulatorSettingsPatch, now: number): Promise<DiscoverySettings> {
  const next = mergeSettings(await getSettings(db), patch)
  await db.query(
    `INSERT INTO inventory.settings (key, value, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
    [KEY, JSON.stringify(next), now],
  )
  return next
}
