/**
 * Settings of network discovery: seeds, the networks that bound the crawl, limits, the rules
 * that assign devices to sites, and an optional schedule. Kept in inventory.settings under the
 * key "network"; validation returns every problem at once in the 422 shape clients parse.
 */
import type { Queryable } from '../../shared/db/index.js'
import { invalidInput, type ValidationIssue } from '../../shared/errors.js'
import { isIpv4, parseCidr } from '../../shared/ipv4.js'

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
}

export interface NetworkSettings {
  seeds: string[]
  include: string[]
  exclude: string[]
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
  limits: { concurrency: 16, timeoutMs: 2000, retries: 1, maxDevices: 5000 },
  siteRules: [],
  defaultSite: 'default',
  schedule: { enabled: false, intervalMinutes: 1440 },
})

/** Keys of `settings` (PATCH) that belong here; seeds have an endpoint of their own. */
export const NETWORK_KEYS = ['include', 'exclude', 'limits', 'siteRules', 'defaultSite', 'schedule'] as const

const LIMITS: Readonly<Record<keyof NetworkLimits, [number, number]>> = {
  concurrency: [1, 256],
  timeoutMs: [100, 60_000],
  retries: [0, 5],
  maxDevices: [1, 100_000],
}
const MAX_SEEDS = 1000
const MAX_NETWORKS = 1000
const MAX_RULES = 500
/** A seed range of at most a /16 (65 536 addresses). */
export const MIN_SEED_PREFIX = 16

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** "10.0.0.0/8" (or an address, taken as /32) normalised, or null when it is not one. */
export function normaliseNetwork(text: unknown): string | null {
  if (typeof text !== 'string') return null
  const [ip, len, extra] = text.split('/')
  if (extra !== undefined || !ip || !isIpv4(ip)) return null
  if (len !== undefined && !/^\d{1,2}$/.test(len)) return null
  const prefix = len === undefined ? 32 : Number(len)
  if (prefix > 32) return null
  const { base } = parseCidr(`${ip}/${prefix}`)
  return `${[base >>> 24, (base >>> 16) & 255, (base >>> 8) & 255, base & 255].join('.')}/${prefix}`
}

function networks(value: unknown, key: string, issues: ValidationIssue[]): string[] | undefined {
  if (!Array.isArray(value) || value.length > MAX_NETWORKS) {
    issues.push({ message: `"${key}" must be an array of at most ${MAX_NETWORKS} networks ("10.0.0.0/8")`, path: key })
    return undefined
  }
  const out: string[] = []
  value.forEach((v, i) => {
    const n = normaliseNetwork(v)
    if (n === null) issues.push({ message: `"${key}[${i}]" must be an IPv4 network such as "10.0.0.0/8": ${JSON.stringify(v)?.slice(0, 60)}`, path: `${key}[${i}]` })
    else if (!out.includes(n)) out.push(n)
  })
  return out
}

/** Validates a seed list (addresses and ranges of at most a /16); throws 422 listing every problem. */
export function parseSeeds(value: unknown): string[] {
  const issues: ValidationIssue[] = []
  if (!Array.isArray(value) || value.length > MAX_SEEDS) throw invalidInput(`the seed list must be a JSON array of at most ${MAX_SEEDS} IPv4 addresses or networks`)
  const out: string[] = []
  value.forEach((v, i) => {
    const n = normaliseNetwork(v)
    if (n === null) issues.push({ message: `"[${i}]" must be an IPv4 address or network such as "10.0.0.1" or "10.0.0.0/24": ${JSON.stringify(v)?.slice(0, 60)}`, path: `[${i}]` })
    else if (Number(n.split('/')[1]) < MIN_SEED_PREFIX) issues.push({ message: `"[${i}]" is larger than a /${MIN_SEED_PREFIX}; bound the crawl with "include" instead`, path: `[${i}]` })
    else {
      const seed = n.endsWith('/32') ? n.slice(0, -3) : n
      if (!out.includes(seed)) out.push(seed)
    }
  })
  if (issues.length > 0) throw invalidInput(issues)
  return out
}

function regex(value: unknown, path: string, issues: ValidationIssue[]): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 200) {
    issues.push({ message: `"${path}" must be a regular expression of 1 to 200 characters`, path })
    return undefined
  }
  try {
    new RegExp(value, 'i')
    return value
  } catch {
    issues.push({ message: `"${path}" is not a valid regular expression`, path })
    return undefined
  }
}

function siteName(value: unknown, path: string, issues: ValidationIssue[]): string | undefined {
  if (typeof value === 'string' && value.trim().length > 0 && value.length <= 100) return value.trim()
  issues.push({ message: `"${path}" must be a site name of 1 to 100 characters`, path })
  return undefined
}

