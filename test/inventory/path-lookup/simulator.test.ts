/**
 * Paths in the simulator's networks: between end hosts of two sites (through each site's
 * gateway and router to the provider edge, which the simulation does not discover) and between
 * hosts of one site in two VLANs (routed by the gateway out of the VLAN interface, then switched:
 * the port its MAC table names, the access switch, the host's port).
 * No branch loops or ends without a route or an ARP entry: the simulated routes and ARP caches
 * agree with each other.
 */
import t from 'tap'
import { freshDb } from '../../helpers/db.js'
import { startApp, type Client } from '../app.js'

type Row = Record<string, unknown>
interface Branch {
  hops: Array<{ kind: string; device: { hostname: string; siteName: string | null }; ingress: string | null; egress: string | null; route?: { protocol: string | null }; mac?: { intName: string } }>
  end: string
  detail: string
}

async function rows(client: Client, path: string, body: Row): Promise<Row[]> {
  const r = await client.call('POST', `tables/${path}`, { pagination: { limit: 5000 }, ...body })
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`)
  return (r.body as { data: Row[] }).data
}

t.test('paths in a simulated network', async (t) => {
  const client = await startApp(t, await freshDb(t, 'pglite'))
  const snapshot = await client.discover({ profile: 'lab', seed: 7 })
  const hosts = await rows(client, 'addressing/hosts', { snapshot, columns: ['ip', 'vlan', 'siteName'], sort: { column: 'ip', order: 'asc' } })
  const sites = [...new Set(hosts.map((h) => String(h.siteName)))]
  t.ok(sites.length >= 2, 'hosts at two sites at least')
  const look = async (src: string, dst: string): Promise<Branch[]> => {
    const r = await client.call('POST', 'graphs', { snapshot, parameters: { type: 'pathLookup', pathLookupType: 'unicast', startingPoint: src, destinationPoint: dst } })
    t.equal(r.status, 200, r.text.slice(0, 300))
    return (r.body as { paths: { branches: Branch[] } }).paths.branches
  }
  const ofSite = (s: string) => hosts.filter((h) => h.siteName === s)
  const pairs: Array<[string, string]> = [[sites[0]!, sites[1]!], [sites[1]!, sites[2] ?? sites[0]!]]
  for (const [a, b] of pairs) {
    const src = String(ofSite(a)[0]!.ip)
    const dst = String(ofSite(b)[ofSite(b).length - 1]!.ip)
    const found = await look(src, dst)
    t.ok(found.length > 0, `${src} (${a}) → ${dst} (${b}): ${found.map((x) => `${x.hops.map((h) => h.device.hostname).join('>')}: ${x.end} (${x.detail})`).join(' | ')}`)
    for (const x of found) {
      t.equal(x.end, 'unmanaged neighbour', `ends at the provider edge: ${x.detail}`)
      t.match(x.hops.map((h) => h.device.siteName), x.hops.map(() => a), 'inside the source site')
      t.equal(new Set(x.hops.map((h) => h.device.hostname)).size, x.hops.length, 'no device twice')
    }
  }
  const site = ofSite(sites[0]!)
  const other = site.find((h) => h.vlan !== site[0]!.vlan)
  t.ok(other, 'a site has hosts in two VLANs')
  if (other) {
    const found = await look(String(site[0]!.ip), String(other.ip))
    t.same(found.map((x) => x.end), found.map(() => 'delivered'), `one site, two VLANs: ${found.map((x) => `${x.hops.map((h) => `${h.device.hostname} ${h.ingress ?? '-'}→${h.egress ?? '-'}`).join(' > ')}: ${x.end} (${x.detail})`).join(' | ')}`)
    // the gateway routes out of the destination's VLAN interface; the switches in front of the host are hops
    const [edge] = (await rows(client, 'addressing/hosts', { snapshot, columns: ['edges'], filters: { ip: ['eq', String(other.ip)] } }))[0]!.edges as Array<{ hostname: string; intName: string }>
    t.ok(edge, 'the hosts table knows the destination\'s switch port')
    for (const x of found) {
      const routed = x.hops.filter((h) => h.kind === 'l3')
      const last = routed[routed.length - 1]!
      t.match(last, { egress: /^(Vlan|irb\.|vlan)/i, mac: { intName: /./ } }, 'the gateway leaves by its VLAN interface, through the port its MAC table names')
      const switched = x.hops.slice(x.hops.indexOf(last) + 1)
      t.ok(switched.length > 0 && switched.every((h) => h.kind === 'l2'), 'switched hops follow the gateway')
      t.match(switched[switched.length - 1], { device: { hostname: edge!.hostname }, egress: edge!.intName }, 'the last switch sends it out of the host\'s port')
    }
  }
})
