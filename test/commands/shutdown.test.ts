/**
 * A real `netinv serve` whose log reader stalls and then goes away: stdout is a pipe nobody reads,
 * requests keep coming at debug level, SIGTERM, and the pipe's read end is closed 50 ms later.
 * pino's exit flush used to retry the failing write every 100 ms for ever; the process must exit
 * within the drain grace whatever its log destination does.
 */
import t from 'tap'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { dirsEnv, freePort, tempDirs } from '../e2e/process.js'
import { spawnOwned } from '../helpers/owned.js'
import { CLI } from '../helpers/cli-entry.js'

const GRACE_MS = 2000

t.test('SIGTERM with a stalled log pipe whose reader then goes away: the process exits', async (t) => {
  const dirs = tempDirs(t)
  writeFileSync(join(dirs.configDir, 'api.json'), JSON.stringify({ server: { shutdownGraceMs: GRACE_MS }, rateLimit: { enabled: false } }))
  const port = await freePort()
  const child = spawnOwned(process.execPath, [...CLI, 'serve'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...dirsEnv(dirs), LOG_LEVEL: 'debug', PORT: String(port), ADMIN_PORT: '0', ADMIN_PASSWORD: 'shutdown-test-password' },
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  // stdout is never read: once node's buffer and the pipe are full, every log write waits.
  child.stdout!.pause()
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  t.teardown(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')))
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 600; i++) {
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) break
    await new Promise((r) => setTimeout(r, 100))
  }
  // Steady requests until the pipe is certainly full (each writes debug and access lines).
  const auth = { authorization: `Basic ${Buffer.from('admin:shutdown-test-password').toString('base64')}` }
  let stop = false
  const load = (async () => {
    while (!stop) await fetch(`${url}/api/snapshots`, { headers: auth }).then((r) => r.arrayBuffer(), () => undefined)
  })()
  await new Promise((r) => setTimeout(r, 1500))
  const t0 = Date.now()
  child.kill('SIGTERM')
  await new Promise((r) => setTimeout(r, 50))
  child.stdout!.destroy() // the log reader goes away
  const timeout = new Promise<'hung'>((r) => setTimeout(() => r('hung'), GRACE_MS + 6000).unref())
  const outcome = await Promise.race([exited, timeout])
  stop = true
  await load
  t.not(outcome, 'hung', `exited (after ${Date.now() - t0} ms)`)
  t.ok(Date.now() - t0 < GRACE_MS + 4000, 'within the drain grace and the moment given to the log')
})
