/**
 * `netinv path <src> <dst>`: where a packet from src to dst goes in a snapshot (`POST graphs`,
 * a unicast path lookup), the hops as a table and the branches as a tree; then the way back
 * (the lookup with source and destination swapped), with the branches whose routers differ
 * from the way there flagged as asymmetric.
 */
import { asymmetry, writePath, type PathAnswer } from '../client/paths.js'
import { isIpv4 } from '../shared/ipv4.js'
import { isIpv6 } from '../shared/ipv6.js'
import { stringOption, UsageError, type Command, type Parsed } from './args.js'
import { clientCommand } from './client-command.js'

const PROTOCOLS = ['tcp', 'udp', 'icmp'] as const

function body(p: Parsed, src: string, dst: string, sport: string, dport: string): Record<string, unknown> {
  const protocol = stringOption(p, 'protocol') ?? 'tcp'
  const vrf = stringOption(p, 'vrf')
  return {
    snapshot: stringOption(p, 'snapshot') ?? '$last',
    parameters: {
      type: 'pathLookup',
      pathLookupType: 'unicast',
      startingPoint: src,
      destinationPoint: dst,
      protocol,
      ...(vrf !== undefined ? { vrf } : {}),
      l4Options: protocol === 'icmp' ? { type: 8, code: 0 } : { srcPorts: sport, dstPorts: dport },
    },
  }
}

export const pathCommand: Command = clientCommand(
  {
    name: 'path',
    summary: 'where a packet from src to dst goes in a snapshot, hop by hop, and the way back',
    description:
      'Each router\'s longest-prefix match, every equal-cost branch, ARP (IPv6: neighbour entries)\n' +
      'and the switches in between (docs/path-lookup.md). A branch ends delivered, or with why not:\n' +
      'no route, blackhole, ARP incomplete, loop, unmanaged neighbour, left the discovered network.\n' +
      'The way back is looked up too (--one-way skips it); return branches over other routers are\n' +
      'flagged asymmetric.\n' +
      'Exit status 0 when every branch of the way there is delivered, 3 when one is not.',
    positionals: [
      { name: 'src', description: 'source IPv4 or IPv6 address' },
      { name: 'dst', description: 'destination address, of the same family' },
    ],
    options: {
      snapshot: { type: 'string', value: 'id', description: 'snapshot id, $last (default), $prev or $lastLocked' },
      protocol: { type: 'string', value: 'name', description: 'tcp (default), udp or icmp: shown on the path (ACLs are not modelled)' },
      dport: { type: 'string', value: 'ports', description: 'destination ports (default 80,443)' },
      sport: { type: 'string', value: 'ports', description: 'source ports (default 1024-65535)' },
      vrf: { type: 'string', value: 'name', description: "VRF to look up in (default: the source host's)" },
      'one-way': { type: 'boolean', description: 'the way there only' },
      json: { type: 'boolean', description: 'the answers as JSON: {forward, back}' },
    },
    examples: ['netinv path 10.1.1.10 10.2.2.10', 'netinv path 2001:db8:1::10 2001:db8:2::10', "netinv path 10.1.1.10 10.2.2.10 --snapshot '$prev' --protocol udp --dport 53"],
  },
  async (p, client, io) => {
    const [src, dst] = p.positionals as [string, string]
    const family = (ip: string) => (isIpv4(ip) ? 4 : isIpv6(ip) ? 6 : null)
    for (const [what, ip] of [['src', src], ['dst', dst]] as const) if (family(ip) === null) throw new UsageError(`<${what}> must be an IPv4 or IPv6 address, not "${ip}"`)
    if (family(src) !== family(dst)) throw new UsageError(`<src> and <dst> must be addresses of one family, not IPv${String(family(src))} "${src}" and IPv${String(family(dst))} "${dst}"`)
    const protocol = stringOption(p, 'protocol')
    if (protocol !== undefined && !(PROTOCOLS as readonly string[]).includes(protocol)) throw new UsageError(`--protocol takes ${PROTOCOLS.join(', ')}, not "${protocol}"`)
    const sport = stringOption(p, 'sport') ?? '1024-65535'
    const dport = stringOption(p, 'dport') ?? '80,443'
    const ask = async (a: string, b: string, s: string, d: string) => (await client.json<{ paths: PathAnswer }>('POST', 'graphs', body(p, a, b, s, d))).paths
    const forward = await ask(src, dst, sport, dport)
    const back = p.values['one-way'] === true ? null : await ask(dst, src, dport, sport)
    if (p.values.json === true) {
      io.stdout.write(JSON.stringify({ forward, back }) + '\n')
    } else {
      writePath(forward, 'path', io.stdout)
      if (back) {
        io.stdout.write('\n')
        writePath(back, 'return path', io.stdout)
        const odd = asymmetry(forward, back)
        io.stdout.write(odd.length === 0 ? '\nsymmetric: the way back crosses the same routers\n' : `\nasymmetric: the way back crosses ${odd.join('; ')}, not the routers of the way there\n`)
      }
    }
    return forward.branches.length > 0 && forward.branches.every((b) => b.end === 'delivered') ? 0 : 3
  },
)
