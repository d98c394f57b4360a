/**
 * Discovery settings: which simulated network to discover (profile and seed) and which of its
 * sites. Validation returns every problem at once in the 422 shape clients parse.
 */
import { invalidInput, type ValidationIssue } from '../../shared/errors.js'
import { PROFILE_NAMES, isProfileName, siteNames, type ProfileName } from '../simulator/index.js'

export interface DiscoverySettings {
  profile: ProfileName
  seed: number
  /** Site names to discover; empty for every site of the profile. */
  sites: string[]
}

export const DEFAULT_SETTINGS: Readonly<DiscoverySettings> = Object.freeze({ profile: 'lab', seed: 1, sites: [] })

export const SETTING_KEYS = ['profile', 'seed', 'sites'] as const
const MAX_SEED = 2 ** 31 - 1

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/**
 * Applies a partial update to `base` and validates the result. `extraKeys` are other keys the
 * caller accepts in the same body (they are ignored here). Throws 422 listing every problem.
 */
export function mergeSettings(base: Readonly<DiscoverySettings>, patch: unknown, extraKeys: readonly string[] = []): DiscoverySettings {
  if (!isRecord(patch)) throw invalidInput('"value" must be of type object')
  const issues: ValidationIssue[] = []
  const allowed = [...SETTING_KEYS, ...extraKeys]
  for (const key of Object.keys(patch)) {
    if (!allowed.includes(key)) issues.push({ message: `"${key}" is not allowed; allowed keys are [${allowed.join(', ')}]`, path: key })
  }
  const next: DiscoverySettings = { profile: base.profile, seed: base.seed, sites: [...base.sites] }
  if ('profile' in patch) {
    if (isProfileName(patch.profile)) next.profile = patch.profile
    else issues.push({ message: `"profile" must be one of [${PROFILE_NAMES.join(', ')}]`, path: 'profile' })
  }
  if ('seed' in patch) {
    const seed = patch.seed
    if (typeof seed === 'number' && Number.isInteger(seed) && seed >= 0 && seed <= MAX_SEED) next.seed = seed
    else issues.push({ message: `"seed" must be an integer between 0 and ${MAX_SEED}`, path: 'seed' })
  }
  if ('sites' in patch) {
    const sites = patch.sites
    if (!Array.isArray(sites) || !sites.every((s): s is string => typeof s === 'string')) {
      issues.push({ message: '"sites" must be an array of site names', path: 'sites' })
    } else if (new Set(sites).size !== sites.length) {
      issues.push({ message: '"sites" must not repeat a site', path: 'sites' })
    } else {
      next.sites = sites
    }
  }
  if (issues.length === 0 && next.sites.length > 0) {
    // site names depend on the profile, so they are checked against the merged result
    const known = new Set(siteNames(next.profile))
    next.sites.forEach((s, i) => {
      if (!known.has(s)) issues.push({ message: `"sites[${i}]" is not a site of profile ${next.profile}: ${JSON.stringify(s).slice(0, 80)}`, path: `sites[${i}]` })
    })
  }
  if (issues.length > 0) throw invalidInput(issues)
  return next
}
