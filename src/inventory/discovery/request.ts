/**
 * The body of `POST snapshots`: which source to discover and with what. `{"source": "network"}`
 * (the default once seeds exist, unless the body names the simulator's keys) crawls the network
 * from the stored seeds or from `seeds` given for this run; `{"source": "simulator", "profile",
 * "seed", "sites"}` simulates. Every problem comes back at once in the 422 shape.
 */
import type { ValidationIssue } from '../../shared/errors.js'
import { applySettings, siteProblems, type DiscoverySettings } from '../settings/index.js'
import { normaliseSeeds, runOf, type NetworkRun, type NetworkSettings } from '../settings/network.js'
import type { SimulatorSettingsPatch } from '../settings/schemas.js'
import { AddressPolicy, type OwnAddresses } from './network/address-policy.js'
import { seedIssues } from './network/seeds.js'

export const SOURCES = ['network', 'simulator'] as const

export type DiscoveryPlan = { source: 'simulator'; settings: DiscoverySettings } | { source: 'network'; run: NetworkRun }

const COMMON_KEYS = ['snapshotName', 'snapshotNote', 'source']

/**
 * The plan of one discovery from the request body (its snapshotName and snapshotNote are the
 * caller's), the stored simulator settings and the stored network settings. `issues` holds what
 * the body's schema found (routes/schemas.ts `DiscoveryStart`); the rules a schema cannot say
 * (which keys a source takes, the sites of a profile, seeds and credentials to crawl with, the
 * address policy each seed must pass: address-policy.ts) add theirs. Undefined when there is any
 * problem. `own` is this machine's addresses (the policy reads them when not given).
 */
export function planDiscovery(
  body: Record<string, unknown>,
  simulator: DiscoverySettings,
  network: NetworkSettings,
  credentialCount: number,
  issues: ValidationIssue[],
  own?: OwnAddresses,
): DiscoveryPlan | undefined {
  const { snapshotName: _n, snapshotNote: _t, source: requested, ...rest } = body
  const flawed = (key: string) => issues.some((i) => i.path === key || i.path?.startsWith(`${key}[`) || i.path?.startsWith(`${key}.`))
  // without a source nothing else can be judged
  if (flawed('source')) return undefined
  // a body naming the simulator's keys means the simulator; else the network once it has seeds
  const simulatorKeys = ['profile', 'seed', 'sites'].some((k) => k in rest)
  const source = (requested as (typeof SOURCES)[number] | undefined) ?? (!simulatorKeys && (network.seeds.length > 0 || 'seeds' in rest) ? 'network' : 'simulator')
  if (source === 'simulator') {
    if ('seeds' in rest) issues.push({ message: `"seeds" is not allowed; allowed keys are [${COMMON_KEYS.join(', ')}, profile, seed, sites]`, path: 'seeds' })
    if (issues.length > 0) return undefined
    const settings = applySettings(simulator, rest as SimulatorSettingsPatch)
    issues.push(...siteProblems(settings))
    return issues.length > 0 ? undefined : { source, settings }
  }
  for (const key of Object.keys(rest)) {
    if (key !== 'seeds') issues.push({ message: `"${key}" is not allowed for a network discovery; allowed keys are [${COMMON_KEYS.join(', ')}, seeds]`, path: key })
  }
  const given = 'seeds' in rest
  const policy = new AddressPolicy(network, own)
  if (given && Array.isArray(rest.seeds)) issues.push(...seedIssues(rest.seeds as unknown[], policy, (i) => `"seeds[${i}]"`, (i) => `seeds[${i}]`))
  // stored seeds (settings/seed) the settings of now refuse: named as stored
  else if (!given) issues.push(...seedIssues(network.seeds, policy, (i) => `stored seed ${i + 1} (settings/seed)`, () => undefined))
  const seeds = given ? (flawed('seeds') ? [] : normaliseSeeds(rest.seeds as string[])) : network.seeds
  if (issues.length === 0 && seeds.length === 0) issues.push({ message: 'no seed address: set them with PUT settings/seed or give "seeds" in the request', path: 'seeds' })
  // a problem of the installation, not of one key: reported after those of the keys
  if (credentialCount === 0) issues.push({ message: 'no SNMP credential is configured: add one with POST settings/snmp' })
  return issues.length > 0 ? undefined : { source, run: { ...runOf(network), seeds } }
}
