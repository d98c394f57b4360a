/**
 * The end-to-end client refuses what the OpenAPI document does not promise: an undocumented
 * status, a body that does not fit its schema, a missing required header. Driven through a real
 * gateway in front of an upstream that misbehaves on purpose.
 */
import t from 'tap'
import { startTestGateway, startUpstream } from '../gateway/helpers.js'
import { call } from './client.js'

const reader = { 'x-api-token': 'reader-key' }

t.test('answers the document does not promise fail the call', async (t) => {
  const upstream = await startUpstream(t, (req, res) => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    if (req.url === '/api/jobs/teapot') return json(418, { code: 'API_TEAPOT', message: 'no' })
    if (req.url === '/api/jobs/shapeless') return json(200, { id: 'shapeless' })
    if (req.url === '/api/jobs/csv') {
      res.writeHead(200, { 'content-type': 'text/csv' })
      return res.end('id\n1\n')
    }
    return json(200, { id: 'j1', name: 'discovery', status: 'done', isDone: true })
  })
  const gw = await startTestGateway(t, { upstreamUrl: upstream.url })
  const ok = await call(gw.url, 'GET', '/api/jobs/j1', { headers: reader })
  t.equal(ok.status, 200, 'a documented answer passes')
  await t.rejects(call(gw.url, 'GET', '/api/jobs/teapot', { headers: reader }), /undocumented answer: GET jobs\/teapot → 418: status not documented/)
  await t.rejects(call(gw.url, 'GET', '/api/jobs/shapeless', { headers: reader }), /does not fit the document/)
  await t.rejects(call(gw.url, 'GET', '/api/jobs/csv', { headers: reader }), /media type text\/csv not documented/)
  const missing = await call(gw.url, 'GET', '/api/no-such-endpoint', { headers: reader })
  t.equal(missing.status, 404, 'an unknown path may get an error in the documented shape')
  const old = await call(gw.url, 'GET', '/api/v1/jobs/j1', { headers: reader })
  t.equal(old.status, 200, 'the original generation is checked against its own document')
})
