/**
 * The chart's rendered pods, run for real: the migration Job's, the inventory's and the gateway's
 * containers as processes with exactly the environment, files and arguments the chart gives them
 * (mount paths mapped into a temporary directory, ports made free). This proves that the names the
 * chart sets are the ones the product reads, that its generated signing key and rendered api.json
 * are accepted, and that the values reach the running gateway.
 */
import t from 'tap'
import type { ChildProcess } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { freshPostgres, REDIS_URL } from '../helpers/db.js'
import { find, render, type Manifest } from './helm.js'
import { DEVICES, startLegacyBackend } from '../e2e/legacy-backend.js'
import { spawnOwned } from '../helpers/owned.js'
import { CLI } from '../helpers/cli-entry.js'

const ROOT = resolve(import.meta.dirname, '../..')

interface EnvVar {
  name: string
  value?: string
  valueFrom?: { secretKeyRef?: { key: string; optional?: boolean } }
}
interface Container {
  args: string[]
  env: EnvVar[]
  volumeMounts: Array<{ name: string; mountPath: string }>
}
interface Volume {
  name: string
  configMap?: { name: string; defaultMode?: number; items?: Array<{ key: string; path: string }> }
  secret?: { secretName: string; defaultMode?: number; items?: Array<{ key: string; path: string }> }
  emptyDir?: unknown
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer()
    srv.once('error', rej)
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address()
      srv.close(() => res(typeof a === 'object' && a ? a.port : 0))
    })
  })
}

/**
 * Lays out a pod's volumes under `dir` (a ConfigMap's keys at their projected paths; Secrets the
 * chart does not make from `external`) and returns its first container's process environment.
 */
function materialise(ms: Manifest[], workload: Manifest, dir: string, overrides: Record<string, string>, external: Record<string, Record<string, string>> = {}) {
  const pod = (workload.spec as { template: { spec: { containers: Container[]; volumes: Volume[] } } }).template.spec
  const container = pod.containers[0]!
  const secret = ms.find((m) => m.kind === 'Secret')?.stringData ?? {}
  const paths = new Map<string, string>(container.volumeMounts.map((m) => [m.mountPath, join(dir, m.name)]))
  // Files that name a mounted path (api.json's identity.valueFile, say) name the local one.
  const localised = (text: string) => [...paths].reduce((t, [mounted, local]) => t.split(`"${mounted}/`).join(`"${local}/`), text)
  for (const mount of container.volumeMounts) {
    const local = paths.get(mount.mountPath)!
    mkdirSync(local, { recursive: true })
    const volume = pod.volumes.find((v) => v.name === mount.name)!
    const place = (path: string, text: string, mode: number) => {
      mkdirSync(dirname(join(local, path)), { recursive: true })
      writeFileSync(join(local, path), text)
      chmodSync(join(local, path), mode)
    }
    if (volume.configMap) {
      const data = ms.find((m) => m.kind === 'ConfigMap' && m.metadata.name === volume.configMap!.name)!.data ?? {}
      const items = volume.configMap.items ?? Object.keys(data).map((key) => ({ key, path: key }))
      for (const item of items) place(item.path, localised(data[item.key]!), volume.configMap.defaultMode ?? 0o644)
    } else if (volume.secret) {
      const own = external[volume.secret.secretName]
      const items = volume.secret.items ?? Object.keys(own ?? {}).map((key) => ({ key, path: key }))
      for (const item of items) place(item.path, (own ?? secret)[item.key] ?? '', volume.secret.defaultMode ?? 0o644)
    }
  }
  const env: Record<string, string> = { PATH: process.env.PATH ?? '' }
  for (const e of container.env) {
    let value = e.value ?? (e.valueFrom?.secretKeyRef ? secret[e.valueFrom.secretKeyRef.key] : undefined)
    if (value === undefined) continue
    const mount = [...paths.keys()].filter((m) => value!.startsWith(m)).sort((a, b) => b.length - a.length)[0]
    if (mount !== undefined) value = paths.get(mount)! + value.slice(mount.length)
    env[e.name] = value
  }
  return { args: container.args, env: { ...env, ...overrides } }
}

function start(args: string[], env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawnOwned(process.execPath, [...CLI, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()))
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)))
  return { child, output: () => output, exited }
}

async function waitFor(url: string, proc: { child: ChildProcess }): Promise<number> {
  let status = 0
  while (proc.child.exitCode === null) {
    status = await fetch(url).then(
      (r) => r.status,
      () => 0,
    )
    if (status === 200) return status
    await new Promise((r) => setTimeout(r, 200))
  }
  return status
}

