/**
 * Who the client is, for rate limiting and logs: the socket's peer address, unless that peer is
 * a configured trusted proxy; then the first untrusted address from the right of
 * X-Forwarded-For. A spoofed X-Forwarded-For from an untrusted peer changes nothing.
 * IPv6 clients are grouped by their /64 (one host usually owns a whole /64).
 */
import { BlockList, isIP } from 'node:net'

export interface TrustedProxies {
  has(address: string): boolean
}

const PLAIN_IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/

/** `::ffff:1.2.3.4` → `1.2.3.4`; strips an IPv6 zone; lower case. */
export function normalizeIp(address: string): string {
  // Sockets mostly report a plain dotted IPv4 address: nothing to normalise.
  if (PLAIN_IPV4.test(address)) return address
  let a = address.trim().toLowerCase()
  const zone = a.indexOf('%')
  if (zone >= 0) a = a.slice(0, zone)
  if (a.startsWith('::ffff:') && isIP(a.slice(7)) === 4) a = a.slice(7)
  return a
}

export function trustedProxies(list: readonly string[]): TrustedProxies {
  const blocks = new BlockList()
  for (const entry of list) {
    const [addr = '', bits] = entry.split('/')
    const ip = normalizeIp(addr)
    const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4'
    if (isIP(ip) === 0) continue
    if (bits === undefined) blocks.addAddress(ip, family)
    else blocks.addSubnet(ip, Number(bits), family)
  }
  const empty = list.length === 0
  return {
    has(address) {
      if (empty) return false
      const ip = normalizeIp(address)
      const family = isIP(ip)
      if (family === 0) return false
      return blocks.check(ip, family === 6 ? 'ipv6' : 'ipv4')
    },
  }
}

/** The client address by the trusted-proxy rule. */
export function resolveClientIp(peer: string, forwardedFor: string | string[] | undefined, trusted: TrustedProxies): string {
  const socketIp = normalizeIp(peer)
  if (!trusted.has(socketIp) || forwardedFor === undefined) return socketIp
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((h) => normalizeIp(h))
    .filter((h) => h !== '')
  let client = socketIp
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!
    if (isIP(hop) === 0) return client
    client = hop
    if (!trusted.has(hop)) return hop
  }
  return client
}

function expandIpv6(ip: string): string[] {
  const [head = '', tail] = ip.split('::')
  const h = head === '' ? [] : head.split(':')
  const t = tail === undefined || tail === '' ? [] : tail.split(':')
  const missing = 8 - h.length - t.length
  return [...h, ...Array<string>(Math.max(missing, 0)).fill('0'), ...t]
}

/** The rate-limit key of an address: IPv4 as is, IPv6 as its /64 prefix. */
export function clientKey(ip: string): string {
  if (!ip.includes(':') || isIP(ip) !== 6) return ip
  const groups = expandIpv6(ip).slice(0, 4).map((g) => (parseInt(g, 16) || 0).toString(16))
  return `${groups.join(':')}::/64`
}
