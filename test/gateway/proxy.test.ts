import t from 'tap'
import { request as httpRequest } from 'node:http'
import { connectionListed, internalValue, responseHeaderList } from '../../src/gateway/upstreams/headers.js'
import { decodeInternal, decodePrincipal, encodeInternal } from '../../src/shared/principal.js'
import { KEYS, READER, SECRET, apiKeyAuth, memoryLog, send, startTestGateway, startUpstream } from './helpers.js'
import { spawnOwned } from '../helpers/owned.js'

const auth = { 'x-api-token': 'reader-key' }

/**
 * How a GET /api/snapshots through the gateway ends for its client: 'ended' (whole), 'cut'
 * (incomplete: the connection was closed under it) or, after 10 s, still waiting (a hang; a
 * generous bound, many times any timeout the tests set).
 */
function howItEnds(base: string): Promise<string> {
  const u = new URL(base)
  return new Promise<string>((resolve) => {
    const hung = setTimeout(() => resolve('still waiting after 10 s'), 10_000)
    const done = (how: string) => {
      clearTimeout(hung)
      resolve(how)
    }
    const req = httpRequest({ host: u.hostname, port: u.port, path: '/api/snapshots', headers: auth }, (res) => {
      res.on('data', () => {})
      res.on('end', () => done('ended'))
      res.on('error', () => done('cut'))
      res.on('aborted', () => done('cut'))
    })
    req.on('error', () => done('cut'))
    req.end()
  })
}

/** Sends GET /api/snapshots through the gateway and drops the connection once `arrival` settles. */
async function goneOnceArrived(base: string, arrival: Promise<void>): Promise<void> {
  const u = new URL(base)
  const req = httpRequest({ host: u.hostname, port: u.port, path: '/api/snapshots', headers: auth })
  req.on('error', () => {})
  req.end()
  await arrival
  req.destroy()
}

t.test('header hygiene: client identity and forwarding headers never pass; ours are set', async (t) => {
  const gw = await startTestGateway(t)
  const r = await send(gw.url, '/api/snapshots?a=1&b=2', {
    headers: {
      ...auth,
      'x-netinv-internal': encodeInternal({ secret: 'guess', principal: 'eyJpZCI6ImFkbWluIn0', apiVersion: 9, generation: 'path' }),
      'x-netinv-internal-secret': 'guess',
      'x-netinv-principal': 'eyJpZCI6ImFkbWluIn0',
      'x-netinv-api-version': '9',
      'x-netinv-generation': 'path',
      'x-forwarded-for': '6.6.6.6',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'evil.example',
      forwarded: 'for=6.6.6.6',
      connection: 'keep-alive, x-hop',
      'x-hop': 'secret hop',
      authorization: 'Basic Zm9vOmJhcg==',
      'x-request-id': 'req-123',
      'x-custom': 'kept',
    },
  })
  t.equal(r.status, 200)
  t.equal(r.headers['x-request-id'], 'req-123', 'a sane request id is kept and returned')
  const { url, headers } = r.json() as { url: string; headers: Record<string, string> }
  t.equal(url, '/api/snapshots?a=1&b=2')
  t.same(decodeInternal(headers['x-netinv-internal']), { apiVersion: 1, generation: 'header', principal: decodeInternal(headers['x-netinv-internal'])?.principal, secret: SECRET })
  t.same(decodePrincipal(decodeInternal(headers['x-netinv-internal'])?.principal), READER)
  t.same(
    Object.keys(headers).filter((name) => name.startsWith('x-netinv-')),
    ['x-netinv-internal'],
    'no client-sent x-netinv-* header passes, whatever its name',
  )
  t.equal(headers['x-forwarded-for'], '127.0.0.1', 'an untrusted peer’s X-Forwarded-For is replaced, not appended to')
  t.equal(headers['x-forwarded-proto'], 'http')
  t.match(headers['x-forwarded-host'], /^127\.0\.0\.1:\d+$/)
  t.equal(headers.forwarded, undefined)
  t.equal(headers['x-hop'], undefined, 'headers named in Connection are hop-by-hop')
  t.equal(headers.authorization, undefined)
  t.equal(headers['x-api-token'], undefined)
  t.equal(headers['x-request-id'], 'req-123')
  t.equal(headers['x-custom'], 'kept')
})

