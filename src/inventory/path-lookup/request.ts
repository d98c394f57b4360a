/**
 * The body of `POST graphs` as IP Fabric's clients send it: `snapshot` and `parameters` (a
 * unicast path lookup, host to default gateway), with the `overlay`, `settings` and
 * `attributeFilters` they may add. The schema says the shape; what it cannot say (an address
 * where a subnet is, which keys a lookup type needs) is checked here after it, each problem a 422
 * naming the key.
 */
import { Type, type Static } from '@sinclair/typebox'
import { invalidInput } from '../../shared/errors.js'
import { bodyValidator, defineFormat, shown } from '../../shared/schema/index.js'
import type { PacketOptions } from './graph.js'
import { canonical, family } from './prefixes.js'

const POINT_MESSAGE = 'must be an IPv4 or IPv6 address such as "10.0.0.1" or "2001:db8::1" (a single host; subnets are not looked up)'

/** "10.0.0.1", "10.0.0.1/32", "2001:db8::1" or "2001:db8::1/128" (a host of the networkMode the clients send). */
const POINT = defineFormat('ip-host', (v) => {
  if (typeof v !== 'string') return POINT_MESSAGE
  const [ip, len, ...rest] = v.split('/')
  const fam = family(ip ?? '')
  if (rest.length > 0 || fam === null || (len !== undefined && len !== (fam === 4 ? '32' : '128'))) return `${POINT_MESSAGE}: ${shown(v)}`
  return undefined
})

/** "80", "80,443", "1024-65535" and combinations. */
const PORTS = defineFormat('port-list', (v) => {
  if (typeof v !== 'string' && typeof v !== 'number') return 'must be ports such as "80,443" or "1024-65535"'
  for (const part of String(v).replace(/\s/g, '').split(',')) {
    const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(part)
    if (!m || Number(m[1]) > 65535 || (m[2] !== undefined && (Number(m[2]) > 65535 || Number(m[2]) < Number(m[1])))) return `must be ports such as "80,443" or "1024-65535": ${shown(v)}`
  }
  return undefined
})

const point = (description: string) => Type.String({ format: POINT, maxLength: 49, description })
const ports = (description: string) => Type.Union([Type.String({ format: PORTS, maxLength: 200 }), Type.Integer({ minimum: 0, maximum: 65535 })], { description, 'x-message': 'must be ports such as "80,443" or "1024-65535"' })

export const GraphParameters = Type.Object(
  {
    type: Type.Union([Type.Literal('pathLookup'), Type.Literal('topology')], { description: 'Kind of graph: a path lookup, or the topology of sites.', 'x-message': 'must be one of [pathLookup, topology]' }),
    paths: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 1000, description: 'topology: the site names to draw; "$main" for every site.', 'x-message': 'must be an array of at most 1000 site names' }),
    ),
    pathLookupType: Type.Optional(Type.Union([Type.Literal('unicast'), Type.Literal('hostToDefaultGW')], {
      description: 'unicast: from startingPoint to destinationPoint; hostToDefaultGW: from the host at startingPoint to its gateway.',
      'x-message': 'must be one of [unicast, hostToDefaultGW] (multicast is not looked up)',
    })),
    startingPoint: Type.Optional(point('Source address.')),
    destinationPoint: Type.Optional(point('Destination address (unicast).')),
    vrf: Type.Optional(Type.String({ maxLength: 100, description: 'VRF to look up in; default: the source host\'s.' })),
    protocol: Type.Optional(Type.Union([Type.Literal('tcp'), Type.Literal('udp'), Type.Literal('icmp')], { description: 'Protocol of the packet (default tcp); shown on the path, ACLs are not modelled.', 'x-message': 'must be one of [tcp, udp, icmp]' })),
    ttl: Type.Optional(Type.Integer({ minimum: 1, maximum: 255, description: 'TTL of the packet (default 128).', 'x-message': 'must be an integer between 1 and 255' })),
    l4Options: Type.Optional(
      Type.Object(
        {
          srcPorts: Type.Optional(ports('Source ports (tcp, udp).')),
          dstPorts: Type.Optional(ports('Destination ports (tcp, udp).')),
          flags: Type.Optional(Type.Array(Type.Union(['ack', 'fin', 'psh', 'rst', 'syn', 'urg'].map((f) => Type.Literal(f))), { maxItems: 6, 'x-message': 'must be an array of [ack, fin, psh, rst, syn, urg]' })),
          type: Type.Optional(Type.Integer({ minimum: 0, maximum: 255, description: 'ICMP type.' })),
          code: Type.Optional(Type.Integer({ minimum: 0, maximum: 255, description: 'ICMP code.' })),
        },
        { description: 'Ports and flags (tcp, udp) or type and code (icmp).' },
      ),
    ),
    networkMode: Type.Optional(Type.Boolean({ description: 'True when either point is a subnet; netinv looks up hosts only.' })),
  },
  { description: 'What to draw. Other keys the clients send (groupBy, securedPath, regions, firstHopAlgorithm, ...) are accepted and do not change the lookup.' },
)

