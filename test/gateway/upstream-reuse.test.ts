/**
 * Kept-alive upstream connections that the upstream closes (issue 30, item 12): the gateway closes
 * an idle connection before the upstream's keep-alive timeout, and an idempotent request without
 * a body that fails on a reused connection before any answer is sent again once, on a new
 * connection; a POST is not.
 *
 * The upstream here closes a connection at the moment the next request arrives on it once it has
 * been idle for `expireMs`: the race of a keep-alive timeout (or of a replica going away) whose
 * close the gateway could not see before it sent, made certain.
 */
import t from 'tap'
import { createServer as createHttpServer, type Server } from 'node:http'
import { connect, createServer as createNetServer, Server as NetServer, type AddressInfo, type Socket } from 'node:net'
import { send, startTestGateway, type Teardown } from './helpers.js'

const reader = { 'x-api-token': 'reader-key' }
const writer = { 'x-api-token': 'writer-key' }

interface Expiring {
  url: string
  server: Server
  /** Connections opened, requests answered, requests whose connection it closed under them. */
  seen: { connections: number; answered: number; closedUnder: number }
  /**
   * A crash with connections kept alive to it: the listener stops (new connections are refused),
   * and a request on a connection it had closes that connection unanswered.
   */
  die(): void
}

const LAST_ANSWER = Symbol('lastAnswer')
type Tracked = Socket & { [LAST_ANSWER]?: number }

async function expiringUpstream(t: Teardown, expireMs: number): Promise<Expiring> {
  const seen = { connections: 0, answered: 0, closedUnder: 0 }
  let dead = false
  const server = createHttpServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const socket = req.socket as Tracked
    const last = socket[LAST_ANSWER]
    if (dead || (last !== undefined && performance.now() - last >= expireMs)) {
      seen.closedUnder++
      socket.destroy()
      return
    }
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ method: req.method }))
      res.on('finish', () => (socket[LAST_ANSWER] = performance.now()))
      seen.answered++
    })
  })
  server.on('connection', () => seen.connections++)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  t.teardown(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    seen,
    die() {
      dead = true
      // net's close: http's would also close the idle connections at once, which a crash may not.
      NetServer.prototype.close.call(server)
    },
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

t.test('an upstream that closes kept-alive connections after 100 ms idle, reused after 150 ms: the gateway closed them first, no 502', async (t) => {
  const up = await expiringUpstream(t, 100)
  const gw = await startTestGateway(t, { upstreamUrl: up.url, config: { upstream: { idleTimeoutMs: 50 } } })
  // The gateway read the upstream's document on a connection of its own before it listened.
  const before = up.seen.connections
  const statuses: number[] = []
  for (let i = 0; i < 5; i++) {
    statuses.push((await send(gw.url, '/api/snapshots', { headers: reader })).status)
    await pause(150)
  }
  t.same(statuses, [200, 200, 200, 200, 200])
  t.equal(up.seen.closedUnder, 0, 'no request went out on a connection the upstream was closing')
  t.equal(up.seen.connections - before, 5, 'each request after a pause went on a new connection')
})

t.test('the same upstream with the default idle timeout: an idempotent request without a body is sent again on a new connection; a POST is not', async (t) => {
  const up = await expiringUpstream(t, 100)
  const gw = await startTestGateway(t, { upstreamUrl: up.url })
  const outcomes: Array<[string, number]> = []
  // Each request goes out on a connection kept alive 150 ms earlier (a retry's own connection is not kept).
  for (const [method, path] of [
    ['GET', '/api/snapshots'],
    ['HEAD', '/api/snapshots'],
    ['DELETE', '/api/snapshots/00000000-0000-4000-8000-000000000000'],
    ['GET', '/api/snapshots'],
  ] as const) {
    t.equal((await send(gw.url, '/api/snapshots', { headers: reader })).status, 200, 'a request opens a connection')
    await pause(150)
    outcomes.push([method, (await send(gw.url, path, { method, headers: writer })).status])
  }
  t.same(outcomes, [['GET', 200], ['HEAD', 200], ['DELETE', 200], ['GET', 200]], 'no 502: each was sent again once its reused connection closed under it')
  t.equal(up.seen.closedUnder, 4, 'each went out first on the connection the upstream closed')

  // A request with a body goes through node's agent, not undici's pool: its connection is kept by a POST.
  const postIt = () => send(gw.url, '/api/snapshots', { method: 'POST', headers: { ...writer, 'content-type': 'application/json' }, body: '{"profile":"lab"}' })
  t.equal((await postIt()).status, 200)
  await pause(150)
  const post = await postIt()
  t.equal(post.status, 502, 'a POST is not sent twice')
  t.match(post.json(), { code: 'API_UPSTREAM_UNAVAILABLE' })
  t.equal(up.seen.closedUnder, 5)
})

/** A TCP balancer in front of replicas: round robin over new connections, the next one when one refuses. */
async function balancer(t: Teardown, ports: () => number[]): Promise<string> {
  let next = 0
  const server = createNetServer((client) => {
    const candidates = ports()
    const first = next++
    const tryFrom = (i: number) => {
      if (i >= candidates.length) return client.destroy()
      const port = candidates[(first + i) % candidates.length]!
      const upstream = connect(port, '127.0.0.1')
      upstream.once('error', () => tryFrom(i + 1))
      upstream.once('connect', () => {
        upstream.removeAllListeners('error')
        client.pipe(upstream).pipe(client)
        const cut = () => (client.destroy(), upstream.destroy())
        client.on('error', cut)
        upstream.on('error', cut)
      })
    }
    tryFrom(0)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  t.teardown(() => new Promise<void>((r) => server.close(() => r())))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

t.test('an upstream replica dies with connections kept alive to it: idempotent GETs are answered by the other replica, no 502', async (t) => {
  const replicas = [await expiringUpstream(t, 60_000), await expiringUpstream(t, 60_000)]
  const ports = replicas.map((r) => Number(new URL(r.url).port))
  const url = await balancer(t, () => ports)
  const gw = await startTestGateway(t, { upstreamUrl: url })
  // Seven connections kept alive, spread over both replicas.
  const warm = await Promise.all(Array.from({ length: 7 }, () => send(gw.url, '/api/snapshots', { headers: reader })))
  t.same(new Set(warm.map((r) => r.status)), new Set([200]))
  t.ok(replicas[0]!.seen.connections > 0 && replicas[1]!.seen.connections > 0, 'both replicas hold connections')
  replicas[0]!.die()
  const after = await Promise.all(Array.from({ length: 7 }, () => send(gw.url, '/api/snapshots', { headers: reader })))
  t.same(
    after.map((r) => r.status),
    Array.from({ length: 7 }, () => 200),
    'every GET answered',
  )
  t.ok(replicas[0]!.seen.closedUnder > 0, `requests went out on the dead replica's connections first (${replicas[0]!.seen.closedUnder})`)
})

t.test('the idle timeout is for unused connections only: an upstream slower than it to answer, or pausing mid-answer, is waited for', async (t) => {
  const up = await expiringUpstream(t, 60_000)
  up.server.removeAllListeners('request')
  up.server.on('request', (_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('first ')
      setTimeout(() => res.end('last'), 300)
    }, 300)
  })
  const gw = await startTestGateway(t, { upstreamUrl: up.url, config: { upstream: { idleTimeoutMs: 50 } } })
  const r = await send(gw.url, '/api/snapshots', { headers: reader })
  t.equal(r.status, 200)
  t.equal(r.text, 'first last')
})
