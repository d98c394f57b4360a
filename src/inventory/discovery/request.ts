/**
 * The body of `POST snapshots`: which source to discover and with what. `{"source": "network"}`
 * (the default once seeds exist, unless the body names the simulator's keys) crawls the network
 * from the stored seeds or from `seeds` given for this run; `{"source": "simulator", "profile",
 * "seed", "sites"}` simulates. Every problem
 * comes back at once in the 422 shape.
 */
import { ApiError, invalidInput, type ValidationIssue } from '../../shared/errors.js'
import { mergeSettings, type DiscoverySettings } from '../settings/index.js'
import { parseSeeds, runOf, type NetworkRun, type NetworkSettings } from '../settings/network.js'

export const SOURCES = ['network', 'simulator'] as const

export type DiscoveryPlan = { source: 'simulator'; settings: DiscoverySettings } | { source: 'network'; run: NetworkRun }

const COMMON_KEYS = ['snapshotName', 'snapshotNote', 'source']

/**
 * The plan of one discovery from the request body (without snapshotName and snapshotNote,
 * which the caller reads), the stored simulator settings and the stored network settings.
 */
export function planDiscovery(body: Record<string, unknown>, simulator: DiscoverySettings, network: NetworkSettings, credentialCount: number): DiscoveryPlan {
  const issues: ValidationIssue[] = []
  const { snapshotName: _n, snapshotNote: _t, source: requested, ...rest } = body
  if (requested !== undefined && !(SOURCES as readonly unknown[]).includes(requested)) {
    throw invalidInput([{ message: `"source" must be one of [${SOURCES.join(', ')}]`, path: 'source' }])
  }
  // a body naming the simulator's keys means the simulator; else the network once it has seeds
  const simulatorKeys = ['profile', 'seed', 'sites'].some((k) => k in rest)
  const source = (requested as (typeof SOURCES)[number] | undefined) ?? (!simulatorKeys && (network.seeds.length > 0 || 'seeds' in rest) ? 'network' : 'simulator')
  if (source === 'simulator') {
    try {
      return { source, settings: mergeSettings(simulator, rest) }
    } catch (err) {
      if (!(err instanceof ApiError) || !err.errors) throw err
      throw invalidInput(err.errors.map((e) => ({ ...e, message: e.message.replace('allowed keys are [', `allowed keys are [${COMMON_KEYS.join(', ')}, `) })))
    }
  }
  for (const key of Object.keys(rest)) {
    if (key !== 'seeds') issues.push({ message: `"${key}" is not allowed for a network discovery; allowed keys are [${COMMON_KEYS.join(', ')}, seeds]`, path: key })
  }
  let seeds = network.seeds
  if ('seeds' in rest) {
    try {
      seeds = parseSeeds(rest.seeds)
    } catch (err) {
      if (!(err instanceof ApiError) || !err.errors) throw err
      issues.push(...err.errors.map((e) => ({ message: e.message.replace(/^"\[/, '"seeds['), path: `seeds${e.path ?? ''}` })))
    }
  }
  if (issues.length === 0 && seeds.length === 0) issues.push({ message: 'no seed address: set them with PUT settings/seed or give "seeds" in the request', path: 'seeds' })
  if (credentialCount === 0) issues.push({ message: 'no SNMP credential is configured: add one with POST settings/snmp', path: 'source' })
  if (issues.length > 0) throw invalidInput(issues)
  return { source, run: { ...runOf(network), seeds } }
}