export const GraphRequest = Type.Object(
  {
    snapshot: Type.String({ minLength: 1, maxLength: 100, description: 'Snapshot id or $last, $prev, $lastLocked.', 'x-message': 'must be a snapshot id or one of [$last, $prev, $lastLocked]' }),
    parameters: GraphParameters,
    overlay: Type.Optional(Type.Object({}, { description: 'Accepted and ignored: netinv draws no overlays.' })),
    settings: Type.Optional(Type.Object({}, { description: 'Graph settings of the client; accepted, the answer carries netinv\'s.' })),
    attributeFilters: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()), { description: 'Accepted; the lookup is not filtered by attributes.' })),
  },
  { additionalProperties: false, 'x-additional-message': 'is not allowed; allowed keys are [snapshot, parameters, overlay, settings, attributeFilters]' },
)

export type GraphBody = Static<typeof GraphRequest>
const check = bodyValidator(GraphRequest, { all: true })

export type GraphAsk =
  | { kind: 'unicast'; snapshot: string; src: string; dst: string; vrf?: string; packet: PacketOptions }
  | { kind: 'hostToDefaultGW'; snapshot: string; src: string; vrf?: string }
  | { kind: 'topology'; snapshot: string; sites: string[] | null }

/** The address of a point, as PostgreSQL writes it (IPv6 in its short form). */
const host = (v: string) => canonical(v.split('/')[0]!)

export function parseGraphRequest(body: unknown): GraphAsk {
  const b = check.parse(body)
  const p = b.parameters
  const vrf = p.vrf === undefined ? {} : { vrf: p.vrf }
  if (p.type === 'topology') {
    const paths = p.paths ?? ['$main']
    return { kind: 'topology', snapshot: b.snapshot, sites: paths.includes('$main') ? null : paths }
  }
  if (p.pathLookupType === undefined) throw invalidInput([{ message: '"parameters.pathLookupType" is required for a path lookup' }])
  if (p.startingPoint === undefined) throw invalidInput([{ message: '"parameters.startingPoint" is required for a path lookup' }])
  if (p.pathLookupType === 'hostToDefaultGW') return { kind: 'hostToDefaultGW', snapshot: b.snapshot, src: host(p.startingPoint), ...vrf }
  if (p.destinationPoint === undefined) throw invalidInput([{ message: '"parameters.destinationPoint" is required for a unicast path lookup' }])
  const [from, to] = [family(host(p.startingPoint)), family(host(p.destinationPoint))]
  if (from !== to) {
    throw invalidInput([{ message: `"parameters.destinationPoint" must be an IPv${String(from)} address as "parameters.startingPoint" is (a packet does not change its address family on the way): ${shown(p.destinationPoint)}` }])
  }
  const l4 = p.l4Options ?? {}
  const protocol = p.protocol ?? 'tcp'
  return {
    kind: 'unicast',
    snapshot: b.snapshot,
    src: host(p.startingPoint),
    dst: host(p.destinationPoint),
    ...vrf,
    packet: {
      protocol,
      srcPorts: String(l4.srcPorts ?? '1024-65535').replace(/\s/g, ''),
      dstPorts: String(l4.dstPorts ?? '80,443').replace(/\s/g, ''),
      ttl: p.ttl ?? 128,
      flags: l4.flags ?? [],
      icmp: { type: l4.type ?? 0, code: l4.code ?? 0 },
    },
  }
}
