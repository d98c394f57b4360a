/**
 * Faults under work, through the real entry point: PostgreSQL restarted (a cluster of the test's
 * own) while a discovery and an upload run, and the embedded server killed in the middle of a
 * discovery. Accepted work must end `error` (never `running` for ever), its rows must go, and
 * clients must get 503 with Retry-After while the database is away.
 */
import t from 'tap'
import pg from 'pg'
import { clusterMissing, privateCluster } from '../helpers/pg-cluster.js'
import { testNeeding } from '../helpers/requirements.js'
import { bearer, call, discoverLab, login, type Reply } from './client.js'
import type { Page } from './answers.js'
import { serve, stop, tempDirs } from './process.js'

const ADMIN_PASSWORD = 'faults-admin-password-1'

type Job = { id: string; status: string; isDone: boolean; message: string | null }

async function job(base: string, headers: Record<string, string>, id: string): Promise<Job> {
  const r = await call(base, 'GET', `/api/jobs/${id}`, { headers })
  if (r.status !== 200) throw new Error(`GET jobs/${id}: ${r.status} ${r.text}`)
  return r.json<Job>()
}

/** Polls until `done` holds (every 100 ms, at most `seconds`); returns the last value. */
async function until<T>(seconds: number, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read()
  for (let i = 0; i < seconds * 10 && !done(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    value = await read()
  }
  return value
}

async function importJobs(base: string, headers: Record<string, string>): Promise<Job[]> {
  const r = await call(base, 'POST', '/api/tables/jobs', { headers, body: { columns: ['id', 'status', 'isDone', 'message'], filters: { name: ['eq', 'snapshotUpload'] } } })
  return r.status === 200 ? r.json<Page<Job>>().data : []
}

testNeeding(t, 'PostgreSQL restarted during a discovery and an upload', clusterMissing(), async (t) => {
  const cluster = await privateCluster(t)
  const { configDir } = tempDirs(t)
  const app = await serve(t, { DATABASE_URL: cluster.url, CONFIG_DIR: configDir, ADMIN_PASSWORD })
  const base = app.url
  const admin = bearer((await login(base, 'admin', ADMIN_PASSWORD)).accessToken)
  const lab = await discoverLab(base, admin)
  const file = (await call(base, 'GET', `/api/snapshots/${lab}/download`, { headers: admin })).text

  // an upload whose body stops half way, so it is still loading when the database goes
  const lines = file.split('\n')
  let resume = () => {}
  const resumed = new Promise<void>((resolve) => (resume = resolve))
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(new TextEncoder().encode(`${lines.slice(0, Math.floor(lines.length / 2)).join('\n')}\n`))
      await resumed
      controller.enqueue(new TextEncoder().encode(lines.slice(Math.floor(lines.length / 2)).join('\n')))
      controller.close()
    },
  })
  const upload = fetch(`${base}/api/snapshots/upload`, { method: 'POST', headers: { ...admin, 'content-type': 'application/x-ndjson' }, body, duplex: 'half' } as RequestInit)
    .then(async (r) => ({ status: r.status, text: await r.text() }))
    .catch((err: unknown) => ({ status: 0, text: String(err) }))
  const importing = await until(20, () => importJobs(base, admin), (jobs) => jobs.some((j) => j.status === 'running'))
  const uploadJob = importing.find((j) => j.status === 'running')
  t.ok(uploadJob, 'the upload is running')

  const started = await call(base, 'POST', '/api/snapshots', { headers: admin, body: { profile: 'medium' } })
  const { id: discovered, jobId } = started.json<{ id: string; jobId: string }>()
  const loading = await until(30, () => job(base, admin, jobId), (j) => j.status === 'running' && /^loading/.test(j.message ?? ''))
  t.match(loading, { status: 'running', message: /^loading/ }, 'the discovery is loading rows')

  cluster.stop()
  const during: Reply = await call(base, 'POST', '/api/tables/inventory/devices', { headers: admin, body: { snapshot: '$last', columns: ['id'] } })
  t.equal(during.status, 503, 'a query while the database is down is 503, not 500')
  t.equal(during.headers.get('retry-after'), '5')
  t.match(during.json(), { code: 'API_DATABASE_UNAVAILABLE' })
  t.equal((await call(base, 'GET', '/api/snapshots', { headers: admin })).status, 503)
  resume()

  cluster.start()
  const back = performance.now()
  const ended = await until(30, () => job(base, admin, jobId), (j) => j.isDone)
  t.comment(`the discovery's job ended ${Math.round(performance.now() - back)} ms after the database was back`)
  t.match(ended, { status: 'error', isDone: true }, 'the discovery ends in error once the database is back')
  const uploadEnded = await until(30, () => job(base, admin, uploadJob!.id), (j) => j.isDone)
  t.comment(`the upload's job ended ${Math.round(performance.now() - back)} ms after the database was back`)
  t.match(uploadEnded, { status: 'error', isDone: true, message: /^import failed/ }, 'so does the upload')
  const refused = await upload
  t.equal(refused.status, 503, 'the upload is answered 503: the database went away under it')
  t.match(JSON.parse(refused.text), { code: 'API_DATABASE_UNAVAILABLE' })

  const removed = await call(base, 'DELETE', `/api/snapshots/${discovered}`, { headers: admin })
  t.equal(removed.status, 204, 'the failed snapshot can be deleted (not 409 busy)')
  const db = new pg.Client({ connectionString: cluster.url })
  await db.connect()
  t.teardown(() => db.end())
  const left = await db.query("SELECT relname FROM pg_class WHERE relkind IN ('r', 'p') AND relname LIKE '%\\_s\\_%' AND relname NOT LIKE $1", [`%${lab.replace(/-/g, '')}%`])
  t.same(left.rows, [], 'no partition of the failed work is left on disk')
  const query = await call(base, 'POST', '/api/tables/inventory/devices', { headers: admin, body: { snapshot: lab, columns: ['id'], pagination: { limit: 1 } } })
  t.equal(query.status, 200, 'queries work again')
  // Not stopped with SIGTERM here: the upload answered early leaves its gateway → inventory
  // connection waiting for the rest of a body that is never forwarded, and the drain waits for
  // it until its grace ends (the connection reuse after an early answer is handled apart).
})

