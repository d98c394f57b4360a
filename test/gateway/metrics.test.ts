import t from 'tap'
import { createMetrics } from '../../src/gateway/metrics.js'

t.test('requests in a row to changing upstreams, endpoints and methods are each counted in their own series', async (t) => {
  const m = createMetrics()
  const seen: Array<[string, string, number, string]> = [
    ['snapshots', 'GET', 200, 'inventory'],
    ['snapshots', 'GET', 200, 'inventory'],
    ['snapshots', 'HEAD', 200, 'inventory'],
    ['devices', 'GET', 200, 'legacy'],
    ['snapshots', 'GET', 404, 'inventory'],
    ['snapshots', 'GET', 200, 'legacy'],
    ['snapshots', 'GET', 200, 'inventory'],
  ]
  for (const [endpoint, method, status, upstream] of seen) m.observeRequest(endpoint, method, status, 0.002, upstream)
  const text = m.render()
  const count = (labels: string) => Number(new RegExp(`^netinv_gateway_requests_total\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0)
  t.equal(count('upstream="inventory",endpoint="snapshots",method="GET",status="200"'), 3)
  t.equal(count('upstream="inventory",endpoint="snapshots",method="HEAD",status="200"'), 1)
  t.equal(count('upstream="inventory",endpoint="snapshots",method="GET",status="404"'), 1)
  t.equal(count('upstream="legacy",endpoint="devices",method="GET",status="200"'), 1)
  t.equal(count('upstream="legacy",endpoint="snapshots",method="GET",status="200"'), 1)
  const histogramCount = (upstream: string, endpoint: string) =>
    Number(new RegExp(`^netinv_gateway_request_duration_seconds_count\\{upstream="${upstream}",endpoint="${endpoint}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0)
  t.equal(histogramCount('inventory', 'snapshots'), 5)
  t.equal(histogramCount('legacy', 'devices'), 1)
  t.equal(histogramCount('legacy', 'snapshots'), 1)
})
