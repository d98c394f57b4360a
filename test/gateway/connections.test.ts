/**
 * The connection guard of the public listener (src/gateway/connections.ts) through a real gateway
 * and raw sockets: header and body timeouts, clients that stop reading, what node's parser
 * refuses, CONNECT and Expect, and draining past connections that hold no request.
 */
import t, { type Test } from 'tap'
import { connect, type Socket } from 'node:net'
import { handlerKey, type LocalHandlers } from '../../src/gateway/context.js'
import { readBodyObject } from '../../src/gateway/handlers/body.js'
import { sendJson } from '../../src/shared/http/index.js'
import { KEYS, apiKeyAuth, memoryLog, send, startTestGateway, startUpstream, type Teardown } from './helpers.js'

/** What came back on a raw connection: the first response (if any) and whether the socket closed. */
interface Exchange {
  status: number | null
  headers: Record<string, string>
  body: string
  closed: boolean
  ms: number
}

function parse(text: string): Pick<Exchange, 'status' | 'headers' | 'body'> {
  const end = text.indexOf('\r\n\r\n')
  if (end < 0) return { status: null, headers: {}, body: '' }
  const [line, ...lines] = text.slice(0, end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const l of lines) {
    const i = l.indexOf(':')
    headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim()
  }
  return { status: Number(line!.split(' ')[1]), headers, body: text.slice(end + 4) }
}

/**
 * Opens a connection, lets `drive` write to it, and resolves once the gateway closes it (or after
 * `waitMs`, a bound well past the timeouts the test sets, with `closed: false`).
 */
function exchange(base: string, drive: (s: Socket) => void, waitMs = 8000): Promise<Exchange> {
  const u = new URL(base)
  const started = performance.now()
  return new Promise((resolve) => {
    const s = connect(Number(u.port), u.hostname, () => drive(s))
    let text = ''
    const done = (closed: boolean) => {
      clearTimeout(timer)
      s.destroy()
      resolve({ ...parse(text), closed, ms: performance.now() - started })
    }
    const timer = setTimeout(() => done(false), waitMs)
    s.on('data', (d: Buffer) => (text += d.toString('latin1')))
    s.on('close', () => done(true))
    s.on('error', () => {})
  })
}

/** The spec's version headers of an answer given before routing: the product's, and no endpoint's. */
function versionHeaders(t: Test, headers: Record<string, string>, what: string): void {
  t.equal(headers['x-product-version'], 'v7.6', `${what}: X-Product-Version`)
  t.equal(headers['x-api-versions-supported'], '', `${what}: X-API-Versions-Supported (no endpoint)`)
  t.equal(headers['x-api-version-used'], '', `${what}: X-API-Version-Used (no endpoint)`)
}

const LOGIN = 'POST /api/auth/login HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\n'

/** A gateway whose auth/login handler reads its body, with the shortest client timeouts. */
async function guarded(t: Teardown, extra: Record<string, unknown> = {}, upstreamUrl?: string) {
  const handlers: LocalHandlers = new Map([
    [
      handlerKey('POST', 'auth/login'),
      async (ctx) => {
        const body = await readBodyObject(ctx, 1 << 20)
        sendJson(ctx.res, 200, { read: Object.keys(body) })
      },
    ],
  ])
  const { log, lines } = memoryLog('debug')
  const gw = await startTestGateway(t, {
    auth: apiKeyAuth(KEYS, handlers),
    log,
    config: { server: { headersTimeoutMs: 1000, clientTimeoutMs: 1000 }, ...extra },
    ...(upstreamUrl ? { upstreamUrl } : {}),
  })
  const metrics = async () => (await fetch(`${gw.adminUrl}/metrics`)).text()
  return { gw, lines, metrics }
}

t.test('headers that never finish: 408 in our body within the header timeout, connection closed', async (t) => {
  const { gw, metrics } = await guarded(t, { server: { headersTimeoutMs: 1000, clientTimeoutMs: 10_000 } })
  const r = await exchange(gw.url, (s) => s.write('GET /api/snapshots HTTP/1.1\r\nHost: gw\r\nX-Api-'))
  t.ok(r.closed, 'closed')
  t.equal(r.status, 408)
  t.same(JSON.parse(r.body), { code: 'API_REQUEST_TIMEOUT', message: 'The request was not received in time' })
  versionHeaders(t, r.headers, 'header timeout')
  t.ok(r.ms < 4000, `cut after ${Math.round(r.ms)} ms (header timeout 1000 ms, checked every 1000 ms)`)
  t.match(await metrics(), /netinv_gateway_client_errors_total\{kind="headers_timeout"\} 1/)
})

