/**
 * A lean HTTP/1.1 load generator for the benchmarks: keep-alive connections on raw sockets, one
 * request in flight per connection, the request bytes built once, responses framed by
 * Content-Length or chunked encoding and otherwise not parsed. node:http's client costs about as
 * much CPU per request as the servers under test; on a 2-core machine that would measure the
 * generator as much as the servers. This one costs a fraction of that.
 *
 *   closedLoop: `connections` clients, each sending its next request when the last one answered
 *   openLoop:   requests at a fixed rate whatever the answers, those due sent every millisecond,
 *               on whichever connection is idle (a new one when none is). It opens 256
 *               connections before it starts: when the server pauses, the requests that fall due
 *               meanwhile find open connections instead of opening hundreds at once, which would
 *               overflow the server's listen backlog (511 in node) and turn a pause of tens of
 *               milliseconds into SYN retransmissions of a second or more
 *
 * Latency is measured from the write of a request to the last byte of its response.
 */
import { connect, type Socket } from 'node:net'

export interface Target {
  port: number
  path: string
  headers: Record<string, string>
}

export interface LoadResult {
  requests: number
  /** Responses with a status other than 200, and failed connections. */
  errors: number
  seconds: number
  latenciesMs: number[]
  /** Connections opened during the run. */
  connections: number
}

const CRLF_CRLF = Buffer.from('\r\n\r\n')

function requestBytes(t: Target): Buffer {
  let head = `GET ${t.path} HTTP/1.1\r\nhost: 127.0.0.1:${t.port}\r\n`
  for (const [name, value] of Object.entries(t.headers)) head += `${name}: ${value}\r\n`
  return Buffer.from(`${head}\r\n`, 'latin1')
}

/** Where a complete response ends in `buf` (from 0), or -1; `status` is set when known. */
function responseEnd(buf: Buffer, out: { status: number }): number {
  const headEnd = buf.indexOf(CRLF_CRLF)
  if (headEnd < 0) return -1
  const head = buf.toString('latin1', 0, headEnd).toLowerCase()
  out.status = Number(head.slice(9, 12))
  const bodyStart = headEnd + 4
  const cl = /\r\ncontent-length: *(\d+)/.exec(head)
  if (cl) {
    const end = bodyStart + Number(cl[1])
    return buf.length >= end ? end : -1
  }
  if (!/\r\ntransfer-encoding: *chunked/.test(head)) return bodyStart
  let at = bodyStart
  for (;;) {
    const lineEnd = buf.indexOf('\r\n', at)
    if (lineEnd < 0) return -1
    const size = parseInt(buf.toString('latin1', at, lineEnd), 16)
    if (size === 0) {
      const end = buf.indexOf(CRLF_CRLF, lineEnd - 2)
      return end < 0 ? -1 : end + 4
    }
    at = lineEnd + 2 + size + 2
    if (at > buf.length) return -1
  }
}

class Connection {
  readonly socket: Socket
  private buf: Buffer = Buffer.alloc(0)
  private sentAt = 0
  private onDone: ((ok: boolean, ms: number) => void) | null = null
  private readonly frame = { status: 0 }
  closed = false

  constructor(port: number, onClose: (c: Connection) => void) {
    this.socket = connect({ host: '127.0.0.1', port, noDelay: true })
    this.socket.on('data', (chunk: Buffer) => this.data(chunk))
    const close = () => {
      if (this.closed) return
      this.closed = true
      this.finish(false)
      onClose(this)
    }
    this.socket.on('error', close)
    this.socket.on('close', close)
  }

  send(bytes: Buffer, onDone: (ok: boolean, ms: number) => void): void {
    this.onDone = onDone
    this.sentAt = performance.now()
    this.socket.write(bytes)
  }

