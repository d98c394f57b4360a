import t from 'tap'
import { KEYS, apiKeyAuth, memoryLog, send, startTestGateway, startUpstream } from './helpers.js'

t.test('one access-log line per request with the listed fields and no secret', async (t) => {
  const { log, lines } = memoryLog()
  const gw = await startTestGateway(t, { log })
  await send(gw.url, '/api/v1/snapshots?token=sekrit', { headers: { 'x-api-token': 'reader-key', 'x-request-id': 'rid-1', authorization: 'Bearer abc' } })
  await send(gw.url, '/api/nope', { headers: { 'x-request-id': 'rid-2' } })
  // Access lines are written in batches (every 50 ms): wait for both.
  for (let i = 0; i < 100 && lines.filter((l) => l.msg === 'request').length < 2; i++) await new Promise((r) => setTimeout(r, 10))
  const access = lines.filter((l) => l.msg === 'request')
  t.equal(access.length, 2)
  t.match(access[0], {
    method: 'GET',
    path: '/api/v1/snapshots',
    generation: 'original',
    endpoint: 'snapshots',
    endpointVersion: 1,
    status: 200,
    clientIp: '127.0.0.1',
    principalId: 'u-reader',
    requestId: 'rid-1',
  })
  t.type(access[0]!.durationMs, 'number')
  t.match(access[1], { path: '/api/nope', status: 404, endpoint: null, requestId: 'rid-2' })
  const all = JSON.stringify(lines)
  for (const secret of ['reader-key', 'sekrit', 'Bearer abc', 'test-internal-secret']) t.notOk(all.includes(secret), `no ${secret} in logs`)
})

t.test('/metrics on the admin port; /healthz and /readyz', async (t) => {
  let redisUp = true
  const gw = await startTestGateway(t, { redisReady: async () => redisUp })
  await send(gw.url, '/api/snapshots', { headers: { 'x-api-token': 'reader-key' } })
  await send(gw.url, '/api/snapshots')
  const metrics = await fetch(`${gw.adminUrl}/metrics`)
  t.match(metrics.headers.get('content-type'), /^text\/plain; version=0\.0\.4/)
  const text = await metrics.text()
  t.match(text, /netinv_gateway_requests_total\{upstream="inventory",endpoint="snapshots",method="GET",status="200"\} 1/)
  t.match(text, /netinv_gateway_requests_total\{upstream="inventory",endpoint="snapshots",method="GET",status="401"\} 1/)
  t.match(text, /netinv_gateway_request_duration_seconds_count\{upstream="inventory",endpoint="snapshots"\} 2/)
  t.match(text, /netinv_gateway_request_duration_seconds_bucket\{upstream="inventory",endpoint="snapshots",le="\+Inf"\} 2/)
  t.match(text, /netinv_gateway_upstream_up\{upstream="inventory"\} 1\n/, 'the inventory\'s health, probed at scrape time')
  t.match(text, /netinv_gateway_ratelimit_redis_fallbacks_total 0/)
  t.equal((await send(gw.url, '/metrics')).status, 404, 'not on the public port')

  t.same((await send(gw.url, '/healthz')).json(), { status: 'ok' })
  const ready = await send(gw.adminUrl, '/readyz')
  t.equal(ready.status, 200)
  const inventory = { ok: true, status: 200, required: true }
  t.same(ready.json(), { status: 'ready', checks: { database: true, upstream: true, accepting: true, redis: true }, upstreams: { inventory } })
  t.match(await (await fetch(`${gw.adminUrl}/metrics`)).text(), /netinv_gateway_ratelimit_redis_up 1\n/)
  // Redis down: the in-process limiter serves, so the replica stays ready, reported as degraded.
  redisUp = false
  const degraded = await send(gw.url, '/readyz')
  t.equal(degraded.status, 200)
  t.same(degraded.json(), { status: 'degraded', checks: { database: true, upstream: true, accepting: true, redis: false }, upstreams: { inventory }, degraded: ['redis'] })
  t.match(await (await fetch(`${gw.adminUrl}/metrics`)).text(), /netinv_gateway_ratelimit_redis_up 0\n/)
})

t.test('/readyz fails when the database or the inventory fails, whatever Redis says', async (t) => {
  let databaseUp = true
  const gw = await startTestGateway(t, { redisReady: async () => false, auth: { ...apiKeyAuth(KEYS), ready: async () => databaseUp } })
  t.equal((await send(gw.url, '/readyz')).status, 200, 'Redis alone only degrades')
  databaseUp = false
  const down = await send(gw.url, '/readyz')
  t.equal(down.status, 503)
  t.same(down.json(), { status: 'not ready', checks: { database: false, upstream: true, accepting: true, redis: false }, upstreams: { inventory: { ok: true, status: 200, required: true } } })
})

t.test('a flood of /readyz shares the probes of the dependencies', async (t) => {
  let inventoryProbes = 0
  let databaseProbes = 0
  const up = await startUpstream(t, (req, res) => {
    if (req.url === '/readyz') inventoryProbes++
    res.end('{}')
  })
  const gw = await startTestGateway(t, {
    upstreamUrl: up.url,
    readyReuseMs: 60_000,
    auth: {
      ...apiKeyAuth(KEYS),
      ready: async () => {
        databaseProbes++
        return true
      },
    },
  })
  const answers = await Promise.all(Array.from({ length: 20 }, () => send(gw.url, '/readyz')))
  for (let i = 0; i < 20; i++) answers.push(await send(gw.url, '/readyz'))
  t.same(new Set(answers.map((r) => r.status)), new Set([200]))
  t.equal(inventoryProbes, 1, 'one probe of the inventory for forty calls')
  t.equal(databaseProbes, 1, 'and one of the database')
  gw.gateway.startDrain()
  t.equal((await send(gw.url, '/readyz')).status, 503, 'draining shows at once, whatever the probe said')
})
