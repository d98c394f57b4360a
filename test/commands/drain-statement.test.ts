/**
 * SIGTERM to `netinv serve` on PostgreSQL while a table query's statement is still running in the
 * database (issue 30, item 11: the process exited 40 s after the signal with a 25 s grace). The
 * statement here waits for a lock the test holds, so it runs for as long as the test wants,
 * whatever the machine's speed. At the end of the grace the request is cut, and closing the
 * database must not wait for the statement: the process exits 0, not through the last resort.
 */
import t from 'tap'
import pg from 'pg'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { dirsEnv, serve, tempDirs } from '../e2e/process.js'
import { apiKey, discoverLab, login, newApiKey } from '../e2e/client.js'
import { freshPostgres } from '../helpers/db.js'

const GRACE_MS = 2000
const PASSWORD = 'drain-statement-password-1'

t.test('SIGTERM while a table query waits in PostgreSQL: the process exits 0 at the grace, without waiting for the statement', async (t) => {
  const { url: databaseUrl } = await freshPostgres(t)
  const dirs = tempDirs(t)
  // The statement timeout far beyond the grace: only the shutdown can end the statement in time.
  writeFileSync(join(dirs.configDir, 'api.json'), JSON.stringify({ server: { shutdownGraceMs: GRACE_MS }, rateLimit: { enabled: false }, query: { statementTimeoutMs: 120000 } }))
  const served = await serve(t, { ...dirsEnv(dirs), ADMIN_PASSWORD: PASSWORD, DATABASE_URL: databaseUrl })
  const { url, child } = served
  const { accessToken } = await login(url, 'admin', PASSWORD)
  const key = await newApiKey(url, accessToken, ['read', 'write'])
  await discoverLab(url, apiKey(key))

  // A first query answered: the snapshot is loaded, so the next one goes straight to the table.
  const body = JSON.stringify({ snapshot: '$last', columns: ['id', 'hostname'], pagination: { start: 0, limit: 10 } })
  const first = await fetch(`${url}/api/tables/inventory/devices`, { method: 'POST', headers: { ...apiKey(key), 'content-type': 'application/json' }, body })
  t.equal(first.status, 200, 'the table answers before the lock')
  const locker = new pg.Client({ connectionString: databaseUrl })
  await locker.connect()
  t.teardown(() => locker.end())
  await locker.query('BEGIN')
  await locker.query('LOCK TABLE inventory.devices IN ACCESS EXCLUSIVE MODE')
  const query = fetch(`${url}/api/tables/inventory/devices`, {
    method: 'POST',
    headers: { ...apiKey(key), 'content-type': 'application/json' },
    body,
  }).then(
    (r) => `answered ${r.status}`,
    (err: Error) => `cut (${err.message})`,
  )
  // Until the table query's statement waits for the lock in the database.
  for (let i = 0; ; i++) {
    const waiting = await locker.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)
    if ((waiting.rows[0] as { n: number }).n > 0) break
    if (i === 1200) throw new Error(`the table query never waited for the lock: ${await Promise.race([query, 'still running'])}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  child.kill('SIGTERM')
  const code = await served.exited
  t.comment(`the table query: ${await query}`)
  t.equal(code, 0, 'exit code 0: the shutdown ended at the grace')
  t.notMatch(served.stdout(), /did not finish within the grace/, 'not through the last resort')
  await locker.query('ROLLBACK')
})
