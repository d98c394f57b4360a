/**
 * A PostgreSQL cluster of a test's own (initdb + pg_ctl on a free port, run as the `postgres`
 * user), for tests that stop and restart the database: never the shared one. Its directory is
 * named after the test process: its watchdog (owned.ts) removes it when the test process dies
 * without tearing down, and a later run removes what a watchdog could not.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { freePort } from '../e2e/process.js'
import { own } from './owned.js'
import { IS_ROOT, hasCommand } from './requirements.js'

interface Teardown {
  teardown(fn: () => unknown): void
}

export const CLUSTER_ROOT = '/tmp'
const PREFIX = 'netinv-pgc-'
/** A cluster's directory name: `netinv-pgc-<pid of the test process>-<random>`. */
export const CLUSTER_DIR = new RegExp(`^${PREFIX}(\\d+)-`)

function postgresUser(): { uid: number; gid: number } | undefined {
  const r = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' })
  const g = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' })
  if (r.status !== 0 || g.status !== 0) return undefined
  return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) }
}

/** Why a private cluster cannot run here, or undefined when it can. */
export function clusterMissing(): string | undefined {
  if (!IS_ROOT) return 'root (to run initdb and pg_ctl as the postgres user)'
  if (!hasCommand('initdb') || !hasCommand('pg_ctl')) return 'initdb and pg_ctl (Debian package postgresql)'
  if (!postgresUser()) return 'a postgres system user'
  return undefined
}

/** Runs a PostgreSQL program as the postgres user. */
function asPostgres(program: string, args: string[]): void {
  execFileSync('runuser', ['-u', 'postgres', '--', program, ...args], { stdio: 'pipe' })
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Stops (immediately) and removes the cluster in `dir`. */
export function removeCluster(dir: string): void {
  if (existsSync(join(dir, 'data', 'postmaster.pid'))) {
    try {
      asPostgres('pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop'])
    } catch {
      // already gone
    }
  }
  rmSync(dir, { recursive: true, force: true })
}

/** Stops and removes clusters left by test processes that died. */
function sweep(): void {
  for (const name of readdirSync(CLUSTER_ROOT)) {
    const m = CLUSTER_DIR.exec(name)
    if (m && !alive(Number(m[1]))) removeCluster(join(CLUSTER_ROOT, name))
  }
}

export interface PgCluster {
  /** A database `netinv` on the cluster, reached over TCP as user postgres (trust). */
  url: string
  port: number
  stop(): void
  start(): void
}

/** Creates, starts and (at teardown) removes a private cluster. */
export async function privateCluster(t: Teardown): Promise<PgCluster> {
  own()
  sweep()
  const owner = postgresUser()!
  const dir = mkdtempSync(join(CLUSTER_ROOT, `${PREFIX}${process.pid}-`))
  chownSync(dir, owner.uid, owner.gid)
  const data = join(dir, 'data')
  const port = await freePort()
  asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'])
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c max_connections=60`
  const cluster: PgCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/netinv`,
    port,
    start() {
      asPostgres('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start'])
    },
    stop() {
      asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop'])
    },
  }
  t.teardown(() => removeCluster(dir))
  cluster.start()
  asPostgres('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'netinv'])
  return cluster
}