t.test('an insane request id is replaced', async (t) => {
  const gw = await startTestGateway(t)
  const r = await send(gw.url, '/api/version', { headers: { 'x-request-id': 'a b<script>' } })
  t.match(r.headers['x-request-id'], /^[0-9a-f-]{36}$/)
})

t.test('upstream down: fast 502 in our body, version headers kept', async (t) => {
  const up = await startUpstream(t)
  const gw = await startTestGateway(t, { upstreamUrl: up.url })
  await new Promise<void>((r) => {
    up.server.closeAllConnections()
    up.server.close(() => r())
  })
  const r = await send(gw.url, '/api/snapshots', { headers: auth })
  t.equal(r.status, 502)
  t.same(r.json(), { code: 'API_UPSTREAM_UNAVAILABLE', message: 'The inventory service is unavailable' })
  t.equal(r.headers['x-api-version-used'], '1')
  t.match(await (await fetch(`${gw.adminUrl}/metrics`)).text(), /netinv_gateway_upstream_errors_total\{upstream="inventory",kind="unavailable"\} 1/)
})

t.test('slow upstream: 504 at the configured timeout', async (t) => {
  const up = await startUpstream(t, () => {
    /* never answers */
  })
  const gw = await startTestGateway(t, { upstreamUrl: up.url, config: { upstream: { timeoutMs: 150 } } })
  const started = Date.now()
  const r = await send(gw.url, '/api/snapshots', { headers: auth })
  const elapsed = Date.now() - started
  t.equal(r.status, 504)
  t.same(r.json(), { code: 'API_UPSTREAM_TIMEOUT', message: 'The inventory service did not answer in time' })
  t.ok(elapsed >= 140, `not before the timeout (${elapsed} ms)`)
})

t.test('an upload that streams for longer than the upstream timeout is not cut: the timeout counts from its last byte', async (t) => {
  const up = await startUpstream(t, (_req, res, body) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ bodyLength: body.length }))
  })
  const gw = await startTestGateway(t, { upstreamUrl: up.url, config: { upstream: { timeoutMs: 300 } } })
  const u = new URL(gw.url)
  const r = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest(
      { host: u.hostname, port: u.port, path: '/api/snapshots/upload', method: 'POST', headers: { 'x-api-token': 'writer-key', 'transfer-encoding': 'chunked' } },
      (res) => {
        let text = ''
        res.on('data', (d: Buffer) => (text += d.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
      },
    )
    req.on('error', reject)
    let sent = 0
    const tick = setInterval(() => {
      req.write(Buffer.alloc(1000, 120))
      if (++sent === 8) {
        clearInterval(tick)
        req.end()
      }
    }, 120)
  })
  t.equal(r.status, 200, 'about 1 s of upload against a 300 ms answer timeout')
  t.same(JSON.parse(r.text), { bodyLength: 8000 })
})

t.test('requests waiting for a free upstream connection: 504 at their own timeout, never sent later', async (t) => {
  let received = 0
  const up = await startUpstream(t, () => {
    received++ // never answers
  })
  const gw = await startTestGateway(t, { upstreamUrl: up.url, config: { upstream: { timeoutMs: 300, maxSockets: 1 } } })
  const answers = await Promise.all([1, 2, 3].map(() => send(gw.url, '/api/snapshots', { headers: auth })))
  t.same(
    answers.map((r) => r.status),
    [504, 504, 504],
  )
  t.same(answers[2]!.json(), { code: 'API_UPSTREAM_TIMEOUT', message: 'The inventory service did not answer in time' })
  // Were a waiting request's timeout counted from when it got a connection, each would reach
  // the upstream once the one before it timed out (three requests there).
  t.ok(received >= 1 && received < 3, `the requests that timed out while waiting never reached the upstream (${received} did)`)
  t.match(await (await fetch(`${gw.adminUrl}/metrics`)).text(), /netinv_gateway_upstream_errors_total\{upstream="inventory",kind="timeout"\} 3/)
})

t.test('an upstream that stalls in the middle of its answer: the client connection is cut at the timeout', async (t) => {
  const up = await startUpstream(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' })
    res.write('{"partial":') // and nothing more, the connection kept open
  })
  const gw = await startTestGateway(t, { upstreamUrl: up.url, config: { upstream: { timeoutMs: 200 } } })
  t.equal(await howItEnds(gw.url), 'cut', 'the client learns the answer is incomplete')
  t.match(await (await fetch(`${gw.adminUrl}/metrics`)).text(), /netinv_gateway_upstream_errors_total\{upstream="inventory",kind="timeout"\} 1/)
})

