import t from 'tap'
import { randomUUID } from 'node:crypto'
import { freshDb } from '../../helpers/db.js'
import { startApp } from '../app.js'
import { insertJob, jobStarted, recoverInterrupted } from '../../../src/inventory/discovery/index.js'
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
  await insertJob(db, { id: jobId, name: 'discovery', snapshotId: id, username: 'alice', now: 1 })
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
