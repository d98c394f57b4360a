/**
 * The product as a user runs it: `netinv serve` in a child process, with its own DATA_DIR and
 * CONFIG_DIR, reached over HTTP only.
 */
import type { ChildProcess } from 'node:child_process'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnOwned } from '../helpers/owned.js'
import { CLI } from '../helpers/cli-entry.js'

interface Teardown {
  teardown(fn: () => unknown): void
}

/** A port that was free a moment ago (listen on 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const address = s.address()
      const port = typeof address === 'object' && address ? address.port : 0
      s.close(() => resolve(port))
    })
  })
}

/** Temporary DATA_DIR and CONFIG_DIR (holding a copy of the default config/api.json). */
export function tempDirs(t: Teardown): { dataDir: string; configDir: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'netinv-e2e-data-'))
  const configDir = mkdtempSync(join(tmpdir(), 'netinv-e2e-config-'))
  copyFileSync('config/api.json', join(configDir, 'api.json'))
  t.teardown(() => {
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(configDir, { recursive: true, force: true })
  })
  return { dataDir, configDir }
}

/** The environment that points a `netinv` process at the directories of `tempDirs`. */
export function dirsEnv(dirs: { dataDir: string; configDir: string }): { DATA_DIR: string; CONFIG_DIR: string } {
  return { DATA_DIR: dirs.dataDir, CONFIG_DIR: dirs.configDir }
}

export interface Served {
  url: string
  adminUrl: string
  child: ChildProcess
  /** Everything the process wrote to stderr so far. */
  stderr(): string
  /** Everything the process wrote to stdout so far (its JSON log lines). */
  stdout(): string
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>
}

/**
 * Starts `node --import tsx src/cli.ts serve` with `env` (on top of PATH and HOME only, so the
 * developer's own environment never leaks in) on free ports and waits until /healthz answers.
 * The process dies with the test process (test/helpers/owned.ts).
 */
export function serve(t: Teardown, env: Record<string, string>): Promise<Served> {
  return start(t, 'serve', env)
}

/** How long a started process may take to answer /healthz. */
export const START_LIMIT_MS = 180_000

/**
 * Starts `netinv <command>` (serve, gateway or inventory) the same way; `port`: a public port (the
 * inventory's internal one) chosen before.
 *
 * A port found free here can be taken before the process binds it: freePort's ports come from the
 * kernel's ephemeral range, which the outgoing connections of every other test process draw their
 * source ports from too (seen in a full run: EADDRINUSE at the restart of a serve, a few seconds
 * after the port was chosen). A start that fails that way on ports chosen here is made again on
 * new ones, up to three times.
 */
export async function start(t: Teardown, command: 'serve' | 'gateway' | 'inventory', env: Record<string, string>, port?: number): Promise<Served> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(t, command, env, port)
    } catch (err) {
      if (!(err instanceof PortTaken) || attempt === 3) throw err
    }
  }
}

/** A start that failed because a port chosen for it was taken meanwhile. */
class PortTaken extends Error {}

async function startOnce(t: Teardown, command: 'serve' | 'gateway' | 'inventory', env: Record<string, string>, given?: number): Promise<Served> {
  const port = given ?? (await freePort())
  const adminPort = await freePort()
  const ports = command === 'inventory' ? { INVENTORY_PORT: String(port), INVENTORY_ADMIN_PORT: String(adminPort) } : { PORT: String(port), ADMIN_PORT: String(adminPort) }
  const child = spawnOwned(process.execPath, [...CLI, command], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env, ...ports },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let err = ''
  let out = ''
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  const url = `http://127.0.0.1:${port}`
  let dead = false
  void exited.then(() => (dead = true))
  // A start compiles the TypeScript of the CLI and opens the database: on a loaded machine (four
  // test files at once on two cores) that took over a minute; a failure to start shows sooner.
  for (const giveUp = Date.now() + START_LIMIT_MS; ; ) {
    if (dead) {
      const message = `netinv ${command} exited before it was healthy:\n${err}${out}`
      // as the listener failed, or as netinv's check of its ports before it listens says it (src/commands/ports.ts)
      const taken = /EADDRINUSE: address already in use [^\s]*:(\d+)/.exec(message) ?? /port (\d+) on [^\s]+ is already in use/.exec(message)
      if (taken && (Number(taken[1]) === adminPort || (given === undefined && Number(taken[1]) === port))) throw new PortTaken(message)
      throw new Error(message)
    }
    if (Date.now() > giveUp) throw new Error(`netinv ${command} not healthy after ${START_LIMIT_MS / 1000} s:\n${err}${out}`)
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) break
    await new Promise((r) => setTimeout(r, 100))
  }
  return { url, adminUrl: `http://127.0.0.1:${adminPort}`, child, stderr: () => err, stdout: () => out, exited }
}

/** Sends SIGTERM and resolves with the exit code. */
export async function stop(served: Served): Promise<number | null> {
  served.child.kill('SIGTERM')
  return served.exited
}
