/**
 * What test processes left on the machine, and how to remove it. The watchdog of a test process
 * (owned.ts) removes what that one process owned once it has ended; `.ci/leftovers` (and the end
 * of `.ci/run`) looks for what any test process of the suite left.
 */
import pg from 'pg'
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve, sep } from 'node:path'
import { PERSISTENT, labOwners, run, teardown } from '../../src/lab/netns.js'
import { DATABASE_URL } from './urls.js'
import { OWNER_VAR, ROOT, TEST_DATABASE, TEST_LAB_PREFIX, WATCHDOG, ownerMark } from './owned.js'
import { CLUSTER_DIR, CLUSTER_ROOT, removeCluster } from './pg-cluster.js'

export interface Leftover {
  /** What it is, for a person: "process 123: node … serve", "database netinv_t_…", "lab nt1a2b3c". */
  what: string
  remove(): Promise<void>
}

export interface Scope {
  /** Only what this test process owned (its watchdog). */
  owner?: number
  /**
   * Everything that looks like the suite's, whoever started it: test databases, test labs,
   * private clusters and redis-servers, processes running this checkout's code. Only where
   * nothing else runs tests (CI): without it, only what was owned by test processes of this
   * checkout that are gone.
   */
  all?: boolean
}

/** Whether a process lives (a zombie does not). */
export function alive(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').startsWith('Z')
  } catch {
    return false
  }
}

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}

/** This process and its ancestors: never leftovers. */
function lineage(): Set<number> {
  const pids = new Set<number>()
  for (let pid = process.pid; pid > 1 && !pids.has(pid); ) {
    pids.add(pid)
    pid = Number(read(`/proc/${pid}/stat`).replace(/^.*\) /s, '').split(' ')[1] ?? 0)
  }
  return pids
}

/** Whether a database, lab or cluster named after test process `pid` is in scope. */
function ownedBy(pid: number, scope: Scope): boolean {
  return scope.owner !== undefined ? pid === scope.owner : !alive(pid)
}

/** Whether process `pid` (its command line, environment and directory) is the suite's. */
function suiteProcess(pid: number, scope: Scope): boolean {
  const env = read(`/proc/${pid}/environ`).split('\0')
  const mark = env.find((e) => e.startsWith(`${OWNER_VAR}=`))?.slice(OWNER_VAR.length + 1)
  if (scope.owner !== undefined) return mark === ownerMark(scope.owner)
  if (mark !== undefined) {
    const owner = Number(mark.slice(mark.lastIndexOf(':') + 1))
    if (scope.all || (mark === ownerMark(owner) && !alive(owner))) return true
  }
  if (!scope.all) return false
  let cwd = ''
  try {
    cwd = readlinkSync(`/proc/${pid}/cwd`)
  } catch {
    return false
  }
  // a private redis-server runs in its netinv-redis- directory (test/gateway/redis-server.ts)
  if (cwd.startsWith(join(tmpdir(), 'netinv-redis-'))) return true
  // a process running a file of this checkout's code: the CLI, a test file, a test's script
  const args = read(`/proc/${pid}/cmdline`).split('\0').filter(Boolean)
  return args.slice(1).some((a) => /\.(ts|js|mjs)$/.test(a) && ['src', 'dist', 'test'].some((d) => resolve(cwd, a).startsWith(join(ROOT, d) + sep)))
}

/** Watchdogs of this checkout's test processes still at work. */
function watchdogs(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && alive(Number(name)))
    .filter((name) => read(`/proc/${name}/cmdline`).split('\0').includes(WATCHDOG))
    .map(Number)
}

/**
 * Waits (up to `ms`) for the watchdogs of this checkout to finish their cleanup, so that what
 * they are removing is not counted as left; one still at work after that is itself left.
 */
export async function watchdogsDone(ms = 60_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end && watchdogs().length > 0; ) await new Promise((r) => setTimeout(r, 200))
}

function processes(scope: Scope): Leftover[] {
  const mine = lineage()
  const found: Leftover[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const pid = Number(name)
    if (mine.has(pid) || !alive(pid) || !suiteProcess(pid, scope)) continue
    found.push({
      what: `process ${pid}: ${read(`/proc/${pid}/cmdline`).split('\0').join(' ').trim().slice(0, 160)}`,
      remove: async () => {
        try {
          process.kill(pid, 'SIGKILL')
        } catch {
          // gone already
        }
      },
    })
  }
  return found
}

async function labs(scope: Scope): Promise<Leftover[]> {
  const prefixes = new Set<string>()
  for (const [prefix, owner] of await labOwners()) {
    if (owner === PERSISTENT) continue
    const pid = Number(owner)
    const known = Number.isInteger(pid) && pid > 0
    if (scope.owner !== undefined ? known && pid === scope.owner : scope.all || !known || !alive(pid)) prefixes.add(prefix)
  }
  if (scope.all) {
    // a test lab whose run directory is gone while namespaces remain
    for (const line of (await run('ip', ['netns', 'list']).catch(() => '')).split('\n')) {
      const prefix = line.split('-')[0]!
      if (line.includes('-') && TEST_LAB_PREFIX.test(prefix)) prefixes.add(prefix)
    }
  }
  return [...prefixes].map((prefix) => ({ what: `lab ${prefix}`, remove: async () => void (await teardown(prefix)) }))
}

async function databases(scope: Scope): Promise<Leftover[]> {
  const admin = new pg.Client({ connectionString: DATABASE_URL })
  try {
    await admin.connect()
  } catch {
    return [] // no PostgreSQL here, so no test database either
  }
  try {
    const names = (await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'netinv\\_t\\_%'`)).rows.map((r) => r.datname)
    return names
      .filter((name) => {
        const m = TEST_DATABASE.exec(name)
        if (!m) return false
        return scope.all || (m[1] !== undefined && ownedBy(Number(m[1]), scope))
      })
      .map((name) => ({
        what: `database ${name}`,
        remove: async () => {
          const c = new pg.Client({ connectionString: DATABASE_URL })
          await c.connect()
          try {
            await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
          } finally {
            await c.end()
          }
        },
      }))
  } finally {
    await admin.end()
  }
}

function clusters(scope: Scope): Leftover[] {
  return readdirSync(CLUSTER_ROOT)
    .filter((name) => {
      const m = CLUSTER_DIR.exec(name)
      return m !== null && (scope.all || ownedBy(Number(m[1]), scope))
    })
    .map((name) => ({ what: `PostgreSQL cluster ${join(CLUSTER_ROOT, name)}`, remove: async () => removeCluster(join(CLUSTER_ROOT, name)) }))
}

/** Labs, databases and clusters left in `scope`. */
async function resources(scope: Scope): Promise<Leftover[]> {
  return [...(await labs(scope)), ...(await databases(scope)), ...clusters(scope)]
}

/** What is left in `scope`. */
export async function leftovers(scope: Scope): Promise<Leftover[]> {
  return [...processes(scope), ...(await resources(scope))]
}

/**
 * Removes what is left in `scope` and returns what it found: processes first (they may hold a
 * database or run in a lab), until none is found (one may have started another meanwhile), then
 * labs, databases and clusters.
 */
export async function removeLeftovers(scope: Scope): Promise<string[]> {
  const found: string[] = []
  for (let round = 0; round < 20; round++) {
    const left = processes(scope)
    if (left.length === 0) break
    for (const p of left) {
      if (!found.includes(p.what)) found.push(p.what)
      await p.remove()
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  for (const item of await resources(scope)) {
    found.push(item.what)
    await item.remove().catch((err: unknown) => found.push(`  could not remove it: ${String(err)}`))
  }
  return found
}
