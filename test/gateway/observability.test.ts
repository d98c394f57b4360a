import t from 'tap'
import { memoryLog, send, startTestGateway } from './helpers.js'

t.test('one access-log line per request with the listed fields and no secret', async (t) => {
  const { log, lines } = memoryLog()
  const gw = await startTestGateway(t, { log })
  await send(gw.url, '/api/v1/snapshots?token=sekrit', { headers: { 'x-api-token': 'reader-key', 'x-request-id': 'rid-1', authorization: 'Bearer abc' } })
  await send(gw.url, '/api/nope', { headers: { 'x-request-id': 'rid-2' } })
  await new Promise((r) => setTimeout(r, 20))
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
  t.match(text, /netinv_gateway_requests_total\{endpoint="snapshots",method="GET",status="200"\} 1/)
  t.match(text, /netinv_gateway_requests_total\{endpoint="snapshots",method="GET",status="401"\} 1/)
  t.match(text, /netinv_gateway_request_duration_seconds_count\{endpoint="snapshots"\} 2/)
  t.match(text, /netinv_gateway_request_duration_seconds_bucket\{endpoint="snapshots",le="\+Inf"\} 2/)
  t.match(text, /netinv_gateway_ratelimit_redis_fallbacks_total 0/)
  t.equal((await send(gw.url, '/metrics')).status, 404, 'not on the public port')

  t.same((await send(gw.url, '/healthz')).json(), { status: 'ok' })
  const ready = await send(gw.adminUrl, '/readyz')
  t.equal(ready.status, 200)
  t.same(ready.json(), { status: 'ready', checks: { database: true, upstream: true, accepting: true, redis: true } })
  redisUp = false
  const notReady = await send(gw.url, '/readyz')
  t.equal(notReady.status, 503)
  t.match(notReady.json(), { checks: { redis: false } })
})