t.test('a client that goes away releases the upstream request (no leaked sockets)', async (t) => {
  let upstreamClosed!: () => void
  const closed = new Promise<void>((r) => (upstreamClosed = r))
  let arrived!: () => void
  const arrival = new Promise<void>((r) => (arrived = r))
  const up = await startUpstream(t, (req) => {
    req.socket.once('close', () => upstreamClosed())
    arrived()
  })
  const gw = await startTestGateway(t, { upstreamUrl: up.url })
  await goneOnceArrived(gw.url, arrival)
  await closed
  t.pass('the upstream connection was closed after the client aborted')
  const sockets = await new Promise<number>((r) => up.server.getConnections((_e, n) => r(n)))
  t.equal(sockets, 0)
})

t.test('a client that goes away while its request is still being checked: nothing reaches the upstream', async (t) => {
  let received = 0
  const up = await startUpstream(t, (_req, res) => {
    received++
    res.end('{}')
  })
  let arrived!: () => void
  const arrival = new Promise<void>((r) => (arrived = r))
  let letThrough!: () => void
  const held = new Promise<void>((r) => (letThrough = r))
  const keys = apiKeyAuth(KEYS)
  const { log, lines } = memoryLog()
  const gw = await startTestGateway(t, {
    upstreamUrl: up.url,
    log,
    auth: {
      ...keys,
      // Authentication waits (a slow identity store) until the client has gone.
      authenticate: async (ctx) => {
        arrived()
        await held
        return keys.authenticate(ctx)
      },
    },
  })
  await goneOnceArrived(gw.url, arrival)
  // The gateway has seen the connection close once the request's access line (499) is written.
  for (let i = 0; i < 400 && !lines.some((l) => l.status === 499); i++) await new Promise((r) => setTimeout(r, 10))
  t.ok(lines.some((l) => l.status === 499), 'the gateway saw the client go')
  letThrough()
  // Another request goes through the same upstream afterwards: the first would have been sent before it.
  t.equal((await send(gw.url, '/api/snapshots', { headers: auth })).status, 200)
  t.equal(received, 1, 'only the second request reached the upstream')
})

t.test('request bodies stream through under the limit; over it: 413', async (t) => {
  const received: number[] = []
  const up = await startUpstream(t, (_req, res, body) => {
    received.push(body.length)
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ bodyLength: body.length }))
  })
  const gw = await startTestGateway(t, { upstreamUrl: up.url, config: { server: { bodyLimitBytes: 2048, uploadLimitBytes: 8192 } } })
  const w = { 'x-api-token': 'writer-key', 'content-type': 'application/json' }
  const ok = await send(gw.url, '/api/snapshots', { method: 'POST', headers: w, body: Buffer.alloc(2000, 32) })
  t.same(ok.json(), { bodyLength: 2000 })
  const declared = await send(gw.url, '/api/snapshots', { method: 'POST', headers: w, body: Buffer.alloc(3000, 32) })
  t.equal(declared.status, 413)
  t.equal((declared.json() as { code: string }).code, 'API_PAYLOAD_TOO_LARGE')
  // Chunked, no Content-Length: the stream is cut at the limit.
  const chunked = await new Promise<number>((resolve, reject) => {
    const u = new URL(gw.url)
    const req = httpRequest({ host: u.hostname, port: u.port, path: '/api/snapshots', method: 'POST', headers: { ...w, 'transfer-encoding': 'chunked' } }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
    for (let i = 0; i < 5; i++) req.write(Buffer.alloc(1000, 32))
    req.end()
  })
  t.equal(chunked, 413)
  const upload = await send(gw.url, '/api/snapshots/upload', { method: 'POST', headers: w, body: Buffer.alloc(6000, 32) })
  t.same(upload.json(), { bodyLength: 6000 }, 'snapshots/upload has its own, larger limit')
  t.same(received, [2000, 6000], 'nothing over the limit reached the upstream')
})

