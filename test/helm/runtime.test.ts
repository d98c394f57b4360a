/**
 * The chart's rendered pods, run for real: the migration Job's, the inventory's and the gateway's
 * containers as processes with exactly the environment, files and arguments the chart gives them
 * (mount paths mapped into a temporary directory, ports made free). This proves that the names the
 * chart sets are the ones the product reads, that its generated signing key and rendered api.json
 * are accepted, and that the values reach the running gateway.
 */
import t from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { freshPostgres, REDIS_URL } from '../helpers/db.js'
import { find, render, type Manifest } from './helm.js'

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
  secret?: { defaultMode?: number; items?: Array<{ key: string; path: string }> }
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

/** Lays out a pod's volumes under `dir` and returns its first container's process environment. */
function materialise(ms: Manifest[], workload: Manifest, dir: string, overrides: Record<string, string>) {
  const pod = (workload.spec as { template: { spec: { containers: Container[]; volumes: Volume[] } } }).template.spec
  const container = pod.containers[0]!
  const secret = ms.find((m) => m.kind === 'Secret')?.stringData ?? {}
  const paths = new Map<string, string>()
  for (const mount of container.volumeMounts) {
    const local = join(dir, mount.name)
    mkdirSync(local, { recursive: true })
    paths.set(mount.mountPath, local)
    const volume = pod.volumes.find((v) => v.name === mount.name)!
    if (volume.configMap) {
      const data = ms.find((m) => m.kind === 'ConfigMap' && m.metadata.name === volume.configMap!.name)!.data ?? {}
      for (const [key, text] of Object.entries(data)) {
        writeFileSync(join(local, key), text)
        chmodSync(join(local, key), volume.configMap.defaultMode ?? 0o644)
      }
    } else if (volume.secret) {
      for (const item of volume.secret.items ?? []) {
        writeFileSync(join(local, item.path), secret[item.key] ?? '')
        chmodSync(join(local, item.path), volume.secret.defaultMode ?? 0o644)
      }
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
  const child = spawn(process.execPath, ['--import=tsx', join(ROOT, 'src/cli.ts'), ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
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
