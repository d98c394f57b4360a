/**
 * Configuration texts are kept while a snapshot's row refers to them, loaded or not, and a text
 * a running job has just stored is never taken for an orphan before its rows are in place; a job
 * that ends removes every text no row refers to, its own included.
 */
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { freshDb } from '../../../../helpers/db.js'
import { insertJob, jobStarted, recoverInterrupted, STALE_MS } from '../../../../../src/inventory/discovery/index.js'
import { pruneConfigTexts, pruneOrphanConfigTexts, snapshotConfigHashes, storeConfigTexts } from '../../../../../src/inventory/discovery/network/ssh/texts.js'
import { createPartitionSql, partitionTable } from '../../../../../src/inventory/catalog/index.js'
import { CONFIG_SAVED } from '../../../../../src/inventory/catalog/consistency.js'
import { migrateInventory } from '../../../../../src/inventory/migrations/index.js'
import { insertSnapshot } from '../../../../../src/inventory/snapshots/store.js'

const H = (c: string) => c.repeat(40)

t.test('a text goes with the last row that refers to it, not before', async (t) => {
  const db = await freshDb(t, 'pglite')
  await migrateInventory(db)
  const kept = async () => (await db.query<{ hash: string }>('SELECT hash FROM inventory.config_texts ORDER BY hash')).rows.map((r) => r.hash)
  await storeConfigTexts(db, ['a', 'b', 'c', 'd'].map((c) => ({ hash: H(c), text: `hostname ${c}\n` })), 100)
  // a snapshot whose partition is detached (unloaded) refers to b
  const other = randomUUID()
  await db.query(createPartitionSql(CONFIG_SAVED, other))
  await db.query(`INSERT INTO ${partitionTable(CONFIG_SAVED, other)} (snapshot_id, id, sn, hostname, site_name, hash, status) VALUES ($1, 'X1', 'X1', 'x1', 's', $2, NULL)`, [other, H('b')])
  t.same(await snapshotConfigHashes(db, other), [H('b')])
  t.same(await snapshotConfigHashes(db, other, ['nope']), [])
  t.same(await snapshotConfigHashes(db, randomUUID()), [], 'a snapshot without the table has none')

  t.equal(await pruneConfigTexts(db, [H('a'), H('b')], 200), 1)
  t.same(await kept(), [H('b'), H('c'), H('d')], 'a went; b is referred to by the unloaded snapshot')

  // a job running since 300 stored c again at 350 (its rows are not in place yet)
  const snap = randomUUID()
  const job = randomUUID()
  await insertSnapshot(db, { id: snap, name: null, note: null, status: 'run', origin: 'network', settings: {}, sites: [], tsStart: 300, creator: null, version: 'v7.6', initialVersion: 'v7.6', jobId: job })
  await insertJob(db, { id: job, name: 'discoveryNew', snapshotId: snap, username: null, now: 300, owner: 'here' })
  await jobStarted(db, job, 300)
  await storeConfigTexts(db, [{ hash: H('c'), text: 'hostname c\n' }], 350)
  t.equal(await pruneConfigTexts(db, [H('c'), H('d')], 400), 1)
  t.same(await kept(), [H('b'), H('c')], 'c is kept while the job that stored it runs; d went')
  // the job ended without rows that refer to c
  await db.query(`UPDATE inventory.jobs SET status = 'error' WHERE id = $1`, [job])
  t.equal(await pruneConfigTexts(db, [H('c')], 500), 1)
  t.same(await kept(), [H('b')])
  t.equal(await pruneConfigTexts(db, [], 600), 0, 'nothing asked, nothing done')
})

t.test('a job that ends removes every text no row refers to, its own too, and not those another running job stored', async (t) => {
  const db = await freshDb(t, 'pglite')
  await migrateInventory(db)
  const kept = async () => (await db.query<{ hash: string }>('SELECT hash FROM inventory.config_texts ORDER BY hash')).rows.map((r) => r.hash)
  const running = async (start: number) => {
    const snap = randomUUID()
    const job = randomUUID()
    await insertSnapshot(db, { id: snap, name: null, note: null, status: 'run', origin: 'network', settings: {}, sites: [], tsStart: start, creator: null, version: 'v7.6', initialVersion: 'v7.6', jobId: job })
    await insertJob(db, { id: job, name: 'discoveryNew', snapshotId: snap, username: null, now: start, owner: 'here' })
    await jobStarted(db, job, start)
    return job
  }
  const referring = randomUUID()
  await db.query(createPartitionSql(CONFIG_SAVED, referring))
  await db.query(`INSERT INTO ${partitionTable(CONFIG_SAVED, referring)} (snapshot_id, id, sn, hostname, site_name, hash, status) VALUES ($1, 'X1', 'X1', 'x1', 's', $2, NULL)`, [referring, H('a')])
  // a left behind long ago (now referred to), b left behind; two jobs run
  await storeConfigTexts(db, [{ hash: H('a'), text: 'a' }, { hash: H('b'), text: 'b' }], 100)
  const older = await running(200)
  const ending = await running(300)
  await storeConfigTexts(db, [{ hash: H('c'), text: 'c' }], 250)
  await storeConfigTexts(db, [{ hash: H('d'), text: 'd' }], 350)
  t.equal(await pruneOrphanConfigTexts(db, 400, ending), 1)
  t.same(await kept(), [H('a'), H('c'), H('d')], 'b went; d, stored by the ending job, is kept while the older job runs (it may load rows that refer to it)')
  await db.query(`UPDATE inventory.jobs SET status = 'error' WHERE id = ANY($1::text[])`, [[older, ending]])
  // a text stored in the very millisecond the job ends is its own too
  await storeConfigTexts(db, [{ hash: H('e'), text: 'e' }], 500)
  t.equal(await pruneOrphanConfigTexts(db, 500, older), 3)
  t.same(await kept(), [H('a')], 'the older job ended: c, d and e went; a is referred to')
  t.equal(await pruneOrphanConfigTexts(db, 600), 0)
})

t.test('the texts a job stored before its service instance died go when the watchdog fails the job', async (t) => {
  const db = await freshDb(t, 'pglite')
  await migrateInventory(db)
  const snap = randomUUID()
  const job = randomUUID()
  await insertSnapshot(db, { id: snap, name: null, note: null, status: 'run', origin: 'network', settings: {}, sites: [], tsStart: 1000, creator: null, version: 'v7.6', initialVersion: 'v7.6', jobId: job })
  await insertJob(db, { id: job, name: 'discoveryNew', snapshotId: snap, username: null, now: 1000, owner: 'gone' })
  await jobStarted(db, job, 1000)
  await storeConfigTexts(db, [{ hash: H('a'), text: 'a' }], 1500)
  t.same(await recoverInterrupted(db, 1000 + STALE_MS / 2), { jobs: 0, snapshots: 0 }, 'its heartbeat is fresh yet')
  t.equal((await db.query('SELECT 1 FROM inventory.config_texts')).rows.length, 1, 'the running job\'s text is kept')
  t.same(await recoverInterrupted(db, 2000 + STALE_MS), { jobs: 1, snapshots: 1 })
  t.equal((await db.query('SELECT 1 FROM inventory.config_texts')).rows.length, 0, 'no snapshot refers to it: gone with the job')
})