t.test('embedded: a discovery cut by a crash is failed at the next start, at once', async (t) => {
  const { dataDir, configDir } = tempDirs(t)
  const env = { DATA_DIR: dataDir, CONFIG_DIR: configDir, ADMIN_PASSWORD }
  const first = await serve(t, env)
  const admin = bearer((await login(first.url, 'admin', ADMIN_PASSWORD)).accessToken)
  const started = await call(first.url, 'POST', '/api/snapshots', { headers: admin, body: { profile: 'medium' } })
  const { id, jobId } = started.json<{ id: string; jobId: string }>()
  const loading = await until(60, () => job(first.url, admin, jobId), (j) => /^loading/.test(j.message ?? ''))
  t.match(loading, { status: 'running' })
  first.child.kill('SIGKILL')
  await first.exited

  const second = await serve(t, env)
  const again = bearer((await login(second.url, 'admin', ADMIN_PASSWORD)).accessToken)
  t.match(await job(second.url, again, jobId), { status: 'error', isDone: true, message: /interrupted/ }, 'the job is failed as the server starts, not 60 s later')
  const snapshot = await call(second.url, 'GET', `/api/snapshots/${id}`, { headers: again })
  t.match(snapshot.json(), { state: 'unloaded', status: 'error' }, 'the snapshot no longer shows as discovering')
  t.equal((await call(second.url, 'DELETE', `/api/snapshots/${id}`, { headers: again })).status, 204)
  t.equal(await stop(second), 0)
})