t.test('an upstream that never completes the TCP handshake: 502 at the connect timeout', async (t) => {
  // A listener with a full accept queue that never accepts: further SYNs go unanswered.
  const { connect } = await import('node:net')
  const py = spawnOwned('python3', ['-c', 'import socket,sys,time\ns=socket.socket()\ns.bind(("127.0.0.1",0))\ns.listen(0)\nprint(s.getsockname()[1],flush=True)\ntime.sleep(60)'], { stdio: ['ignore', 'pipe', 'ignore'] })
  t.teardown(() => py.kill('SIGKILL'))
  const port = await new Promise<number>((resolve) => py.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))))
  const fillers = [connect(port, '127.0.0.1'), connect(port, '127.0.0.1'), connect(port, '127.0.0.1')]
  for (const f of fillers) f.on('error', () => {})
  t.teardown(() => fillers.forEach((f) => f.destroy()))
  await new Promise((r) => setTimeout(r, 100))
  const gw = await startTestGateway(t, { upstreamUrl: `http://127.0.0.1:${port}`, config: { upstream: { connectTimeoutMs: 100, timeoutMs: 20_000 } } })
  const r = await send(gw.url, '/api/snapshots', { headers: auth })
  t.equal(r.status, 502, 'the connect timeout answered, not the 20 s response timeout')
  t.equal((r.json() as { code: string }).code, 'API_UPSTREAM_UNAVAILABLE')
})

t.test('a large response reaches a slow reader whole (backpressure), with its upstream headers', async (t) => {
  const chunk = Buffer.alloc(64 * 1024)
  for (let i = 0; i < chunk.length; i++) chunk[i] = i % 251
  const chunks = 128 // 8 MiB, far more than the sockets buffer
  let paused = 0
  const up = await startUpstream(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-upstream': 'yes' })
    let i = 0
    const more = () => {
      while (i < chunks) {
        i++
        if (!res.write(chunk)) {
          paused++
          res.once('drain', more)
          return
        }
      }
      res.end()
    }
    more()
  })
  // The reader's pauses add up to far more than the timeout: waiting for a client is no stall.
  const gw = await startTestGateway(t, { upstreamUrl: up.url, config: { upstream: { timeoutMs: 100 } } })
  const u = new URL(gw.url)
  const { status, headers, body } = await new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, path: '/api/snapshots', headers: auth }, (res) => {
      const parts: Buffer[] = []
      // A slow reader: a pause after every chunk, and one longer than the timeout.
      res.on('data', (c: Buffer) => {
        parts.push(c)
        res.pause()
        setTimeout(() => res.resume(), parts.length === 3 ? 400 : 1)
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
  t.equal(status, 200)
  t.equal(headers['x-upstream'], 'yes')
  t.equal(headers['x-api-version-used'], '1', 'the gateway headers go out with the upstream ones')
  t.equal(body.length, chunk.length * chunks)
  t.ok(body.subarray(0, chunk.length).equals(chunk) && body.subarray(-chunk.length).equals(chunk), 'the bytes are intact')
  t.ok(paused > 0, 'the upstream was told to wait (backpressure reached it)')
})

t.test('an upstream that dies in the middle of a response: the client connection is cut, not left hanging', async (t) => {
  const up = await startUpstream(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' })
    res.write('{"data":[')
    setTimeout(() => res.socket?.destroy(), 20)
  })
  const gw = await startTestGateway(t, { upstreamUrl: up.url })
  t.equal(await howItEnds(gw.url), 'cut', 'the client learns the response is incomplete')
})

t.test('a request without a body reaches the upstream without one', async (t) => {
  const seen: Array<{ method: string; length: number; te: string | undefined; cl: string | undefined }> = []
  const up = await startUpstream(t, (req, res, body) => {
    seen.push({ method: req.method ?? '', length: body.length, te: req.headers['transfer-encoding'], cl: req.headers['content-length'] })
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{}')
  })
  const gw = await startTestGateway(t, { upstreamUrl: up.url })
  t.equal((await send(gw.url, '/api/snapshots', { headers: auth })).status, 200)
  t.equal((await send(gw.url, '/api/snapshots', { method: 'HEAD', headers: auth })).status, 200)
  t.equal((await send(gw.url, '/api/snapshots/s1', { method: 'DELETE', headers: { 'x-api-token': 'writer-key' } })).status, 200)
  t.same(seen, [
    { method: 'GET', length: 0, te: undefined, cl: undefined },
    { method: 'HEAD', length: 0, te: undefined, cl: undefined },
    { method: 'DELETE', length: 0, te: undefined, cl: undefined },
  ])
})

