/**
 * The shape of the hot path: what one forwarded request costs the gateway in things that can be
 * counted exactly (speed itself is measured by bench/gateway.ts, never judged here). A request
 * whose credential and rate decision are answered at once (as the verification caches and a
 * memory limiter answer) runs the whole pipeline without a promise, sets no header one by one on
 * either side, and goes upstream on undici's pool (one dispatch) with its headers as one list,
 * without http-proxy or node's http client, with no more event listeners than node's own server's
 * and the forwarder's shared ones, and no regular expression besides the HTTP header checks. A
 * later feature that adds a promise, a timer, a header call, a listener or a regular expression
 * to every request fails this test, with the counts it added.
 */
import t from 'tap'
import type { Test } from 'tap'
import { createHook } from 'node:async_hooks'
import { EventEmitter } from 'node:events'
import { createRequire } from 'node:module'
import crypto, { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { ClientRequest, IncomingMessage, ServerResponse } from 'node:http'
import { syncBuiltinESMExports } from 'node:module'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Redis } from 'ioredis'
import { pino } from 'pino'
import { Pool } from 'undici'
import { createAuthService } from '../../../src/gateway/auth/index.js'
import type { AuthService } from '../../../src/gateway/auth/types.js'
import { createMetrics } from '../../../src/gateway/metrics.js'
import { createLimiter } from '../../../src/gateway/ratelimit/index.js'
import { LEASE_FROM, leaseSize } from '../../../src/gateway/ratelimit/redis.js'
import { whenReady } from '../../../src/gateway/redis.js'
import { compileConfig } from '../../../src/shared/config/index.js'
import { createLogger, silentLogger } from '../../../src/shared/log.js'
import { REDIS_URL, freshPostgres } from '../../helpers/db.js'
import { READER, send, startTestGateway, startUpstream } from '../helpers.js'

/** Auth answered from its caches: the principal at once, no promise. */
const cachedAuth: AuthService = {
  authenticate: () => READER,
  handlers: new Map(),
  ready: () => Promise.resolve(true),
  close: () => Promise.resolve(),
}

const REQUESTS = 200

/**
 * Listeners added per forwarded request, beyond those of the upstream answering directly, with
 * node 20 and undici 7: 2 of the gateway's (the client's response: the access line's 'close' and
 * the forwarding's) and 3 of node's server for the gateway's side of the request (its socket's
 * 'close', the response's 'finish', the request's 'end'); undici adds none for a request on a
 * kept-alive connection (node's http client added 21: 'socket', 'error', 'response', the relay's
 * three, its socket's, its parser's, the agent's). Raise it only with the reason in the commit.
 */
const LISTENERS = 5

/**
 * Sends `n` GET requests one after the other on one keep-alive connection (raw bytes, callbacks
 * only: the client adds no promise per request) and calls `done` after the last answer.
 */
function sequence(socket: Socket, path: string, n: number, done: (err?: Error) => void, key = 'reader-key'): void {
  const request = Buffer.from(`GET ${path} HTTP/1.1\r\nhost: gateway.test\r\nx-api-token: ${key}\r\nx-api-version: 1\r\n\r\n`, 'latin1')
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
  /** Event listeners added (on, addListener, once, prepend…), node's own included. */
  listeners: number
  /** Regular expressions run from the gateway's code and its libraries (not node's own). */
  regex: number
  /** Events emitted by http-proxy's emitter (eventemitter3). */
  proxyEvents: number
  /** Header lines of upstream answers put into their header objects (node builds one on its first read). */
  answerHeaderLines: number
  /** Calls of `counted` functions (see `spy`), by name. */
  calls: Record<string, number>
}

/** Something to count the calls of while the requests run: `install` puts a counting wrapper in place and answers how to undo it. */
type Spy = (name: string, counts: Counts) => () => void

