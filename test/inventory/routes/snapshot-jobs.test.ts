/**
 * Snapshot work as jobs that clients poll in tables/jobs: body-style and path-style load/unload,
 * clone, download; job names as clients filter them; bad bodies.
 */
import t from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { startApp, type Client } from '../app.js'

type Row = Record<string, unknown>
const JOB_COLUMNS = ['id', 'downloadFile', 'finishedAt', 'isDone', 'name', 'scheduledAt', 'snapshot', 'startedAt', 'status', 'username']

/** The jobs of a snapshot named `name` started at or after `since`, newest first, as clients ask for them. */
async function jobs(api: Client, snapshot: string, name: string, since = 0): Promise<Row[]> {
  const r = await api.call('POST', 'tables/jobs', {
    columns: JOB_COLUMNS,
    filters: { snapshot: ['eq', snapshot], name: ['eq', name], startedAt: ['gte', since - 100] },
    sort: { order: 'desc', column: 'startedAt' },
    pagination: { start: 0, limit: 1000 },
  })
  if (r.status !== 200) throw new Error(`tables/jobs: ${r.status} ${r.text}`)
  return (r.body as { data: Row[] }).data
}

async function doneJob(api: Client, snapshot: string, name: string, since: number): Promise<Row> {
  for (let i = 0; i < 3000; i++) {
    const [job] = await jobs(api, snapshot, name, since)
    if (job?.isDone) return job
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`no finished ${name} job of ${snapshot}`)
}

async function state(api: Client, id: string): Promise<Row> {
  const r = await api.call('POST', 'tables/management/snapshots', { columns: ['status', 'finishStatus', 'loading'], filters: { id: ['eq', id] } })
  return (r.body as { data: Row[] }).data[0]!
}

for (const engine of ENGINES) {
  t.test(`load, unload, clone and download are jobs clients poll, on ${engine}`, async (t) => {
    const db = await freshDb(t, engine)
    const api = await startApp(t, db)
    const id = await api.discover({ snapshotName: 'jobs' })
    t.equal((await jobs(api, id, 'discoveryNew')).length, 1, 'the discovery is a discoveryNew job')

    // body style: answered at once, the job is polled
    let ts = Date.now()
    const unload = await api.call('POST', 'snapshots/unload', [{ jobDetail: ts, id }])
    t.equal(unload.status, 200, unload.text)
    const unloadJob = (unload.body as { jobs: Array<{ snapshot: string; jobId: string }> }).jobs[0]!
    t.equal(unloadJob.snapshot, id)
    const unloaded = await doneJob(api, id, 'snapshotUnload', ts)
    t.match(unloaded, { id: unloadJob.jobId, status: 'done', isDone: true, username: 'alice', downloadFile: null })
    t.same(Object.keys(unloaded).sort(), [...JOB_COLUMNS].sort(), 'rows hold the columns clients ask for')
    t.match(await state(api, id), { status: 'unloaded', finishStatus: 'done', loading: false })
    const devices = await api.call('POST', 'tables/inventory/devices', { snapshot: id, columns: ['id'] })
    t.equal(devices.status, 409, 'an unloaded snapshot cannot be queried')

    // unloading again still records a job (clients poll for it), done at once
    ts = Date.now()
    t.equal((await api.call('POST', 'snapshots/unload', [{ jobDetail: ts, id }])).status, 200)
    t.match(await doneJob(api, id, 'snapshotUnload', ts), { status: 'done' })
    t.equal((await jobs(api, id, 'snapshotUnload')).length, 2)

    ts = Date.now()
    t.equal((await api.call('POST', 'snapshots/load', [{ jobDetail: ts, id }])).status, 200)
    t.match(await doneJob(api, id, 'snapshotLoad', ts), { status: 'done' })
    t.match(await state(api, id), { status: 'done', finishStatus: 'done', loading: false })
    t.equal((await api.call('POST', 'tables/inventory/devices', { snapshot: id, columns: ['id'] })).status, 200, 'loaded again')

    // path style keeps answering 204 after the work, and records the job too
    t.equal((await api.call('POST', `snapshots/${id}/unload`)).status, 204)
    t.equal((await jobs(api, id, 'snapshotUnload')).length, 3)
    t.equal((await api.call('POST', `snapshots/${id}/load`)).status, 204)
    t.match((await jobs(api, id, 'snapshotLoad'))[0], { status: 'done' })

    // clone: a new, unloaded, unlocked snapshot with the source's discovery time; 201 with its id
    t.equal((await api.call('POST', `snapshots/${id}/lock`)).status, 200)
    const cloned = await api.call('POST', `snapshots/${id}/clone`)
    t.equal(cloned.status, 201)
    const { id: cloneId, jobId: cloneJob, success } = cloned.body as { id: string; jobId: string; success: boolean }
    t.equal(success, true)
    t.not(cloneId, id)
    const source = (await api.call('GET', `snapshots/${id}`)).body as Row
    const clone = (await api.call('GET', `snapshots/${cloneId}`)).body as Row
    t.match(clone, { name: 'jobs (clone)', state: 'unloaded', status: 'unloaded', finishStatus: 'done', locked: false, tsStart: source.tsStart, totalDevCount: source.totalDevCount })
    t.match((await jobs(api, cloneId, 'snapshotClone'))[0], { id: cloneJob, status: 'done' })
    ts = Date.now()
    t.equal((await api.call('POST', 'snapshots/load', [{ jobDetail: ts, id: cloneId }])).status, 200)
    await doneJob(api, cloneId, 'snapshotLoad', ts)
    const count = async (snapshot: string) =>
      ((await api.call('POST', 'tables/inventory/interfaces', { snapshot, columns: ['id'], pagination: { start: 0, limit: 1 } })).body as { _meta: { count: number } })._meta.count
    t.equal(await count(cloneId), await count(id), 'the clone holds the same rows')

    // download: a snapshotDownload job with its file, fetched again through the job
    ts = Date.now()
    const file = await api.call('GET', `snapshots/${id}/download`)
    t.equal(file.status, 200)
    const download = await doneJob(api, id, 'snapshotDownload', ts)
    t.match(download, { status: 'done', downloadFile: `snapshot-${id}.ndjson` })
    t.equal(file.headers.get('x-job-id'), download.id)
    const again = await api.call('GET', `jobs/${String(download.id)}/download`)
    t.equal(again.status, 200)
    t.match(again.headers.get('content-disposition'), `snapshot-${id}.ndjson`)
    t.equal(again.text, file.text, 'the job gives the same file')
    t.match((await api.call('GET', `jobs/${String(download.id)}`)).body, { name: 'snapshotDownload', downloadFile: `snapshot-${id}.ndjson` })
    t.match((await api.call('GET', `jobs/${cloneJob}/download`)).body, { code: 'API_CONFLICT' }, 'only a download job has a file')
  })
}

