/**
 * Seed lists: what a list of seed addresses and networks expands to, and its problems under the
 * address policy, each naming its seed, so that a refused seed is a 422 before anything is sent.
 */
import type { ValidationIssue } from '../../../shared/errors.js'
import { intToIp, parseCidr } from '../../../shared/ipv4.js'
import { MAX_SEED_ADDRESSES, MIN_SEED_PREFIX, normaliseNetwork } from '../../settings/bounds.js'
import type { AddressPolicy } from './address-policy.js'

/** The host addresses of a seed network (every address of a /31 or /32), or the address. */
function hosts(seed: string): { first: number; last: number } {
  const { base, prefix } = parseCidr(seed.includes('/') ? seed : `${seed}/32`)
  const size = 2 ** (32 - prefix)
  return prefix >= 31 ? { first: base, last: base + size - 1 } : { first: base + 1, last: base + size - 2 }
}

/** Seed addresses: an address as is, a network as its host addresses. */
export function expandSeeds(seeds: readonly string[]): string[] {
  const out: string[] = []
  for (const s of seeds) {
    const { first, last } = hosts(s)
    for (let ip = first; ip <= last; ip++) out.push(intToIp(ip))
  }
  return out
}

/**
 * Every problem of a seed list (as sent; `label(i)` names an entry, `"seeds[0]"`): a seed the
 * address policy refuses, and the list as a whole expanding to more than MAX_SEED_ADDRESSES
 * addresses. Entries that are no address or network, or larger than a seed may be, are the
 * schema's to name (a larger one is still checked against the policy).
 */
export function seedIssues(seeds: readonly unknown[], policy: AddressPolicy, label: (i: number) => string, path: (i: number) => string | undefined): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  let total = 0
  let counted = false
  seeds.forEach((raw, i) => {
    const seed = normaliseNetwork(raw)
    if (seed === null) return
    const shown = seed.replace(/\/32$/, '')
    const refusal = policy.seedRefusal(seed)
    const at = (message: string): ValidationIssue => (path(i) === undefined ? { message } : { message, path: path(i)! })
    if (refusal) issues.push(at(`${label(i)} ${shown} ${refusal}`))
    if (Number(seed.split('/')[1]) < MIN_SEED_PREFIX) return
    const { first, last } = hosts(seed)
    total += last - first + 1
    if (total > MAX_SEED_ADDRESSES && !counted) {
      counted = true
      issues.push(at(`${label(i)} ${shown} brings the seed list to more than ${MAX_SEED_ADDRESSES} addresses; give fewer or smaller seed networks and bound the crawl with "include"`))
    }
  })
  return issues
}
