/**
 * The web interface in a real browser (Debian's chromium driven by playwright-core), against one
 * `netinv serve` on PostgreSQL for the whole file, serving the interface built from web/ by this
 * test. Every page is checked for console errors, content-policy violations and error answers
 * it did not expect; each step saves a screenshot under .tap/screenshots/web/.
 */
import type { ServerResponse } from 'node:http'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import t from 'tap'
import { freshPostgres } from '../helpers/db.js'
import { testNeeding } from '../helpers/requirements.js'
import { directoryConfig, PASSWORDS, slapdMissing, startSlapd } from '../helpers/slapd.js'
import { freePort, serve, tempDirs } from '../e2e/process.js'
import { startProvider } from '../gateway/auth/oidc-lab.js'
import { ADMIN_PASSWORD as GATEWAY_ADMIN_PASSWORD, startGateway } from '../gateway/handlers/helper.js'
import { buildInterface, CHROMIUM, darkPixels, existsChromium, FLAGS, guard, logIn, shot } from './browser.js'

const ADMIN_PASSWORD = 'ui-admin-password-1'

type Json = Record<string, unknown>

testNeeding(t, 'the web interface in chromium', existsChromium(), async (t) => {
  const [webDir, db] = await Promise.all([buildInterface(t), freshPostgres(t, 1)])
  const dirs = tempDirs(t)
  const app = await serve(t, { DATA_DIR: dirs.dataDir, CONFIG_DIR: dirs.configDir, DATABASE_URL: db.url, ADMIN_PASSWORD, WEB_DIR: webDir })
  const base = app.url
  const api = async (method: string, path: string, headers: Record<string, string>, body?: unknown, accept = 'application/json'): Promise<Response> =>
    fetch(`${base}/api/${path}`, { method, headers: { ...headers, accept, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  const tokens = (await (await api('POST', 'auth/login', {}, { username: 'admin', password: ADMIN_PASSWORD })).json()) as { accessToken: string }
  const admin = { authorization: `Bearer ${tokens.accessToken}` }
  const key = ((await (await api('POST', 'api-tokens', admin, { description: 'ui test', scope: ['read', 'write'] })).json()) as { token: string }).token
  const byKey = { 'x-api-token': key }
  t.equal((await api('POST', 'users', admin, { username: 'newbie', password: 'newbie-password-1', scope: ['read', 'write'] })).status, 201)
  t.equal((await api('POST', 'users', admin, { username: 'reader', password: 'reader-password-1', scope: ['read'], eulaApproved: true })).status, 201)

  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true })
  t.teardown(() => browser.close())
  const open = async (viewport = { width: 1280, height: 860 }): Promise<Page> => {
    const context = await browser.newContext({ viewport, acceptDownloads: true })
    return context.newPage()
  }

  let first = ''
  let second = ''
  /** The query of the path lookup page's test, audited by axe too. */
  let pathQuery = ''

  await t.test('log in, start a discovery and watch it to the end; a second one runs beside it', async (t) => {
    const page = await open()
    const check = guard(t, page, [/^DELETE \/api\/snapshots\/[0-9a-f-]{36} 409$/])
    await page.goto(base)
    await shot(page, '01-login')
    await logIn(page, base, 'admin', ADMIN_PASSWORD, '/snapshots')
    await page.getByRole('heading', { name: 'Snapshots' }).waitFor()
    await page.getByLabel('Name').fill('monday')
    await page.getByRole('button', { name: 'Discover' }).click()
    const state = page.locator('.job-state')
    await state.waitFor()
    first = new URL(page.url()).searchParams.get('job') ?? ''
    t.match(first, /^[0-9a-f-]{36}$/, 'the job is in the address')
    const started = (await (await api('POST', 'snapshots', byKey, { source: 'simulator', snapshotName: 'tuesday', profile: 'lab', seed: 1 })).json()) as { id: string; jobId: string }
    await shot(page, '02-discovery-running')
    await page.locator('.job-state[data-status="done"]').waitFor({ timeout: 60_000 })
    t.match(await state.textContent(), /done: finished \(100 %\)/)
    const job = (await (await api('GET', `jobs/${first}`, byKey)).json()) as { snapshot: string }
    first = job.snapshot
    await page.locator(`tr[data-snapshot="${first}"]`).getByText('loaded, done').waitFor()
    for (;;) {
      const j = (await (await api('GET', `jobs/${started.jobId}`, byKey)).json()) as { isDone: boolean; status: string }
      if (j.isDone) {
        t.equal(j.status, 'done')
        break
      }
      await new Promise((r) => setTimeout(r, 200))
    }
    second = started.id
    await page.reload()
    await page.locator(`tr[data-snapshot="${second}"]`).getByText('loaded, done').waitFor()
    // The two ran side by side: the one that ended later has the other as its previous snapshot
    // (the one that ended first has none), whichever of them that is on this machine.
    const ended = async (id: string) => ((await (await api('GET', `snapshots/${id}`, byKey)).json()) as { tsEnd: number }).tsEnd
    const [later, laterName] = (await ended(second)) >= (await ended(first)) ? [second, 'tuesday'] : [first, 'monday']
    await page.locator(`tr[data-snapshot="${later}"]`).getByRole('link', { name: 'Changes' }).click()
    const changes = page.getByRole('region', { name: new RegExp(`^Changes in ${laterName}`) })
    // The comparison with the snapshot before is kept in the background once the discovery is
    // done; asked at once, the changes wait for it (its length follows the machine's load).
    await changes.getByRole('link', { name: 'inventory/interfaces' }).waitFor({ timeout: 120_000 })
    const counts = (await (await api('GET', `snapshots/${later}/changes`, byKey)).json()) as { tables: Array<{ table: string; changed: number }> }
    const interfaces = counts.tables.find((c) => c.table === 'inventory/interfaces')!
    t.ok(interfaces.changed > 0, 'the second discovery changed some interfaces')
    t.equal(await changes.getByRole('row', { name: /^inventory\/interfaces/ }).locator('td').nth(3).textContent(), String(interfaces.changed))
    await shot(page, '03-snapshots')

    // A locked snapshot cannot be deleted: the 409 is explained.
    const monday = page.locator(`tr[data-snapshot="${first}"]`)
    await monday.getByRole('button', { name: 'Lock' }).click()
    await monday.getByText('locked', { exact: true }).waitFor()
    page.once('dialog', (d) => void d.accept())
    await monday.getByRole('button', { name: 'Delete monday' }).click()
    const refusal = page.getByRole('alert')
    await refusal.waitFor()
    t.match(await refusal.textContent(), /Cannot delete "monday".*locked.*unlock/)
    await monday.getByRole('button', { name: 'Unlock' }).click()
    await monday.getByRole('button', { name: 'Lock' }).waitFor()
    check()
  })

  await t.test('a new user approves the EULA, then is logged in', async (t) => {
    const page = await open()
    const check = guard(t, page, [/^POST \/api\/auth\/login 403$/])
    await logIn(page, base, 'newbie', 'newbie-password-1')
    await page
      .getByRole('heading', { name: 'End user license agreement' })
      .waitFor()
      .catch(async (err: unknown) => {
        throw new Error(`no EULA step at ${page.url()}: ${(await page.locator('body').innerText().catch(() => '(no page)')).slice(0, 600)}`, { cause: err })
      })
    await shot(page, '04-eula')
    await page.getByRole('button', { name: 'Accept and log in' }).click()
    await page.getByRole('heading', { name: 'Overview' }).waitFor()
    t.equal(await page.locator('.who .user').textContent(), 'newbie')
    const users = (await (await api('GET', 'users', admin)).json()) as Array<{ username: string; eulaApproved: boolean }>
    t.equal(users.find((u) => u.username === 'newbie')?.eulaApproved, true, 'the approval is recorded')
    check()
  })

  await t.test('overview: counts and the intent rules per severity in their colours', async (t) => {
    const page = await open()
    const check = guard(t, page)
    await logIn(page, base, 'admin', ADMIN_PASSWORD, `/overview?snapshot=${second}`)
    await page.getByRole('heading', { name: 'Intent rules' }).waitFor()
    await page.locator('a.badge').first().waitFor()
    const snap = ((await (await api('GET', 'snapshots', byKey)).json()) as Array<{ id: string; totalDevCount: number }>).find((s) => s.id === second)!
    t.equal(await page.locator('.count .figure').first().textContent(), String(snap.totalDevCount))
    t.ok((await page.locator('a.badge.sev-30').count()) > 0, 'red counts shown')
    t.ok((await page.locator('a.badge.sev-0').count()) > 0, 'green counts shown')
    await shot(page, '05-overview')
    await page.locator('a.badge.sev-30').first().click()
    await page.getByText(/^Rows 1–/).waitFor()
    t.ok((await page.locator('td.sev-30').count()) > 0, 'the link opens the red rows, coloured')
    check()
  })

  await t.test('intent rules: counts per severity; a custom rule made, changed and deleted with the filter builder', async (t) => {
    const page = await open()
    const check = guard(t, page)
    type Rule = { id: string; name: string; custom: boolean; checks: Json; result: { checks: Record<string, string> } }
    const rules = async () => (await (await api('GET', `reports?snapshot=${second}`, byKey)).json()) as Rule[]
    await logIn(page, base, 'admin', ADMIN_PASSWORD, `/reports?snapshot=${second}`)
    await page.getByRole('heading', { name: 'Intent rules' }).waitFor()
    const red = (await rules()).find((r) => Number(r.result.checks['30'] ?? 0) > 0)!
    t.equal(await page.locator(`tr[data-rule="${red.id}"] a.badge.sev-30`).textContent(), red.result.checks['30'], 'a built-in rule\'s red count, in red')

    await page.getByRole('button', { name: 'New rule' }).click()
    const form = page.getByRole('form', { name: 'New rule' })
    await form.getByLabel('Rule name').fill('firewalls <i>red</i>')
    await form.getByLabel('Table').selectOption('inventory/devices')
    await form.getByLabel('Coloured column').selectOption('hostname')
    await form.getByRole('checkbox', { name: 'red when the row matches' }).check()
    const builder = form.getByRole('region', { name: 'red check' })
    await builder.getByRole('button', { name: '+ Condition' }).click()
    await builder.getByLabel('Column').selectOption('hostname')
    await builder.getByLabel('Operator').selectOption('like')
    await builder.getByLabel('Value').fill('fw')
    await shot(page, '14-rules-editor')
    await form.getByRole('button', { name: 'Save rule' }).click()
    const row = page.getByRole('row', { name: /^firewalls <i>red<\/i>\s*custom/ })
    await row.waitFor()
    const made = (await rules()).find((r) => r.name === 'firewalls <i>red</i>')!
    t.same(made.checks, { '30': { and: [{ hostname: ['like', 'fw'] }] } }, 'the rule the builder made')
    t.ok(Number(made.result.checks['30']) > 0, 'it colours some devices red')
    await row.locator('a.badge.sev-30').filter({ hasText: made.result.checks['30'] }).waitFor()

    await page.getByRole('button', { name: 'Edit firewalls <i>red</i>' }).click()
    const edit = page.getByRole('form', { name: /^Edit rule/ })
    t.equal(await edit.getByRole('region', { name: 'red check' }).getByLabel('Value').inputValue(), 'fw', 'the builder shows the rule\'s filter')
    await edit.getByLabel('Rule name').fill('firewalls')
    await edit.getByRole('button', { name: 'Save rule' }).click()
    const renamed = page.getByRole('row', { name: /^firewalls\s*custom/ })
    await renamed.waitFor()
    await renamed.scrollIntoViewIfNeeded()
    await shot(page, '15-rules')

    page.once('dialog', (d) => void d.accept())
    await page.getByRole('button', { name: 'Delete firewalls' }).click()
    await renamed.waitFor({ state: 'detached' })
    t.notOk((await rules()).some((r) => r.id === made.id), 'deleted in the API')
    check()

    // Scope settings taken away while the page is open: the save meets a 403, explained.
    const made2 = (await (await api('POST', 'users', admin, { username: 'ruler', password: 'ruler-password-1', scope: ['read', 'settings'], eulaApproved: true })).json()) as { id: string }
    const ruler = await open()
    const checkRuler = guard(t, ruler, [/^POST \/api\/reports 403$/])
    await logIn(ruler, base, 'ruler', 'ruler-password-1', `/reports?snapshot=${second}`)
    await ruler.getByRole('button', { name: 'New rule' }).click()
    const late = ruler.getByRole('form', { name: 'New rule' })
    await late.getByLabel('Rule name').fill('too late')
    await late.getByRole('checkbox', { name: 'red when the row matches' }).check()
    t.equal((await api('PATCH', `users/${made2.id}`, admin, { scope: ['read'] })).status, 200)
    await late.getByRole('button', { name: 'Save rule' }).click()
    t.match(await late.getByRole('alert').textContent(), /Scope "settings" is required.*lacks the scope/, 'the 403 is explained')
    checkRuler()

    const reader = await open()
    const checkReader = guard(t, reader)
    await logIn(reader, base, 'reader', 'reader-password-1', '/reports')
    await reader.locator(`tr[data-rule="${red.id}"]`).waitFor()
    t.equal(await reader.getByRole('button', { name: 'New rule' }).count(), 0, 'no New rule without the scope settings')
    await reader.getByText(/made and changed by users with the scope "settings"/).waitFor()
    checkReader()
  })

  await t.test('table explorer: an or group and a cidr, sort, page, CSV, the description body, compare', async (t) => {
    const page = await open()
    const check = guard(t, page)
    await logIn(page, base, 'admin', ADMIN_PASSWORD, `/inventory/interfaces?snapshot=${second}`)
    await page.getByText(/^Rows 1–50 of \d+/).waitFor()

    // Filter: primaryIp in 10.0.0.0/8, and (hostname like "ber01" or hostname like "lon01").
    const filters = page.getByRole('region', { name: 'Filters' })
    await filters.getByRole('button', { name: '+ Condition' }).click()
    const root = filters.locator('.condition').first()
    await root.getByLabel('Column').selectOption('primaryIp')
    await root.getByLabel('Operator').selectOption('cidr')
    await root.getByLabel('Value').fill('10.0.0.0/8')
    await filters.getByRole('button', { name: '+ Group' }).first().click()
    const group = filters.locator('fieldset.depth-1')
    t.equal(await group.getByLabel('Group must match').inputValue(), 'or')
    await group.getByRole('button', { name: '+ Condition' }).click()
    const conditions = group.locator('.condition')
    for (const [i, site] of [[0, 'ber01'], [1, 'lon01']] as const) {
      await conditions.nth(i).getByLabel('Column').selectOption('hostname')
      await conditions.nth(i).getByLabel('Operator').selectOption('like')
      await conditions.nth(i).getByLabel('Value').fill(site)
    }
    await filters.getByRole('button', { name: 'Apply filters' }).click()
    const expected = { and: [{ primaryIp: ['cidr', '10.0.0.0/8'] }, { or: [{ hostname: ['like', 'ber01'] }, { hostname: ['like', 'lon01'] }] }] }
    await page.waitForURL((u) => u.searchParams.get('filters') === JSON.stringify(expected))
    const body = (sort: Json, start = 0) => ({ snapshot: second, columns: undefined as unknown, filters: expected, pagination: { start, limit: 50 }, sort, reports: '/inventory/interfaces' })
    const columns = ((await (await api('GET', 'tables/inventory/interfaces/description', byKey)).json()) as { columns: Array<{ name: string }> }).columns.map((c) => c.name)
    const ask = async (sort: Json, start = 0) => (await (await api('POST', 'tables/inventory/interfaces', byKey, { ...body(sort, start), columns })).json()) as { data: Json[]; _meta: { count: number } }
    const filtered = await ask({ column: 'hostname', order: 'asc' })
    t.ok(filtered._meta.count > 50 && filtered._meta.count < 400, `the filter keeps some rows (${filtered._meta.count})`)
    await page.getByText(`Rows 1–50 of ${filtered._meta.count}`).waitFor()
    await shot(page, '06-explorer-filtered')

    // Sort by a header, twice: descending.
    const header = page.getByRole('button', { name: /^intName/ })
    await header.click()
    await page.waitForURL((u) => u.searchParams.get('sort') === 'intName:asc')
    await header.click()
    await page.waitForURL((u) => u.searchParams.get('sort') === 'intName:desc')
    const sorted = await ask({ column: 'intName', order: 'desc' })
    const firstCell = page.locator('table.data tbody tr').first().locator('td').nth(columns.indexOf('intName'))
    await t.resolves(firstCell.filter({ hasText: String(sorted.data[0]!.intName) }).waitFor(), 'the first row is the API\'s first row')
    t.equal(await page.locator('th[aria-sort="descending"]').textContent(), 'intName ▼')

    // Next page.
    await page.getByRole('button', { name: 'Next' }).click()
    await page.waitForURL((u) => u.searchParams.get('start') === '50')
    const pageTwo = await ask({ column: 'intName', order: 'desc' }, 50)
    await page.getByText(`Rows 51–${Math.min(100, filtered._meta.count)} of ${filtered._meta.count}`).waitFor()
    await page.locator('table.data tbody tr').first().locator('td').nth(columns.indexOf('id')).filter({ hasText: String(pageTwo.data[0]!.id) }).waitFor()

    // CSV of the view: the API's CSV, byte for byte.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()])
    const file = readFileSync((await download.path())!)
    const { pagination: _p, ...all } = { ...body({ column: 'intName', order: 'desc' }), columns }
    const csv = Buffer.from(await (await api('POST', 'tables/inventory/interfaces', byKey, all, 'text/csv')).arrayBuffer())
    t.ok(file.length > 1000, `the export has rows (${file.length} bytes)`)
    t.ok(file.equals(csv), 'the downloaded CSV equals the API\'s')
    t.equal(download.suggestedFilename(), 'inventory-interfaces.csv')

    // The description panel's body runs as is against the API and gives the rows shown.
    await page.getByRole('button', { name: '? Table description' }).click()
    const shown = JSON.parse((await page.getByLabel('Request body').textContent()) ?? '') as Json
    t.same(shown.filters, expected)
    const again = (await (await api('POST', 'tables/inventory/interfaces', byKey, shown)).json()) as { data: Json[] }
    t.same(again.data.map((r) => r.id), pageTwo.data.map((r) => r.id), 'the body gives the rows of the view')
    t.match(await page.getByLabel('curl command').textContent(), /^curl -s '.*\/api\/tables\/inventory\/interfaces' -H "X-API-Token: \$KEY"/)
    await shot(page, '07-explorer-description')

    // Compare with the first snapshot: changed cells show old → new.
    const diffFilter = encodeURIComponent(JSON.stringify({ change: ['eq', 'changed'] }))
    await page.goto(`${base}/inventory/interfaces?snapshot=${second}&compare=${first}&filters=${diffFilter}`)
    await page.locator('td.changed').first().waitFor()
    t.match(await page.locator('td.changed').first().textContent(), /→/)
    t.match(await page.locator('td.diff').first().textContent(), /^\w+:.*→/, 'the changed columns of the row, old → new')
    t.equal(await filters.locator('.condition').first().getByLabel('Column').inputValue(), 'change', 'the builder knows the change column')
    const changes = (await (await api('POST', 'tables/inventory/interfaces', byKey, { snapshot: second, compare: { snapshot: first }, columns: ['id'], filters: { change: ['eq', 'changed'] }, pagination: { start: 0, limit: 1 } })).json()) as { _meta: { count: number } }
    await page.getByText(`of ${changes._meta.count}`).waitFor()
    await shot(page, '08-explorer-compare')
    check()
  })

  await t.test('a long page is virtualised: the rows in view are in the document, the keyboard scrolls to the last', async (t) => {
    const page = await open()
    const check = guard(t, page)
    const columns = ((await (await api('GET', 'tables/inventory/interfaces/description', byKey)).json()) as { columns: Array<{ name: string }> }).columns.map((c) => c.name)
    const ask = async (start: number) => (await (await api('POST', 'tables/inventory/interfaces', byKey, { snapshot: second, columns: ['id'], sort: { column: 'id', order: 'asc' }, pagination: { start, limit: 1 } })).json()) as { data: Json[]; _meta: { count: number } }
    const total = (await ask(0))._meta.count
    const size = Math.min(500, total)
    t.ok(size > 100, `a page longer than 100 rows (${size})`)
    await logIn(page, base, 'admin', ADMIN_PASSWORD, `/inventory/interfaces?snapshot=${second}&limit=500&sort=id:asc`)
    await page.getByText(`Rows 1–${size} of ${total}`).waitFor()
    t.equal(await page.locator('table.data').getAttribute('aria-rowcount'), String(size + 1), 'the table says how many rows the page has')
    const rendered = await page.locator('table.data tbody tr[aria-rowindex]').count()
    t.ok(rendered > 10 && rendered < 100, `only the rows in view and around them are in the document (${rendered} of ${size})`)
    // End scrolls the focused region to its bottom; pressed again if the rows were still being
    // drawn when the first one arrived (seen once on a loaded machine)
    const region = page.getByRole('region', { name: 'Rows of inventory/interfaces' })
    const last = page.locator(`table.data tbody tr[aria-rowindex="${size + 1}"]`)
    for (let i = 0; i < 3 && (await last.count()) === 0; i++) {
      await region.focus()
      await page.keyboard.press('End')
      await last.waitFor({ timeout: 10_000 }).catch(() => undefined)
    }
    const where = (await page.evaluate("(() => { const e = document.querySelector('.scroll.rows'); return 'focused: ' + (document.activeElement === e) + ', scrollTop ' + e.scrollTop + ' of ' + (e.scrollHeight - e.clientHeight) })()")) as string
    t.equal(await last.count(), 1, `the last row is drawn (${where})`)
    t.equal(await last.locator('td').nth(columns.indexOf('id')).textContent(), String((await ask(size - 1)).data[0]!.id), 'End shows the last row of the page')
    t.equal(await page.locator('table.data tbody tr[aria-rowindex="2"]').count(), 0, 'the first row has left the document')
    // the header covers the rows scrolled under it, up to the region's top edge: nothing dark is
    // painted in the strip above the header's labels (row text showed there once)
    const strip = (await page.evaluate(`(() => {
      const region = document.querySelector('.scroll.rows')
      const r = region.getBoundingClientRect()
      return { x: r.left + region.clientLeft + 2, y: r.top + region.clientTop, width: Math.min(400, region.clientWidth - 4), height: 4 }
    })()`)) as { x: number; y: number; width: number; height: number }
    t.equal(await darkPixels(page, strip), 0, 'no row shows above the header')
    await shot(page, '18-explorer-virtual-end')
    check()
  })

  await t.test('topology: the neighbours of a site drawn as a graph, searchable', async (t) => {
    const page = await open()
    const check = guard(t, page)
    await logIn(page, base, 'admin', ADMIN_PASSWORD, `/topology?snapshot=${second}&site=BERLIN-01`)
    const answer = (await (await api('POST', 'tables/neighbors/all', byKey, { snapshot: second, columns: ['localHost'], filters: { siteName: ['eq', 'BERLIN-01'] }, pagination: { start: 0, limit: 1 } })).json()) as { _meta: { count: number } }
    t.ok(answer._meta.count > 0, 'the site has neighbours')
    await page.getByText(`${answer._meta.count} neighbour entries`).waitFor()
    t.ok((await page.locator('.topology canvas').count()) > 0, 'drawn on a canvas')
    await page.locator('.topology[aria-busy="false"]').waitFor()
    await page.getByLabel('Find a device').fill('fw01')
    await page.getByRole('button', { name: 'Find' }).click()
    await shot(page, '12-topology')

    // SVG: every device of the site's links is drawn, by name, as text.
    const hosts = (await (await api('POST', 'tables/neighbors/all', byKey, { snapshot: second, columns: ['localHost', 'remoteHost'], filters: { siteName: ['eq', 'BERLIN-01'] } })).json()) as { data: Array<{ localHost: string; remoteHost: string }> }
    const names = new Set(hosts.data.flatMap((r) => [r.localHost, r.remoteHost]))
    const [svgDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export SVG' }).click()])
    t.equal(svgDownload.suggestedFilename(), 'topology-BERLIN-01.svg')
    const svg = readFileSync((await svgDownload.path())!, 'utf8')
    t.match(svg, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="[-\d. ]+"/)
    const texts = new Set([...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1]))
    t.same([...names].filter((n) => !texts.has(n)), [], `each of the ${names.size} devices is named in the SVG`)

    // The whole snapshot, one site collapsed into a node; expanded again.
    await page.goto(`${base}/topology?snapshot=${second}`)
    await page.locator('.topology[aria-busy="false"]').waitFor()
    await page.getByText(/^Collapsed sites/).click()
    await page.getByRole('checkbox', { name: 'BERLIN-01' }).check()
    await page.waitForURL((u) => u.searchParams.get('collapsed') === 'BERLIN-01')
    await page.locator('.topology[aria-busy="false"]').waitFor()
    const [collapsedSvg] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export SVG' }).click()])
    const drawn = readFileSync((await collapsedSvg.path())!, 'utf8')
    t.match(drawn, /<text [^>]*>BERLIN-01 \(\d+ devices\)<\/text>/, 'the collapsed site is one node that says how many devices it holds')
    t.notOk([...names].some((n) => n.startsWith('ber01') && drawn.includes(`>${n}</text>`)), 'its devices are not drawn apart')
    await page.getByText(/^Collapsed sites/).click()
    await shot(page, '19-topology-collapsed')
    await page.getByText(/^Collapsed sites/).click()
    await page.getByRole('button', { name: 'Expand all' }).click()
    await page.waitForURL((u) => !u.searchParams.has('collapsed'))
    check()
  })

  await t.test('path lookup: both ways between hosts of two sites, hop by hop, drawn', async (t) => {
    const page = await open()
    const check = guard(t, page, [/^POST \/api\/graphs 422$/])
    const hosts = ((await (await api('POST', 'tables/addressing/hosts', byKey, { snapshot: second, columns: ['ip', 'siteName'], pagination: { start: 0, limit: 1000 }, sort: { column: 'ip', order: 'asc' } })).json()) as { data: Array<{ ip: string; siteName: string }> }).data
    const [from, to] = [hosts[0]!, hosts.find((h) => h.siteName !== hosts[0]!.siteName)!]
    await logIn(page, base, 'admin', ADMIN_PASSWORD, `/paths?snapshot=${second}`)
    await page.getByRole('heading', { name: 'Path lookup' }).waitFor()
    await page.getByLabel('From (address)').fill(from.ip)
    await page.getByLabel('To (address)').fill(to.ip)
    await page.getByRole('button', { name: 'Look up' }).click()
    const there = page.getByRole('region', { name: 'Way there' })
    await there.waitFor()
    t.match(page.url(), `src=${from.ip}`, 'the lookup is in the address')
    pathQuery = new URL(page.url()).search
    const body = (src: string, dst: string) => ({ snapshot: second, parameters: { type: 'pathLookup', pathLookupType: 'unicast', startingPoint: src, destinationPoint: dst, protocol: 'tcp', l4Options: { srcPorts: '1024-65535', dstPorts: '443' } } })
    const answer = (await (await api('POST', 'graphs', byKey, body(from.ip, to.ip))).json()) as { paths: { branches: Array<{ hops: Array<{ device: { hostname: string } }>; end: string }> } }
    const branches = answer.paths.branches
    t.ok(branches.length > 0, 'the API finds the path')
    for (const [i, b] of branches.entries()) {
      t.equal(await there.getByRole('heading', { name: new RegExp(`^Branch ${i + 1}:`) }).textContent(), `Branch ${i + 1}: ${b.hops.map((h) => h.device.hostname).join(' → ')}`, `branch ${i + 1} as the API answers it`)
    }
    const ends = there.locator('[data-end]')
    t.same(await Promise.all(Array.from({ length: await ends.count() }, (_, i) => ends.nth(i).getAttribute('data-end'))), branches.map((b) => b.end), 'how each branch ends, as the API says')
    await page.getByRole('region', { name: 'Way back' }).waitFor()
    const drawing = page.locator('.path-drawing svg')
    await drawing.waitFor()
    for (const hop of branches[0]!.hops) t.ok((await drawing.locator('text', { hasText: hop.device.hostname }).count()) > 0, `${hop.device.hostname} is drawn`)
    await shot(page, '18-path-lookup')
    // an address the snapshot does not hold: the 422 explained
    await page.getByLabel('From (address)').fill('192.0.2.77')
    await page.getByRole('button', { name: 'Look up' }).click()
    await page.getByRole('alert').getByText(/192\.0\.2\.77 is not in the snapshot/).first().waitFor()
    check()
  })

  await t.test('administration: an API key made in the page works outside it; a read-only user cannot get there', async (t) => {
    const page = await open()
    const check = guard(t, page)
    await logIn(page, base, 'admin', ADMIN_PASSWORD, '/admin')
    await page.getByRole('heading', { name: 'API keys' }).waitFor()
    await page.getByLabel('What it is for').fill('from the page')
    await page.getByRole('button', { name: 'Create key' }).click()
    const secret = (await page.locator('code.secret').textContent()) ?? ''
    t.equal((await api('GET', 'snapshots', { 'x-api-token': secret })).status, 200, 'the key works from outside the browser')
    await page.getByRole('cell', { name: 'from the page', exact: true }).waitFor()
    await shot(page, '09-admin')

    // The key's scopes and a user's changed in place.
    await page.getByRole('button', { name: 'Change scopes of key from the page' }).click()
    const keyScopes = page.getByRole('form', { name: 'Scopes of key from the page' })
    await keyScopes.getByRole('checkbox', { name: 'write' }).check()
    await keyScopes.getByRole('button', { name: 'Save scopes' }).click()
    await keyScopes.waitFor({ state: 'detached' })
    const keys = (await (await api('GET', 'api-tokens', admin)).json()) as Array<{ description: string; scope: string[] }>
    t.same(keys.find((k) => k.description === 'from the page')?.scope, ['read', 'write'], 'the key has the scopes chosen')
    await page.getByRole('button', { name: 'Change scopes of user newbie' }).click()
    const userScopes = page.getByRole('form', { name: 'Scopes of user newbie' })
    await userScopes.getByRole('checkbox', { name: 'write' }).uncheck()
    await userScopes.getByRole('checkbox', { name: 'settings' }).check()
    await userScopes.scrollIntoViewIfNeeded()
    await shot(page, '20-admin-scopes')
    await userScopes.getByRole('button', { name: 'Save scopes' }).click()
    await userScopes.waitFor({ state: 'detached' })
    const users = (await (await api('GET', 'users', admin)).json()) as Array<{ username: string; scope: string[] }>
    t.same(users.find((u) => u.username === 'newbie')?.scope, ['read', 'settings'], 'the user has the scopes chosen')
    await page.getByRole('row', { name: /^newbie read, settings/ }).waitFor()

    // The audit trail, a table of the explorer: the change just made is its newest event.
    await page.getByRole('link', { name: 'the audit trail' }).click()
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor()
    t.equal(await page.getByRole('navigation', { name: 'Tables' }).getByRole('link', { name: 'Audit trail' }).count(), 1, 'in the catalog')
    const newest = page.locator('table.data tbody tr').first()
    // events are written a moment after the request (audit/recorder.ts), later on a loaded
    // machine: the page shows what is stored when it loads, so it is loaded again until it is there
    for (let tries = 0; ; tries++) {
      try {
        await newest.filter({ hasText: 'user.update' }).waitFor({ timeout: 5_000 })
        break
      } catch (err) {
        if (tries >= 12) throw err
      }
      await page.reload()
    }
    t.match(await newest.textContent(), /newbie/, 'the user whose scopes changed')
    await shot(page, '21-audit-trail')
    check()

    const narrow = await open({ width: 390, height: 844 })
    const checkNarrow = guard(t, narrow)
    await logIn(narrow, base, 'reader', 'reader-password-1', '/admin')
    await narrow.getByRole('heading', { name: 'Administration' }).waitFor()
    t.equal(await narrow.getByRole('link', { name: 'Administration' }).count(), 0, 'no Administration link for scope read')
    await narrow.getByText(/needs the scope "team"/).waitFor()
    await shot(narrow, '10-reader-390px')
    checkNarrow()
  })

  await t.test('two tabs renew an expired session at once and neither logs the other out', async (t) => {
    // A gateway of its own whose clock the test moves; no reuse grace, so a second use of a
    // rotated refresh token would revoke the session.
    const gw = await startGateway(t, {
      webDir,
      config: { app: { accessToken: { expiresIn: 60 }, refreshToken: { expiresIn: 600, reuseGraceSeconds: 0 } }, rateLimit: { enabled: false, loginPerUsernamePerMinute: 1000 } },
    })
    gw.advance(Date.now() - 1_760_000_000_000) // the gateway's clock to now
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } })
    const [a, b] = [await context.newPage(), await context.newPage()]
    // Whatever the page reads with the expired token (users, keys, settings) is refused once, then
    // renewed and read again; a refused renewal or a write would still fail the guard.
    const expired = [/^GET \/api\/[^ ]+ 401$/]
    const checks = [guard(t, a, expired), guard(t, b, expired)]
    const renewals: string[] = []
    // each tab's API traffic, told when a tab does not come back, and its requests under way
    const traffic = new Map<Page, string[]>([[a, []], [b, []]])
    const underWay = new Map<Page, number>([[a, 0], [b, 0]])
    const since = Date.now()
    for (const p of [a, b]) {
      const seen = traffic.get(p)!
      const at = () => `${Date.now() - since}ms`
      const api = (r: { url(): string }) => r.url().includes('/api/')
      p.on('request', (r) => {
        if (r.url().endsWith('/api/auth/token')) renewals.push(r.method())
        if (api(r)) underWay.set(p, underWay.get(p)! + 1)
      })
      p.on('requestfinished', (r) => void (api(r) && underWay.set(p, underWay.get(p)! - 1)))
      p.on('response', (r) => void (api(r) && seen.push(`${at()} ${r.request().method()} ${new URL(r.url()).pathname} ${r.status()}`)))
      p.on('requestfailed', (r) => {
        if (!api(r)) return
        underWay.set(p, underWay.get(p)! - 1)
        seen.push(`${at()} ${r.method()} ${new URL(r.url()).pathname} failed: ${r.failure()?.errorText ?? '?'}`)
      })
    }
    // The clock moves only while neither tab has a request under way: a request that met the
    // expired token would renew in a page the reload below throws away, and the answer of a
    // renewal cut off that way never sets its cookie, so the next renewal would present a used
    // refresh token (with no reuse grace, the end of the session: what a real reload in the middle
    // of a renewal does, not what this test is about).
    const quiet = async (): Promise<void> => {
      for (let still = 0; still < 3; still++) {
        while (underWay.get(a)! > 0 || underWay.get(b)! > 0) {
          still = 0
          await new Promise((r) => setTimeout(r, 50))
        }
        await new Promise((r) => setTimeout(r, 100))
      }
    }
    await logIn(a, gw.url, 'admin', GATEWAY_ADMIN_PASSWORD, '/admin')
    await a.getByRole('heading', { name: 'API keys' }).waitFor()
    await b.goto(`${gw.url}/admin`)
    await b.getByRole('heading', { name: 'API keys' }).waitFor()
    for (let round = 1; round <= 2; round++) {
      await quiet()
      gw.advance(61_000) // both tabs' access token has expired for the gateway
      await Promise.all([a.reload(), b.reload()])
      // what each tab shows when its page does not come back (logged out, an error, still loading)
      const back = async (p: Page, name: string): Promise<void> => {
        try {
          await p.getByRole('heading', { name: 'API keys' }).waitFor({ timeout: 60_000 })
        } catch (err) {
          const shown = await p.locator('body').innerText().catch(() => '(no page)')
          const log = [...traffic].map(([q, seen]) => `tab ${q === a ? 'A' : 'B'}: ${seen.join('; ')}`).join(' | ')
          throw new Error(`round ${round}, tab ${name} (${p.url()}) shows: ${shown.slice(0, 600)}; renewals: ${renewals.join(',')}; ${log}`, { cause: err })
        }
      }
      await Promise.all([back(a, 'A'), back(b, 'B')])
      t.equal(renewals.length, round, `round ${round}: one renewal for both tabs`)
    }
    t.equal(await a.getByLabel('Username').count(), 0, 'tab A is still logged in')
    t.equal(await b.getByLabel('Username').count(), 0, 'tab B is still logged in')
    await shot(b, '11-session-renewed')
    for (const check of checks) check()
  })

  await t.test('single sign-on: a button per provider, the provider\'s login, the EULA approved once, then logged in', async (t) => {
    // oidc-provider in this process; the gateway (local passwords off) lists it in auth/providers.
    // The provider sends the browser back to the gateway's own address, so that address is chosen
    // before the gateway starts.
    const port = await freePort()
    const gatewayUrl = `http://127.0.0.1:${port}`
    const lab = await startProvider(t, {
      clients: [{ client_id: 'netinv', client_secret: 'a-client-secret-of-the-ui-test-0123456789', redirect_uris: [`${gatewayUrl}/api/auth/sso/corp/callback`], grant_types: ['authorization_code'], response_types: ['code'] }],
    })
    lab.accounts.set('carol', ['staff'])
    const dir = mkdtempSync(join(tmpdir(), 'netinv-ui-sso-'))
    t.teardown(() => rmSync(dir, { recursive: true, force: true }))
    writeFileSync(join(dir, 'secret'), 'a-client-secret-of-the-ui-test-0123456789\n', { mode: 0o600 })
    const sso = { providers: { corp: { displayName: 'Corp <b>SSO</b>', issuer: lab.issuer, clientId: 'netinv', clientSecretFile: join(dir, 'secret'), scopes: ['openid', 'profile', 'groups'], groups: { staff: { scopes: ['read'] } }, eulaApproved: false, redirectBaseUrl: gatewayUrl, allowInsecureHttp: true } } }
    // No inventory behind this gateway: an upstream whose every list is empty (no snapshot yet).
    const nothingYet = (_req: unknown, res: ServerResponse) => void res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
    const gw = await startGateway(t, { webDir, dataDir: dir, port, upstream: nothingYet, config: { app: { enableLocalAuthentication: false }, rateLimit: { enabled: false }, sso } })
    t.equal(gw.url, gatewayUrl)
    const page = await open()
    const check = guard(t, page)
    await page.goto(gw.url)
    const button = page.getByRole('link', { name: 'Log in with Corp <b>SSO</b>' })
    await button.waitFor()
    t.equal(await button.getAttribute('href'), '/api/auth/sso/corp/start')
    t.match(await page.getByRole('note').textContent(), /Passwords are turned off on this server.*log in with single sign-on/)
    t.equal(await page.getByLabel('Password').count(), 0, 'no password form')
    await shot(page, '13-login-sso')
    await button.click()
    // the provider's own pages: its login form, then its consent
    await page.waitForURL((u) => u.origin === lab.issuer)
    await page.locator('input[name="login"]').fill('carol')
    await page.locator('input[name="password"]').fill('any')
    await page.locator('button[type="submit"]').click()
    await page.waitForURL((u) => u.origin === lab.issuer && !/\/login\b/.test(u.pathname) && u.pathname !== '/auth')
    await page.locator('button[type="submit"]').click()
    // back at netinv: a first login approves the EULA, with the ticket the callback handed over
    await page
      .getByRole('heading', { name: 'End user license agreement' })
      .waitFor()
      .catch(async (err: unknown) => {
        throw new Error(`no EULA step at ${page.url()}: ${(await page.locator('body').innerText().catch(() => '(no page)')).slice(0, 600)}`, { cause: err })
      })
    t.equal(new URL(page.url()).hash, '', 'the ticket is taken out of the address')
    await shot(page, '13b-sso-eula')
    await page.getByRole('button', { name: 'Accept and log in' }).click()
    await page.getByRole('link', { name: 'Overview' }).waitFor()
    const me = (await page.evaluate("fetch('/api/users/me').then((r) => r.json())")) as Record<string, unknown>
    t.match(me, { username: 'carol', isLocal: false, ssoProvider: 'corp', scope: ['read'] }, 'logged in as the provider\'s user, with the mapped scopes')
    await page.getByText('No loaded snapshot yet.').waitFor() // an inventory with nothing in it yet says so
    await shot(page, '13c-sso-logged-in')
    check()
  })

  await t.test('a directory user logs in with the form while netinv\'s own passwords are off; the login is in the audit trail', async (t) => {
    if (slapdMissing() !== undefined) return void t.fail(`slapd is needed: ${slapdMissing()!}`)
    const slapd = await startSlapd(t)
    // No inventory behind this gateway: an upstream whose every list is empty.
    const nothingYet = (_req: unknown, res: ServerResponse) => void res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
    const gw = await startGateway(t, { webDir, upstream: nothingYet, config: { app: { enableLocalAuthentication: false }, rateLimit: { enabled: false }, ldap: directoryConfig(slapd), audit: { flushMs: 10 } } })
    const page = await open()
    const check = guard(t, page, [/^POST \/api\/auth\/login 401$/])
    await page.goto(gw.url)
    await page.getByRole('note').getByText(/log in with your directory account/).waitFor()
    // a wrong directory password first: refused, explained, still on the form
    await logIn(page, gw.url, 'alice', 'not-alices-password')
    await page.getByRole('alert').getByText('Wrong username or password.').waitFor()
    await shot(page, '22-login-directory')
    await logIn(page, gw.url, 'alice', PASSWORDS.alice, '/administration/audit?sort=id:desc')
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor()
    t.equal(await page.getByRole('button', { name: 'Log out' }).count(), 1, 'logged in')
    // the newest events: alice's login by the directory, and the refused one before it
    const rows = page.locator('table.data tbody tr')
    await rows.first().filter({ hasText: 'auth.login' }).waitFor()
    t.match(await rows.nth(0).textContent(), /alice.*ldap.*auth\.login.*success/, 'the login, method ldap')
    t.match(await rows.nth(1).textContent(), /alice.*auth\.login.*failure/, 'the refused password before it')
    await shot(page, '23-directory-user-audit')
    check()
  })

  await t.test('axe-core: no serious or critical violation on any page', async (t) => {
    const page = await open()
    const check = guard(t, page, [/^POST \/api\/auth\/login 403$/])
    const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
    const audit = async (name: string): Promise<void> => {
      // Evaluated through the debugging protocol, which the page's policy does not govern.
      const found = (await page.evaluate(`${axe};axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')))`)) as string[]
      t.same(found, [], `${name}: no serious or critical violation`)
    }
    await page.goto(base)
    await page.getByLabel('Username').waitFor()
    await audit('login')
    await logIn(page, base, 'admin', ADMIN_PASSWORD, '/overview')
    await page.locator('a.badge').first().waitFor()
    await audit('overview')
    await page.goto(`${base}/reports`)
    await page.locator('a.badge').first().waitFor()
    await audit('intent rules')
    await page.goto(`${base}/snapshots`)
    await page.locator('tr[data-snapshot]').first().waitFor()
    await audit('snapshots')
    await page.goto(`${base}/inventory/devices?describe=1`)
    await page.getByText(/^Rows 1–/).waitFor()
    await audit('table explorer')
    await page.goto(`${base}/inventory/interfaces?limit=500`)
    await page.locator('table.data tr[aria-rowindex="2"]').waitFor()
    await audit('a virtualised page')
    await page.goto(`${base}/topology`)
    await page.locator('.topology[aria-busy="false"]').waitFor()
    await audit('topology')
    await page.goto(`${base}/admin`)
    await page.getByRole('heading', { name: 'Users' }).waitFor()
    await audit('administration')
    await page.goto(`${base}/paths${pathQuery}`)
    await page.getByRole('region', { name: 'Way back' }).waitFor()
    await audit('path lookup')
    check()
  })

  await t.test('discovery settings: seeds and networks, SNMP credentials masked; a network discovery from the snapshots page', async (t) => {
    const page = await open()
    const check = guard(t, page, [/^PUT \/api\/settings\/seed 422$/, /^DELETE \/api\/snapshots\/[0-9a-f-]{36} 409$/])
    // 127.0.0.1 is contacted only when allowed, and nothing answers there: short limits.
    t.equal((await api('PATCH', 'settings', admin, { allowedSpecialNetworks: ['127.0.0.1/32'], limits: { timeoutMs: 100, retries: 0 } })).status, 200)
    await logIn(page, base, 'admin', ADMIN_PASSWORD, '/admin')
    // The schedule, turned on and off again (before any seed: nothing starts meanwhile).
    const schedule = page.getByRole('form', { name: 'Schedule' })
    await schedule.getByLabel('Discover on a schedule').check()
    await schedule.getByLabel(/^Every/).fill('90')
    await schedule.getByRole('button', { name: 'Save schedule' }).click()
    await schedule.getByRole('status').getByText('Saved.').waitFor()
    t.match(await (await api('GET', 'settings', admin)).json(), { schedule: { enabled: true, intervalMinutes: 90 } }, 'the schedule is on')
    await schedule.getByLabel('Discover on a schedule').waitFor()
    t.equal(await schedule.getByLabel(/^Every/).inputValue(), '90', 'the form shows the stored interval')
    await schedule.getByLabel('Discover on a schedule').uncheck()
    await schedule.getByRole('button', { name: 'Save schedule' }).click()
    await schedule.getByRole('status').getByText('Saved.').waitFor()
    t.match(await (await api('GET', 'settings', admin)).json(), { schedule: { enabled: false, intervalMinutes: 90 } }, 'and off again')
    const networks = page.getByRole('form', { name: 'Seeds and networks' })
    await networks.getByLabel('Seeds').fill('240.0.0.1')
    await networks.getByRole('button', { name: 'Save seeds and networks' }).click()
    t.match(await networks.getByRole('alert').textContent(), /Not saved: .*240\.0\.0\.1 is reserved/, 'a refused seed is explained')
    await networks.getByLabel('Seeds').fill('127.0.0.1')
    await networks.getByLabel('Include networks').fill('127.0.0.0/30\n10.0.0.0/8')
    await networks.getByLabel('Exclude networks').fill('10.9.0.0/16')
    await networks.getByRole('button', { name: 'Save seeds and networks' }).click()
    await networks.getByRole('status').getByText('Saved.').waitFor()
    t.same(await (await api('GET', 'settings/seed', admin)).json(), ['127.0.0.1'])
    t.match(await (await api('GET', 'settings', admin)).json(), { include: ['127.0.0.0/30', '10.0.0.0/8'], exclude: ['10.9.0.0/16'] })

    const community = `c-${Date.now().toString(36)}-<b>`
    const add = page.getByRole('form', { name: 'Add an SNMP credential' })
    for (const name of ['<b>ro</b>', 'spare']) {
      await add.getByLabel('Credential name').fill(name)
      await add.getByLabel('Community').fill(community)
      await add.getByRole('button', { name: 'Add credential' }).click()
      await page.getByRole('row', { name: new RegExp(`^\\d+ ${name.replace(/[<>/]/g, '.')} 2c`) }).waitFor()
    }
    t.equal(await page.getByText(community).count(), 0, 'the community is never shown')
    t.ok((await page.getByRole('cell', { name: '********' }).count()) >= 2, 'shown masked')
    page.once('dialog', (d) => void d.accept())
    await page.getByRole('button', { name: 'Delete credential spare' }).click()
    await page.getByRole('button', { name: 'Delete credential spare' }).waitFor({ state: 'detached' })
    const stored = (await (await api('GET', 'settings/snmp', admin)).json()) as Array<{ name: string; community: string }>
    t.same(stored.map((c) => [c.name, c.community]), [['<b>ro</b>', '********']])
    await page.getByRole('heading', { name: 'SNMP credentials' }).scrollIntoViewIfNeeded()
    await shot(page, '16-discovery-settings')

    await page.getByRole('link', { name: 'Snapshots' }).click()
    await page.getByLabel('Source').selectOption('network')
    await page.getByRole('textbox', { name: 'Name' }).fill('from the seeds')
    await page.getByRole('button', { name: 'Discover' }).click()
    await page.locator('.job-state[data-status="done"]').waitFor({ timeout: 60_000 })
    const job = (await (await api('GET', `jobs/${new URL(page.url()).searchParams.get('job') ?? ''}`, byKey)).json()) as { snapshot: string }
    const snap = ((await (await api('GET', 'snapshots', byKey)).json()) as Array<{ id: string; name: string; origin: string }>).find((x) => x.id === job.snapshot)
    t.match(snap, { name: 'from the seeds' }, 'a network discovery made the snapshot')
    const tried = (await (await api('POST', 'tables/discovery/connectivity-report', byKey, { snapshot: job.snapshot, columns: ['ip', 'error'] })).json()) as { data: Array<{ ip: string }> }
    t.same(tried.data.map((r) => r.ip), ['127.0.0.1'], 'it started from the seed set in the page')
    await shot(page, '17-network-discovery')
    check()
  })

  await t.test('snapshots: one downloaded as a file and uploaded again', async (t) => {
    const page = await open()
    const check = guard(t, page)
    await logIn(page, base, 'admin', ADMIN_PASSWORD, '/snapshots')
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`tr[data-snapshot="${second}"]`).getByRole('button', { name: 'Download tuesday' }).click()])
    t.equal(download.suggestedFilename(), `snapshot-${second}.ndjson`)
    const file = readFileSync((await download.path())!)
    t.match(JSON.parse(file.subarray(0, file.indexOf(10)).toString('utf8')), { format: 'netinv-snapshot' }, 'a netinv-snapshot file')
    await page.getByLabel('Snapshot file').setInputFiles({ name: 'tuesday.ndjson', mimeType: 'application/x-ndjson', buffer: file })
    await page.getByRole('button', { name: 'Upload', exact: true }).click()
    await page.locator('.job-state[data-status="done"]').waitFor({ timeout: 60_000 })
    const job = (await (await api('GET', `jobs/${new URL(page.url()).searchParams.get('job') ?? ''}`, byKey)).json()) as { snapshot: string }
    const all = (await (await api('GET', 'snapshots', byKey)).json()) as Array<{ id: string; totalDevCount: number; interfaceCount: number }>
    const [copy, original] = [all.find((s) => s.id === job.snapshot), all.find((s) => s.id === second)]
    t.not(job.snapshot, second, 'a new snapshot')
    t.same([copy?.totalDevCount, copy?.interfaceCount], [original?.totalDevCount, original?.interfaceCount], 'with the devices and interfaces of the file')
    await page.locator(`tr[data-snapshot="${job.snapshot}"]`).waitFor()
    await shot(page, '21-snapshot-uploaded')
    check()
  })
})