t.test('a body that stops arriving, for a gateway endpoint: 408 in our body, connection closed', async (t) => {
  const { gw, lines, metrics } = await guarded(t)
  const r = await exchange(gw.url, (s) => s.write(`${LOGIN}Content-Length: 40\r\n\r\n{"user`))
  t.ok(r.closed, 'closed')
  t.equal(r.status, 408)
  t.equal((JSON.parse(r.body) as { code: string }).code, 'API_REQUEST_TIMEOUT')
  t.equal(r.headers.connection, 'close')
  t.ok(r.headers['x-request-id'], 'answered through the pipeline, with its headers')
  t.equal(r.headers['x-product-version'], 'v7.6')
  t.equal(r.headers['x-api-versions-supported'], '1', 'auth/login: its versions')
  t.equal(r.headers['x-api-version-used'], '1')
  t.match(await metrics(), /netinv_gateway_client_errors_total\{kind="body_timeout"\} 1/)
  t.notOk(
    lines.some((l) => (l.level as number) >= 50),
    'not logged as an error of the gateway',
  )
})

t.test('a body that stops arriving, for a forwarded endpoint: 408, and the upstream request is released', async (t) => {
  let upstreamGone!: () => void
  const released = new Promise<void>((r) => (upstreamGone = r))
  const up = await startUpstream(t)
  up.server.on('request', (req) => req.on('close', () => upstreamGone()))
  const { gw, lines } = await guarded(t, { upstream: { maxSockets: 1 } }, up.url)
  const r = await exchange(gw.url, (s) =>
    s.write('POST /api/snapshots HTTP/1.1\r\nHost: gw\r\nX-API-Token: writer-key\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"snapshotName'),
  )
  t.equal(r.status, 408)
  t.ok(r.closed, 'closed')
  await released
  t.pass('the upstream saw its request go away')
  const next = await send(gw.url, '/api/snapshots', { headers: { 'x-api-token': 'reader-key' } })
  t.equal(next.status, 200, 'the one upstream connection serves the next request')
  t.notOk(
    lines.some((l) => (l.level as number) >= 40),
    'no warning or error for it',
  )
})

t.test('a body that keeps arriving is never cut, however slow', async (t) => {
  const { gw } = await guarded(t)
  const body = '{"username":"someone"}'
  const r = await exchange(gw.url, (s) => {
    s.write(`${LOGIN}Connection: close\r\nContent-Length: ${body.length}\r\n\r\n`)
    let i = 0
    const tick = setInterval(() => {
      s.write(body.slice(i, i + 4))
      i += 4
      if (i >= body.length) clearInterval(tick)
    }, 400)
  })
  t.equal(r.status, 200, `answered after ${Math.round(r.ms)} ms of a 1000 ms client timeout`)
  t.same(JSON.parse(r.body), { read: ['username'] })
})

t.test('a slow upstream is not the client’s silence: the answer comes after the client timeout', async (t) => {
  const up = await startUpstream(t, (_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"slow":true}')
    }, 2500)
  })
  const { gw } = await guarded(t, {}, up.url)
  const r = await send(gw.url, '/api/snapshots', { headers: { 'x-api-token': 'reader-key' } })
  t.equal(r.status, 200)
  t.same(r.json(), { slow: true })
})

t.test('a client that takes nothing of a large response is cut; the upstream connection is freed', async (t) => {
  const big = Buffer.alloc(32 << 20, 'x')
  const up = await startUpstream(t, (req, res) => {
    if (req.url === '/api/snapshots/big/download') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': big.length })
      res.end(big)
      return
    }
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{}')
  })
  const { gw, metrics } = await guarded(t, { upstream: { maxSockets: 1 } }, up.url)
  const u = new URL(gw.url)
  const s = connect(Number(u.port), u.hostname, () => {
    s.write('GET /api/snapshots/big/download HTTP/1.1\r\nHost: gw\r\nX-API-Token: reader-key\r\n\r\n')
    // Never read: the gateway's writes back up.
    s.pause()
  })
  s.on('error', () => {})
  t.teardown(() => s.destroy())
  // (A paused socket does not see its own reset: the gateway's count says when it was cut.)
  const started = performance.now()
  while (!/client_errors_total\{kind="stopped_reading"\} 1/.test(await metrics())) {
    if (performance.now() - started > 10_000) break
    await new Promise((r) => setTimeout(r, 100))
  }
  t.match(await metrics(), /netinv_gateway_client_errors_total\{kind="stopped_reading"\} 1/, `cut after ${Math.round(performance.now() - started)} ms`)
  const next = await send(gw.url, '/api/snapshots', { headers: { 'x-api-token': 'reader-key' } })
  t.equal(next.status, 200, 'the one upstream connection serves the next request')
})

