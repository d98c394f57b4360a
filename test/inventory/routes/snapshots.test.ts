import t from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { asVersion, startApp } from '../app.js'

type Snap = Record<string, unknown>

const COMPAT_FIELDS = ['id', 'name', 'note', 'state', 'status', 'finishStatus', 'locked', 'totalDevCount', 'licensedDevCount', 'tsStart', 'tsEnd', 'version', 'initialVersion', 'sites', 'errors']

for (const engine of ENGINES) {
  t.test(`snapshot lifecycle on ${engine}`, async (t) => {
    const db = await freshDb(t, engine)
    const api = await startApp(t, db)

    const started = await api.call('POST', 'snapshots', { snapshotName: 'first', snapshotNote: 'lab run', seed: 7 })
    t.equal(started.status, 201)
    const { id, jobId, success } = started.body as { id: string; jobId: string; success: boolean }
    t.equal(success, true)
    t.match(id, /^[0-9a-f-]{36}$/)
    const early = (await api.call('GET', `snapshots/${id}`)).body as Snap
    t.ok(['run', 'finishing', 'done'].includes(early.status as string), 'answered at once, discovery runs')
    const job = await api.waitJob(jobId)
    t.equal(job.status, 'done')
    t.equal(job.progress, 1)
    t.equal(job.snapshot, id)

    const list = (await api.call('GET', 'snapshots')).body as Snap[]
    t.ok(Array.isArray(list), 'bare array')
    const snap = list.find((s) => s.id === id)!
    for (const f of COMPAT_FIELDS) t.ok(f in snap, `field ${f}`)
    t.match(snap, { name: 'first', note: 'lab run', state: 'loaded', status: 'done', finishStatus: 'done', locked: false, version: 'v7.6' })
    t.ok((snap.totalDevCount as number) > 50)
    t.ok((snap.interfaceCount as number) > 1000)
    t.equal((snap.sites as unknown[]).length, 10)
    const devices = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM inventory.devices WHERE snapshot_id = $1', [id])
    t.equal(devices.rows[0]!.n, snap.totalDevCount, 'rows are stored')

    const settings = await api.call('GET', `snapshots/${id}/settings`)
    t.match(settings.body, { profile: 'lab', seed: 7, sites: [], generation: 0 })
    t.equal((await api.call('PATCH', `snapshots/${id}/settings`, { seed: -1 })).status, 422)
    t.match((await api.call('PATCH', `snapshots/${id}/settings`, { seeds: ['10.0.0.1'] })).body, {
      errors: [{ message: '"seeds" is not allowed; allowed keys are [disabledPostDiscoveryActions, profile, seed, sites]' }],
    })
    t.match((await api.call('PATCH', `snapshots/${id}/settings`, { seed: 9 })).body, { seed: 9 })

    t.match((await api.call('PATCH', `snapshots/${id}`, { name: 'renamed', note: null })).body, { name: 'renamed', note: null })
    t.equal((await api.call('PATCH', `snapshots/${id}`, { name: 5 })).status, 422)
    t.equal((await api.call('PATCH', `snapshots/${id}`, { color: 'red' })).status, 422)

    // lock: delete refused
    t.match((await api.call('POST', `snapshots/${id}/lock`)).body, { locked: true })
    t.match((await api.call('PATCH', `snapshots/${id}/settings`, { seed: 3 })).body, { code: 'API_SNAPSHOT_LOCKED' })
    const refused = await api.call('DELETE', `snapshots/${id}`)
    t.equal(refused.status, 409)
    t.match(refused.body, { code: 'API_SNAPSHOT_LOCKED' })
    t.equal((await api.call('POST', `snapshots/${id}/unlock`)).status, 200)

    // unload hides the rows, load brings them back
    t.equal((await api.call('POST', `snapshots/${id}/unload`)).status, 204)
    t.match((await api.call('GET', `snapshots/${id}`)).body, { state: 'unloaded', status: 'unloaded', finishStatus: 'done' })
    const hidden = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM inventory.devices WHERE snapshot_id = $1', [id])
    t.equal(hidden.rows[0]!.n, 0)
    t.equal((await api.call('POST', `snapshots/${id}/load`)).status, 204)
    t.match((await api.call('GET', `snapshots/${id}`)).body, { state: 'loaded', status: 'done' })

    // clone
    const cloned = await api.call('POST', `snapshots/${id}/clone`)
    t.equal(cloned.status, 201, 'a clone is a created resource')
    const cloneId = cloned.headers.get('x-snapshot-id')!
    t.match(cloned.body, { success: true, id: cloneId }, 'the body names the new snapshot')
    t.equal(cloned.headers.get('location'), `/api/snapshots/${cloneId}`)
    const clone = (await api.call('GET', `snapshots/${cloneId}`)).body as Snap
    t.match(clone, { state: 'unloaded', status: 'unloaded', finishStatus: 'done', locked: false, totalDevCount: snap.totalDevCount, interfaceCount: snap.interfaceCount })
    // version 1, which the original and path generations use: 204 without a body, as their clients test
    const older = await api.call('POST', `snapshots/${id}/clone`, undefined, asVersion(1, 'path'))
    t.equal(older.status, 204, 'version 1: 204')
    t.equal(older.text, '')
    t.match((await api.call('GET', `snapshots/${older.headers.get('x-snapshot-id')}`)).body, { name: /clone/, tsStart: snap.tsStart }, 'found by name and start time')
    const hiddenCopy = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM inventory.interfaces WHERE snapshot_id = $1', [cloneId])
    t.equal(hiddenCopy.rows[0]!.n, 0, 'a clone starts unloaded')
    t.equal((await api.call('POST', `snapshots/${cloneId}/load`)).status, 204)
    const copied = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM inventory.interfaces WHERE snapshot_id = $1', [cloneId])
    t.equal(copied.rows[0]!.n, snap.interfaceCount)

    // second discovery drifts from the first
    const second = await api.discover({ seed: 7 })
    t.match((await api.call('GET', `snapshots/${second}/settings`)).body, { generation: 1 })

    // delete drops the partitions
    t.equal((await api.call('DELETE', `snapshots/${id}`)).status, 204)
    t.equal((await api.call('GET', `snapshots/${id}`)).status, 404)
    const parts = await db.query(`SELECT 1 FROM pg_class WHERE relname LIKE $1`, [`%${id.replace(/-/g, '')}%`])
    t.equal(parts.rows.length, 0, 'no partition left')
    t.equal((await api.call('GET', `snapshots/${cloneId}`)).status, 200, 'the clone survives')
  })
}