/** What `n` requests to `path` on `port` create and call, after a warm-up on the same connection. */
async function count(port: number, path: string, n: number, key = 'reader-key', spies: Record<string, Spy> = {}): Promise<Counts> {
  const socket = connect(port, '127.0.0.1')
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  await new Promise<void>((resolve, reject) => sequence(socket, path, 50, (err) => (err ? reject(err) : resolve()), key))
  const counts: Counts = { resources: {}, clientSetHeader: 0, responseSetHeader: 0, listeners: 0, regex: 0, proxyEvents: 0, answerHeaderLines: 0, calls: {} }
  const undo = Object.entries(spies).map(([name, spy]) => spy(name, counts))
  const hook = createHook({
    init(_id, type) {
      counts.resources[type] = (counts.resources[type] ?? 0) + 1
    },
  })
  const clientSetHeader = ClientRequest.prototype.setHeader
  const responseSetHeader = ServerResponse.prototype.setHeader
  ClientRequest.prototype.setHeader = function (this: ClientRequest, ...args: Parameters<typeof clientSetHeader>) {
    // Forwarded requests only: the gateway's own (its upstreams' documents, health probes) may
    // fall in the window on a slow machine.
    if (this.path.startsWith('/api/')) counts.clientSetHeader++
    return clientSetHeader.apply(this, args)
  }
  ServerResponse.prototype.setHeader = function (this: ServerResponse, ...args: Parameters<typeof responseSetHeader>) {
    counts.responseSetHeader++
    return responseSetHeader.apply(this, args)
  }
  const undoListeners = countListeners(counts)
  const undoRegex = countRegex(counts)
  const proxyEmit = ProxyEmitter.prototype.emit
  ProxyEmitter.prototype.emit = function (this: unknown, ...args: unknown[]) {
    counts.proxyEvents++
    return proxyEmit.apply(this, args)
  }
  // node builds a message's header object on its first read, a line at a time through this.
  const proto = IncomingMessage.prototype as unknown as { _addHeaderLine(this: IncomingMessage & { req?: unknown }, ...args: unknown[]): unknown }
  const addHeaderLine = proto._addHeaderLine
  proto._addHeaderLine = function (...args: unknown[]) {
    // An answer to a request of node's client (the server's requests have no `req`).
    if (this.req !== undefined) counts.answerHeaderLines++
    return addHeaderLine.apply(this, args)
  }
  hook.enable()
  try {
    await new Promise<void>((resolve, reject) => sequence(socket, path, n, (err) => (err ? reject(err) : resolve()), key))
  } finally {
    hook.disable()
    proto._addHeaderLine = addHeaderLine
    for (const u of undo) u()
    undoListeners()
    undoRegex()
    ProxyEmitter.prototype.emit = proxyEmit
    ClientRequest.prototype.setHeader = clientSetHeader
    ServerResponse.prototype.setHeader = responseSetHeader
    socket.destroy()
  }
  return counts
}

/** http-proxy's emitter: every event of a forwarding through http-proxy goes through its emit. */
const ProxyEmitter = createRequire(import.meta.url)('eventemitter3') as { prototype: { emit(...args: unknown[]): boolean } }

/** Counts the listeners added to any emitter (node's streams and sockets add theirs through these too). */
function countListeners(counts: Counts): () => void {
  const proto = EventEmitter.prototype as unknown as Record<string, (...args: unknown[]) => unknown>
  const names = ['on', 'addListener', 'once', 'prependListener', 'prependOnceListener'] as const
  const originals = names.map((name) => proto[name]!)
  names.forEach((name, i) => {
    const original = originals[i]!
    proto[name] = function (this: unknown, ...args: unknown[]) {
      counts.listeners++
      return original.apply(this, args)
    }
  })
  return () => names.forEach((name, i) => (proto[name] = originals[i]!))
}

/**
 * Whether the code that ran a regular expression is node's own (its HTTP header checks, say) or
 * undici's (the same checks of each header of the upstream request, which node's client made
 * before): the first caller outside the RegExp and String built-ins.
 */