t.test('response headers: hop-by-hop ones and those the Connection header names are dropped; ours win, but the upstream’s Deprecation stays and the stricter Sunset wins', async (t) => {
  const upstream = [
      'Content-Type', 'application/json',
      'Connection', 'keep-alive, X-Private-Hop',
      'Keep-Alive', 'timeout=5',
      'TRANSFER-ENCODING', 'chunked',
      'X-Private-Hop', 'dropped',
      'Set-Cookie', 'a=1',
      'Set-Cookie', 'b=2',
      'X-Request-Id', 'from-upstream',
      'X-API-Version-Used', '6.0',
      'Deprecation', '@1767225600',
      'Sunset', 'Thu, 31 Dec 2026 00:00:00 GMT',
    'Date', 'Sun, 22 Nov 2026 20:00:00 GMT',
  ]
  const ours = { 'x-request-id': 'from-gateway', 'x-api-version-used': '1', deprecation: 'true', sunset: '2027-06-30T00:00:00Z' }
  t.same(responseHeaderList(upstream, ours), [
    'Content-Type', 'application/json',
    'Set-Cookie', 'a=1',
    'Set-Cookie', 'b=2',
    'Date', 'Sun, 22 Nov 2026 20:00:00 GMT',
    'x-request-id', 'from-gateway',
    'x-api-version-used', '1',
    'deprecation', '@1767225600',
    'sunset', 'Thu, 31 Dec 2026 00:00:00 GMT',
  ])
  const later = ['Sunset', 'Thu, 31 Dec 2099 00:00:00 GMT']
  t.same(responseHeaderList(later, { sunset: '2027-06-30T00:00:00Z' }), ['sunset', '2027-06-30T00:00:00Z'], 'the gateway’s earlier sunset wins')
  t.same(responseHeaderList(['Content-Length', '2']), ['Content-Length', '2'], 'without headers of ours')
})

t.test('through the gateway, the upstream’s hop-by-hop response headers stay behind', async (t) => {
  const up = await startUpstream(t, (_req, res) => {
    res.setHeader('connection', 'keep-alive, x-upstream-hop')
    res.setHeader('x-upstream-hop', 'private')
    res.setHeader('set-cookie', ['a=1', 'b=2'])
    res.writeHead(200, { 'content-type': 'application/json', 'x-kept': 'yes' })
    res.end('[]')
  })
  const gw = await startTestGateway(t, { upstreamUrl: up.url })
  const r = await send(gw.url, '/api/snapshots', { headers: auth })
  t.equal(r.status, 200)
  t.equal(r.headers['x-upstream-hop'], undefined)
  t.equal(r.headers['x-kept'], 'yes')
  t.same(r.headers['set-cookie'], ['a=1', 'b=2'], 'each Set-Cookie line arrives')
  t.equal(r.headers['x-api-version-used'], '1')
  t.notMatch(String(r.headers.connection ?? ''), /x-upstream-hop/i)
})

t.test('connectionListed: the header names a Connection header makes hop-by-hop', async (t) => {
  t.equal(connectionListed(undefined), null)
  t.equal(connectionListed('keep-alive'), null, 'the usual value lists nothing more')
  t.equal(connectionListed('Keep-Alive'), null)
  t.equal(connectionListed('close'), null)
  t.same([...connectionListed('keep-alive, X-Hop ,x-other')!], ['x-hop', 'x-other'])
  t.same([...connectionListed('Upgrade')!], ['upgrade'])
  t.equal(connectionListed(' , ,keep-alive'), null)
})

t.test('internalValue: one value per principal, version, generation and secret, each decoding to its own parts', async (t) => {
  const p = Object.freeze({ ...READER })
  const other = Object.freeze({ ...READER, username: 'other' })
  const cases: Array<[typeof p | null, number, string, string]> = [
    [p, 1, 'header', 's1'],
    [p, 2, 'header', 's1'],
    [p, 2, 'path', 's1'],
    [p, 2, 'path', 's2'],
    [other, 2, 'path', 's2'],
    [null, 1, 'header', 's1'],
    [null, 1, 'original', 's2'],
  ]
  for (const [principal, apiVersion, generation, secret] of cases) {
    const value = internalValue(principal, apiVersion, generation, secret)
    t.equal(internalValue(principal, apiVersion, generation, secret), value, 'the same inputs give the same value')
    const d = decodeInternal(value)
    t.same({ ...d, principal: decodePrincipal(d?.principal) }, { apiVersion, generation, secret, principal }, JSON.stringify([principal?.username ?? null, apiVersion, generation, secret]))
  }
})
