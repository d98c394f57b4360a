/**
 * The shape of the hot path: what one forwarded request costs the gateway in things that can be
 * counted exactly (speed itself is measured by bench/gateway.ts, never judged here). A request
 * whose credential and rate decision are answered at once (as the verification caches and a
 * memory limiter answer) runs the whole pipeline without a promise, sets no header one by one on
 * either side, and goes upstream with its headers as one list. A later feature that adds a
 * promise, a timer or a header call to every request fails this test, with the counts it added.
 */
import t from 'tap'
import { createHook } from 'node:async_hooks'
import { ClientRequest, ServerResponse } from 'node:http'
import { connect, type Socket } from 'node:net'
import type { AuthService } from '../../../src/gateway/auth/types.js'
import { READER, startTestGateway, startUpstream } from '../helpers.js'

/** Auth answered from its caches: the principal at once, no promise. */
const cachedAuth: AuthService = {
  authenticate: () => READER,
  handlers: new Map(),
  ready: () => Promise.resolve(true),
  close: () => Promise.resolve(),
}

const REQUESTS = 200

/**
 * Sends `n` GET requests one after the other on one keep-alive connection (raw bytes, callbacks
 * only: the client adds no promise per request) and calls `done` after the last answer.
 */
function sequence(socket: Socket, path: string, n: number, done: (err?: Error) => void): void {
  const request = Buffer.from(`GET ${path} HTTP/1.1\r\nhost: gateway.test\r\nx-api-token: reader-key\r\nx-api-version: 1\r\n\r\n`, 'latin1')
  let left = n
  let buf: Buffer = Buffer.alloc(0)
  const onData = (chunk: Buffer) => {
    buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk])
    const head = buf.indexOf('\r\n\r\n')
    if (head < 0) return
    const text = buf.toString('latin1', 0, head)
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text)?.[1] ?? NaN)
    if (!text.startsWith('HTTP/1.1 200') || !Number.isFinite(length)) {
      socket.off('data', onData)
      done(new Error(`unexpected answer: ${text}`))
      return
    }
    if (buf.length < head + 4 + length) return
    buf = buf.subarray(head + 4 + length)
    if (--left === 0) {
      socket.off('data', onData)
      done()
      return
    }
    socket.write(request)
  }
  socket.on('data', onData)
  socket.write(request)
}

interface Counts {
  /** Async resources by type (PROMISE, Timeout, TickObject, ...). */
  resources: Record<string, number>
  clientSetHeader: number
  responseSetHeader: number
}

/** What `n` requests to `path` on `port` create and call, after a warm-up on the same connection. */
async function count(port: number, path: string, n: number): Promise<Counts> {
  const socket = connect(port, '127.0.0.1')
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  await new Promise<void>((resolve, reject) => sequence(socket, path, 50, (err) => (err ? reject(err) : resolve())))
  const counts: Counts = { resources: {}, clientSetHeader: 0, responseSetHeader: 0 }
  const hook = createHook({
    init(_id, type) {
      counts.resources[type] = (counts.resources[type] ?? 0) + 1
    },
  })
  const clientSetHeader = ClientRequest.prototype.setHeader
  const responseSetHeader = ServerResponse.prototype.setHeader
  ClientRequest.prototype.setHeader = function (this: ClientRequest, ...args: Parameters<typeof clientSetHeader>) {
    counts.clientSetHeader++
    return clientSetHeader.apply(this, args)
  }
  ServerResponse.prototype.setHeader = function (this: ServerResponse, ...args: Parameters<typeof responseSetHeader>) {
    counts.responseSetHeader++
    return responseSetHeader.apply(this, args)
  }
  hook.enable()
  try {
    await new Promise<void>((resolve, reject) => sequence(socket, path, n, (err) => (err ? reject(err) : resolve())))
  } finally {
    hook.disable()
    ClientRequest.prototype.setHeader = clientSetHeader
    ServerResponse.prototype.setHeader = responseSetHeader
    socket.destroy()
  }
  return counts
}

/** Per request, what the gateway adds over the upstream answered directly (rounded: the hook's own settling promise and the like are shared by the run). */
function perRequest(gateway: Counts, direct: Counts, n: number): Record<string, number> {
  const out: Record<string, number> = {}
  for (const type of new Set([...Object.keys(gateway.resources), ...Object.keys(direct.resources)])) {
    const added = Math.round(((gateway.resources[type] ?? 0) - (direct.resources[type] ?? 0)) / n)
    if (added !== 0 && type !== 'TickObject') out[type] = added
  }
  return out
}

t.test('a forwarded GET answered from the caches: no promise, no timer, no header set one by one', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '11' })
    res.end('{"data":[]}')
  })
  // A limit the run cannot reach on a fast machine (200 requests can come within one second): the
  // limiter still decides every request, as in service.
  const gw = await startTestGateway(t, { upstreamUrl: upstream.url, auth: cachedAuth, config: { rateLimit: { perSecond: 1_000_000 } } })
  const gatewayPort = Number(new URL(gw.url).port)
  const direct = await count(upstream.port, '/api/snapshots', REQUESTS)
  const through = await count(gatewayPort, '/api/snapshots', REQUESTS)
  const added = perRequest(through, direct, REQUESTS)
  t.comment(`added per request: ${JSON.stringify(added)}`)
  // What the gateway must make per request: the upstream request (node's ticks for it are not
  // counted: how a socket's reads split up decides some of them).
  t.equal(added.HTTPCLIENTREQUEST, 1, 'one upstream request')
  t.equal(added.PROMISE, undefined, 'no promise: every stage answered at once')
  // Node's own per request (the sockets' timeouts), and at most one each of the timers that
  // serve many requests (the access log's flush, the forwarder's deadline sweep) on a machine
  // so slow that each request outlasts them.
  t.ok((added.Timeout ?? 0) <= 4, `at most 4 timers made per request, shared ones included: ${added.Timeout ?? 0}`)
  t.equal(through.clientSetHeader, 0, 'the upstream request gets its headers as one list')
  t.equal(through.responseSetHeader, 0, "the client's answer gets its headers in one writeHead")
})
