/**
 * Nautobot's IP Fabric integrations, replayed against `netinv serve` with the one recipe for older
 * clients (docs/api-versions.md, helm/netinv/examples/legacy-clients.yaml). Both are built on the
 * Python SDK ~6.0.9 (X-API-Token, httpx's User-Agent, the path generation /api/v5.0/ after the
 * version probe; that start-up is sdk-replay.test.ts's), so the request shapes are the SDK 6.0.9
 * calls they make (python-ipfabric v6.0.9 ipfabric/client.py: `fetch` sends `columns`, `snapshot`,
 * `pagination {start, limit}` and `filters`/`sort` when given; `fetch_all` and `Table.all()` take
 * the columns from `get_columns` (`columns: ["*"]`, the list out of the 422) when none are named and
 * page by 1000 until a short page; `Table.compare` runs `all()` on two snapshots without `id`).
 * Request shapes only, none of their code:
 *
 * - nautobot/nautobot-plugin-ssot-ipfabric at c3c1816 (ipfabric ~6.0.9),
 *   nautobot_ssot_ipfabric/diffsync/adapter_ipfabric.py `load()`: `inventory.sites.all()` (reads
 *   siteName, id), `inventory.devices.all()` (hostname, siteName, loginIp, sn, model, vendor),
 *   `inventory.interfaces.all()` (hostname, intName, dscr, mac, mtu, primaryIp),
 *   `fetch_all("tables/vlan/site-summary")` (siteName, vlanId, vlanName, dscr), for the snapshot
 *   chosen in jobs.py (an id from the loaded snapshots).
 * - nautobot/nautobot-plugin-chatops-ipfabric 3.0.1 at a67dd7a (ipfabric ~6.0.9),
 *   nautobot_chatops_ipfabric/worker.py and ipfabric_wrapper.py: every `fetch` with `limit=100`
 *   (DEFAULT_PAGE_LIMIT), the columns of IpFabric.*_COLUMNS, `ieq` / `eq` / `reg` filters, the
 *   interface sort `{order: desc, column: intName}`, and `compare` of a table between snapshots;
 *   its ICMP path lookup through community-fabric/python-ipfabric-diagrams v6.0.2
 *   (ipfabric_diagrams/graphs.py `diagram_png`: `graphs/png` with `{parameters, snapshot}`;
 *   input_models/graph_parameters.py `Unicast`: the addresses `with_prefixlen`, `l4Options` of an
 *   ICMP type and code).
 */
import t from 'tap'
import { call, waitForJob } from './client.js'
import type { Page, Row } from './answers.js'
import { HTTPX_HEADERS, serveForReplay, pathGeneration } from './legacy-client.js'

const ADMIN_PASSWORD = 'nautobot-replay-admin-password-1'

