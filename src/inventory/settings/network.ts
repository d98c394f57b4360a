/**
 * Settings of network discovery: seeds, the networks that bound the crawl, limits, the rules
 * that assign devices to sites, and an optional schedule. Kept in inventory.settings under the
 * key "network". Bodies are checked against their schemas (schemas.ts) before they reach here.
 */
import { Value } from '@sinclair/typebox/value'
import type { Queryable } from '../../shared/db/index.js'
import { normaliseNetwork } from './bounds.js'
import { NETWORK_PROPERTIES, type NetworkSettingsPatch } from './schemas.js'

export { LIMITS, MAX_NETWORKS, MAX_RULES, MAX_SEED_ADDRESSES, MAX_SEEDS, MIN_SEED_PREFIX, normaliseNetwork } from './bounds.js'

export interface SiteRule {
  site: string
  /** Case-insensitive regular expression on sysLocation. */
  sysLocation?: string
  /** Case-insensitive regular expression on the hostname. */
  hostname?: string
  /** The login address lies in this network. */
  subnet?: string
}

export interface NetworkLimits {
  /** Devices collected at once. */
  concurrency: number
  /** Time to wait for one SNMP answer. */
  timeoutMs: number
  /** Times a request is sent again after a timeout. */
  retries: number
  /** Devices one discovery collects at most. */
  maxDevices: number
  /** Time to wait for an SSH login and for each prompt while a configuration is read (runs kept before it existed lack it). */
  sshTimeoutMs?: number
  /** Time between the two readings of each device's interface counters that give interfaces/counters its rates; 0 (the default): one reading, no rates. */
  counterIntervalMs?: number
}

export interface NetworkSettings {
  seeds: string[]
  include: string[]
  exclude: string[]
  /** Networks of the special classes (loopback, link-local, ...) and of this machine that may be contacted all the same. */
  allowedSpecialNetworks: string[]
  limits: NetworkLimits
  siteRules: SiteRule[]
  defaultSite: string
  schedule: { enabled: boolean; intervalMinutes: number }
}

/** What one network discovery runs with (kept in the snapshot's settings; no secrets). */
export type NetworkRun = Omit<NetworkSettings, 'schedule'>

/** The run the settings describe (the schedule is about when, not what). */
export function runOf(s: NetworkSettings): NetworkRun {
  const { schedule: _schedule, ...run } = s
  return structuredClone(run)
}

export const DEFAULT_NETWORK: Readonly<NetworkSettings> = Object.freeze({
  seeds: [],
  include: [],
  exclude: [],
  allowedSpecialNetworks: [],
  limits: { concurrency: 16, timeoutMs: 2000, retries: 1, maxDevices: 5000, sshTimeoutMs: 15_000, counterIntervalMs: 0 },
  siteRules: [],
  defaultSite: 'default',
  schedule: { enabled: false, intervalMinutes: 1440 },
})

/** Keys of `settings` (PATCH) that belong here; seeds have an endpoint of their own. */
export const NETWORK_KEYS = ['include', 'exclude', 'allowedSpecialNetworks', 'limits', 'siteRules', 'defaultSite', 'schedule'] as const

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** Networks normalised, each once. */
function networks(list: readonly string[]): string[] {
  return [...new Set(list.map((v) => normaliseNetwork(v)!))]
}

/** A checked seed list (schemas.ts `SeedList`) normalised: an address without "/32", each once. */
export function normaliseSeeds(list: readonly string[]): string[] {
  return [...new Set(list.map((v) => normaliseNetwork(v)!.replace(/\/32$/, '')))]
}

function siteRule(r: SiteRule): SiteRule {
  const rule: SiteRule = { site: r.site.trim() }
  if (r.sysLocation !== undefined) rule.sysLocation = r.sysLocation
  if (r.hostname !== undefined) rule.hostname = r.hostname
  if (r.subnet !== undefined) rule.subnet = normaliseNetwork(r.subnet)!
  return rule
}

/** Applies the network keys of a checked PATCH body (schemas.ts) to `base`. */
export function mergeNetwork(base: Readonly<NetworkSettings>, patch: NetworkSettingsPatch): NetworkSettings {
  const next: NetworkSettings = structuredClone({ ...base }) as NetworkSettings
  if (patch.include !== undefined) next.include = networks(patch.include)
  if (patch.exclude !== undefined) next.exclude = networks(patch.exclude)
  if (patch.allowedSpecialNetworks !== undefined) next.allowedSpecialNetworks = networks(patch.allowedSpecialNetworks)
  if (patch.limits !== undefined) next.limits = { ...next.limits, ...patch.limits }
  if (patch.siteRules !== undefined) next.siteRules = patch.siteRules.map(siteRule)
  if (patch.defaultSite !== undefined) next.defaultSite = patch.defaultSite.trim()
  if (patch.schedule !== undefined) next.schedule = { ...next.schedule, ...patch.schedule }
  return next
}

const KEY = 'network'

export async function getNetworkSettings(db: Queryable): Promise<NetworkSettings> {
  const r = await db.query<{ value: unknown }>('SELECT value FROM inventory.settings WHERE key = $1', [KEY])
  const stored = r.rows[0]?.value
  const base = structuredClone(DEFAULT_NETWORK) as NetworkSettings
  if (!isRecord(stored)) return base
  // stored values were checked on the way in; a key the schema of today refuses keeps its default
  const valid = Object.fromEntries(Object.entries(NETWORK_PROPERTIES).flatMap(([k, schema]) => (k in stored && Value.Check(schema, stored[k]) ? [[k, stored[k]]] : [])))
  const next = mergeNetwork(base, valid as NetworkSettingsPatch)
  next.seeds = Array.isArray(stored.seeds) ? (stored.seeds as string[]) : []
  return next
}

export async function saveNetworkSettings(db: Queryable, s: NetworkSettings, now: number): Promise<void> {
  await db.query(
    `INSERT INTO inventory.settings (key, value, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
    [KEY, JSON.stringify(s), now],
  )
}
