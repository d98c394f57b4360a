/**
 * `netinv <args>` as a user runs it: a child process with its own HOME and XDG_CONFIG_HOME (so
 * the stored login is the test's), on top of PATH only. And the same command line in the test's
 * own process (runCli, which src/cli.ts runs): the same words, environment and stdin, stdout and
 * stderr collected, without the start of a Node process each time.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable, Writable } from 'node:stream'
import type { CommandIo } from '../../src/commands/io.js'
import { reportCrash, runCli } from '../../src/commands/main.js'
import { spawnOwned } from '../helpers/owned.js'
import { CLI } from '../helpers/cli-entry.js'

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

export interface Running {
  child: ChildProcess
  /** What it wrote on stderr so far. */
  stderr(): string
  ran: Promise<Ran>
}

/** `netinv <args>` started in a child process (to signal it while it runs). */
export function startNetinv(args: readonly string[], env: Record<string, string>, input = ''): Running {
  const child = spawnOwned(process.execPath, [...CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c))
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c))
  child.stdin.end(input)
  const ran = new Promise<Ran>((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })
  return { child, stderr: () => stderr, ran }
}

export function netinv(args: readonly string[], env: Record<string, string>, input = ''): Promise<Ran> {
  return startNetinv(args, env, input).ran
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

/** The same on a terminal: `script` gives the child a pseudo-terminal (stdout and stderr merged). */
export function netinvOnTty(args: readonly string[], env: Record<string, string>): Promise<Ran> {
  const command = [process.execPath, ...CLI, ...args].map(quote).join(' ')
  const child = spawnOwned('script', ['-qec', command, '/dev/null'], {
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

/** Collects what is written, decoded once at the end (a character may span two chunks). */
class Collector extends Writable {
  private readonly chunks: Buffer[] = []

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))
    done()
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8')
  }
}

export interface MemoryIo {
  io: CommandIo
  stdout(): string
  stderr(): string
  /** Ctrl-C: calls the handlers the command registered. */
  interrupt(): void
}

/** The environment of `netinv()` (PATH, LOG_LEVEL and `env`), `input` on stdin, stdout and stderr collected; not a terminal. */
export function memoryIo(env: Record<string, string>, input = ''): MemoryIo {
  const stdout = new Collector()
  const stderr = new Collector()
  const handlers = new Set<() => void>()
  return {
    io: {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
      stdin: Readable.from(input === '' ? [] : [Buffer.from(input)]),
      stdout,
      stderr,
      onInterrupt(handler) {
        handlers.add(handler)
        return () => handlers.delete(handler)
      },
    },
    stdout: () => stdout.text(),
    stderr: () => stderr.text(),
    interrupt: () => {
      for (const handler of [...handlers]) handler()
    },
  }
}

/** `netinv <args>` in this process: the exit status, stdout and stderr of the same run as a child's. */
export async function netinvHere(args: readonly string[], env: Record<string, string>, input = ''): Promise<Ran> {
  const m = memoryIo(env, input)
  const code = await runCli(args, m.io).catch((err: unknown) => reportCrash(err, m.io.stderr))
  return { code, stdout: m.stdout(), stderr: m.stderr() }
}
