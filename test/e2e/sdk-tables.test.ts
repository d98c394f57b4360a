/**
 * The 6.0.9 Python SDK's table sweep, replayed against `netinv serve` with the one recipe for
 * older clients (docs/api-versions.md): for every table path the SDK names
 * (test/fixtures/sdk-6.0.9-tables.json: paths and the column names the SDK, its factory intent
 * rules and the integrations built on it request), the SDK's `get_columns` (a bogus column, the
 * list parsed out of the 422) and then a fetch of every column of the last snapshot, as the SDK
 * sends them (X-API-Token, httpx's User-Agent, the path generation /api/v5.0/).
 */
import t from 'tap'
import { readFileSync } from 'node:fs'
import { call, waitForJob } from './client.js'
import type { Page } from './answers.js'
import { HTTPX_HEADERS, serveForReplay, pathGeneration } from './legacy-client.js'

const ADMIN_PASSWORD = 'sdk-tables-admin-password-1'
const FIXTURE = JSON.parse(readFileSync(new URL('../fixtures/sdk-6.0.9-tables.json', import.meta.url), 'utf8')) as { tables: Record<string, string[]> }

/** Tables the simulator fills in the sites discovered below (those this change added or completed). */
const FILLED = [
  'tables/interfaces/load/bidirectional',
  'tables/interfaces/transfer-rates/inbound-device',
  'tables/interfaces/errors/outbound',
  'tables/interfaces/drops/bidirectional-device',
  'tables/routing/protocols/ospf/interfaces',
  'tables/wireless/access-points',
  'tables/wireless/radio',
  'tables/users',
  'tables/roles',
  // read from what snapshots already hold (IPv6 addresses and neighbours: the discovery tests)
  'tables/fhrp/group-members',
  'tables/networks/gateway-redundancy',
  'tables/interfaces/mtu',
  'tables/inventory/discovery-history',
  // computed from the routing, neighbour and spanning-tree tables
  'tables/networks/summary/protocols',
  'tables/networks/summary/protocols/bgp',
  'tables/networks/summary/protocols/ospf',
  'tables/networks/summary/protocols/ospfv3',
  'tables/routing/protocols/ospf-v3/interfaces',
  'tables/spanning-tree/neighbors',
]

