/**
 * The product as a user runs it: `netinv serve` in a child process, with its own DATA_DIR and
 * CONFIG_DIR, reached over HTTP only.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

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

export interface Served {
  url: string
  child: ChildProcess
  /** Everything the process wrote to stderr so far. */
  stderr(): string
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>
}

/**
 * Starts `node --import tsx src/cli.ts serve` with `env` (on top of PATH and HOME only, so the
 * developer's own environment never leaks in) on free ports and waits until /healthz answers.
 */
export async function serve(t: Teardown, env: Record<string, string>): Promise<Served> {
  const port = await freePort()
  const adminPort = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env, PORT: String(port), ADMIN_PORT: String(adminPort) },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let err = ''
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  const url = `http://127.0.0.1:${port}`
  let dead = false
  void exited.then(() => (dead = true))
  for (let i = 0; ; i++) {
    if (dead) throw new Error(`netinv serve exited before it was healthy:\n${err}`)
    if (i > 600) throw new Error(`netinv serve not healthy after 60 s:\n${err}`)
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) break
    await new Promise((r) => setTimeout(r, 100))
  }
  return { url, child, stderr: () => err, exited }
}

/** Sends SIGTERM and resolves with the exit code. */
export async function stop(served: Served): Promise<number | null> {
  served.child.kill('SIGTERM')
  return served.exited
}
