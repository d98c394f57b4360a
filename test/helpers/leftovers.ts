/**
 * What test processes left on the machine, and how to remove it. The watchdog of a test process
 * (owned.ts) removes what that one process owned once it has ended; `.ci/leftovers` (and the end
 * of `.ci/run`) looks for what any test process of the suite left.
 */
import pg from 'pg'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PERSISTENT, labOwners, run, teardown } from '../../src/lab/netns.js'
import { DATABASE_URL } from './urls.js'
import { OWNER_VAR, TEST_DATABASE, TEST_LAB_PREFIX, WATCHDOG, ownerMark } from './owned.js'
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
   * What any checkout's test processes that are gone left (a process carrying a dead owner's
   * mark, a database, lab or cluster named after a dead process), and test databases named
   * before owners were: what `.ci/run` removes before the suite and looks for after it. Without
   * it, only what this checkout's test processes that are gone left. Never what a live test
   * process owns, whichever checkout it runs from.
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

/** Whether process `pid` carries the mark of a test process in scope (a private redis-server, a serve, a lab builder: every process a test starts has it). */
function suiteProcess(pid: number, scope: Scope): boolean {
  const env = read(`/proc/${pid}/environ`).split('\0')
  const mark = env.find((e) => e.startsWith(`${OWNER_VAR}=`))?.slice(OWNER_VAR.length + 1)
  if (scope.owner !== undefined) return mark === ownerMark(scope.owner)
  if (mark === undefined) return false
  const owner = Number(mark.slice(mark.lastIndexOf(':') + 1))
  return (scope.all === true || mark === ownerMark(owner)) && !alive(owner)
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
    if (scope.owner !== undefined ? known && pid === scope.owner : !known || !alive(pid)) prefixes.add(prefix)
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
        return m[1] === undefined ? scope.all === true : ownedBy(Number(m[1]), scope)
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
      return m !== null && ownedBy(Number(m[1]), scope)
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