function byNode(): boolean {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 6
  const frames = (new Error().stack ?? '').split('\n').slice(3)
  Error.stackTraceLimit = limit
  const caller = frames.find((f) => !/^\s*at (?:RegExp|String)\.|\(<anonymous>\)$/.test(f)) ?? ''
  return /\(node:|at node:|\/node_modules\/undici\//.test(caller)
}

/**
 * Counts the regular expressions run (exec and test; String's match, replace and split with a
 * pattern run exec too) from the gateway's code and its libraries, not node's own.
 */
function countRegex(counts: Counts): () => void {
  const { exec, test } = RegExp.prototype
  let inside = false
  const seen = (): void => {
    // The check's own regular expressions are not counted (nor looked at).
    if (inside) return
    inside = true
    try {
      if (!byNode()) counts.regex++
    } finally {
      inside = false
    }
  }
  RegExp.prototype.exec = function (this: RegExp, s: string) {
    seen()
    return exec.call(this, s)
  }
  RegExp.prototype.test = function (this: RegExp, s: string) {
    seen()
    return exec.call(this, s) !== null
  }
  return () => {
    RegExp.prototype.exec = exec
    RegExp.prototype.test = test
  }
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
  const through = await count(gatewayPort, '/api/snapshots', REQUESTS, 'reader-key', { dispatch: spyDispatch })
  const added = perRequest(through, direct, REQUESTS)
  t.comment(`added per request: ${JSON.stringify(added)}`)
  // What the gateway must make per request: the upstream request, one dispatch on undici's pool
  // (node's ticks are not counted: how a socket's reads split up decides some of them).
  t.equal(through.calls.dispatch, REQUESTS, 'one upstream request each')
  t.equal(added.HTTPCLIENTREQUEST, undefined, "no request of node's http client")
  t.equal(added.PROMISE, undefined, 'no promise: every stage answered at once')
  // Node's own per request (the sockets' timeouts), and at most one each of the timers that
  // serve many requests (the access log's flush, the forwarder's deadline sweep) on a machine
  // so slow that each request outlasts them.
  t.ok((added.Timeout ?? 0) <= 4, `at most 4 timers made per request, shared ones included: ${added.Timeout ?? 0}`)
  t.equal(through.clientSetHeader, 0, 'the upstream request gets its headers as one list')
  t.equal(through.responseSetHeader, 0, "the client's answer gets its headers in one writeHead")
  const listeners = Math.round((through.listeners - direct.listeners) / REQUESTS)
  const regex = Math.round((through.regex - direct.regex) / REQUESTS)
  t.comment(`per request: ${listeners} listeners added besides the upstream's, ${regex} regular expressions of the gateway's, ${through.proxyEvents / REQUESTS} http-proxy events`)
  t.equal(through.proxyEvents, 0, 'a request without a body goes upstream without http-proxy')
  t.ok(listeners <= LISTENERS, `at most ${LISTENERS} listeners added per request besides the upstream's: ${listeners}`)
  t.equal(regex, 0, 'no regular expression of the gateway runs per request')
  // The forwarder reads the answer's raw lines only (undici builds no header object either).
  t.equal(through.answerHeaderLines, 0, "the upstream answer's header object is never built")
})

/** Counts the requests dispatched on undici's pools (how the forwarder sends a request without a body). */
const spyDispatch: Spy = (name, counts) => {
  const proto = Pool.prototype as unknown as { dispatch(...args: unknown[]): boolean }
  const original = proto.dispatch
  proto.dispatch = function (this: unknown, ...args: unknown[]) {
    counts.calls[name] = (counts.calls[name] ?? 0) + 1
    return original.apply(this, args)
  }
  return () => {
    proto.dispatch = original
  }
}

/** Counts the calls of crypto.hash (what the API key's lookup hash is made with), in the ES module bindings too. */
const spyHash: Spy = (name, counts) => {
  const original = crypto.hash
  crypto.hash = ((...args: Parameters<typeof original>) => {
    if (args[0] === 'sha256') counts.calls[name] = (counts.calls[name] ?? 0) + 1
    return original(...args)
  }) as typeof original
  syncBuiltinESMExports()
  return () => {
    crypto.hash = original
    syncBuiltinESMExports()
  }
}

/**
 * The bench's request through the identity module and the Redis limiter at a per-IP limit of
 * `perSecond`, on a clock that stands still (a lease lasts while its places are in the window: on
 * a slow machine the requests could outlast it).
 */
