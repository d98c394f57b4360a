/**
 * Whether netinv may contact an address: the one rule every place that decides to send an SNMP
 * request follows (seeds and `ipList` when a request is made, every address the crawl learns
 * before it is contacted). Never contacted unless an operator allows them in the discovery
 * settings (`allowedSpecialNetworks`): the special classes of IPv4 (unspecified, loopback,
 * link-local, multicast, reserved, broadcast) and the addresses of the machine netinv runs on
 * (and the broadcast address of each of its networks). Then the include networks bound what is
 * contacted and the exclude networks are never entered; an allowed special address obeys them as
 * every other. Without include networks, discovery stays inside the private networks
 * (`DEFAULT_INCLUDE`) and the allowed special ones: an address on the internet is contacted only
 * when an operator includes it, so that no one with the `write` scope can have the stored
 * credentials sent to a host of theirs on a fresh installation.
 */
import { networkInterfaces } from 'node:os'
import { inNetwork, intToIp, ipToInt, isIpv4, maskToPrefix, parseCidr } from '../../../shared/ipv4.js'

interface Net {
  base: number
  prefix: number
}

/** The classes of IPv4 addresses never contacted by default, the narrowest first where they overlap. */
export const SPECIAL_NETWORKS: ReadonlyArray<{ network: string; is: string }> = [
  { network: '0.0.0.0/8', is: 'unspecified ("this network", 0.0.0.0/8)' },
  { network: '127.0.0.0/8', is: 'loopback (127.0.0.0/8)' },
  { network: '169.254.0.0/16', is: 'link-local (169.254.0.0/16)' },
  { network: '224.0.0.0/4', is: 'multicast (224.0.0.0/4)' },
  { network: '255.255.255.255/32', is: 'the broadcast address' },
  { network: '240.0.0.0/4', is: 'reserved (240.0.0.0/4)' },
]
/** What discovery may contact while the settings name no include networks: the private ranges (RFC 1918) and shared address space (RFC 6598). */
export const DEFAULT_INCLUDE: readonly string[] = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10']

const SPECIAL = SPECIAL_NETWORKS.map((s) => ({ net: parseCidr(s.network), is: s.is }))

/** What the policy is made of: the discovery settings' networks. */
export interface AddressPolicySettings {
  include: readonly string[]
  exclude: readonly string[]
  allowedSpecialNetworks: readonly string[]
}

/** This machine's IPv4 addresses and the broadcast address of each of its networks. */
export interface OwnAddresses {
  addresses: ReadonlySet<number>
  broadcasts: ReadonlySet<number>
}

export function ownAddresses(): OwnAddresses {
  const addresses = new Set<number>()
  const broadcasts = new Set<number>()
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) {
      if (a.family !== 'IPv4' || !isIpv4(a.address)) continue
      const ip = ipToInt(a.address)
      addresses.add(ip)
      const prefix = isIpv4(a.netmask) ? maskToPrefix(a.netmask) : null
      if (prefix !== null && prefix > 0 && prefix < 31) broadcasts.add((ip | (2 ** (32 - prefix) - 1)) >>> 0)
    }
  }
  return { addresses, broadcasts }
}

const HOW_TO_ALLOW = 'an operator may allow it with "allowedSpecialNetworks" in the discovery settings (PATCH settings)'
const listed = (nets: readonly Net[]) => {
  const names = nets.slice(0, 5).map((n) => `${intToIp(n.base)}/${n.prefix}`)
  return `[${names.join(', ')}${nets.length > 5 ? `, ... ${nets.length - 5} more` : ''}]`
}

/** Lowest and highest address of a network. */
function range(n: Net): [number, number] {
  return [n.base, n.base + 2 ** (32 - n.prefix) - 1]
}

/** Whether the networks together cover every address of `n`. */
function covered(n: Net, nets: readonly Net[]): boolean {
  const [first, last] = range(n)
  let next = first
  for (const [a, b] of nets.map(range).sort((x, y) => x[0] - y[0])) {
    if (a > next) break
    if (b >= next) next = b + 1
    if (next > last) return true
  }
  return next > last
}

