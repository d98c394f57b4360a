/**
 * Network namespaces of a lab, named `<prefix>-<device>`, and the commands that make and remove
 * them. Everything a lab starts runs inside its own namespaces, so removing a lab by its prefix
 * (also after a crash) finds every process by namespace and leaves nothing behind.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readdir, readFile, rm } from 'node:fs/promises'
import { removeSshUser } from './ssh.js'

export const RUN_ROOT = '/run/netinv-lab'
/** Owner of a lab that outlives the process that built it. */
export const PERSISTENT = 'persistent'

/** Runs a command; resolves with stdout, rejects with the command line and its stderr. */
export function run(cmd: string, args: readonly string[], options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, [...args], { timeout: options.timeoutMs ?? 30_000, env: options.env ?? process.env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')}: ${String(stderr).trim() || err.message}`))
      else resolve(String(stdout))
    })
  })
}

/** Runs a command inside a namespace. */
export function inNs(ns: string, cmd: string, args: readonly string[], options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return run('ip', ['netns', 'exec', ns, cmd, ...args], options)
}

export function checkPrefix(prefix: string): string {
  if (!/^[a-z][a-z0-9]{1,9}$/.test(prefix)) throw new Error(`lab prefix ${JSON.stringify(prefix)} must be 2-10 lower-case letters and digits, starting with a letter`)
  return prefix
}

export const nsName = (prefix: string, device: string) => `${prefix}-${device}`
/** The root namespace's end of the management link. */
export const mgmtLink = (prefix: string) => `${prefix}-m`
export const runDir = (prefix: string) => `${RUN_ROOT}/${prefix}`

/** Namespaces whose name starts with `<prefix>-`. */
export async function labNamespaces(prefix: string): Promise<string[]> {
  const out = await run('ip', ['netns', 'list'])
  return out
    .split('\n')
    .map((l) => l.trim().split(/\s+/)[0] ?? '')
    .filter((n) => n.startsWith(`${prefix}-`))
}

/** Every lab with a run directory: its prefix and its owner (a pid, PERSISTENT, or '' when unreadable). */
export async function labOwners(): Promise<Map<string, string>> {
  const dirs = await readdir(RUN_ROOT).catch(() => [] as string[])
  const owners = new Map<string, string>()
  for (const prefix of dirs) owners.set(prefix, (await readFile(`${RUN_ROOT}/${prefix}/owner`, 'utf8').catch(() => '')).trim())
  return owners
}

/** Labs whose owner process is gone (a crashed test or bench): their prefixes. */
export async function staleLabs(): Promise<string[]> {
  const stale: string[] = []
  for (const [prefix, text] of await labOwners()) {
    // a lab built from the command line lives until `netinv lab down`
    if (text === PERSISTENT) continue
    const owner = Number(text)
    if (!Number.isInteger(owner) || owner <= 0 || !alive(owner)) stale.push(prefix)
  }
  return stale
}

function alive(pid: number): boolean {
  return existsSync(`/proc/${pid}`)
}

/** Kills every process of the namespaces, deletes them, the management link and the run directory. */
export async function teardown(prefix: string): Promise<{ namespaces: number; processes: number }> {
  checkPrefix(prefix)
  const namespaces = await labNamespaces(prefix)
  const pids = new Set<number>()
  for (const ns of namespaces) {
    const out = await run('ip', ['netns', 'pids', ns]).catch(() => '')
    for (const p of out.split(/\s+/)) if (/^\d+$/.test(p)) pids.add(Number(p))
  }
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
  for (let i = 0; i < 100 && [...pids].some(alive); i++) await new Promise((r) => setTimeout(r, 20))
  for (const ns of namespaces) await run('ip', ['netns', 'del', ns]).catch(() => {})
  await run('ip', ['link', 'del', mgmtLink(prefix)]).catch(() => {})
  await rm(runDir(prefix), { recursive: true, force: true })
  // the SSH user of the lab (ssh.ts), if it had one
  await removeSshUser(prefix)
  return { namespaces: namespaces.length, processes: pids.size }
}
