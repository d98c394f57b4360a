/** IPv4 arithmetic: addresses as unsigned 32-bit integers, networks as base and prefix length. */

export function ipToInt(ip: string): number {
  const parts = ip.split('.').map(Number)
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) throw new Error(`bad IPv4 address ${JSON.stringify(ip)}`)
  return ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0
}

export function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.')
}

/** "10.1.2.0/24" → network base (as an integer) and prefix length. */
export function parseCidr(cidr: string): { base: number; prefix: number } {
  const [ip, len] = cidr.split('/')
  const prefix = Number(len)
  if (!ip || !Number.isInteger(prefix) || prefix < 0 || prefix > 32) throw new Error(`bad network ${JSON.stringify(cidr)}`)
  const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0
  return { base: (ipToInt(ip) & mask) >>> 0, prefix }
}

/** Whether an IPv4 address (integer) lies inside a network. */
export function inNetwork(ip: number, net: { base: number; prefix: number }): boolean {
  if (net.prefix === 0) return true
  return ip >>> (32 - net.prefix) === net.base >>> (32 - net.prefix)
}

/** Whether a string is a dotted-quad IPv4 address. */
export function isIpv4(text: string): boolean {
  return /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(text)
}

/** Prefix length of a dotted-quad netmask, or null when the mask is not contiguous. */
export function maskToPrefix(mask: string): number | null {
  const n = ipToInt(mask)
  let len = 0
  while (len < 32 && (n >>> (31 - len)) & 1) len++
  return ((len === 0 ? 0 : (~0 << (32 - len)) >>> 0) === n) ? len : null
}
