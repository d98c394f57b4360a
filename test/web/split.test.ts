/**
 * The web interface in chromium against `netinv gateway` and `netinv inventory` as two processes
 * (after `netinv migrate`) on PostgreSQL and Redis, as a deployment runs them: log in, a table
 * page, the topology. Console errors, content-policy violations and unexpected error answers
 * fail it, as in ui.test.ts.
 */
import { randomBytes } from 'node:crypto'
import type { ChildProcess } from 'node:child_process'
import { chromium } from 'playwright-core'
import t from 'tap'
import { freshPostgres, REDIS_URL } from '../helpers/db.js'
import { spawnOwned } from '../helpers/owned.js'
import { testNeeding } from '../helpers/requirements.js'
import { dirsEnv, freePort, start, START_LIMIT_MS, tempDirs } from '../e2e/process.js'
import { buildInterface, CHROMIUM, existsChromium, FLAGS, guard, logIn, shot } from './browser.js'
import { CLI } from '../helpers/cli-entry.js'

const ADMIN_PASSWORD = 'split-admin-password-1'

function run(args: string[], env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawnOwned(process.execPath, [...CLI, ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c))
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (out += c))
  return { child, output: () => out, exited: new Promise((resolve) => child.once('exit', resolve)) }
}

testNeeding(t, 'the web interface on a gateway and an inventory of their own, on PostgreSQL and Redis', existsChromium(), async (t) => {
  const [webDir, db] = await Promise.all([buildInterface(t), freshPostgres(t, 1)])
  const shared = { DATABASE_URL: db.url, INTERNAL_SECRET: randomBytes(24).toString('base64url') }

  const migrate = run(['migrate'], { ...shared, ...dirsEnv(tempDirs(t)) })
  t.equal(await migrate.exited, 0, `netinv migrate\n${migrate.output()}`)

  const inventoryPort = await freePort()
  const inventory = run(['inventory'], { ...shared, ...dirsEnv(tempDirs(t)), INVENTORY_PORT: String(inventoryPort), INVENTORY_ADMIN_PORT: '0' })
  t.teardown(() => void (inventory.child.exitCode === null && inventory.child.kill('SIGKILL')))
  for (const giveUp = Date.now() + START_LIMIT_MS; !(await fetch(`http://127.0.0.1:${inventoryPort}/healthz`).then((r) => r.ok, () => false)); ) {
    if (inventory.child.exitCode !== null || Date.now() > giveUp) throw new Error(`netinv inventory did not start:\n${inventory.output()}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  const gateway = await start(t, 'gateway', { ...shared, ...dirsEnv(tempDirs(t)), REDIS_URL, INVENTORY_URL: `http://127.0.0.1:${inventoryPort}`, ADMIN_PASSWORD, WEB_DIR: webDir })
  const base = gateway.url

  // A lab discovery through the gateway, so the pages have rows.
  const login = (await (await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) })).json()) as { accessToken: string }
  const auth = { authorization: `Bearer ${login.accessToken}`, 'content-type': 'application/json' }
  const started = (await (await fetch(`${base}/api/snapshots`, { method: 'POST', headers: auth, body: JSON.stringify({ source: 'simulator', profile: 'lab', seed: 1, snapshotName: 'split' }) })).json()) as { id: string; jobId: string }
  for (;;) {
    const job = (await (await fetch(`${base}/api/jobs/${started.jobId}`, { headers: auth })).json()) as { isDone: boolean; status: string }
    if (job.isDone) {
      t.equal(job.status, 'done', 'the discovery ran in the inventory process')
      break
    }
    await new Promise((r) => setTimeout(r, 300))
  }
  const devices = (await (await fetch(`${base}/api/tables/inventory/devices`, { method: 'POST', headers: auth, body: JSON.stringify({ snapshot: started.id, columns: ['hostname'], pagination: { start: 0, limit: 1 } }) })).json()) as { _meta: { count: number } }

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true })
  t.teardown(() => browser.close())
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage()
  const check = guard(t, page)
  await logIn(page, base, 'admin', ADMIN_PASSWORD, '/inventory/devices')
  await page.getByText(`of ${devices._meta.count}`).waitFor()
  t.ok((await page.locator('table.data tbody tr[aria-rowindex]').count()) > 0, 'the devices table shows rows')
  await shot(page, '22-split-devices')
  await page.getByRole('link', { name: 'Topology' }).click()
  await page.locator('.topology[aria-busy="false"] canvas').first().waitFor()
  await page.getByText(/^\d+ neighbour entries/).waitFor()
  await shot(page, '23-split-topology')
  check()

  gateway.child.kill('SIGTERM')
  inventory.child.kill('SIGTERM')
  t.equal(await gateway.exited, 0, 'the gateway stops cleanly')
  t.equal(await inventory.exited, 0, 'the inventory stops cleanly')
})
