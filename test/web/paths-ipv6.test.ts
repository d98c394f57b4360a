/**
 * The path lookup page with IPv6 addresses, in a real browser against `netinv serve` holding the
 * hand-made network of test/inventory/path-lookup/network.ts: the addresses go into the page's
 * address and to the API as typed, both ECMP branches show as the API answers them with the
 * neighbour entries (ND) of each routed hop, the way back too, and a pair of two families is the
 * API's 422 explained.
 */
import t from 'tap'
import { chromium, type Browser } from 'playwright-core'
import { freshPostgres } from '../helpers/db.js'
import { testNeeding } from '../helpers/requirements.js'
import { serve, tempDirs } from '../e2e/process.js'
import { HOSTS, HOSTS6, snapshotFile } from '../inventory/path-lookup/network.js'
import { buildInterface, CHROMIUM, existsChromium, FLAGS, guard, logIn, shot } from './browser.js'

const ADMIN_PASSWORD = 'paths-admin-password-1'

testNeeding(t, 'the path lookup page with IPv6 addresses', existsChromium(), async (t) => {
  const [webDir, db] = await Promise.all([buildInterface(t), freshPostgres(t, 1)])
  const dirs = tempDirs(t)
  const app = await serve(t, { DATA_DIR: dirs.dataDir, CONFIG_DIR: dirs.configDir, DATABASE_URL: db.url, ADMIN_PASSWORD, WEB_DIR: webDir })
  const base = app.url
  const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) })
  const admin = { authorization: `Bearer ${((await login.json()) as { accessToken: string }).accessToken}` }
  const up = await fetch(`${base}/api/snapshots/upload`, { method: 'POST', headers: { ...admin, 'content-type': 'application/x-ndjson' }, body: snapshotFile() })
  t.equal(up.status, 201, 'the hand-made snapshot is loaded')
  const snapshot = ((await up.json()) as { id: string }).id
  const graphs = async (src: string, dst: string) => {
    const r = await fetch(`${base}/api/graphs`, {
      method: 'POST', headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ snapshot, parameters: { type: 'pathLookup', pathLookupType: 'unicast', startingPoint: src, destinationPoint: dst, protocol: 'tcp', l4Options: { srcPorts: '1024-65535', dstPorts: '443' } } }),
    })
    return ((await r.json()) as { paths: { branches: Array<{ hops: Array<{ device: { hostname: string } }>; end: string }> } }).paths.branches
  }

  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true })
  t.teardown(() => browser.close())
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage()
  const check = guard(t, page, [/^POST \/api\/graphs 422$/, /^POST \/api\/graphs\/svg 422$/])
  await logIn(page, base, 'admin', ADMIN_PASSWORD, `/paths?snapshot=${snapshot}`)
  await page.getByRole('heading', { name: 'Path lookup' }).waitFor()
  await page.getByLabel('From (address)').fill(HOSTS6.h1)
  await page.getByLabel('To (address)').fill(HOSTS6.h2)
  await page.getByRole('button', { name: 'Look up' }).click()
  const there = page.getByRole('region', { name: 'Way there' })
  await there.waitFor()
  t.equal(new URL(page.url()).searchParams.get('src'), HOSTS6.h1, 'the lookup is in the page\'s address')
  t.match(await there.getByRole('heading', { level: 2 }).textContent(), `${HOSTS6.h1} → ${HOSTS6.h2}`, 'the heading names both IPv6 addresses')
  const branches = await graphs(HOSTS6.h1, HOSTS6.h2)
  t.equal(branches.length, 2, 'the API answers both ECMP branches')
  for (const [i, b] of branches.entries()) {
    t.equal(await there.getByRole('heading', { name: new RegExp(`^Branch ${i + 1}:`) }).textContent(), `Branch ${i + 1}: ${b.hops.map((h) => h.device.hostname).join(' → ')}`, `branch ${i + 1} as the API answers it`)
  }
  t.ok((await there.getByText(/^route 2001:db8:2::\/64 \(ospfv3\) via 2001:db8:12::2, ND 0c00\.0002\.0000$/).count()) > 0, 'a routed hop with its IPv6 route and the next hop\'s neighbour entry')
  const back = page.getByRole('region', { name: 'Way back' })
  await back.waitFor()
  t.match(await back.getByRole('heading', { level: 2 }).textContent(), `${HOSTS6.h2} → ${HOSTS6.h1}`)
  await page.locator('.path-drawing svg').waitFor()
  t.ok((await page.locator('.path-drawing svg text', { hasText: HOSTS6.h2 }).count()) > 0, 'the drawing names the IPv6 destination')
  await shot(page, 'path-lookup-ipv6')

  await page.getByLabel('To (address)').fill(HOSTS.h2)
  await page.getByRole('button', { name: 'Look up' }).click()
  await page.getByRole('alert').getByText(/must be an IPv6 address as "parameters\.startingPoint" is/).first().waitFor()
  t.pass('a pair of two families: the API\'s 422 explained')
  check()
})
