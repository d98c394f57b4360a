/**
 * `.ci/leftovers` finds and removes what test processes of this checkout that are gone left
 * behind (here: what a watchdog could not remove), and nothing of a test process that lives.
 */
import t from 'tap'
import pg from 'pg'
import { spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { leftovers, removeLeftovers } from './leftovers.js'
import { OWNER_VAR, ownerMark, spawnOwned } from './owned.js'
import { DATABASE_URL } from './urls.js'

async function sql(text: string): Promise<void> {
  const c = new pg.Client({ connectionString: DATABASE_URL })
  await c.connect()
  try {
    await c.query(text)
  } finally {
    await c.end()
  }
}

t.test('what a test process that is gone left is found and removed; what a live one owns is not', async (t) => {
  // the pid of a process that has ended: the owner that is gone
  const gone = spawnSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' })
  const dead = Number(gone.stdout.trim())
  const left = `netinv_t_${dead}_0123456789ab`
  const live = `netinv_t_${process.pid}_0123456789ab`
  t.teardown(() => Promise.all([left, live].map((d) => sql(`DROP DATABASE IF EXISTS ${d} WITH (FORCE)`))))
  await sql(`CREATE DATABASE ${left}`)
  await sql(`CREATE DATABASE ${live}`)
  const orphan = spawnOwned('sh', ['-c', `${OWNER_VAR}='${ownerMark(dead)}' exec sleep 600`], { stdio: 'ignore' })
  const ended = once(orphan, 'exit')
  t.teardown(() => void orphan.kill('SIGKILL'))
  const mine = spawnOwned('sleep', ['600'], { stdio: 'ignore' })
  t.teardown(() => void mine.kill('SIGKILL'))
  // until sh has become sleep, with the dead owner's mark
  while (!readFileSync(`/proc/${orphan.pid}/cmdline`, 'utf8').startsWith('sleep')) await new Promise((r) => setTimeout(r, 20))

  const found = (await leftovers({})).map((l) => l.what)
  t.ok(found.includes(`database ${left}`), 'the database of the dead owner')
  t.ok(found.some((w) => w.startsWith(`process ${orphan.pid}:`)), 'the process of the dead owner')
  t.notOk(found.includes(`database ${live}`), 'not the database of a live owner')
  t.notOk(found.some((w) => w.startsWith(`process ${mine.pid}:`)), 'not the process of a live owner')

  const removed = await removeLeftovers({})
  t.ok(removed.includes(`database ${left}`), 'it says what it removed')
  await ended
  const after = (await leftovers({})).map((l) => l.what)
  t.notOk(after.includes(`database ${left}`), 'the database is dropped')
  t.equal(mine.exitCode, null, 'the live owner’s process runs on')
})
