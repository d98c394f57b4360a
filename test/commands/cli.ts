/**
 * `netinv <args>` as a user runs it: a child process with its own HOME and XDG_CONFIG_HOME (so
 * the stored login is the test's), on top of PATH only.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface Ran {
  code: number | null
  stdout: string
  stderr: string
}

interface Teardown {
  teardown(fn: () => unknown): void
}

/** A fresh home directory (also the config home) removed after the test. */
export function tempHome(t: Teardown): string {
  const home = mkdtempSync(join(tmpdir(), 'netinv-cli-home-'))
  t.teardown(() => rmSync(home, { recursive: true, force: true }))
  return home
}

export function netinv(args: readonly string[], env: Record<string, string>, input = ''): Promise<Ran> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c))
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c))
  child.stdin.end(input)
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

/** The same on a terminal: `script` gives the child a pseudo-terminal (stdout and stderr merged). */
export function netinvOnTty(args: readonly string[], env: Record<string, string>): Promise<Ran> {
  const command = [process.execPath, '--import', 'tsx', 'src/cli.ts', ...args].map(quote).join(' ')
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', TERM: 'xterm', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c))
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })
}
