/** IPv6 addresses as their 16 octets and as text. */
import { ipToInt, isIpv4 } from './ipv4.js'

/** The 16 octets of an IPv6 address ("2001:db8::1", "::ffff:10.0.0.1"), null when it is none (zones such as "%eth0" are none). */
export function ipv6Bytes(text: string): number[] | null {
  if (!/^[0-9a-f:.]+$/i.test(text) || text.length > 45) return null
  let head = text
  const tail: number[] = []
  const quad = /:(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (quad) {
    if (!isIpv4(quad[1]!)) return null
    const n = ipToInt(quad[1]!)
    tail.push(n >>> 16, n & 0xffff)
    // keep the colon when it ends a "::" ("::1.2.3.4"), drop it otherwise ("::ffff:1.2.3.4")
    head = text.slice(0, quad.index + 1)
    if (!head.endsWith('::')) head = head.slice(0, -1)
  }
  const halves = head.split('::')
  if (halves.length > 2) return null
  const groups = (part: string): number[] | null => {
    if (part === '') return []
    const out: number[] = []
    for (const g of part.split(':')) {
      if (!/^[0-9a-f]{1,4}$/i.test(g)) return null
      out.push(parseInt(g, 16))
    }
    return out
  }
  const left = groups(halves[0]!)
  const right = halves.length === 2 ? groups(halves[1]!) : []
  if (!left || !right) return null
  const given = left.length + right.length + tail.length
  let all: number[]
  if (halves.length === 2) {
    if (given > 7) return null
    all = [...left, ...new Array<number>(8 - given).fill(0), ...right, ...tail]
  } else {
    if (given !== 8) return null
    all = [...left, ...tail]
  }
  return all.flatMap((g) => [g >> 8, g & 0xff])
}

/** An IPv6 address's short form (RFC 5952: lower case, the longest run of two or more zero groups as "::"). */
export function ipv6Text(bytes: readonly number[]): string {
  const groups: number[] = []
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i]! << 8) | bytes[i + 1]!)
  let best = { at: -1, len: 0 }
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > best.len && j - i > 1) best = { at: i, len: j - i }
    i = j
  }
  const hex = groups.map((g) => g.toString(16))
  if (best.at < 0) return hex.join(':')
  return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.len).join(':')}`
}

/** Whether an IPv6 address is link-local (fe80::/10): it names a neighbour only together with the link. */
export function isLinkLocal(text: string): boolean {
  const b = ipv6Bytes(text)
  return b !== null && b[0] === 0xfe && (b[1]! & 0xc0) === 0x80
}

/**
 * The MAC address a modified EUI-64 interface identifier was made from (RFC 4291, appendix A:
 * the MAC's halves around ff:fe, the universal/local bit inverted), lower-case colon form; null
 * when the address's last 64 bits are no such identifier (a manual, random or privacy one).
 */
export function eui64Mac(text: string): string | null {
  const b = ipv6Bytes(text)
  if (b === null || b[11] !== 0xff || b[12] !== 0xfe) return null
  const mac = [b[8]! ^ 0x02, b[9]!, b[10]!, b[13]!, b[14]!, b[15]!]
  return mac.map((x) => x.toString(16).padStart(2, '0')).join(':')
}

/** Whether a string is an IPv6 address (without a zone). */
export function isIpv6(text: string): boolean {
  return ipv6Bytes(text) !== null
}