function siteRules(value: unknown, issues: ValidationIssue[]): SiteRule[] | undefined {
  if (!Array.isArray(value) || value.length > MAX_RULES) {
    issues.push({ message: `"siteRules" must be an array of at most ${MAX_RULES} rules`, path: 'siteRules' })
    return undefined
  }
  const out: SiteRule[] = []
  value.forEach((r, i) => {
    const path = `siteRules[${i}]`
    if (!isRecord(r)) return void issues.push({ message: `"${path}" must be an object`, path })
    const matchers = ['sysLocation', 'hostname', 'subnet'].filter((k) => k in r)
    const unknown = Object.keys(r).filter((k) => k !== 'site' && !matchers.includes(k))
    if (unknown.length > 0) issues.push({ message: `"${path}.${unknown[0]}" is not allowed; allowed keys are [site, sysLocation, hostname, subnet]`, path })
    if (matchers.length !== 1) issues.push({ message: `"${path}" must have exactly one of sysLocation, hostname or subnet`, path })
    const site = siteName(r.site, `${path}.site`, issues)
    const rule: SiteRule = { site: site ?? '' }
    if ('sysLocation' in r) rule.sysLocation = regex(r.sysLocation, `${path}.sysLocation`, issues)
    if ('hostname' in r) rule.hostname = regex(r.hostname, `${path}.hostname`, issues)
    if ('subnet' in r) {
      const n = normaliseNetwork(r.subnet)
      if (n === null) issues.push({ message: `"${path}.subnet" must be an IPv4 network such as "10.1.0.0/16"`, path: `${path}.subnet` })
      else rule.subnet = n
    }
    out.push(rule)
  })
  return out
}

/** Applies the network keys of a PATCH body to `base`; pushes problems to `issues`. */
export function mergeNetwork(base: Readonly<NetworkSettings>, patch: Record<string, unknown>, issues: ValidationIssue[]): NetworkSettings {
  const next: NetworkSettings = structuredClone({ ...base }) as NetworkSettings
  if ('include' in patch) next.include = networks(patch.include, 'include', issues) ?? next.include
  if ('exclude' in patch) next.exclude = networks(patch.exclude, 'exclude', issues) ?? next.exclude
  if ('limits' in patch) {
    const l = patch.limits
    if (!isRecord(l)) issues.push({ message: '"limits" must be an object', path: 'limits' })
    else {
      for (const [k, v] of Object.entries(l)) {
        const range = LIMITS[k as keyof NetworkLimits]
        if (!range) issues.push({ message: `"limits.${k}" is not allowed; allowed keys are [${Object.keys(LIMITS).join(', ')}]`, path: `limits.${k}` })
        else if (typeof v !== 'number' || !Number.isInteger(v) || v < range[0] || v > range[1]) issues.push({ message: `"limits.${k}" must be an integer between ${range[0]} and ${range[1]}`, path: `limits.${k}` })
        else next.limits[k as keyof NetworkLimits] = v
      }
    }
  }
  if ('siteRules' in patch) next.siteRules = siteRules(patch.siteRules, issues) ?? next.siteRules
  if ('defaultSite' in patch) next.defaultSite = siteName(patch.defaultSite, 'defaultSite', issues) ?? next.defaultSite
  if ('schedule' in patch) {
    const s = patch.schedule
    if (!isRecord(s) || Object.keys(s).some((k) => k !== 'enabled' && k !== 'intervalMinutes')) {
      issues.push({ message: '"schedule" must be an object with "enabled" (boolean) and "intervalMinutes" (5 to 10080)', path: 'schedule' })
    } else {
      if ('enabled' in s) {
        if (typeof s.enabled === 'boolean') next.schedule.enabled = s.enabled
        else issues.push({ message: '"schedule.enabled" must be a boolean', path: 'schedule.enabled' })
      }
      if ('intervalMinutes' in s) {
        const v = s.intervalMinutes
        if (typeof v === 'number' && Number.isInteger(v) && v >= 5 && v <= 10080) next.schedule.intervalMinutes = v
        else issues.push({ message: '"schedule.intervalMinutes" must be an integer between 5 and 10080', path: 'schedule.intervalMinutes' })
      }
    }
  }
  return next
}

const KEY = 'network'

export async function getNetworkSettings(db: Queryable): Promise<NetworkSettings> {
  const r = await db.query<{ value: unknown }>('SELECT value FROM inventory.settings WHERE key = $1', [KEY])
  const stored = r.rows[0]?.value
  const base = structuredClone(DEFAULT_NETWORK) as NetworkSettings
  if (!isRecord(stored)) return base
  const issues: ValidationIssue[] = []
  const next = mergeNetwork(base, stored, issues)
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