t.test('a filter on a job name no job has matches nothing, not a 422', async (t) => {
  const db = await freshDb(t, 'pglite')
  const api = await startApp(t, db)
  const id = await api.discover()
  for (const name of ['loadGraphCache', 'saveHistoricalData', 'report']) {
    t.same(await jobs(api, id, name), [], `${name}: no rows`)
  }
  const all = await api.call('POST', 'tables/jobs', { columns: ['id'], filters: { name: ['neq', 'loadGraphCache'] } })
  t.equal((all.body as { data: Row[] }).data.length, 1, 'neq on such a value matches every row')
  const status = await api.call('POST', 'tables/management/snapshots', { columns: ['id'], filters: { status: ['eq', 'archived'] } })
  t.same((status.body as { data: Row[] }).data, [], 'the same for every enumerated column')
})

t.test('bad load and unload bodies are 422 in the documented shape; unknown snapshots 404; nothing starts', async (t) => {
  const db = await freshDb(t, 'pglite')
  const api = await startApp(t, db)
  const id = await api.discover()
  const unknown = '00000000-0000-4000-8000-000000000000'
  const shape = '"value" must be an array of {"id": "<snapshot id>", "jobDetail": <ms>}'
  const bad: Array<[unknown, string]> = [
    [{}, shape],
    [[], '"value" must contain at least 1 item'],
    ['x', shape],
    [[1], '"[0]" must be of type object'],
    [[{ jobDetail: 1 }], '"[0].id" is required'],
    [[{ id: 'not-a-uuid', jobDetail: 1 }], '"[0].id" must be a snapshot id (a lower-case UUID)'],
    [[{ id, jobDetail: -5 }], '"[0].jobDetail" must be a time in ms since the epoch (a non-negative integer)'],
    [[{ id, jobDetail: 'now' }], '"[0].jobDetail" must be a time in ms since the epoch (a non-negative integer)'],
    [[{ id, jobDetail: 1, color: 'red' }], '"[0].color" is not allowed; allowed keys are [id, jobDetail]'],
    [
      [
        { id, jobDetail: 1 },
        { id, jobDetail: 2 },
      ],
      `"[1].id" repeats snapshot ${id}`,
    ],
    [Array.from({ length: 101 }, () => ({ id: unknown, jobDetail: 1 })), '"value" must contain at most 100 items'],
  ]
  for (const action of ['load', 'unload']) {
    for (const [body, message] of bad) {
      const r = await api.call('POST', `snapshots/${action}`, typeof body === 'string' ? JSON.stringify(body) : body)
      t.equal(r.status, 422, `${action} ${JSON.stringify(body).slice(0, 60)}`)
      t.match(r.body, { code: 'API_INVALID_INPUT', message, errors: [{ message }] })
    }
    const missing = await api.call('POST', `snapshots/${action}`, [
      { id, jobDetail: 1 },
      { id: unknown, jobDetail: 1 },
    ])
    t.equal(missing.status, 404)
    t.match(missing.body, { code: 'API_NOT_FOUND' })
    t.equal((await api.call('POST', `snapshots/${action}`, '{nope')).status, 400, 'malformed JSON')
  }
  const started = await db.query(`SELECT 1 FROM inventory.jobs WHERE name IN ('snapshotLoad', 'snapshotUnload')`)
  t.equal(started.rows.length, 0, 'no refused request started a job')
  t.match(await state(api, id), { status: 'done', loading: false })
})
