/**
 * Everything a test process starts dies with it, however the process ends: tap kills a test file
 * at its time limit (SIGALRM, then SIGKILL) and no teardown runs then. A test process that starts
 * something first starts its watchdog (`own()`, watchdog.mjs): a process of its own session that holds the
 * reading end of a pipe from the test process and, when the pipe closes (the test process ended,
 * in any way), removes what the test process owned (`leftovers.ts`):
 * - the processes that carry its owner mark (`NETINV_TEST_OWNER=<checkout>:<pid>`) in their
 *   environment: every child of the test process and their children inherit it;
 * - the test databases named after its pid (`netinv_t_<pid>_<hex>`, test/helpers/db.ts);
 * - the labs whose owner file names its pid (src/lab);
 * - its private PostgreSQL clusters (`/tmp/netinv-pgc-<pid>-*`, pg-cluster.ts).
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import type { Socket } from 'node:net'
import { resolve } from 'node:path'

/** The checkout the tests run from. */
export const ROOT = resolve(import.meta.dirname, '../..')
export const WATCHDOG = resolve(import.meta.dirname, 'watchdog.mjs')
export const OWNER_VAR = 'NETINV_TEST_OWNER'

/** The owner mark of a test process of a checkout. */
export const ownerMark = (pid: number, root = ROOT): string => `${root}:${pid}`

// children started with the default environment (execFile, spawnSync, the lab's commands) carry the mark too
process.env[OWNER_VAR] = ownerMark(process.pid)

let watchdog: ChildProcess | undefined

/** Starts this test process's watchdog, once. */
export function own(): void {
  if (watchdog) return
  const env = { ...process.env }
  delete env[OWNER_VAR]
  watchdog = spawn(process.execPath, [WATCHDOG, String(process.pid)], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  })
  watchdog.on('error', (err) => console.error(`# the watchdog of test process ${process.pid} did not start: ${err.message}`))
  // the pipe stays open as long as this process lives, and keeps nothing waiting for it
  watchdog.unref()
  ;(watchdog.stdin as Socket).unref()
}

/** `env` (or this process's environment) with this process's owner mark; starts the watchdog. */
export function ownedEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  own()
  return { ...env, [OWNER_VAR]: ownerMark(process.pid) }
}

/** `spawn` of a child that dies with this test process. */
export const spawnOwned = ((command: string, args: readonly string[] = [], options: SpawnOptions = {}) =>
  spawn(command, args, { ...options, env: ownedEnv(options.env) })) as typeof spawn

/** The name prefix of a test's lab: `nt` and six hex digits (leftovers.ts knows test labs by it). */
export function labPrefix(): string {
  return `nt${randomBytes(3).toString('hex')}`
}
export const TEST_LAB_PREFIX = /^nt[0-9a-f]{6}$/

/** A test database name of this process: `netinv_t_<pid>_<hex>`. */
export function databaseName(): string {
  own()
  return `netinv_t_${process.pid}_${randomBytes(6).toString('hex')}`
}
export const TEST_DATABASE = /^netinv_t_(?:(\d+)_)?[0-9a-f]+$/
