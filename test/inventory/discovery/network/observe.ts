/** What a snapshot of the lab shows through the table API, in the shape of the lab's ground truth. */
import type { Client } from '../../app.js'
import type { Topology, Truth } from '../../../../src/lab/index.js'

async function rows(client: Client, snapshot: string, table: string, columns: string[]): Promise<Array<Record<string, unknown>>> {
  const r = await client.call('POST', `tables/${table}`, { snapshot, columns, pagination: { limit: 5000, start: 0 } })
  if (r.status !== 200) throw new Error(`${table}: ${r.status} ${r.text}`)
  return (r.body as { data: Array<Record<string, unknown>> }).data
}

const sorted = (list: Iterable<string>) => [...new Set(list)].sort()

export async function observe(client: Client, snapshot: string, topo: Topology): Promise<Truth> {
  const loopbacks = new Set(topo.routers.map((r) => r.loopback))
  const devices = await rows(client, snapshot, 'inventory/devices', ['hostname'])
  const neighbors = await rows(client, snapshot, 'neighbors/all', ['localHost', 'localInt', 'remoteHost', 'remoteInt', 'remoteSn'])
  const interfaces = await rows(client, snapshot, 'inventory/interfaces', ['hostname', 'intName', 'l1', 'l2'])
  const routes = await rows(client, snapshot, 'networks/routes', ['hostname', 'network', 'prefix', 'protocol'])
  const bgp = await rows(client, snapshot, 'routing/protocols/bgp/neighbors', ['hostname', 'neiAddress', 'neiAs', 'state'])
  const hosts = await rows(client, snapshot, 'addressing/hosts', ['ip', 'gateways'])
  const ospf = await rows(client, snapshot, 'routing/protocols/ospf/neighbors', ['hostname', 'neiIp', 'state'])
  return {
    devices: sorted(devices.map((d) => String(d.hostname))),
    neighbors: sorted(neighbors.filter((n) => n.remoteSn !== null).map((n) => `${n.localHost}:${n.localInt}>${n.remoteHost}:${n.remoteInt}`)),
    interfaces: sorted(interfaces.filter((i) => /^(eth\d+|mgmt0)$/.test(String(i.intName))).map((i) => `${i.hostname}:${i.intName}=${i.l1}/${i.l2}`)),
    connected: sorted(routes.filter((r) => r.protocol === 'connected').map((r) => `${r.hostname}:${r.network}`)),
    loopbackRoutes: sorted(routes.filter((r) => r.prefix === 32 && loopbacks.has(String(r.network).replace(/\/32$/, ''))).map((r) => `${r.hostname}>${String(r.network).replace(/\/32$/, '')}`)),
    bgp: sorted(bgp.map((b) => `${b.hostname}>${b.neiAddress} AS ${b.neiAs} ${b.state === 'established' ? 'up' : 'down'}`)),
    ospf: sorted(ospf.map((o) => `${o.hostname}>${o.neiIp} ${o.state}`)),
    arp: sorted(hosts.flatMap((h) => (h.gateways as Array<{ hostname: string; intName: string }>).map((g) => `${g.hostname}:${g.intName}=${h.ip}`))),
  }
}

/** What is in `b` and not in `a` (+) and the reverse (-), per kind. */
export function diff(a: Truth, b: Truth): Record<keyof Truth, string[]> {
  const out = {} as Record<keyof Truth, string[]>
  for (const key of Object.keys(a) as Array<keyof Truth>) {
    const before = new Set(a[key])
    const after = new Set(b[key])
    out[key] = [...[...after].filter((x) => !before.has(x)).map((x) => `+${x}`), ...[...before].filter((x) => !after.has(x)).map((x) => `-${x}`)].sort()
  }
  return out
}