t.test('what node’s parser refuses is answered in our body', async (t) => {
  const { gw, metrics } = await guarded(t)
  const cases: Array<[string, string, number, string]> = [
    ['two Content-Length values', `${LOGIN}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`, 400, 'API_MALFORMED_REQUEST'],
    ['Content-Length and Transfer-Encoding', `${LOGIN}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 400, 'API_MALFORMED_REQUEST'],
    ['obsolete line folding', 'GET /api/version HTTP/1.1\r\nHost: gw\r\nX-A: b\r\n c\r\n\r\n', 400, 'API_MALFORMED_REQUEST'],
    ['a space in the target', 'GET /api/ver sion HTTP/1.1\r\nHost: gw\r\n\r\n', 400, 'API_MALFORMED_REQUEST'],
    ['headers over the limit', `GET /api/version HTTP/1.1\r\nHost: gw\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'API_HEADERS_TOO_LARGE'],
  ]
  for (const [what, bytes, status, code] of cases) {
    const r = await exchange(gw.url, (s) => s.write(bytes))
    t.equal(r.status, status, what)
    t.equal((JSON.parse(r.body) as { code: string }).code, code, what)
    t.equal(r.headers['content-type'], 'application/json; charset=utf-8', what)
    versionHeaders(t, r.headers, what)
    t.ok(r.closed, `${what}: closed`)
  }
  t.match(await metrics(), /netinv_gateway_client_errors_total\{kind="malformed"\} 4/)
})

t.test('CONNECT and an Expect other than 100-continue are refused in our body', async (t) => {
  const { gw } = await guarded(t)
  const connectR = await exchange(gw.url, (s) => s.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'))
  t.equal(connectR.status, 405)
  t.equal((JSON.parse(connectR.body) as { code: string }).code, 'API_METHOD_NOT_ALLOWED')
  versionHeaders(t, connectR.headers, 'CONNECT')
  t.ok(connectR.closed)
  const expect = await exchange(gw.url, (s) => s.write(`${LOGIN}Content-Length: 2\r\nExpect: 200-ok\r\n\r\n`))
  t.equal(expect.status, 417)
  t.equal((JSON.parse(expect.body) as { code: string }).code, 'API_EXPECTATION_FAILED')
  versionHeaders(t, expect.headers, 'Expect')
  const cont = await exchange(gw.url, (s) => {
    s.write(`${LOGIN}Content-Length: 2\r\nExpect: 100-continue\r\n\r\n`)
    s.once('data', () => s.write('{}'))
  }, 1500)
  t.match(cont.body, /"read":\[\]/, '100-continue still works')
})

t.test('a client that goes away while its body is read is not an error of the gateway', async (t) => {
  const { gw, lines } = await guarded(t)
  const u = new URL(gw.url)
  await new Promise<void>((resolve) => {
    const s = connect(Number(u.port), u.hostname, () => {
      s.write(`${LOGIN}Content-Length: 100\r\n\r\n{"u`)
      setTimeout(() => {
        s.destroy()
        resolve()
      }, 200)
    })
  })
  await new Promise((r) => setTimeout(r, 200))
  const access = lines.find((l) => l.msg === 'request' && l.path === '/api/auth/login')
  t.equal(access?.status, 499, 'its access line says the client closed')
  t.notOk(
    lines.some((l) => (l.level as number) >= 50 || 'stack' in l || (typeof l.err === 'object' && l.err !== null)),
    'no error line, no stack',
  )
})

t.test('draining does not wait for a connection that never finished its headers', async (t) => {
  const { gw } = await guarded(t, { server: { headersTimeoutMs: 60_000, clientTimeoutMs: 60_000 } })
  const u = new URL(gw.url)
  const s = connect(Number(u.port), u.hostname)
  s.on('error', () => {})
  await new Promise((r) => s.once('connect', r))
  s.write('GET /api/snapshots HTTP/1.1\r\nHost: gw\r\n')
  await new Promise((r) => setTimeout(r, 100))
  const started = performance.now()
  await gw.close(10_000)
  t.ok(performance.now() - started < 4000, `closed in ${Math.round(performance.now() - started)} ms, grace 10 s`)
  s.destroy()
})

t.test('an HTTP/1.1 request without Host: 400 in our body, not node’s empty one; HTTP/1.0 needs none', async (t) => {
  const { gw } = await guarded(t)
  const r = await exchange(gw.url, (s) => s.write('GET /api/version HTTP/1.1\r\n\r\n'))
  t.equal(r.status, 400)
  t.same(JSON.parse(r.body), { code: 'API_MALFORMED_REQUEST', message: 'HTTP/1.1 requests must carry a Host header' })
  t.ok(r.headers['x-request-id'], 'answered through the pipeline, with its headers')
  const old = await exchange(gw.url, (s) => s.write('GET /api/version HTTP/1.0\r\n\r\n'))
  t.equal(old.status, 200)
})