t.test('bad inputs and unknown snapshots', async (t) => {
  const db = await freshDb(t, 'pglite')
  const api = await startApp(t, db)
  const unknown = '00000000-0000-4000-8000-000000000000'
  for (const [method, path] of [
    ['GET', `snapshots/${unknown}`],
    ['GET', 'snapshots/not-a-uuid'],
    ['DELETE', `snapshots/${unknown}`],
    ['POST', `snapshots/${unknown}/lock`],
    ['POST', `snapshots/${unknown}/load`],
    ['POST', `snapshots/${unknown}/clone`],
    ['GET', `snapshots/${unknown}/settings`],
    ['GET', `snapshots/${unknown}/download`],
    ['GET', `jobs/${unknown}`],
    ['GET', 'jobs/nope'],
  ] as const) {
    const r = await api.call(method, path)
    t.equal(r.status, 404, `${method} ${path}`)
    t.match(r.body, { code: 'API_NOT_FOUND' })
  }
  const bad = [
    { profile: 'gigantic' },
    { seed: 'x' },
    { seed: 1.5 },
    { sites: 'BERLIN-01' },
    { sites: ['NOWHERE'] },
    { sites: ['BERLIN-01', 'BERLIN-01'] },
    { snapshotName: 42 },
    { unknownKey: true },
  ]
  for (const body of bad) {
    const r = await api.call('POST', 'snapshots', body)
    t.equal(r.status, 422, JSON.stringify(body))
    t.match(r.body, { code: 'API_INVALID_INPUT', errors: [{ message: String }] })
  }
  t.equal((await api.call('POST', 'snapshots', '{nope')).status, 400, 'malformed JSON')
  t.equal((await api.call('POST', 'snapshots', '[1]')).status, 422, 'not an object')
  t.equal((await api.call('POST', 'snapshots', 'x', { 'content-type': 'text/plain' })).status, 415)
  t.equal((await api.call('PUT', 'snapshots')).status, 405)
  const rows = await db.query('SELECT 1 FROM inventory.snapshots')
  t.equal(rows.rows.length, 0, 'no refused request created a snapshot')
})

t.test('global settings', async (t) => {
  const db = await freshDb(t, 'pglite')
  const api = await startApp(t, db)
  // the simulator's keys (network discovery's keys sit beside them)
  t.match((await api.call('GET', 'settings')).body, { profile: 'lab', seed: 1, sites: [] })
  t.match((await api.call('PATCH', 'settings', { seed: 5, sites: ['LONDON-01'] })).body, { profile: 'lab', seed: 5, sites: ['LONDON-01'] })
  t.match((await api.call('GET', 'settings')).body, { profile: 'lab', seed: 5, sites: ['LONDON-01'] })
  const bad = await api.call('PATCH', 'settings', { profile: 'nope', seed: -3 })
  t.equal(bad.status, 422)
  t.equal((bad.body as { errors: unknown[] }).errors.length, 2, 'every problem reported')
  t.equal((await api.call('PATCH', 'settings', { sites: ['LONDON-99'] })).status, 422)
  const id = await api.discover()
  const snap = (await api.call('GET', `snapshots/${id}`)).body as Snap
  t.same(snap.sites, [{ siteName: 'LONDON-01', uid: 'lon01', id: 's1' }], 'discovery uses the global settings')
})
