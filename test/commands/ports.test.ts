/**
 * A port already in use ends the start at once, before the database is set up, with one line that
 * names the setting to change (exit status 1).
 */
import t from 'tap'
import { existsSync, readdirSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { checkPorts } from '../../src/commands/ports.js'
import { dirsEnv, tempDirs } from '../e2e/process.js'
import { spawnOwned } from '../helpers/owned.js'
import { CLI } from '../helpers/cli-entry.js'

/** A listener holding a port for the test. */
async function holdPort(t: { teardown(fn: () => unknown): void }, host = '127.0.0.1'): Promise<number> {
  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const address = server.address()
  return typeof address === 'object' && address ? address.port : 0
}

t.test('a port in use is named with its setting', async (t) => {
  const port = await holdPort(t)
  await t.rejects(checkPorts([{ setting: 'PORT', host: '127.0.0.1', port }]), {
    message: `port ${port} on 127.0.0.1 is already in use (another program, or netinv already running): stop it or set PORT to a free port`,
  })
  await t.rejects(checkPorts([{ setting: 'PORT', host: '0.0.0.0', port }]), { message: /already in use.*set PORT/ }, 'a wildcard bind meets it too')
  await t.rejects(checkPorts([{ setting: 'ADMIN_PORT', host: '127.0.0.1', port }]), { message: /set ADMIN_PORT to a free port/ })
  await t.resolves(checkPorts([{ setting: 'PORT', host: '127.0.0.1', port: 0 }]), 'port 0: the system chooses')
  await t.rejects(checkPorts([{ setting: 'PORT', host: '192.0.2.1', port: 8080 }]), { message: /192\.0\.2\.1 is no address of this machine/ })
})

t.test('netinv serve on a port in use: one line naming PORT, exit 1, no database made', async (t) => {
  const port = await holdPort(t, '0.0.0.0')
  const dirs = tempDirs(t)
  const child = spawnOwned(process.execPath, [...CLI, 'serve'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...dirsEnv(dirs), PORT: String(port), ADMIN_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let err = ''
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c))
  child.stdout!.resume()
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  t.equal(code, 1)
  t.equal(err, `port ${port} on 0.0.0.0 is already in use (another program, or netinv already running): stop it or set PORT to a free port\n`)
  t.notOk(existsSync(join(dirs.dataDir, 'pglite')), `no database set up first (${readdirSync(dirs.dataDir).join(', ')})`)
})
