/**
 * Discovery settings: which simulated network to discover (profile and seed) and which of its
 * sites. A change is checked against its schema (schemas.ts) first; what the schema cannot say
 * (that each site is one of the chosen profile's) is checked here, on the merged result.
 */
import { invalidInput, type ValidationIssue } from '../../shared/errors.js'
import { siteNames, type ProfileName } from '../simulator/index.js'
import type { SimulatorSettingsPatch } from './schemas.js'

export interface DiscoverySettings {
  profile: ProfileName
  seed: number
  /** Site names to discover; empty for every site of the profile. */
  sites: string[]
}

export const DEFAULT_SETTINGS: Readonly<DiscoverySettings> = Object.freeze({ profile: 'lab', seed: 1, sites: [] })

export const SETTING_KEYS = ['profile', 'seed', 'sites'] as const

/** `base` with a checked change applied (not yet checked against the profile). */
export function applySettings(base: Readonly<DiscoverySettings>, patch: SimulatorSettingsPatch): DiscoverySettings {
  return { profile: patch.profile ?? base.profile, seed: patch.seed ?? base.seed, sites: [...(patch.sites ?? base.sites)] }
}

/** Sites that are not the profile's (site names depend on the profile, so the merged result is checked). */
export function siteProblems(s: Readonly<DiscoverySettings>): ValidationIssue[] {
  const known = new Set(siteNames(s.profile))
  return s.sites.flatMap((site, i) => (known.has(site) ? [] : [{ message: `"sites[${i}]" is not a site of profile ${s.profile}: ${JSON.stringify(site).slice(0, 80)}`, path: `sites[${i}]` }]))
}

/** Applies a checked change to `base`; throws 422 listing every site that is not the profile's. */
export function mergeSettings(base: Readonly<DiscoverySettings>, patch: SimulatorSettingsPatch): DiscoverySettings {
  const next = applySettings(base, patch)
  const issues = siteProblems(next)
  if (issues.length > 0) throw invalidInput(issues)
  return next
}
