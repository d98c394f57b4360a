/**
 * Traces through `netinv serve` on PostgreSQL, exported by OTLP/HTTP (JSON) to a receiver this
 * test runs: one API request makes one connected trace (gateway server span → authentication and
 * forwarding spans → the inventory's server span → a span per SQL statement), a discovery job is
 * a trace of its own, the upstream gets
 * the forwarding's `traceparent`, and a client's `traceparent` is not continued unless trusted.
 */
import t from 'tap'
import { call } from './client.js'
import { receiver, until, type ReceivedSpan } from './otlp.js'
import { dirsEnv, serve, tempDirs } from './process.js'
import { freshPostgres } from '../helpers/db.js'

const ADMIN_PASSWORD = 'e2e-admin-password-1'
const basic = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`

t.test('one request through serve is one connected trace down to the SQL', async (t) => {
  const otlp = await receiver(t)
  const app = await serve(t, { ...dirsEnv(tempDirs(t)), ADMIN_PASSWORD, DATABASE_URL: (await freshPostgres(t)).url, OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, LOG_LEVEL: 'info' })
  // A client's traceparent, not trusted by default: the gateway starts a trace of its own.
  const foreign = '0af7651916cd43dd8448eb211c80319c'
  const res = await call(app.url, 'GET', '/api/snapshots', { headers: { authorization: basic, traceparent: `00-${foreign}-b7ad6b7169203331-01` } })
  t.equal(res.status, 200)
  const requestId = res.headers.get('x-request-id')

  const serverOf = (s: ReceivedSpan[]) => s.find((x) => x.kind === 2 && x.attributes['url.path'] === '/api/snapshots' && x.parentSpanId === '')
  await until(otlp.spans, (s) => {
    const root = serverOf(s)
    return root !== undefined && s.some((x) => x.traceId === root.traceId && x.name.startsWith('db ') && s.some((p) => p.spanId === x.parentSpanId && p.name.startsWith('inventory ')))
  })
  t.match(otlp.posts[0], /^POST \/v1\/traces application\/json/, 'OTLP/HTTP JSON to the configured endpoint')
  const root = serverOf(otlp.spans)
  if (!root) return t.fail(`no gateway server span among ${JSON.stringify(otlp.spans.map((s) => s.name))}`)
  t.not(root.traceId, foreign, 'an untrusted client traceparent is not continued')
  t.equal(root.name, 'GET snapshots', 'named by method and endpoint')
  t.match(root.attributes, { 'http.request.method': 'GET', 'http.route': 'snapshots', 'http.response.status_code': 200, 'netinv.upstream': 'inventory' })

  const trace = otlp.spans.filter((s) => s.traceId === root.traceId)
  const byId = new Map(trace.map((s) => [s.spanId, s]))
  const auth = trace.find((s) => s.name === 'gateway authenticate')
  t.equal(auth?.parentSpanId, root.spanId, 'authentication under the request')
  const forward = trace.find((s) => s.name === 'forward inventory')
  t.equal(forward?.parentSpanId, root.spanId, 'the forwarding under the request')
  t.equal(forward?.kind, 3, 'the forwarding is a client span')
  const inventory = trace.find((s) => s.name.startsWith('inventory '))
  t.equal(inventory?.parentSpanId, forward?.spanId, "the inventory's server span continues the forwarding")
  t.equal(inventory?.kind, 2)
  const sql = trace.filter((s) => s.name.startsWith('db ') && s.parentSpanId === inventory?.spanId)
  t.ok(sql.length > 0, 'the inventory statements are spans under its request')
  t.match(sql[0]?.attributes, { 'db.system': 'postgresql', 'db.query.text': /\w/ })
  for (const s of trace) if (s !== root) t.ok(byId.has(s.parentSpanId), `${s.name} has its parent in the trace`)

  // The access line of the request carries its trace id.
  const line = app
    .stdout()
    .split('\n')
    .find((l) => l.includes('"msg":"request"') && l.includes(String(requestId)))
  t.match(line, `"traceId":"${root.traceId}"`, 'the access-log line names the trace')
})

t.test('a trusted client traceparent is continued; a discovery job is a trace of its own', async (t) => {
  const otlp = await receiver(t)
  const app = await serve(t, { ...dirsEnv(tempDirs(t)), ADMIN_PASSWORD, DATABASE_URL: (await freshPostgres(t)).url, OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, NETINV_TRUST_TRACEPARENT: 'true' })
  const foreign = '4bf92f3577b34da6a3ce929d0e0e4736'
  const res = await call(app.url, 'GET', '/api/snapshots', { headers: { authorization: basic, traceparent: `00-${foreign}-00f067aa0ba902b7-01` } })
  t.equal(res.status, 200)
  await until(otlp.spans, (s) => s.some((x) => x.traceId === foreign && x.name.startsWith('inventory ')))
  const root = otlp.spans.find((s) => s.traceId === foreign && s.name === 'GET snapshots')
  t.equal(root?.parentSpanId, '00f067aa0ba902b7', "the request's span is a child of the client's")
  t.ok(otlp.spans.some((x) => x.traceId === foreign && x.name.startsWith('inventory ')), 'the inventory continues the same trace')

  // A discovery job is a trace of its own, with its statements under it.
  const started = await call(app.url, 'POST', '/api/snapshots', { headers: { authorization: basic }, body: { snapshotName: 'traced', profile: 'lab' } })
  t.equal(started.status, 201, 'discovery started')
  const jobOf = (s: ReceivedSpan[]) => s.find((x) => x.name === 'job discovery')
  await until(otlp.spans, (s) => {
    const job = jobOf(s)
    return job !== undefined && s.some((x) => x.parentSpanId === job.spanId && x.name.startsWith('db '))
  })
  const job = jobOf(otlp.spans)
  t.equal(job?.parentSpanId, '', 'the job starts a trace')
  t.match(job?.attributes, { 'netinv.job': /^discovery / })
  const post = otlp.spans.find((s) => s.name === 'POST snapshots')
  t.ok(post, 'the request that started it has its own trace')
  t.not(job?.traceId, post?.traceId, 'the job is not part of the request that started it')
  t.ok(otlp.spans.some((x) => x.parentSpanId === job?.spanId && x.name.startsWith('db ')), "the job's statements are its children")
})

t.test('off by default (an empty endpoint is none): not started, no trace id in the access line', async (t) => {
  const app = await serve(t, { ...dirsEnv(tempDirs(t)), ADMIN_PASSWORD, DATABASE_URL: (await freshPostgres(t)).url, LOG_LEVEL: 'info', OTEL_EXPORTER_OTLP_ENDPOINT: '' })
  const res = await call(app.url, 'GET', '/api/snapshots', { headers: { authorization: basic, traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } })
  t.equal(res.status, 200)
  const requestId = String(res.headers.get('x-request-id'))
  let line: string | undefined
  for (const giveUp = Date.now() + 10_000; line === undefined && Date.now() < giveUp; await new Promise((r) => setTimeout(r, 100))) {
    line = app
      .stdout()
      .split('\n')
      .find((l) => l.includes('"msg":"request"') && l.includes(requestId))
  }
  t.ok(line, 'the access line is written')
  t.notMatch(line, 'traceId', 'no trace id without tracing')
  t.notMatch(app.stdout(), '"msg":"tracing on"', 'tracing was not started')
})