t.test('every table of the 6.0.9 SDK answers with its columns', async (t) => {
  const { base, admin, token } = await serveForReplay(t, ADMIN_PASSWORD, ['read', 'write', 'settings', 'team'])
  // two sites of the small profile: access points with radios, OSPF, counters
  const started = await call(base, 'POST', '/api/snapshots', { headers: admin, body: { snapshotName: 'sdk tables', profile: 'small', sites: ['ROME-01', 'BERLIN-02'] } })
  t.equal(started.status, 201, started.text)
  t.match((await waitForJob(base, started.json<{ jobId: string }>().jobId, admin, 6000)).job, { status: 'done' })

  // as the SDK sends them; it does not retry a 429 (the recipe's per-address limit fits its sweep)
  const sdk = pathGeneration(base, token)

  const listing = await sdk('GET', 'tables')
  t.equal(listing.status, 200)
  const listed = new Map(listing.json<Array<{ path: string; collected: boolean; description: string }>>().map((x) => [`tables/${x.path}`, x]))

  const paths = Object.keys(FIXTURE.tables)
  t.equal(paths.length, 282, 'the fixture names every table path of the SDK')
  let ok = 0
  let empty = 0
  for (const path of paths) {
    // get_columns: the 422 of a bogus column lists them
    const bogus = await sdk('POST', path, { snapshot: '$last', columns: ['*'] })
    if (bogus.status !== 422) {
      t.fail(`${path}: columns ["*"] answers ${bogus.status} ${bogus.text.slice(0, 200)}`)
      continue
    }
    const message = bogus.json<{ errors: Array<{ message: string }> }>().errors[0]!.message
    const columns = (/".*".*\[(.*)]$/.exec(message)?.[1] ?? '').split(',').map((c) => c.trim())
    t.same(FIXTURE.tables[path]!.filter((c) => !columns.includes(c)), [], `${path} has every column the SDK's side names`)
    // the SDK's fetch of every column
    const r = await sdk('POST', path, { snapshot: '$last', columns, pagination: { limit: 1000, start: 0 } })
    if (r.status !== 200) {
      t.fail(`${path}: ${r.status} ${r.text.slice(0, 200)}`)
      continue
    }
    const page = r.json<Page>()
    t.ok(Array.isArray(page.data) && Number.isInteger(page._meta.count), `${path} parses`)
    for (const row of page.data.slice(0, 3)) t.same(Object.keys(row).sort(), [...columns].sort(), `${path}: a row has every column`)
    ok++
    if (page._meta.count === 0) empty++
    const table = listed.get(path)
    if (path === 'tables/users' || path === 'tables/roles') continue // the gateway's tables
    if (!table) {
      t.fail(`${path} is not in GET tables`)
      continue
    }
    if (table.collected) {
      t.notMatch(table.description, /not collected by netinv/i, `${path} is collected`)
    } else {
      t.match(table.description, /Not collected by netinv/, `${path} says it is not collected`)
      t.equal(page._meta.count, 0, `${path}, not collected, has no rows`)
    }
  }
  t.equal(ok, paths.length, `${ok} of ${paths.length} table paths answer 200 (${empty} with no rows)`)
  t.comment(`collected: ${[...listed.values()].filter((x) => x.collected).length}, not collected: ${[...listed.values()].filter((x) => !x.collected).length}`)

  for (const path of FILLED) {
    const r = await sdk('POST', path, { snapshot: '$last', columns: ['id'], pagination: { limit: 1, start: 0 } })
    t.ok(r.json<Page>()._meta.count > 0, `${path} has rows`)
  }
  // the remaining columns of item 2, from the discovered data
  const sites = (await sdk('POST', 'tables/inventory/sites', { snapshot: '$last', columns: ['siteName', 'stpDomains', 'stpDCount', 'rDomains', 'rDCount'] })).json<Page>().data
  for (const site of sites) {
    t.ok(Array.isArray(site.stpDomains), `${String(site.siteName)}: stpDomains is a list`)
    t.equal(site.stpDCount, (site.stpDomains as unknown[]).length, `${String(site.siteName)}: stpDCount counts them`)
  }
  t.ok(sites.some((s) => (s.stpDCount as number) > 0), 'a site has an STP domain')
  const hosts = (await sdk('POST', 'tables/addressing/hosts', { snapshot: '$last', columns: ['ip', 'vrf', 'uniqId', 'accessPoints'], pagination: { limit: 5, start: 0 } })).json<Page>().data
  for (const h of hosts) t.equal(h.uniqId, `${String(h.vrf ?? '')}/${String(h.ip)}`, 'uniqId is the VRF and address')
  // users and roles as the SDK's user management reads them
  const users = await sdk('POST', 'tables/users', { columns: ['id', 'isLocal', 'username', 'ssoProvider', 'ldapId', 'domainSuffixes', 'email', 'roleNames', 'roleIds', 'timezone'], filters: { username: ['ieq', 'ADMIN'] }, pagination: { limit: 1000, start: 0 } })
  t.match(users.json<Page>().data, [{ username: 'admin', isLocal: true, roleNames: ['read', 'settings', 'team', 'write', 'admin'] }])
  const roles = await sdk('POST', 'tables/roles', { columns: ['id', 'name', 'description', 'type', 'isAdmin', 'isSystem'], filters: { name: ['ieq', 'read'] }, pagination: { limit: 1000, start: 0 } })
  t.match(roles.json<Page>().data, [{ id: 'read', name: 'read', isAdmin: false, isSystem: true }])
  // a key without team sees no users
  const readKey = (await call(base, 'POST', '/api/api-tokens', { headers: admin, body: { description: 'reader', scope: ['read'] } })).json<{ token: string }>().token
  const denied = await call(base, 'POST', '/api/v5.0/tables/users', { headers: { ...HTTPX_HEADERS, 'x-api-token': readKey }, body: { columns: ['id'] } })
  t.equal(denied.status, 403, 'tables/users needs the scope team')
})