  private data(chunk: Buffer): void {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk])
    const end = responseEnd(this.buf, this.frame)
    if (end < 0) return
    this.buf = end === this.buf.length ? Buffer.alloc(0) : this.buf.subarray(end)
    this.finish(this.frame.status === 200)
  }

  private finish(ok: boolean): void {
    const done = this.onDone
    if (!done) return
    this.onDone = null
    done(ok, performance.now() - this.sentAt)
  }
}

function newResult(seconds: number): LoadResult {
  return { requests: 0, errors: 0, seconds, latenciesMs: [], connections: 0 }
}

export async function closedLoop(t: Target, connections: number, seconds: number): Promise<LoadResult> {
  const bytes = requestBytes(t)
  const r = newResult(seconds)
  const end = performance.now() + seconds * 1000
  await Promise.all(
    Array.from(
      { length: connections },
      () =>
        new Promise<void>((resolve) => {
          let conn: Connection
          const open = () => {
            r.connections++
            conn = new Connection(t.port, () => {
              if (performance.now() < end) setTimeout(open, 1)
              else resolve()
            })
            next()
          }
          const next = () => {
            if (performance.now() >= end) {
              conn.socket.destroy()
              return
            }
            conn.send(bytes, (ok, ms) => {
              r.requests++
              if (!ok) r.errors++
              r.latenciesMs.push(ms)
              if (!conn.closed) next()
            })
          }
          open()
        }),
    ),
  )
  return r
}

/**
 * `requests` requests in all on `connections` keep-alive connections, each sending its next
 * request when its last one was answered: a count, not a time, so that what they cost the server
 * can be counted exactly (bench/gateway.ts --instructions).
 */
export async function countedLoop(t: Target, connections: number, requests: number): Promise<LoadResult> {
  const bytes = requestBytes(t)
  const r = newResult(0)
  const start = performance.now()
  let sent = 0
  await Promise.all(
    Array.from(
      { length: connections },
      () =>
        new Promise<void>((resolve) => {
          r.connections++
          const conn = new Connection(t.port, () => resolve())
          const next = () => {
            if (sent >= requests) {
              conn.socket.destroy()
              return
            }
            sent++
            conn.send(bytes, (ok, ms) => {
              r.requests++
              if (!ok) r.errors++
              r.latenciesMs.push(ms)
              if (!conn.closed) next()
            })
          }
          next()
        }),
    ),
  )
  r.errors += sent - r.requests
  r.seconds = (performance.now() - start) / 1000
  return r
}

export async function openLoop(t: Target, rate: number, seconds: number, warmConnections = 256): Promise<LoadResult> {
  const bytes = requestBytes(t)
  const r = newResult(seconds)
  const idle: Connection[] = []
  const all = new Set<Connection>()
  const open = (): Connection => {
    r.connections++
    const c = new Connection(t.port, (gone) => {
      all.delete(gone)
      const i = idle.indexOf(gone)
      if (i >= 0) idle.splice(i, 1)
    })
    all.add(c)
    return c
  }
  for (let i = 0; i < warmConnections; i++) idle.push(open())
  await new Promise<void>((resolve) => setTimeout(resolve, 50))
  let sent = 0
  let answered = 0
  const start = performance.now()
  await new Promise<void>((resolve) => {
    const finishIfDone = () => {
      if (sent === answered && performance.now() - start >= seconds * 1000) resolve()
    }
    const timer = setInterval(() => {
      const elapsed = performance.now() - start
      if (elapsed >= seconds * 1000) {
        clearInterval(timer)
        finishIfDone()
        return
      }
      for (const due = Math.floor((elapsed * rate) / 1000); sent < due; sent++) {
        const c = idle.pop() ?? open()
        c.send(bytes, (ok, ms) => {
          answered++
          r.requests++
          if (!ok) r.errors++
          r.latenciesMs.push(ms)
          if (!c.closed) idle.push(c)
          finishIfDone()
        })
      }
    }, 1)
  })
  for (const c of all) c.socket.destroy()
  return r
}

export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN
}
