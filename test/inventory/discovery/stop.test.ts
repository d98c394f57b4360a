/**
 * Stopping a discovery from another replica: the stop request reaches the replica that runs the
 * job through the job row; the snapshot ends in error with nothing loaded.
 */
import t from 'tap'
import { freshPostgres } from '../../helpers/db.js'
import { startApp } from '../app.js'

t.test('a replica stops a discovery another replica runs', async (t) => {
  const { db } = await freshPostgres(t)
  const runner = await startApp(t, db)
  const other = await startApp(t, db)
  t.equal((await runner.call('POST', 'settings/snmp', { version: '2c', community: 'public' })).status, 201)
  t.equal((await runner.call('PATCH', 'settings', { allowedSpecialNetworks: ['127.0.0.0/8'], limits: { concurrency: 1, timeoutMs: 300, retries: 0 } })).status, 200)
  // loopback addresses (allowed above) where no agent answers: a crawl of minutes
  const r = await runner.call('POST', 'snapshots', { source: 'network', seeds: ['127.0.0.0/24'] })
  t.equal(r.status, 201)
  const { id, jobId } = r.body as { id: string; jobId: string }
  const stop = await other.call('POST', `jobs/${jobId}/stop`)
  t.equal(stop.status, 200, stop.text)
  t.match(stop.body, { status: 'error', isDone: true, message: 'stopped by alice' })
  t.match((await other.call('GET', `snapshots/${id}`)).body, { status: 'error', state: 'unloaded', errors: [{ errorType: 'STOPPED', count: 1 }] })
  const partitions = await db.query(`SELECT 1 FROM pg_class WHERE relname LIKE $1`, [`%_s_${id.replace(/-/g, '')}`])
  t.equal(partitions.rows.length, 0, 'no partition of the stopped snapshot exists')
})
