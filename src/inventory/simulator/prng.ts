/**
 * Deterministic randomness: a 32-bit integer hash of a list of integers, and helpers that turn
 * hashes into choices. Every random decision of the simulator is a hash of (seed, what, where),
 * so any row can be recomputed alone and the same seed always yields the same network.
 */

/** Mixes a list of integers into a 32-bit unsigned hash (murmur3 finaliser per step). */
export function hash(...parts: readonly number[]): number {
  let h = 0x9e3779b9
  for (const p of parts) {
    let k = Math.imul(p | 0, 0xcc9e2d51)
    k = (k << 15) | (k >>> 17)
    k = Math.imul(k, 0x1b873593)
    h ^= k
    h = (h << 13) | (h >>> 19)
    h = (Math.imul(h, 5) + 0xe6546b64) | 0
  }
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** A number in [0, 1) from a hash of the parts. */
export function unit(...parts: readonly number[]): number {
  return hash(...parts) / 4294967296
}

/** An integer in [min, max] from a hash of the parts. */
export function between(min: number, max: number, ...parts: readonly number[]): number {
  return min + (hash(...parts) % (max - min + 1))
}

/** One element of a list, chosen by a hash of the parts. */
export function pick<T>(list: readonly T[], ...parts: readonly number[]): T {
  return list[hash(...parts) % list.length]!
}

/** One element of a weighted list [[value, weight], ...]. */
export function weighted<T>(list: ReadonlyArray<readonly [T, number]>, ...parts: readonly number[]): T {
  const total = list.reduce((s, [, w]) => s + w, 0)
  let r = unit(...parts) * total
  for (const [value, w] of list) {
    r -= w
    if (r < 0) return value
  }
  return list[list.length - 1]![0]
}

/** Small integer tags for the kinds of decisions, so hashes of different decisions differ. */
export const TAG = {
  platform: 1,
  version: 2,
  accessCount: 3,
  stack: 4,
  presence: 5,
  host: 6,
  flap: 7,
  adminDown: 8,
  errDisabled: 9,
  duplex: 10,
  memory: 11,
  uptime: 12,
  bgp: 13,
  hostType: 14,
  serial: 15,
  extra: 16,
  optics: 17,
  siteShape: 18,
  counters: 19,
  environment: 20,
  config: 21,
  neighbors: 22,
  drift: 23,
} as const

/** IPv4 as a 32-bit integer → dotted string. */
export function ipString(n: number): string {
  return `${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`
}

/** Network address of `ip/prefix` as "a.b.c.d/p". */
export function networkString(ip: number, prefix: number): string {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0
  return `${ipString((ip & mask) >>> 0)}/${prefix}`
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** MAC address from a 24-bit OUI and a 24-bit suffix. */
export function macString(oui: number, suffix: number): string {
  return `${HEX[(oui >>> 16) & 255]}:${HEX[(oui >>> 8) & 255]}:${HEX[oui & 255]}:${HEX[(suffix >>> 16) & 255]}:${HEX[(suffix >>> 8) & 255]}:${HEX[suffix & 255]}`
}
