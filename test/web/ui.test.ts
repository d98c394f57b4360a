/**
 * The web interface in a real browser (Debian's chromium driven by playwright-core), against one
 * `netinv serve` on PostgreSQL for the whole file, serving the interface built from web/ by this
 * test. Every page is checked for console errors, content-policy violations and error answers
 * it did not expect; each step saves a screenshot under .tap/screenshots/web/.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import Provider from 'oidc-provider'
import t, { type Test } from 'tap'
import { freshPostgres } from '../helpers/db.js'
import { ROOT, spawnOwned } from '../helpers/owned.js'
import { testNeeding } from '../helpers/requirements.js'
import { serve, tempDirs } from '../e2e/process.js'
import { ADMIN_PASSWORD as GATEWAY_ADMIN_PASSWORD, startGateway } from '../gateway/handlers/helper.js'

const CHROMIUM = '/usr/bin/chromium'
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
const ADMIN_PASSWORD = 'ui-admin-password-1'
const SHOTS = join(ROOT, '.tap', 'screenshots', 'web')

type Json = Record<string, unknown>

async function buildInterface(t: Test): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'netinv-ui-'))
  t.teardown(() => rmSync(out, { recursive: true, force: true }))
  const child = spawnOwned(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'web/vite.config.ts', '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let err = ''
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c))
  child.stdout!.resume()
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  if (code !== 0) throw new Error(`the interface did not build (exit ${code}):\n${err}`)
  return out
}

/**
 * Fails the test on a console error, an uncaught exception, a content-policy violation, or an
 * answer of 400 or more that is not in `expected` ("METHOD /path STATUS").
 */
