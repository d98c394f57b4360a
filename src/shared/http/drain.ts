/**
 * Draining an HTTP server on shutdown without dropping a request it had received.
 *
 * The kernel takes connections and request bytes on the server's behalf before node sees them:
 * connections wait in the listen queue (node accepts one per turn of its event loop, so under
 * load, when a turn takes tens of milliseconds, the queue holds many), and a request sent on an
 * idle keep-alive connection waits in that connection's buffer until the next turn reads it.
 * Closing the listener resets every queued connection, and destroying an idle connection with
 * unread bytes resets it: clients that had sent their request get a reset instead of an answer.
 * So the drain:
 *
 * 1. From the start, makes every response close its connection (`Connection: close`), those
 *    already under way that have not sent their headers too. A request received while draining
 *    is answered as usual: it was accepted, and a 503 would reach the client through a load
 *    balancer that retries only failed connections.
 * 2. Lets no new connection into the listen queue (its backlog becomes 0: the kernel drops new
 *    attempts, which clients retry, and which are refused once the listener has closed), accepts
 *    the queued ones, and closes the listener after the first turn of I/O that found the queue
 *    empty. A connection refused has sent nothing: a client or load balancer retries it safely.
 *    One race is left to the kernel: a connection whose handshake it completes in the instant
 *    between that look and the close (a backlog of 0 still admits one) is reset by the close. Its
 *    request was never accepted by the process, so, like a refused one, it was not processed;
 *    node offers no way to make the kernel drop new handshakes before the close.
 * 3. Closes a connection only once two looks DRAIN_IDLE_MS apart, each taken right after a turn
 *    of I/O, found it idle (no response under way, no byte received in between) and the kernel
 *    holds no unread byte of it: a client that uses its connection sends within that time and
 *    gets its answer, bytes that arrived while the event loop was held are read before any look,
 *    and a request that arrives as the look runs keeps its connection open until it is answered.
 * 4. At the end of the grace, cuts whatever is left; it ends when every connection has closed.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { Server as NetServer, type Socket } from 'node:net'
import { Slots } from '../slots.js'
import { queuedConnections, SocketTable, stopQueueing } from './listen-queue.js'

/**
 * The silence after which a draining server closes a connection. A client that got an answer and
 * sends its next request on the same connection later than this, just as the connection closes,
 * gets a reset (the race of every keep-alive server); two seconds leave room for a client on a busy
 * machine (a quarter of one did not, in the suite on two loaded cores, nor did one second when four
 * test files shared them), at the cost of up to two seconds more before an idle process exits.
 */
export const DRAIN_IDLE_MS = 2000

/** The last look at a connection: its received bytes then, and whether it was idle. */
const LOOK = Symbol('netinv.drainLook')

type Watched = Socket & {
  /** The response node writes on this connection now (node's own record). */
  _httpMessage?: ServerResponse | null
  [LOOK]?: { bytesRead: number; idle: boolean }
}

export interface Drainable {
  /** Drains as above; in-flight requests get `graceMs`. Later calls return the same drain. */
  drain(graceMs: number): Promise<void>
}

/** A server's open connections, and how many it has accepted. */
interface Tracked {
  sockets: Slots<Socket>
  accepted: number
}

function closesConnection(_req: IncomingMessage, res: ServerResponse): void {
  res.shouldKeepAlive = false
}

/**
 * Closes the connections found idle at this look and at the one before, with no byte between,
 * and none waiting in the kernel now: a request that arrived while this turn ran callbacks is
 * still unread, and destroying its connection would reset it.
 */
function closeIdle(sockets: Slots<Socket>): void {
  let kernel: SocketTable | undefined
  for (const socket of sockets as Iterable<Watched>) {
    // Ending already: after a response that closes its connection, or a lingering close.
    if (!socket.writable) continue
    const idle = !socket._httpMessage
    const last = socket[LOOK]
    if (idle && last?.idle && last.bytesRead === socket.bytesRead) {
      kernel ??= new SocketTable()
      if (!kernel.unread(socket)) {
        socket.destroy()
        continue
      }
    }
    socket[LOOK] = { bytesRead: socket.bytesRead, idle }
  }
}

function drain(server: Server, tracked: Tracked, graceMs: number): Promise<void> {
  if (!server.listening) return Promise.resolve()
  server.prependListener('request', closesConnection)
  for (const socket of tracked.sockets as Iterable<Watched>) {
    const res = socket._httpMessage
    if (res && !res.headersSent) res.shouldKeepAlive = false
  }
  stopQueueing(server)
  return new Promise((resolve) => {
    let listening = true
    let done = false
    let looking: NodeJS.Timeout | undefined
    const closeListener = (): void => {
      if (!listening) return
      listening = false
      // net's close only stops listening; http's would also destroy idle connections at once.
      NetServer.prototype.close.call(server, () => {
        done = true
        clearTimeout(grace)
        clearTimeout(looking)
        resolve()
      })
    }
    const grace = setTimeout(() => {
      closeListener()
      server.closeAllConnections()
    }, graceMs)
    // Each check follows a turn of I/O, and node accepts a queued connection in every turn: a
    // turn that accepted none found the queue empty, and the kernel confirms it is still empty.
    let accepted = -1
    const checkQueue = (): void => {
      if (!listening) return
      if (tracked.accepted === accepted && !queuedConnections(server)) closeListener()
      else {
        accepted = tracked.accepted
        setImmediate(checkQueue)
      }
    }
    const look = (): void => {
      if (done) return
      closeIdle(tracked.sockets)
      looking = setTimeout(() => setImmediate(look), DRAIN_IDLE_MS)
    }
    setImmediate(checkQueue)
    setImmediate(look)
  })
}

/** Tracks the connections of `server` (from now on) so that it can drain. */
export function drainable(server: Server): Drainable {
  const tracked: Tracked = { sockets: new Slots<Socket>(), accepted: 0 }
  function forget(this: Socket): void {
    tracked.sockets.delete(this)
  }
  server.on('connection', (socket: Socket) => {
    tracked.accepted++
    tracked.sockets.add(socket)
    socket.once('close', forget)
  })
  let draining: Promise<void> | undefined
  return {
    drain(graceMs) {
      draining ??= drain(server, tracked, graceMs)
      return draining
    },
  }
}