function overlaps(a: Net, b: Net): boolean {
  return a.prefix <= b.prefix ? inNetwork(b.base, a) : inNetwork(a.base, b)
}

export class AddressPolicy {
  private readonly allowed: Net[]
  /** Every scope an address must be in: the settings' include and exclude, and any narrower one (a snapshot's). */
  private readonly scopes: Array<{ include: Net[]; exclude: Net[]; of: string; defaulted?: boolean }>

  constructor(
    settings: AddressPolicySettings,
    private readonly own: OwnAddresses = ownAddresses(),
  ) {
    this.allowed = settings.allowedSpecialNetworks.map(parseCidr)
    const include = settings.include.length > 0 ? settings.include : [...DEFAULT_INCLUDE, ...settings.allowedSpecialNetworks]
    this.scopes = [{ include: include.map(parseCidr), exclude: settings.exclude.map(parseCidr), of: '', defaulted: settings.include.length === 0 }]
  }

  /** The same policy, also bounded by another scope (the networks a snapshot's discovery ran with). */
  narrowed(include: readonly string[], exclude: readonly string[], of: string): AddressPolicy {
    const next = Object.create(AddressPolicy.prototype) as AddressPolicy
    Object.assign(next, this, { scopes: [...this.scopes, { include: include.map(parseCidr), exclude: exclude.map(parseCidr), of }] })
    return next
  }

  private isAllowed(n: Net): boolean {
    return covered(n, this.allowed)
  }

  /** Why an address is never contacted (a phrase after the address), or null when it may be. */
  refusal(address: string): string | null {
    if (!isIpv4(address)) return 'is not an IPv4 address'
    return this.refusalOf({ base: ipToInt(address), prefix: 32 })
  }

  /**
   * Why a seed (an address or a network) is refused, or null. A network is refused when any of
   * it is of a special class or this machine's (without an allowance), when it is not inside the
   * include networks, or when the exclude networks cover all of it; its other addresses inside
   * an exclude network are skipped by the crawl (each reported as skipped).
   */
  seedRefusal(seed: string): string | null {
    const net = parseCidr(seed.includes('/') ? seed : `${seed}/32`)
    return this.refusalOf(net)
  }

  private refusalOf(net: Net): string | null {
    const single = net.prefix === 32
    for (const s of SPECIAL) {
      // the part of the seed inside the class: the narrower of the two
      if (overlaps(net, s.net) && !this.isAllowed(net.prefix >= s.net.prefix ? net : s.net)) {
        return single ? `is ${s.is} and is never contacted; ${HOW_TO_ALLOW}` : `holds addresses that are ${s.is}, never contacted; ${HOW_TO_ALLOW}`
      }
    }
    // this machine's addresses inside a seed network are skipped by the crawl, not the network refused
    if (single && !this.isAllowed(net)) {
      if (this.own.addresses.has(net.base)) return `is an address of the machine netinv runs on and is never contacted; ${HOW_TO_ALLOW}`
      if (this.own.broadcasts.has(net.base)) return `is the broadcast address of a network of the machine netinv runs on and is never contacted; ${HOW_TO_ALLOW}`
    }
    for (const scope of this.scopes) {
      const where = scope.of ? ` of ${scope.of}` : ''
      if (scope.exclude.length > 0 && covered(net, scope.exclude)) {
        const hit = scope.exclude.find((n) => covered(net, [n]))
        return `is inside the exclude networks${where} ${listed(hit ? [hit] : scope.exclude)} and is never contacted`
      }
      if (scope.defaulted === true && !covered(net, scope.include)) {
        return `is outside the private networks ${listed(scope.include)} that discovery keeps to while no include networks are set, and is never contacted; an operator may set "include" in the discovery settings (PATCH settings) to reach it`
      }
      if (scope.include.length > 0 && !covered(net, scope.include)) return `is outside the include networks${where} ${listed(scope.include)} and is never contacted`
    }
    return null
  }
}
