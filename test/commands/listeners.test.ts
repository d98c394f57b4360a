/**
 * The processes as operators start them: a short INTERNAL_SECRET is refused, listeners bind the
 * configured host, and the admin port (/metrics) listens on loopback unless told otherwise.
 */
import t from 'tap'
import { START_LIMIT_MS, dirsEnv, freePort, tempDirs } from '../e2e/process.js'
import { spawnOwned } from '../helpers/owned.js'
import { CLI } from '../helpers/cli-entry.js'

function run(command: string, env: Record<string, string>): { exited: Promise<number | null>; stderr: () => string; kill(): void } {
  const child = spawnOwned(process.execPath, [...CLI, command], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let err = ''
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { exited, stderr: () => err, kill: () => void (child.exitCode === null && child.kill('SIGKILL')) }
}

const answers = (url: string) =>
  fetch(url).then(
    (r) => r.ok,
    () => false,
  )

for (const command of ['inventory', 'gateway']) {
  t.test(`netinv ${command} refuses an INTERNAL_SECRET under 32 characters`, async (t) => {
    const p = run(command, { ...dirsEnv(tempDirs(t)), INTERNAL_SECRET: 'x', INVENTORY_URL: 'http://127.0.0.1:9', PORT: '0', INVENTORY_PORT: '0' })
    t.teardown(p.kill)
    t.equal(await p.exited, 1)
    t.match(p.stderr(), /INTERNAL_SECRET must be at least 32 characters/)
  })
  t.test(`netinv ${command} refuses a long INTERNAL_SECRET that is easy to guess`, async (t) => {
    const p = run(command, { ...dirsEnv(tempDirs(t)), INTERNAL_SECRET: 'a'.repeat(36), INVENTORY_URL: 'http://127.0.0.1:9', PORT: '0', INVENTORY_PORT: '0' })
    t.teardown(p.kill)
    t.equal(await p.exited, 1)
    t.match(p.stderr(), /INTERNAL_SECRET is too easy to guess/)
  })
}

t.test('netinv serve: the public listener binds HOST, the admin listener loopback by default', async (t) => {
  const [port, adminPort] = [await freePort(), await freePort()]
  const p = run('serve', { ...dirsEnv(tempDirs(t)), HOST: '127.0.0.2', PORT: String(port), ADMIN_PORT: String(adminPort) })
  t.teardown(p.kill)
  let up = false
  for (const giveUp = Date.now() + START_LIMIT_MS; Date.now() < giveUp && !up; ) {
    up = await answers(`http://127.0.0.2:${port}/healthz`)
    if (!up) await new Promise((r) => setTimeout(r, 100))
  }
  t.ok(up, `public listener on 127.0.0.2\n${p.stderr()}`)
  t.notOk(await answers(`http://127.0.0.1:${port}/healthz`), 'and not on 127.0.0.1')
  t.ok(await answers(`http://127.0.0.1:${adminPort}/metrics`), 'admin on loopback')
  t.notOk(await answers(`http://127.0.0.2:${adminPort}/metrics`), 'on 127.0.0.1 only')
})