async function benchRequest(t: Test, perSecond: number): Promise<void> {
  const adminPassword = 'hot-path-admin-password'
  const rateLimit = { perSecond }
  const config = compileConfig({ rateLimit })
  const clock = Date.now()
  // The access log on: written as in service (to nowhere).
  const log = createLogger({ level: 'info', stream: pino.destination({ dest: '/dev/null', sync: false }) })
  const metrics = createMetrics()
  const limits = createLimiter({ redisUrl: REDIS_URL, config: () => config, log: silentLogger(), metrics, now: () => clock, prefix: `netinv:test:${randomBytes(6).toString('hex')}:` })
  t.teardown(() => limits.close())
  if (!(await whenReady(limits.redis!, 5000))) throw new Error(`Redis at ${REDIS_URL} is not ready`)
  const auth = await createAuthService({
    // The identity store as the bench and a deployed gateway have it.
    db: (await freshPostgres(t)).db,
    config,
    log: silentLogger(),
    dataDir: mkdtempSync(join(tmpdir(), 'netinv-hot-path-')),
    adminPassword,
    limiter: limits.limiter,
    print: () => {},
  })
  t.teardown(() => auth.close())
  const upstream = await startUpstream(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '11' })
    res.end('{"data":[]}')
  })
  const gw = await startTestGateway(t, { upstreamUrl: upstream.url, auth, limiter: limits.limiter, config: { rateLimit }, log, metrics })
  const made = await send(gw.url, '/api/api-tokens', {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`admin:${adminPassword}`).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ description: 'hot path', scope: ['read'] }),
  })
  t.equal(made.status, 201, 'an API key made through the gateway')
  const { token } = made.json() as { token: string }
  // A standalone Redis (REDIS_URL): its commands all go through its own sendCommand.
  const redis = limits.redis as Redis
  /** Counts the commands the limiter's Redis connection is sent (a pipeline's each). */
  const spyRedis: Spy = (name, counts) => {
    const original = redis.sendCommand
    redis.sendCommand = function (this: typeof redis, ...args: Parameters<typeof original>) {
      counts.calls[name] = (counts.calls[name] ?? 0) + 1
      return original.apply(this, args)
    } as typeof original
    return () => {
      redis.sendCommand = original
    }
  }
  const direct = await count(upstream.port, '/api/snapshots', REQUESTS, token)
  const through = await count(Number(new URL(gw.url).port), '/api/snapshots', REQUESTS, token, { redis: spyRedis, sha256: spyHash, dispatch: spyDispatch })
  const added = perRequest(through, direct, REQUESTS)
  t.comment(`added per request: ${JSON.stringify(added)}; calls in ${REQUESTS} requests: ${JSON.stringify(through.calls)}`)
  t.equal(through.calls.dispatch, REQUESTS, 'one upstream request each')
  // A Redis too slow for the limiter's deadline (a machine under heavy load) sends decisions to
  // the in-process fallback, which sends nothing: never more than one command per request then.
  const fallbacks = Number(/netinv_gateway_ratelimit_redis_fallbacks_total (\d+)/.exec(metrics.render())?.[1] ?? 0)
  t.equal(through.calls.sha256 ?? 0, 0, 'the API key is hashed once per connection, not per request')
  if (fallbacks > 0) {
    // Then the counts are not those of the path through Redis: only the bound that holds for both.
    t.ok((through.calls.redis ?? 0) <= REQUESTS, `at most one Redis command per request (${fallbacks} decisions fell back: Redis was too slow)`)
  } else if (leaseSize(perSecond) > 0) {
    // A lease of MAX_LEASE places per round trip: the pipeline decides the leased hits at once.
    const trips = Math.ceil(REQUESTS / (leaseSize(perSecond) + 1))
    t.ok((through.calls.redis ?? 0) <= trips, `at most ${trips} Redis commands in ${REQUESTS} requests (a round trip per lease): ${through.calls.redis ?? 0}`)
    t.equal(added.PROMISE, undefined, 'no promise per request (those of a round trip per lease round to none)')
    t.ok((added.Timeout ?? 0) <= 4, `at most 4 timers made per request, shared ones included: ${added.Timeout ?? 0}`)
  } else {
    // One request at a time: each rate decision is a round trip of its own (under load, the
    // decisions that arrive while one is out share the next).
    t.equal(through.calls.redis, REQUESTS, 'one Redis command per request')
    // The promises of the Redis round trip: its batch's answer and the steps that wait for it (the
    // decision, the shadow count in memory, the stages after the rate limit, the request's end),
    // and ioredis' own for its command (its answer, the NOSCRIPT retry's catch, ours on it).
    // A change that adds one to every request fails here: say why it must, and raise the bound.
    t.ok((added.PROMISE ?? 0) <= 9, `at most 9 promises per request: ${added.PROMISE ?? 0}`)
    // ioredis' command timeout, the limiter's round trip's, node's own and the shared ones.
    t.ok((added.Timeout ?? 0) <= 5, `at most 5 timers made per request, shared ones included: ${added.Timeout ?? 0}`)
  }
  t.equal(through.clientSetHeader, 0, 'the upstream request gets its headers as one list')
  t.equal(through.responseSetHeader, 0, "the client's answer gets its headers in one writeHead")
}

t.test("the bench's request with the identity module and the Redis limiter at a high limit (the bench's): a round trip per lease, no key hashed, no promise", (t) => benchRequest(t, 1_000_000))

t.test(`the same below a limit of ${LEASE_FROM}: one Redis command per request, no more promises than before`, (t) => benchRequest(t, 500))
