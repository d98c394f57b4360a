import t from 'tap'
import { randomUUID } from 'node:crypto'
import { freshDb } from '../../helpers/db.js'
import { startApp } from '../app.js'
import { JobRunner, STALE_MS, heartbeat, insertJob, jobStarted, recoverInterrupted } from '../../../src/inventory/discovery/index.js'
import { silentLogger } from '../../../src/shared/log.js'
import { insertSnapshot } from '../../../src/inventory/snapshots/store.js'
import { DEVICES } from '../../../src/inventory/catalog/inventory.js'
import { createPartitionSql } from '../../../src/inventory/catalog/index.js'
import { migrateInventory } from '../../../src/inventory/migrations/index.js'

t.test('a discovery cut short by shutdown is recorded as failed', async (t) => {
  const db = await freshDb(t, 'postgres')
  const api = await startApp(t, db)
  // a bigger network, so the discovery is still running when the service stops
  const r = await api.call('POST', 'snapshots', { profile: 'medium' })
  t.equal(r.status, 201)
  const { id, jobId } = r.body as { id: string; jobId: string }
  await api.close()
  const job = await db.query<{ status: string; message: string }>('SELECT status, message FROM inventory.jobs WHERE id = $1', [jobId])
  t.match(job.rows[0], { status: 'error', message: /interrupted/ })
  const snap = await db.query<{ status: string }>('SELECT status FROM inventory.snapshots WHERE id = $1', [id])
  t.equal(snap.rows[0]!.status, 'error')
  const left = await db.query(`SELECT 1 FROM pg_class WHERE relname LIKE $1`, [`%${id.replace(/-/g, '')}%`])
  t.equal(left.rows.length, 0, 'no partition left')
})

t.test('work a crashed process accepted is marked error at the next start', async (t) => {
  const db = await freshDb(t, 'pglite')
  await migrateInventory(db)
  const id = randomUUID()
  const jobId = randomUUID()
  await insertSnapshot(db, { id, name: null, note: null, status: 'run', origin: 'simulator', settings: {}, sites: [], tsStart: 1, creator: 'alice', version: 'v7.6', initialVersion: 'v7.6', jobId })
  await insertJob(db, { id: jobId, name: 'discoveryNew', snapshotId: id, username: 'alice', now: 1, owner: 'a-crashed-instance' })
  await jobStarted(db, jobId, 2)
  await db.query(createPartitionSql(DEVICES, id)) // a half-written partition

  const api = await startApp(t, db) // the next start
  const job = (await api.call('GET', `jobs/${jobId}`)).body
  t.match(job, { status: 'error', isDone: true, message: /interrupted/ })
  const snap = (await api.call('GET', `snapshots/${id}`)).body
  t.match(snap, { status: 'error', finishStatus: 'error', errors: [{ errorType: 'INTERRUPTED', count: 1 }] })
  const left = await db.query(`SELECT 1 FROM pg_class WHERE relname = $1`, [`devices_s_${id.replace(/-/g, '')}`])
  t.equal(left.rows.length, 0, 'partial rows dropped')
  t.same(await recoverInterrupted(db, 3), { jobs: 0, snapshots: 0 }, 'nothing left to recover')
})

t.test('on PostgreSQL, a live job of another replica is left alone until its heartbeat stops', async (t) => {
  const db = await freshDb(t, 'postgres')
  await migrateInventory(db)
  const id = randomUUID()
  const jobId = randomUUID()
  const now = Date.now()
  await insertSnapshot(db, { id, name: null, note: null, status: 'run', origin: 'simulator', settings: {}, sites: [], tsStart: now, creator: 'bob', version: 'v7.6', initialVersion: 'v7.6', jobId })
  await insertJob(db, { id: jobId, name: 'discoveryNew', snapshotId: id, username: 'bob', now, owner: 'another-replica', status: 'running' })
  const api = await startApp(t, db) // a second replica starts
  t.match((await api.call('GET', `jobs/${jobId}`)).body, { status: 'running', isDone: false })
  t.match((await api.call('GET', `snapshots/${id}`)).body, { status: 'run' })
  t.same(await recoverInterrupted(db, now + STALE_MS - 1), { jobs: 0, snapshots: 0 }, 'still beating')
  t.same(await recoverInterrupted(db, now + STALE_MS + 1), { jobs: 1, snapshots: 1 }, 'silent too long: failed')
  t.match((await api.call('GET', `snapshots/${id}`)).body, { status: 'error' })
})

t.test('an instance beats only for the jobs it works on; an end it could not write is written later', async (t) => {
  const db = await freshDb(t, 'postgres')
  await migrateInventory(db)
  const runner = new JobRunner(silentLogger(), 20)
  t.teardown(() => runner.close())
  const [live, dead] = [randomUUID(), randomUUID()]
  for (const id of [live, dead]) {
    await insertSnapshot(db, { id, name: null, note: null, status: 'run', origin: 'simulator', settings: {}, sites: [], tsStart: 1, creator: null, version: 'v7.6', initialVersion: 'v7.6', jobId: id })
    await insertJob(db, { id, name: 'discoveryNew', snapshotId: id, username: null, now: 1, owner: runner.instance, status: 'running' })
  }
  const untrack = runner.track(live)
  await heartbeat(db, runner.instance, runner.liveJobs(), 1000)
  const beats = await db.query<{ id: string; heartbeat_at: number }>('SELECT id, heartbeat_at FROM inventory.jobs ORDER BY heartbeat_at')
  t.same(beats.rows.map((r) => [r.id, Number(r.heartbeat_at)]), [[dead, 1], [live, 1000]], 'the job whose work ended is not kept alive')
  untrack()

  let attempts = 0
  let written = false
  await runner.record(dead, async () => {
    attempts += 1
    if (attempts < 3) throw new Error('the database is away')
    await db.query("UPDATE inventory.jobs SET status = 'error' WHERE id = $1", [dead])
    written = true
  })
  // (until the third attempt's write is done, not only begun)
  for (let i = 0; i < 100 && !written; i++) await new Promise((r) => setTimeout(r, 20))
  t.equal(attempts, 3, 'tried again until the database took it')
  t.same((await db.query('SELECT status FROM inventory.jobs WHERE id = $1', [dead])).rows, [{ status: 'error' }])
  t.equal(await runner.retry(), 0, 'nothing left to write')
})

t.test('embedded: a job found running at start is failed at once, however fresh its heartbeat', async (t) => {
  const db = await freshDb(t, 'pglite')
  await migrateInventory(db)
  const id = randomUUID()
  const now = Date.now()
  await insertSnapshot(db, { id, name: null, note: null, status: 'run', origin: 'import', settings: {}, sites: [], tsStart: now, creator: null, version: 'v7.6', initialVersion: 'v7.6', jobId: id })
  await insertJob(db, { id, name: 'snapshotUpload', snapshotId: id, username: null, now, owner: 'the-process-that-crashed', status: 'running' })
  const api = await startApp(t, db)
  t.match((await api.call('GET', `jobs/${id}`)).body, { status: 'error', isDone: true })
  t.match((await api.call('GET', `snapshots/${id}`)).body, { status: 'error' })
})
