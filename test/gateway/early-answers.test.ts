/**
 * An upstream that answers before it has read the request's body, and keeps the connection open
 * with the rest unread (what node's own server does when a handler gives up on a body it began
 * to read): the gateway never reuses that connection, so the next request is answered. (An
 * upstream that answers 2xx early although the body has all reached it cannot be told from one
 * that read it: that one is beyond any proxy's help.)
 */
import t from 'tap'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { send, startTestGateway } from './helpers.js'

const auth = { 'x-api-token': 'writer-key' }

/** Reads the first chunk of a body, answers `status`, and leaves the rest of the body unread. */
function answerEarly(status: number) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method === 'GET') {
      req.resume()
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
      return
    }
    req.once('data', () => {
      req.pause()
      res.writeHead(status, { 'content-type': 'application/json' }).end(`{"code":"REFUSED","message":"refused early"}`)
    })
  }
}

// 512 KB fits in the connection's buffers: the gateway has sent it whole by the time the refusal
// comes. 16 MB does not: the gateway is still sending it when the upstream answers.
for (const [status, size] of [
  [422, 512 * 1024],
  [200, 16 * 1024 * 1024],
] as const) {
  t.test(`an upstream answering ${status} before reading a body of ${size / 1024} KB`, async (t) => {
    const upstream = createServer({ keepAliveTimeout: 65000 }, answerEarly(status))
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    t.teardown(() => {
      upstream.closeAllConnections()
      upstream.close()
    })
    let connections = 0
    upstream.on('connection', () => connections++)
    const gw = await startTestGateway(t, { upstreamUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` })
    const body = Buffer.alloc(size, 'x')
    for (let i = 0; i < 3; i++) {
      const refused = await send(gw.url, '/api/snapshots/upload', { method: 'POST', headers: { ...auth, 'content-type': 'application/x-ndjson' }, body })
      t.equal(refused.status, status, 'the upstream’s answer passes through')
      const next = await Promise.race([
        send(gw.url, '/api/snapshots', { headers: auth }),
        new Promise<{ status: string }>((resolve) => setTimeout(() => resolve({ status: 'no answer after 10 s' }), 10_000).unref()),
      ])
      t.equal(next.status, 200, 'the next request is answered')
    }
    t.ok(connections >= 4, `a fresh upstream connection after each early answer (${connections})`)
  })
}
