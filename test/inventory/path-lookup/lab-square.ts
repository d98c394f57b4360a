/**
 * What the path labs share (lab.test.ts in IPv4, lab-ipv6.test.ts): their square of routers and
 * the two reads they make of netinv, a table's rows and a lookup's branches.
 */
import { checkTopology, defaultTopology, type Topology } from '../../../src/lab/index.js'
import type { Client } from '../app.js'

export type Row = Record<string, unknown>

export async function rows(client: Client, path: string, body: Row): Promise<Row[]> {
  const r = await client.call('POST', `tables/${path}`, { pagination: { limit: 5000 }, ...body })
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`)
  return (r.body as { data: Row[] }).data
}

export interface Branch {
  hops: Array<{ kind: string; device: { hostname: string; devType?: string | null }; ingress: string | null; egress: string | null; mac?: { mac: string; intName: string } }>
  end: string
  detail: string
}

export async function branches(client: Client, snapshot: string, src: string, dst: string): Promise<Branch[]> {
  const r = await client.call('POST', 'graphs', { snapshot, parameters: { type: 'pathLookup', pathLookupType: 'unicast', startingPoint: src, destinationPoint: dst, protocol: 'udp' } })
  if (r.status !== 200) throw new Error(`graphs: ${r.status} ${r.text}`)
  return (r.body as { paths: { branches: Branch[] } }).paths.branches
}

/**
 * The path labs' square, in a supernet of its own (10.<octet>.0.0/16, so that the labs run beside
 * each other): four routers, r1 to r4 two equal-cost ways (over r2 or r3), r5 behind r4 in
 * another AS (eBGP), a host on r1, r4 and r5. `switched`: h1 hangs off switch sw1 (a Linux
 * bridge: uplink eth1 to r1's eth3, eth2 to h1) instead of r1's eth3 itself.
 */
export function squareTopology(name: string, octet: number, options: { switched?: boolean } = {}): Topology {
  const n = (x: string) => `10.${octet}.${x}`
  const switched = options.switched === true
  return checkTopology({
    name,
    supernet: n('0.0/16'),
    management: { router: 'r1', network: n('255.0/30') },
    credentials: defaultTopology().credentials,
    routers: [1, 2, 3, 4, 5].map((i) => ({ name: `r${i}`, loopback: n(`0.${i}`), as: i === 5 ? 65002 : 65001, location: `Path lab, rack ${i}` })),
    links: [
      { a: 'r1:eth1', b: 'r2:eth1', network: n('1.0/30') },
      { a: 'r1:eth2', b: 'r3:eth1', network: n('1.4/30') },
      { a: 'r2:eth2', b: 'r4:eth1', network: n('1.8/30') },
      { a: 'r3:eth2', b: 'r4:eth2', network: n('1.12/30') },
      { a: 'r4:eth3', b: 'r5:eth1', network: n('1.16/30') },
    ],
    bgp: [{ a: 'r1', b: 'r4' }, { a: 'r4', b: 'r5' }],
    bgpDown: [],
    hosts: [
      { name: 'h1', router: 'r1', interface: 'eth3', network: n('101.0/24'), ...(switched ? { switch: 'sw1' } : {}) },
      { name: 'h2', router: 'r4', interface: 'eth4', network: n('102.0/24') },
      { name: 'h3', router: 'r5', interface: 'eth2', network: n('103.0/24') },
    ],
    ...(switched ? { switches: [{ name: 'sw1', uplink: 'r1:eth3', location: 'Path lab, rack 1' }] } : {}),
  })
}
