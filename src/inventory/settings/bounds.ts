/**
 * Bounds of network discovery's settings (limits, list sizes, the largest seed range and seed list) and the
 * normal form of an IPv4 network, shared by the settings' schemas and the code that applies them.
 */
import { isIpv4, parseCidr } from '../../shared/ipv4.js'
import type { NetworkLimits } from './network.js'

export const LIMITS: Readonly<Record<keyof NetworkLimits, readonly [number, number]>> = {
  concurrency: [1, 256],
  timeoutMs: [100, 60_000],
  retries: [0, 5],
  maxDevices: [1, 100_000],
  sshTimeoutMs: [500, 120_000],
  counterIntervalMs: [0, 300_000],
}
export const MAX_SEEDS = 1000
export const MAX_NETWORKS = 1000
export const MAX_RULES = 500
/** A seed range of at most a /20 (4 096 addresses). */
export const MIN_SEED_PREFIX = 20
/** Addresses a whole seed list may expand to (its networks' host addresses and its addresses). */
export const MAX_SEED_ADDRESSES = 65_536

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