function guard(t: Test, page: Page, expected: RegExp[] = []): () => void {
  const problems: string[] = []
  void page.addInitScript("document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI))")
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console: ${m.text()}`)
  })
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
  page.on('response', (r) => {
    if (r.status() < 400) return
    const what = `${r.request().method()} ${new URL(r.url()).pathname} ${r.status()}`
    if (!expected.some((e) => e.test(what))) problems.push(`unexpected answer: ${what}`)
  })
  return () => t.same(problems, [], 'no console error, policy violation or unexpected error answer')
}

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true })
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false })
}

async function logIn(page: Page, base: string, username: string, password: string, path = '/'): Promise<void> {
  await page.goto(`${base}${path}`)
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
}

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
    await page.locator(`tr[data-snapshot="${second}"]`).getByRole('link', { name: 'Changes' }).click()
    const changes = page.getByRole('region', { name: /^Changes in tuesday/ })
    await changes.getByRole('link', { name: 'inventory/interfaces' }).waitFor()
    const counts = (await (await api('GET', `snapshots/${second}/changes`, byKey)).json()) as { tables: Array<{ table: string; changed: number }> }
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
    await page.getByRole('heading', { name: 'End user license agreement' }).waitFor()
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

  await t.test('topology: the neighbours of a site drawn as a graph, searchable', async (t) => {
    const page = await open()
    const check = guard(t, page)
    await logIn(page, base, 'admin', ADMIN_PASSWORD, `/topology?snapshot=${second}&site=BERLIN-01`)
    const answer = (await (await api('POST', 'tables/neighbors/all', byKey, { snapshot: second, columns: ['localHost'], filters: { siteName: ['eq', 'BERLIN-01'] }, pagination: { start: 0, limit: 1 } })).json()) as { _meta: { count: number } }
    t.ok(answer._meta.count > 0, 'the site has neighbours')
    await page.getByText(`${answer._meta.count} neighbour entries`).waitFor()
    t.ok((await page.locator('.topology canvas').count()) > 0, 'drawn on a canvas')
    await page.getByLabel('Find a device').fill('fw01')
    await page.getByRole('button', { name: 'Find' }).click()
    await shot(page, '12-topology')
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
    const expired = [/^GET \/api\/(users\/me|users|api-tokens) 401$/]
    const checks = [guard(t, a, expired), guard(t, b, expired)]
    await logIn(a, gw.url, 'admin', GATEWAY_ADMIN_PASSWORD, '/admin')
    await a.getByRole('heading', { name: 'API keys' }).waitFor()
    await b.goto(`${gw.url}/admin`)
    await b.getByRole('heading', { name: 'API keys' }).waitFor()
    const renewals: string[] = []
    for (const p of [a, b]) p.on('request', (r) => void (r.url().endsWith('/api/auth/token') && renewals.push(r.method())))
    for (let round = 1; round <= 2; round++) {
      gw.advance(61_000) // both tabs' access token has expired for the gateway
      await Promise.all([a.reload(), b.reload()])
      // what each tab shows when its page does not come back (logged out, an error, still loading)
      const back = async (p: Page, name: string): Promise<void> => {
        try {
          await p.getByRole('heading', { name: 'API keys' }).waitFor({ timeout: 60_000 })
        } catch (err) {
          const shown = await p.locator('body').innerText().catch(() => '(no page)')
          throw new Error(`round ${round}, tab ${name} (${p.url()}) shows: ${shown.slice(0, 600)}; renewals: ${renewals.join(',')}`, { cause: err })
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

  await t.test('login page: a button per single sign-on provider leads to it; passwords turned off are said', async (t) => {
    // oidc-provider in this process; the gateway (local passwords off) lists it in auth/providers.
    const server = createServer((req, res) => void provider.callback()(req, res))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    t.teardown(() => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())))
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const provider = new Provider(issuer, {
      clients: [{ client_id: 'netinv', client_secret: 'a-client-secret-of-the-ui-test-0123456789', redirect_uris: ['https://netinv.example.test/api/auth/sso/corp/callback'], grant_types: ['authorization_code'], response_types: ['code'] }],
      pkce: { required: () => true },
      cookies: { keys: ['cookie-signing-key-of-the-ui-test'] },
      features: { devInteractions: { enabled: true } },
    })
    const dir = mkdtempSync(join(tmpdir(), 'netinv-ui-sso-'))
    t.teardown(() => rmSync(dir, { recursive: true, force: true }))
    writeFileSync(join(dir, 'secret'), 'a-client-secret-of-the-ui-test-0123456789\n', { mode: 0o600 })
    const sso = { providers: { corp: { displayName: 'Corp <b>SSO</b>', issuer, clientId: 'netinv', clientSecretFile: join(dir, 'secret'), groups: { staff: { scopes: ['read'] } }, redirectBaseUrl: 'https://netinv.example.test', allowInsecureHttp: true } } }
    const gw = await startGateway(t, { webDir, dataDir: dir, config: { app: { enableLocalAuthentication: false }, rateLimit: { enabled: false }, sso } })
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
    await page.waitForURL((u) => u.origin === issuer)
    t.pass(`the button led to the provider (${new URL(page.url()).pathname})`)
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
    await page.goto(`${base}/admin`)
    await page.getByRole('heading', { name: 'Users' }).waitFor()
    await audit('administration')
    check()
  })

  await t.test('discovery settings: seeds and networks, SNMP credentials masked; a network discovery from the snapshots page', async (t) => {
    const page = await open()
    const check = guard(t, page, [/^PUT \/api\/settings\/seed 422$/, /^DELETE \/api\/snapshots\/[0-9a-f-]{36} 409$/])
    // 127.0.0.1 is contacted only when allowed, and nothing answers there: short limits.
    t.equal((await api('PATCH', 'settings', admin, { allowedSpecialNetworks: ['127.0.0.1/32'], limits: { timeoutMs: 100, retries: 0 } })).status, 200)
    await logIn(page, base, 'admin', ADMIN_PASSWORD, '/admin')
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
})

function existsChromium(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `chromium (${CHROMIUM}; apt-get install chromium)`
}
