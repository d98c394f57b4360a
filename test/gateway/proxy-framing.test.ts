/**
 * Request framing between the gateway and the inventory: whatever a client's request looks like,
 * the upstream connection carries exactly one request for it, framed as its body really is, so
 * that no client can put bytes of its own in front of another client's request on a shared
 * keep-alive connection (request smuggling).
 */
import t from 'tap'
import { connect } from 'node:net'
import { decodeInternal, decodePrincipal } from '../../src/shared/principal.js'
import { send, startTestGateway, startUpstream } from './helpers.js'

interface Seen {
  method: string
  url: string
  body: string
  caller: string | undefined
}

/** Writes raw bytes to the gateway and resolves with the status of the first answer. */
function raw(base: string, bytes: string): Promise<number> {
  const u = new URL(base)
  return new Promise((resolve, reject) => {
    const s = connect(Number(u.port), u.hostname, () => s.write(bytes))
    let got = ''
    s.on('data', (d: Buffer) => {
      got += d.toString('latin1')
      const m = /^HTTP\/1\.1 (\d{3})/.exec(got)
      if (m && got.includes('\r\n\r\n')) {
        s.destroy()
        resolve(Number(m[1]))
      }
    })
    s.on('error', reject)
  })
}

for (const [method, path] of [
  ['DELETE', '/api/snapshots/mine'],
  ['PATCH', '/api/snapshots/mine'],
  ['POST', '/api/snapshots/mine/lock'],
]) {
  t.test(`a chunked ${method} body reaches the upstream as its body, never as a request of its own`, async (t) => {
    const seen: Seen[] = []
    const up = await startUpstream(t, (req, res, body) => {
      const principal = decodePrincipal(decodeInternal(String(req.headers['x-netinv-internal']))?.principal)
      seen.push({ method: req.method!, url: req.url!, body: body.toString('latin1'), caller: principal?.username })
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{}')
    })
    // One upstream connection, so that a second request would follow the first on it.
    const gw = await startTestGateway(t, { upstreamUrl: up.url, config: { upstream: { maxSockets: 1 } } })
    // The body is the start of another request: were it written to the upstream connection
    // unframed, the next client's request line would complete it under that client's identity.
    const smuggled = 'DELETE /api/snapshots/victim HTTP/1.1\r\nX-Ignore: '
    const chunk = `${smuggled.length.toString(16)}\r\n${smuggled}\r\n0\r\n\r\n`
    const status = await raw(
      gw.url,
      `${method} ${path} HTTP/1.1\r\nHost: gw\r\nX-API-Token: writer-key\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunk}`,
    )
    t.equal(status, 200)
    const next = await send(gw.url, '/api/snapshots', { headers: { 'x-api-token': 'reader-key' } })
    t.equal(next.status, 200, 'the next client gets its own answer')
    t.notOk(
      seen.some((s) => s.url === '/api/snapshots/victim'),
      'no request the client wrote into its body reached the upstream',
    )
    t.same(seen.at(-1), { method: 'GET', url: '/api/snapshots', body: '', caller: 'reader' }, 'the next request arrives as sent, as its own caller')
    t.same(seen[0], { method, url: path, body: smuggled, caller: 'writer' }, 'forwarded with its body framed as a body')
    t.equal(seen.length, 2)
  })
}
