/**
 * Traces of `gateway` and `inventory` running as separate processes on PostgreSQL and Redis, each
 * exporting by OTLP/HTTP under its own service name to a receiver this test runs: one request is
 * one connected trace across both processes (gateway → its rate limit's Redis call →
 * authentication → forwarding → the inventory's server span → its SQL), and a network discovery
 * of real SNMP agents (snmpsim replaying a recording) is a trace of its own with a span per
 * device collected.
 */
import t from 'tap'
import { randomBytes } from 'node:crypto'
import { call, waitForJob } from './client.js'
import { receiver, until, type ReceivedSpan } from './otlp.js'
import { dirsEnv, start, tempDirs } from './process.js'
import { freshPostgres, REDIS_URL } from '../helpers/db.js'
import { recordedAgentMissing, recordedAgents } from '../helpers/recorded/agent.js'
import { CATALYST_ACCESS, switchRecordings } from '../helpers/recorded/switch.js'
import { testNeeding } from '../helpers/requirements.js'

const ADMIN_PASSWORD = 'e2e-admin-password-1'
const basic = { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` }

testNeeding(t, 'gateway and inventory apart: one trace per request across both, a span per device of a discovery', recordedAgentMissing(), async (t) => {
  const otlp = await receiver(t)
  const { url: databaseUrl } = await freshPostgres(t)
  const common = { DATABASE_URL: databaseUrl, INTERNAL_SECRET: randomBytes(36).toString('base64'), OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url }
  const inventory = await start(t, 'inventory', { ...dirsEnv(tempDirs(t)), ...common, OTEL_SERVICE_NAME: 'netinv-inventory' })
  const gateway = await start(t, 'gateway', { ...dirsEnv(tempDirs(t)), ...common, OTEL_SERVICE_NAME: 'netinv-gateway', ADMIN_PASSWORD, REDIS_URL, INVENTORY_URL: inventory.url })

  const res = await call(gateway.url, 'GET', '/api/snapshots', { headers: basic })
  t.equal(res.status, 200, res.text)
  const rootOf = (s: ReceivedSpan[]) => s.find((x) => x.name === 'GET snapshots' && x.parentSpanId === '')
  await until(otlp.spans, (s) => {
    const root = rootOf(s)
    return root !== undefined && s.some((x) => x.traceId === root.traceId && x.service === 'netinv-inventory' && x.name.startsWith('db '))
  })
  const root = rootOf(otlp.spans)
  if (!root) return t.fail(`no gateway request span among ${JSON.stringify(otlp.spans.map((s) => `${s.service} ${s.name}`))}`)
  const trace = otlp.spans.filter((s) => s.traceId === root.traceId)
  const byId = new Map(trace.map((s) => [s.spanId, s]))
  t.equal(root.service, 'netinv-gateway', 'the request starts in the gateway process')
  const limit = trace.find((s) => s.name === 'gateway rateLimit')
  t.equal(limit?.parentSpanId, root.spanId, 'the rate limit under the request')
  const redis = trace.find((s) => s.name === 'redis EVALSHA')
  t.equal(redis?.parentSpanId, limit?.spanId, "the rate limit's Redis call under it")
  t.match(redis?.attributes, { 'db.system.name': 'redis', 'netinv.ratelimit.allowed': true })
  t.equal(redis?.kind, 3, 'a client span')
  const forward = trace.find((s) => s.name === 'forward inventory')
  t.equal(forward?.parentSpanId, root.spanId)
  const served = trace.find((s) => s.service === 'netinv-inventory' && s.name.startsWith('inventory '))
  t.equal(served?.parentSpanId, forward?.spanId, "the inventory process continues the gateway's forwarding")
  t.ok(trace.some((s) => s.service === 'netinv-inventory' && s.name.startsWith('db ') && s.parentSpanId === served?.spanId), "the inventory's statements under its request")
  for (const s of trace) if (s !== root) t.ok(byId.has(s.parentSpanId), `${s.service} ${s.name} has its parent in the trace`)

  // A network discovery: a trace of the inventory's own, a span per device collected.
  const agents = await recordedAgents(t, ...switchRecordings([CATALYST_ACCESS]))
  const address = agents.address.get(CATALYST_ACCESS.sysName)!
  t.equal((await call(gateway.url, 'POST', '/api/settings/snmp', { headers: basic, body: { name: 'recorded', version: '2c', community: agents.community } })).status, 201)
  const network = `${address.split('.').slice(0, 3).join('.')}.0/24`
  t.equal((await call(gateway.url, 'PATCH', '/api/settings', { headers: basic, body: { allowedSpecialNetworks: [network], limits: { timeoutMs: 1500, retries: 1 } } })).status, 200)
  const silent = `${address.split('.').slice(0, 3).join('.')}.250`
  const started = await call(gateway.url, 'POST', '/api/snapshots', { headers: basic, body: { source: 'network', seeds: [address, silent] } })
  t.equal(started.status, 201, started.text)
  const { job } = await waitForJob(gateway.url, String(started.json().jobId), basic)
  t.equal(job.status, 'done')
  const collects = (s: ReceivedSpan[]) => s.filter((x) => x.name === 'collect device')
  await until(otlp.spans, (s) => collects(s).length >= 2 && s.some((x) => x.name === 'job discovery'))
  const discovery = otlp.spans.find((s) => s.name === 'job discovery' && s.attributes['netinv.job'] !== undefined && String(s.attributes['netinv.job']).includes('network'))
    ?? otlp.spans.find((s) => s.name === 'job discovery')
  t.equal(discovery?.service, 'netinv-inventory')
  t.equal(discovery?.parentSpanId, '', 'the job starts a trace')
  const devices = collects(otlp.spans).filter((s) => s.traceId === discovery?.traceId)
  t.same(
    devices.map((d) => `${String(d.attributes['network.peer.address'])} ${String(d.attributes['netinv.collect.result'])} ${String(d.attributes['netinv.device.hostname'])}`).sort(),
    [`${address} ok ${CATALYST_ACCESS.sysName}`, `${silent} timeout undefined`].sort(),
    'one span per address tried: the recorded switch collected, the silent address timed out',
  )
  for (const d of devices) t.equal(d.parentSpanId, discovery?.spanId, 'each under the job')
  const found = devices.find((d) => d.attributes['netinv.collect.result'] === 'ok')
  t.notOk(otlp.spans.some((s) => s.parentSpanId === found?.spanId && s.name.startsWith('db ')), 'collection sends SNMP, no SQL under a device')
})
