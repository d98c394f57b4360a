/**
 * Hosts and sites after devices leave a snapshot (`DELETE snapshots/{id}/devices`): the figures
 * of every site are what its rows say (networks, VLANs, end hosts), a site without devices goes,
 * no host names a device that is gone, and a host no remaining device saw goes. (A device coming
 * back into a network snapshot, and its site with it, is tested against the lab.)
 */
import t, { type Test } from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { startApp, type Client } from '../app.js'

type Row = Record<string, unknown>
type Link = { sn: string }

async function rows(t: Test, api: Client, id: string, path: string, columns: string[]): Promise<Row[]> {
  const r = await api.call('POST', `tables/${path}`, { snapshot: id, columns, pagination: { limit: 10_000 } })
  t.equal(r.status, 200, `${path}: ${r.text.slice(0, 200)}`)
  return (r.body as { data: Row[] }).data
}

/** Each site's figures against its rows, and the hosts' devices against the devices. */
async function consistent(t: Test, api: Client, id: string): Promise<{ sites: Row[]; hosts: Row[] }> {
  const sites = await rows(t, api, id, 'inventory/sites', ['siteName', 'devicesCount', 'networksCount', 'vlanCount', 'usersCount'])
  const devices = await rows(t, api, id, 'inventory/devices', ['sn', 'siteName'])
  const nets = await rows(t, api, id, 'addressing/managed-devs', ['siteName', 'net'])
  const vlans = await rows(t, api, id, 'vlan/device', ['siteName', 'vlanId'])
  const hosts = await rows(t, api, id, 'addressing/hosts', ['siteName', 'edges', 'gateways'])
  const distinct = (list: Row[], site: unknown, key: string) => new Set(list.filter((r) => r.siteName === site).map((r) => JSON.stringify(r[key]))).size
  t.same(sites.map((s) => s.siteName).sort(), [...new Set(devices.map((d) => d.siteName))].sort(), 'one site row per site that holds a device')
  for (const s of sites) {
    t.same(
      [s.devicesCount, s.networksCount, s.vlanCount, s.usersCount],
      [devices.filter((d) => d.siteName === s.siteName).length, distinct(nets, s.siteName, 'net'), distinct(vlans, s.siteName, 'vlanId'), hosts.filter((h) => h.siteName === s.siteName).length],
      `figures of ${String(s.siteName)}`,
    )
  }
  const sns = new Set(devices.map((d) => d.sn))
  const strays = hosts.flatMap((h) => [...(h.edges as Link[]), ...(h.gateways as Link[])]).filter((l) => !sns.has(l.sn))
  t.same(strays, [], 'every device a host names is in the snapshot')
  return { sites, hosts }
}

for (const engine of ENGINES) {
  t.test(`hosts and sites follow the devices on ${engine}`, async (t) => {
    const db = await freshDb(t, engine)
    const api = await startApp(t, db)
    const id = await api.discover({ profile: 'lab' })
    const before = await consistent(t, api, id)
    const devices = await rows(t, api, id, 'inventory/devices', ['sn', 'loginIp', 'siteName', 'devType'])
    // every device of one site, and the switches of another
    const [gone, thinned] = before.sites.map((s) => String(s.siteName))
    const removed = devices.filter((d) => d.siteName === gone || (d.siteName === thinned && d.devType === 'switch'))
    t.ok(removed.some((d) => d.siteName === thinned), 'a site loses some of its devices')
    const removedSns = new Set(removed.map((d) => String(d.sn)))
    const seenOnlyByRemoved = before.hosts.filter((h) => {
      const links = [...(h.edges as Link[]), ...(h.gateways as Link[])]
      return links.length > 0 && links.every((l) => removedSns.has(l.sn))
    }).length
    t.ok(seenOnlyByRemoved > 0, 'some hosts were seen only by the removed devices')

    t.equal((await api.call('DELETE', `snapshots/${id}/devices`, [...removedSns])).status, 204)
    const after = await consistent(t, api, id)
    t.notOk(after.sites.some((s) => s.siteName === gone), 'the site without devices is gone')
    t.equal(after.hosts.length, before.hosts.length - seenOnlyByRemoved, 'the hosts no remaining device saw are gone; the others stay')
    t.ok(after.hosts.length > 0)

  })
}

t.test('hosts of an uploaded snapshot whose edges and gateways are not lists of devices: untouched, or only their device entries change', async (t) => {
  const db = await freshDb(t, 'pglite')
  const api = await startApp(t, db)
  const id = await api.discover({ profile: 'lab' })
  const [gone, stays] = (await rows(t, api, id, 'inventory/devices', ['sn'])).map((d) => String(d.sn))
  const lines = (await api.call('GET', `snapshots/${id}/download`)).text.split('\n')
  const section = lines.findIndex((l) => l.startsWith('{"table":"addressing/hosts"'))
  const columns = (JSON.parse(lines[section]!) as { columns: string[] }).columns
  const odd: Array<{ edges: unknown; gateways: unknown }> = [
    { edges: { port: 'Gi0/1' }, gateways: [] },
    { edges: [], gateways: [{ hostname: 'no serial' }, null, 7] },
    { edges: { port: 'Gi0/2' }, gateways: [{ sn: gone }, { sn: stays }] },
  ]
  const ids = odd.map((values, i) => {
    const row = JSON.parse(lines[section + 1 + i]!) as unknown[]
    row[columns.indexOf('edges')] = values.edges
    row[columns.indexOf('gateways')] = values.gateways
    lines[section + 1 + i] = JSON.stringify(row)
    return row[columns.indexOf('id')]
  })
  const up = await api.call('POST', 'snapshots/upload', lines.join('\n'), { 'content-type': 'application/x-ndjson' })
  t.equal(up.status, 201, up.text)
  const imported = (up.body as { id: string; jobId: string }).id
  t.match(await api.waitJob((up.body as { jobId: string }).jobId), { status: 'done' })
  const removed = await api.call('DELETE', `snapshots/${imported}/devices`, [gone])
  t.equal(removed.status, 204, removed.text)
  const after = new Map((await rows(t, api, imported, 'addressing/hosts', ['id', 'edges', 'gateways'])).map((h) => [h.id, h]))
  t.same(after.get(ids[0]), { id: ids[0], ...odd[0] }, 'edges that are no list, no gateway: unchanged')
  t.same(after.get(ids[1]), { id: ids[1], ...odd[1] }, 'entries without a serial: unchanged')
  t.same(after.get(ids[2]), { id: ids[2], edges: odd[2]!.edges, gateways: [{ sn: stays }] }, 'only the removed device leaves')
})
