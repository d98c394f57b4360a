/**
 * The drain of an HTTP server, with requests the kernel took for it before node looked: bytes on
 * an idle keep-alive connection, and connections in the listen queue while the event loop was
 * held. Each must get an answer; a connection attempt after the listener closed is refused.
 */
import t, { type Test } from 'tap'
import { once } from 'node:events'
import { createServer, type RequestListener, type Server } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { drainable, DRAIN_IDLE_MS, type Drainable } from '../../../src/shared/http/drain.js'

const REQUEST = 'GET / HTTP/1.1\r\nHost: test\r\n\r\n'

async function started(t: Test, handler: RequestListener = (_req, res) => res.end('ok')): Promise<{ server: Server; drain: Drainable; port: number }> {
  const server = createServer({ keepAliveTimeout: 60_000 }, handler)
  const drain = drainable(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    server.closeAllConnections()
    server.close()
  })
  return { server, drain, port: (server.address() as AddressInfo).port }
}

/** Everything the server sends until it closes the connection, or the error that ended it. */
function received(socket: Socket): Promise<{ text: string; error?: string }> {
  let text = ''
  socket.setEncoding('latin1').on('data', (chunk: string) => (text += chunk))
  return new Promise((resolve) => {
    socket.once('error', (err: NodeJS.ErrnoException) => resolve({ text, error: err.code ?? err.message }))
    socket.once('close', () => resolve({ text }))
  })
}

/** A kept-alive connection that has had one answer, and what the server sends on it from now on. */
async function keptAlive(port: number): Promise<{ socket: Socket; all: ReturnType<typeof received> }> {
  const socket = connect(port, '127.0.0.1')
  await once(socket, 'connect')
  const all = received(socket)
  socket.write(REQUEST)
  while (!socket.bytesRead) await once(socket, 'data')
  return { socket, all }
}

/** Drains, and checks the kept-alive connection got both its answers, the last closing it. */
async function bothAnswered(t: Test, drain: Drainable, all: ReturnType<typeof received>): Promise<void> {
  const drained = drain.drain(10_000)
  const { text, error } = await all
  t.equal(error, undefined, 'no reset')
  t.equal(text.match(/HTTP\/1\.1 200 OK/g)?.length, 2, 'both requests answered')
  t.match(text.split('\r\n\r\n').at(-2), /connection: close/i, 'the last answer closes the connection')
  await drained
}

/** Holds the event loop, as a long statement or a paused process would. */
function hold(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until);
}

t.test('a request already in the buffer of an idle keep-alive connection when the drain begins is answered, with Connection: close', async (t) => {
  const { drain, port } = await started(t)
  const { socket, all } = await keptAlive(port)
  // The next request reaches the kernel now; node reads it only in its next turn.
  socket.write(REQUEST)
  hold(20)
  await bothAnswered(t, drain, all)
})

t.test('connections waiting in the listen queue when the drain begins are accepted and answered; later ones are refused', async (t) => {
  const { server, drain, port } = await started(t)
  const clients = Array.from({ length: 8 }, () => {
    const socket = connect(port, '127.0.0.1', () => socket.write(REQUEST))
    return received(socket)
  })
  // The connection attempts go out on the next tick; the kernel queues them while the loop is held.
  await new Promise((resolve) => process.nextTick(resolve))
  hold(50)
  const drained = drain.drain(10_000)
  for (const { text, error } of await Promise.all(clients)) {
    t.equal(error, undefined, 'no reset')
    t.match(text, /^HTTP\/1\.1 200 OK\r\n[^]*connection: close[^]*\r\n\r\nok$/i, 'answered, closing its connection')
  }
  while (server.listening) await new Promise((resolve) => setImmediate(resolve))
  const late = connect(port, '127.0.0.1')
  t.match(await received(late), { error: 'ECONNREFUSED' }, 'the listener has closed')
  await drained
})

t.test('an idle connection is closed once it has been silent for a while, and the drain ends', async (t) => {
  const { drain, port } = await started(t)
  const { all } = await keptAlive(port)
  const began = performance.now()
  await drain.drain(10_000)
  const { error } = await all
  t.equal(error, undefined, 'closed without a reset')
  const tookMs = performance.now() - began
  t.ok(tookMs >= DRAIN_IDLE_MS && tookMs < 5000, `closed after ${Math.round(tookMs)} ms of silence, long before the 10 s grace`)
})

t.test('a request that reaches the kernel while the look that would close its idle connection is about to run is answered, not reset', async (t) => {
  const { drain, port } = await started(t)
  const { socket, all } = await keptAlive(port)
  // The drain's first look runs in the next check phase and sets its next look DRAIN_IDLE_MS
  // later. This timer, set just before it with the same delay, fires first in the same timers
  // phase; its write then runs in the check phase right before the second look: the bytes are in
  // the kernel and node has not read them.
  setImmediate(() => setTimeout(() => setImmediate(() => socket.write(REQUEST)), DRAIN_IDLE_MS))
  await bothAnswered(t, drain, all)
})

t.test('at the end of the grace, a request still in flight is cut and the drain ends', async (t) => {
  const { server, drain, port } = await started(t, () => {})
  const arrived = once(server, 'request')
  const socket = connect(port, '127.0.0.1', () => socket.write(REQUEST))
  const all = received(socket)
  await arrived
  await drain.drain(200)
  const { text } = await all
  t.equal(text, '', 'no answer came: it was cut')
})
