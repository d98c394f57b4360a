/**
 * A test file killed at its time limit (tap sends SIGALRM, then SIGKILL; no teardown runs) takes
 * everything it started with it: its `serve` processes, its test databases, its labs.
 */
import t, { type Test } from 'tap'
import pg from 'pg'
import { readFileSync } from 'node:fs'
import { once } from 'node:events'
import { labMissing, teardown } from '../../src/lab/index.js'
import { labNamespaces } from '../../src/lab/netns.js'
import { DATABASE_URL } from './db.js'
import { spawnOwned } from './owned.js'
import { testNeeding } from './requirements.js'

interface Made {
  serve?: number
  database?: string
  lab?: string
}

/** Runs owner-child.ts, waits for what it made, then kills it with SIGKILL. */
async function killedChild(t: Test, what: string[]): Promise<Made> {
  const child = spawnOwned(process.execPath, ['--import', 'tsx', new URL('./owner-child.ts', import.meta.url).pathname, ...what], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c))
  const exited = once(child, 'exit')
  while (!out.includes('\n')) {
    if (child.exitCode !== null) throw new Error(`the test process exited with ${child.exitCode}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const made = JSON.parse(out.split('\n')[0]!) as Made
  // whatever happens below, this test leaves nothing behind
  t.teardown(async () => {
    if (made.serve !== undefined) {
      try {
        process.kill(made.serve, 'SIGKILL')
      } catch {
        // gone
      }
    }
    if (made.database !== undefined) await sql(`DROP DATABASE IF EXISTS ${made.database} WITH (FORCE)`)
    if (made.lab !== undefined) await teardown(made.lab)
  })
  child.kill('SIGKILL')
  await exited
  return made
}

/** Whether a process has ended (a zombie waiting for its reaper has). */
function ended(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').startsWith('Z')
  } catch {
    return true
  }
}

async function sql(text: string, values: unknown[] = []): Promise<unknown[]> {
  const c = new pg.Client({ connectionString: DATABASE_URL })
  await c.connect()
  try {
    return (await c.query(text, values)).rows
  } finally {
    await c.end()
  }
}

/** Waits until `gone()` holds; false when it still does not after a minute (it never does without an owner; with one it takes seconds). */
async function eventually(gone: () => Promise<boolean> | boolean): Promise<boolean> {
  for (let i = 0; i < 600; i++) {
    if (await gone()) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return false
}

t.test('a killed test process takes its serve process and its test database with it', async (t) => {
  const made = await killedChild(t, [])
  t.ok(made.serve !== undefined && made.database !== undefined, 'it ran serve on a test database')
  t.ok(await eventually(() => ended(made.serve!)), 'the serve process is gone')
  t.ok(await eventually(async () => (await sql('SELECT 1 FROM pg_database WHERE datname = $1', [made.database])).length === 0), 'the test database is dropped')
})

testNeeding(t, 'a killed test process takes its lab with it', labMissing() ?? undefined, async (t) => {
  const made = await killedChild(t, ['lab'])
  t.ok(made.lab !== undefined, 'it built a lab')
  t.ok(await eventually(async () => (await labNamespaces(made.lab!)).length === 0), 'the namespaces of the lab are removed')
})