t.test('the legacy-clients example runs: migrate, inventory and gateway as the chart starts them', async (t) => {
  const { url } = await freshPostgres(t)
  const ms = await render(['examples/legacy-clients.yaml'], [`postgresql.url=${url}`, `redis.url=${REDIS_URL}`])
  const dir = mkdtempSync(join(tmpdir(), 'netinv-chart-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const [inventoryPort, gatewayPort] = [await freePort(), await freePort()]
  const quiet = { LOG_LEVEL: 'warn' }

  const job = materialise(ms, find(ms, 'Job', '-migrate'), join(dir, 'migrate'), quiet)
  const migrate = start(job.args, job.env)
  t.equal(await migrate.exited, 0, `netinv migrate succeeds\n${migrate.output()}`)

  const inv = materialise(ms, find(ms, 'Deployment', '-inventory'), join(dir, 'inventory'), { ...quiet, INVENTORY_PORT: String(inventoryPort) })
  t.same(inv.args, ['inventory'])
  const inventory = start(inv.args, inv.env)
  t.teardown(() => void inventory.child.kill('SIGKILL'))
  t.equal(await waitFor(`http://127.0.0.1:${inventoryPort}/readyz`, inventory), 200, `inventory ready\n${inventory.output()}`)

  const gw = materialise(ms, find(ms, 'Deployment', '-gateway'), join(dir, 'gateway'), {
    ...quiet,
    PORT: String(gatewayPort),
    ADMIN_PORT: '0',
    INVENTORY_URL: `http://127.0.0.1:${inventoryPort}`,
  })
  t.same(gw.args, ['gateway'])
  t.ok(gw.env.JWT_PRIVATE_KEY_FILE?.startsWith(dir), 'the signing key comes from the mounted Secret')
  const gateway = start(gw.args, gw.env)
  t.teardown(() => void gateway.child.kill('SIGKILL'))
  t.equal(await waitFor(`http://127.0.0.1:${gatewayPort}/readyz`, gateway), 200, `gateway ready (database, inventory, Redis)\n${gateway.output()}`)

  const version = await fetch(`http://127.0.0.1:${gatewayPort}/api/version`)
  t.equal(version.status, 200)
  t.match(await version.json(), { apiVersion: 'v5.0', releaseVersion: /^5\.0\.0\+netinv\./ }, "the example's advertised apiVersion (and a release that agrees) reaches the gateway")
  const legacy = await fetch(`http://127.0.0.1:${gatewayPort}/api/v5.0/version`)
  t.equal(legacy.headers.get('deprecation'), 'true', 'path-versioned requests are marked deprecated')
  t.match(legacy.headers.get('sunset') ?? '', /2027/, "the example's later sunset is announced")
  t.not(legacy.status, 410, 'not enforced: the path generation keeps working')

  for (const [name, proc] of [
    ['gateway', gateway],
    ['inventory', inventory],
    ['migrate', migrate],
  ] as const) {
    if (name !== 'migrate') {
      proc.child.kill('SIGTERM')
      t.equal(await proc.exited, 0, `${name} stops cleanly on SIGTERM\n${proc.output()}`)
    }
    const lines = proc.output().split('\n').filter((l) => l.startsWith('{'))
    const records = lines.map((l) => JSON.parse(l) as { level: number; msg: string })
    t.same(records.filter((r) => r.level >= 50), [], `${name}: no errors logged`)
    t.notOk(records.some((r) => /api\.json not found/.test(r.msg)), `${name}: found the mounted api.json`)
  }
})

t.test('the gateway-only example runs: migrate, then the gateway alone in front of a legacy backend', async (t) => {
  const { url } = await freshPostgres(t)
  const serviceKey = 'chart-legacy-service-key'
  const backend = await startLegacyBackend(t, (req) => req.headers['x-api-token'] === serviceKey)
  const ms = await render(['examples/gateway-only.yaml'], [`postgresql.url=${url}`, 'postgresql.bundled.enabled=false', `redis.url=${REDIS_URL}`, 'redis.bundled.enabled=false', `upstreams.legacy.url=${backend.url}`, 'secrets.adminPassword=chart-admin-password'])
  const dir = mkdtempSync(join(tmpdir(), 'netinv-chart-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const quiet = { LOG_LEVEL: 'warn' }
  const job = materialise(ms, find(ms, 'Job', '-migrate'), join(dir, 'migrate'), quiet)
  const migrate = start(job.args, job.env)
  t.equal(await migrate.exited, 0, `netinv migrate succeeds\n${migrate.output()}`)

  const gatewayPort = await freePort()
  const gw = materialise(ms, find(ms, 'Deployment', '-gateway'), join(dir, 'gateway'), { ...quiet, PORT: String(gatewayPort), ADMIN_PORT: '0' }, { 'legacy-api-token': { token: serviceKey } })
  t.notOk('INVENTORY_URL' in gw.env)
  const gateway = start(gw.args, gw.env)
  t.teardown(() => void gateway.child.kill('SIGKILL'))
  t.equal(await waitFor(`http://127.0.0.1:${gatewayPort}/readyz`, gateway), 200, `gateway ready (database, the backend's health path)\n${gateway.output()}`)
  const basic = `Basic ${Buffer.from('admin:chart-admin-password').toString('base64')}`
  const devices = await fetch(`http://127.0.0.1:${gatewayPort}/api/devices`, { headers: { authorization: basic } })
  t.equal(devices.status, 200, 'a header-generation client reaches the backend')
  t.same(await devices.json(), DEVICES)
  t.equal(backend.seen.at(-1)?.url, '/api/v6.0/devices', 'in its own path version')
  t.equal(backend.seen.at(-1)?.headers['x-api-token'], serviceKey, 'with the key from the mounted Secret')
  t.equal((await fetch(`http://127.0.0.1:${gatewayPort}/api/snapshots`, { headers: { authorization: basic } })).status, 404, 'no inventory endpoints')
  gateway.child.kill('SIGTERM')
  t.equal(await gateway.exited, 0, 'stops cleanly')
})