t.test('Nautobot SSoT and ChatOps for IP Fabric, replayed', async (t) => {
  const { base, admin, token } = await serveForReplay(t, ADMIN_PASSWORD, ['read'])
  // two sites of the small profile: wireless, BGP and OSPF, VLANs
  const started = await call(base, 'POST', '/api/snapshots', { headers: admin, body: { snapshotName: 'nautobot', profile: 'small', sites: ['ROME-01', 'BERLIN-02'] } })
  t.equal(started.status, 201, started.text)
  const snapshotId = started.json<{ id: string }>().id
  t.match((await waitForJob(base, started.json<{ jobId: string }>().jobId, admin, 6000)).job, { status: 'done' })

  const sdk = pathGeneration(base, token)

  /** `get_columns`: a bogus column, the list out of the 422. */
  const getColumns = async (path: string, snapshot: string): Promise<string[]> => {
    const r = await sdk('POST', path, { snapshot, columns: ['*'] })
    t.equal(r.status, 422, `${path}: columns ["*"] is 422`)
    const message = r.json<{ errors: Array<{ message: string }> }>().errors[0]!.message
    return (/".*".*\[(.*)]$/.exec(message)?.[1] ?? '').split(',').map((c) => c.trim())
  }
  /** `fetch_all` / `Table.all()`: the columns (named, or all), pages of 1000 until a short one. */
  const all = async (path: string, snapshot: string, columns?: string[], filters?: Row): Promise<Row[]> => {
    const payload: Row = { columns: columns ?? (await getColumns(path, snapshot)), snapshot, ...(filters ? { filters } : {}) }
    const rows: Row[] = []
    for (let start = 0; ; start += 1000) {
      const r = await sdk('POST', path, { ...payload, pagination: { limit: 1000, start } })
      t.equal(r.status, 200, `${path} page at ${start}: ${r.text.slice(0, 200)}`)
      const page = r.json<Page>().data
      rows.push(...page)
      if (page.length < 1000) return rows
    }
  }
  /** `fetch` with the chatops limit of 100. */
  const fetch100 = async (path: string, columns: string[], filters: Row, snapshot: string, sort?: Row): Promise<Row[]> => {
    const r = await sdk('POST', path, { columns, snapshot, pagination: { start: 0, limit: 100 }, filters, ...(sort ? { sort } : {}) })
    t.equal(r.status, 200, `${path}: ${r.text.slice(0, 300)}`)
    const rows = r.status === 200 ? r.json<Page>().data : []
    for (const row of rows.slice(0, 3)) t.same(Object.keys(row).sort(), [...columns].sort(), `${path}: a row has the requested columns`)
    return rows
  }

  // --- SSoT: the loaded snapshots to choose from (SDK 6.0.9 IPFClient.update), then load()
  const loaded = await sdk('POST', 'tables/management/snapshots', {
    columns: ['id', 'status', 'finishStatus', 'name', 'tsStart', 'tsEnd', 'locked', 'loading'],
    sort: { order: 'desc', column: 'tsEnd' },
    filters: { and: [{ status: ['eq', 'done'] }, { finishStatus: ['eq', 'done'] }] },
    pagination: { limit: 1000, start: 0 },
  })
  t.equal(loaded.status, 200)
  t.ok(loaded.json<Page>().data.some((s) => s.id === snapshotId), 'the snapshot is offered')

  const sites = await all('tables/inventory/sites', snapshotId)
  t.equal(sites.length, 2)
  for (const site of sites) t.match(site, { siteName: String, id: String }, 'a site has siteName and id')
  const devices = await all('tables/inventory/devices', snapshotId)
  t.ok(devices.length > 0)
  for (const d of devices) t.match(d, { hostname: String, siteName: String, sn: String, vendor: String }, 'a device has hostname, siteName, sn and vendor')
  t.ok(devices.every((d) => 'loginIp' in d && 'model' in d))
  const interfaces = await all('tables/inventory/interfaces', snapshotId)
  t.ok(interfaces.length > 0)
  for (const c of ['hostname', 'intName', 'dscr', 'mac', 'mtu', 'primaryIp']) t.ok(c in interfaces[0]!, `an interface has ${c}`)
  t.ok(
    devices.some((d) => interfaces.some((i) => i.hostname === d.hostname && i.primaryIp === d.loginIp)),
    'a device\'s loginIp is the primaryIp of one of its interfaces (the management interface the SSoT makes)',
  )
  const vlans = await all('tables/vlan/site-summary', snapshotId)
  t.ok(vlans.length > 0)
  for (const v of vlans) {
    t.type(v.siteName, 'string')
    t.ok(Number.isInteger(v.vlanId), 'vlanId is a number (the SSoT compares it with 1 and 4094)')
    t.ok('vlanName' in v && 'dscr' in v, 'vlanName and dscr')
  }

  // --- ChatOps
  const inventoryColumns = ['hostname', 'siteName', 'vendor', 'platform', 'model', 'memoryUtilization', 'version', 'sn', 'loginIp']
  const host = String(devices[0]!.hostname)
  t.equal((await fetch100('tables/inventory/devices', inventoryColumns, { siteName: ['ieq', 'rome-01'] }, '$last')).length > 0, true, 'inventory by site, ieq')
  t.equal((await fetch100('tables/inventory/devices', ['hostname', 'siteName', 'vendor', 'platform', 'model'], { hostname: ['ieq', host.toUpperCase()] }, snapshotId)).length, 1, 'device info by hostname, ieq')
  const sort = { order: 'desc', column: 'intName' }
  const router = String(devices.find((d) => interfaces.some((i) => i.hostname === d.hostname))!.hostname)
  const load = await fetch100('tables/interfaces/load/bidirectional', ['intName', 'bytes', 'pkts'], { hostname: ['ieq', router] }, snapshotId, sort)
  t.ok(load.length > 0, `interface load of ${router}`)
  await fetch100('tables/interfaces/errors/bidirectional', ['intName', 'errPktsPct', 'errRate'], { hostname: ['ieq', router] }, snapshotId, sort)
  await fetch100('tables/interfaces/drops/bidirectional', ['intName', 'dropsPktsPct', 'dropsRate'], { hostname: ['ieq', router] }, snapshotId, sort)
  const bgpColumns = ['hostname', 'localAs', 'srcInt', 'localAddress', 'vrf', 'neiHostname', 'neiAddress', 'neiAs', 'state', 'totalReceivedPrefixes']
  const bgp = await fetch100('tables/routing/protocols/bgp/neighbors', bgpColumns, { hostname: ['reg', '.'] }, snapshotId)
  if (bgp.length > 0) {
    const b = bgp[0]!
    await fetch100('tables/routing/protocols/bgp/neighbors', bgpColumns, { and: [{ hostname: ['ieq', String(b.hostname)] }, { state: ['ieq', String(b.state)] }] }, snapshotId)
  }
  const ssidColumns = ['wlanSsid', 'siteName', 'apName', 'radioDscr', 'radioStatus', 'clientCount']
  const radios = await fetch100('tables/wireless/radio', ssidColumns, {}, snapshotId)
  t.ok(radios.length > 0, 'radios with their SSIDs')
  const ssid = radios.find((r) => typeof r.wlanSsid === 'string' && r.wlanSsid !== '')?.wlanSsid
  const clientColumns = ['controller', 'siteName', 'apName', 'client', 'clientIp', 'ssid', 'rssi', 'signalToNoiseRatio', 'state']
  await fetch100('tables/wireless/clients', clientColumns, ssid ? { ssid: ['ieq', String(ssid)] } : {}, snapshotId)
  const hostColumns = ['ip', 'vrf', 'dnsName', 'siteName', 'edges', 'gateways', 'accessPoints', 'mac', 'vendor', 'vlan']
  const someHost = (await fetch100('tables/addressing/hosts', hostColumns, {}, snapshotId))[0]!
  for (const c of ['edges', 'gateways', 'accessPoints']) t.ok(Array.isArray(someHost[c]), `a host's ${c} is a list (utils.py iterates it)`)
  t.equal((await fetch100('tables/addressing/hosts', hostColumns, { ip: ['eq', String(someHost.ip)] }, snapshotId)).length >= 1, true, 'a host by ip, eq')
  t.equal((await fetch100('tables/addressing/hosts', hostColumns, { mac: ['eq', String(someHost.mac)] }, snapshotId)).length >= 1, true, 'a host by mac, eq')

  // pathlookup with protocol icmp (worker.py, ipfabric-diagrams 6.0.2 Unicast and diagram_png):
  // `graphs/png`, addresses with their prefix length as the model renders them, l4Options of the
  // ICMP type and code (echo request)
  const twoHosts = (await sdk('POST', 'tables/addressing/hosts', { columns: ['ip', 'siteName'], snapshot: snapshotId, pagination: { start: 0, limit: 1000 } })).json<Page>().data
  const [src, dst] = [twoHosts[0]!, twoHosts.find((h) => h.siteName !== twoHosts[0]!.siteName)!]
  const png = await fetch(`${base}/api/v5.0/graphs/png`, {
    method: 'POST',
    headers: { ...HTTPX_HEADERS, 'x-api-token': token, 'content-type': 'application/json' },
    body: JSON.stringify({
      parameters: {
        type: 'pathLookup', groupBy: 'siteName', protocol: 'icmp', ttl: 128, fragmentOffset: 0, securedPath: true, enableRegions: false, srcRegions: '.*', dstRegions: '.*',
        l4Options: { type: 8, code: 0 }, otherOptions: { applications: '.*', tracked: false }, firstHopAlgorithm: { type: 'automatic' },
        pathLookupType: 'unicast', networkMode: false, startingPoint: `${String(src.ip)}/32`, destinationPoint: `${String(dst.ip)}/32`,
      },
      snapshot: snapshotId,
    }),
  })
  const image = Buffer.from(await png.arrayBuffer())
  t.equal(png.status, 200, png.status === 200 ? 'graphs/png' : image.toString('utf8').slice(0, 300))
  t.equal(png.headers.get('content-type'), 'image/png')
  t.equal(image.subarray(1, 4).toString('latin1'), 'PNG', 'a PNG image')

  // compare: Table.all() on two snapshots with every column but id ($last and the id are the same one here)
  const compareColumns = (await getColumns('tables/inventory/devices', '$last')).filter((c) => c !== 'id')
  const now = await all('tables/inventory/devices', '$last', compareColumns)
  const then = await all('tables/inventory/devices', snapshotId, compareColumns)
  t.same(now, then, 'the same snapshot compares equal')
})
