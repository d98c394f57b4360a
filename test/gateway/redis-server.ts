/**
 * Private redis-server processes for tests that stop Redis or need a Cluster. Each dies with the
 * test process (owned.ts): it keeps its process title, so that its environment still carries the
 * owner mark, and runs in its netinv-redis- directory, by which `.ci/leftovers --all` knows it.
 */
import { spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { spawnOwned } from '../helpers/owned.js'
import type { Teardown } from './helpers.js'

export const HAS_REDIS_SERVER = spawnSync('redis-server', ['--version']).status === 0
export const HAS_REDIS_CLI = spawnSync('redis-cli', ['--version']).status === 0

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

export interface RedisProcess {
  port: number
  url: string
  stop(): Promise<void>
  start(): Promise<void>
}

async function waitForPing(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const c = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
    c.on('error', () => {})
    try {
      await c.connect()
      if ((await c.ping()) === 'PONG') return
    } catch {
      // not up yet
    } finally {
      c.disconnect()
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`redis-server on ${port} did not start`)
}

export async function startRedisServer(t: Teardown, options: { cluster?: boolean; port?: number } = {}): Promise<RedisProcess> {
  const port = options.port ?? (await freePort())
  const dir = mkdtempSync(join(tmpdir(), 'netinv-redis-'))
  let child: ChildProcess | null = null
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--set-proc-title', 'no']
  if (options.cluster) args.push('--cluster-enabled', 'yes', '--cluster-config-file', join(dir, 'nodes.conf'), '--cluster-node-timeout', '2000')
  const proc: RedisProcess = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawnOwned('redis-server', args, { stdio: 'ignore' })
      await waitForPing(port)
    },
    async stop() {
      const c = child
      child = null
      if (!c || c.exitCode !== null) return
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve())
        c.kill('SIGKILL')
      })
    },
  }
  await proc.start()
  t.teardown(async () => {
    await proc.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  return proc
}

/** Three masters, no replicas, all slots assigned; resolves when the cluster state is ok. */
export async function startRedisCluster(t: Teardown): Promise<{ url: string; nodes: RedisProcess[] }> {
  const nodes = [await startRedisServer(t, { cluster: true }), await startRedisServer(t, { cluster: true }), await startRedisServer(t, { cluster: true })]
  const created = spawnSync('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '0', '--cluster-yes'], {
    encoding: 'utf8',
  })
  if (created.status !== 0) throw new Error(`cluster create failed: ${created.stderr || created.stdout}`)
  let ok = false
  for (let i = 0; i < 300 && !ok; i++) {
    ok = nodes.every((n) => spawnSync('redis-cli', ['-p', String(n.port), 'cluster', 'info'], { encoding: 'utf8' }).stdout.includes('cluster_state:ok'))
    if (!ok) await new Promise((r) => setTimeout(r, 100))
  }
  if (!ok) throw new Error('the test cluster did not reach cluster_state:ok')
  return { url: `redis+cluster://${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`, nodes }
}
