import t from 'tap'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { send, startTestGateway, startUpstream } from './helpers.js'
import { spawnOwned } from '../helpers/owned.js'
import { CLI } from '../helpers/cli-entry.js'

t.test('close() drains: in-flight forwarded requests finish, new connections are refused', async (t) => {
  let release!: () => void
  const gate = new Promise<void>((r) => (release = r))
  let arrived!: () => void
  const arrival = new Promise<void>((r) => (arrived = r))
  const up = await startUpstream(t, (_req, res) => {
    arrived()
    void gate.then(() => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"late":true}')
    })
  })
  const gw = await startTestGateway(t, { upstreamUrl: up.url })
  const inFlight = send(gw.url, '/api/snapshots', { headers: { 'x-api-token': 'reader-key' } })
  await arrival
  const closing = gw.close(10_000)
  // The listener closes once the connections already queued have been accepted.
  while (gw.server.listening) await new Promise((r) => setImmediate(r))
  await t.rejects(send(gw.url, '/api/version'), { code: 'ECONNREFUSED' }, 'no new connections')
  release()
  const r = await inFlight
  t.equal(r.status, 200)
  t.same(r.json(), { late: true })
  t.equal(r.headers.connection, 'close', 'the drained connection is not kept alive')
  await closing
})

t.test('SIGTERM on the real process: stop accepting, finish in-flight, exit 0', async (t) => {
  let release!: () => void
  const gate = new Promise<void>((r) => (release = r))
  let arrived!: () => void
  const arrival = new Promise<void>((r) => (arrived = r))
  // The in-flight request is the gateway's /readyz, which waits for the upstream's /readyz.
  const up = await startUpstream(t, (req, res) => {
    if (req.url !== '/readyz') return res.end()
    arrived()
    void gate.then(() => res.end('{"status":"ready"}'))
  })
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: '0',
    ADMIN_PORT: '0',
    INVENTORY_URL: up.url,
    INTERNAL_SECRET: 'drain-test-secret-of-32-characters',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'netinv-drain-')),
    CONFIG_DIR: mkdtempSync(join(tmpdir(), 'netinv-drain-cfg-')),
    LOG_LEVEL: 'info',
  }
  const child = spawnOwned(process.execPath, [...CLI, 'gateway'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
  const url = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! })
    rl.on('line', (line) => {
      try {
        const rec = JSON.parse(line) as { msg?: string; url?: string }
        if (rec.msg === 'gateway listening' && rec.url) resolve(rec.url)
      } catch {
        // not a log line
      }
    })
    child.once('exit', (code) => reject(new Error(`gateway exited early with ${code}`)))
  })
  t.equal((await send(url, '/api/version')).status, 200, 'serving')

  // api.json changes apply without a restart (SIGHUP here; file changes are watched too).
  writeFileSync(join(env.CONFIG_DIR!, 'api.json'), JSON.stringify({ versioning: { apiVersion: 'v6.0' } }), { mode: 0o644 })
  child.kill('SIGHUP')
  let advertised = ''
  for (let i = 0; i < 100 && advertised !== 'v6.0'; i++) {
    advertised = ((await send(url, '/api/version')).json() as { apiVersion: string }).apiVersion
    if (advertised !== 'v6.0') await new Promise((r) => setTimeout(r, 20))
  }
  t.equal(advertised, 'v6.0', 'reloaded configuration in effect')
  const inFlight = send(url, '/readyz')
  await arrival
  child.kill('SIGTERM')
  // Wait until the listener is closed, then check that new connections are refused.
  let refused = false
  for (let i = 0; i < 100 && !refused; i++) {
    refused = await send(url, '/healthz').then(
      () => false,
      (err: NodeJS.ErrnoException) => err.code === 'ECONNREFUSED',
    )
    if (!refused) await new Promise((r) => setTimeout(r, 20))
  }
  t.ok(refused, 'stopped accepting')
  t.equal(child.exitCode, null, 'still running while a request is in flight')
  release()
  const r = await inFlight
  t.equal(r.status, 503, 'the in-flight request got its answer (not ready: draining)')
  t.match(r.json(), { checks: { accepting: false, upstream: true } })
  t.equal(await exited, 0)
})
