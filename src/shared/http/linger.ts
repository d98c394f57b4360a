/**
 * Answering before the request's body has all arrived (413, 401, 422 to an upload, an upstream
 * that refused early), the way nginx's "lingering close" does it: the answer says
 * `Connection: close` (nothing else may follow on a connection holding the rest of a body), and
 * once it has gone out the connection half-closes and keeps reading, throwing the rest of the body
 * away, until the client has sent it all (then it closes cleanly) or a bound is reached. Closing
 * at once instead would leave the client's further bytes unread: the kernel then answers them with
 * a reset, and a client still writing its body (most do not read before they have sent it) gets a
 * broken pipe instead of the answer. A connection that kept the rest of a body unread, on the
 * other hand, would hand it to the next request as the start of its own.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/** How much of the rest of a body a lingering connection reads at most, and for how long. */
export const LINGER = {
  /** Bytes of body discarded at most. */
  bytes: 64 * 1024 * 1024,
  /** The whole lingering, in ms. */
  totalMs: 30_000,
  /** The longest wait for more of the body, in ms. */
  idleMs: 5_000,
} as const

const LINGERING = Symbol('netinv.lingering')
type Lingering = Socket & { [LINGERING]?: true }

/**
 * When `req`'s body has not all arrived: its answer closes the connection, after reading the rest
 * of the body within the bounds of LINGER. Call it before the answer's headers are written; it
 * does nothing for a request whose body is complete (nothing is left to read).
 */
export function closeAfterBody(req: IncomingMessage, res: ServerResponse, limits: { bytes: number; totalMs: number; idleMs: number } = LINGER): void {
  if (req.complete) return
  if (!res.headersSent) res.setHeader('connection', 'close')
  res.shouldKeepAlive = false
  const socket = req.socket as Lingering | null
  if (!socket || socket.destroyed || socket[LINGERING]) return
  socket[LINGERING] = true
  // Node's server calls destroySoon() once a response that closes its connection has finished:
  // for this one connection, that becomes the lingering close.
  socket.destroySoon = () => linger(socket, req, limits)
}

function linger(socket: Socket, req: IncomingMessage, limits: { bytes: number; totalMs: number; idleMs: number }): void {
  // The answer is out: FIN after it, then read what the client still sends.
  if (socket.writable) socket.end()
  if (req.complete || socket.destroyed) {
    closeWhenWritten(socket)
    return
  }
  let read = 0
  const close = (): void => {
    clearTimeout(total)
    clearTimeout(idle)
    closeWhenWritten(socket)
  }
  const total = setTimeout(close, limits.totalMs).unref()
  let idle = setTimeout(close, limits.idleMs).unref()
  // Whatever consumed the body before (a pipe to an upstream, an iterator that gave up) lets go.
  req.unpipe()
  req.removeAllListeners('data')
  req.removeAllListeners('readable')
  req.on('data', (chunk: Buffer) => {
    read += chunk.length
    clearTimeout(idle)
    idle = setTimeout(close, limits.idleMs).unref()
    if (read > limits.bytes) close()
  })
  req.once('end', close)
  req.once('error', close)
  socket.once('close', () => {
    clearTimeout(total)
    clearTimeout(idle)
  })
  req.resume()
  // A 'readable' listener removed above stops holding the stream paused only on the next tick.
  process.nextTick(() => req.resume())
}

/** Destroys the socket once what was written to it has gone out (the answer and the FIN). */
function closeWhenWritten(socket: Socket): void {
  if (socket.destroyed) return
  if (socket.writableFinished) socket.destroy()
  else socket.once('finish', () => socket.destroy())
}
