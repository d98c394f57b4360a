/**
 * The connections to one upstream: a keep-alive agent (HTTPS with the upstream's certificate
 * authorities, client certificate and server name), and its health probe and the gateway's own
 * reads (the audit trail's state before a change) over the same agent, so that they see what
 * forwarded requests see (a refused certificate fails them all).
 *
 * An unused connection closes after the upstream's `idleTimeoutMs` (node's agent destroys a free
 * socket at its timeout; a socket in use only reports it, and the forwarder's own deadlines bound
 * that): below the upstream server's keep-alive timeout, the gateway closes first, and no request
 * goes out on a connection the upstream is closing at that moment.
 */
import { Agent as HttpAgent, request as httpRequest, type OutgoingHttpHeaders } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { Socket } from 'node:net'
import type { Upstream } from './settings.js'

/** The seconds of a `Keep-Alive: timeout=<s>` hint among raw header lines, or -1. */
export function keepAliveHint(raw: readonly string[]): number {
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!
    if (name.length !== 10 || name.toLowerCase() !== 'keep-alive') continue
    const value = raw[i + 1]!
    if (!value.startsWith('timeout=')) return -1
    let end = 8
    while (end < value.length && value.charCodeAt(end) >= 0x30 && value.charCodeAt(end) <= 0x39) end++
    return end > 8 ? Number(value.slice(8, end)) : -1
  }
  return -1
}

type Persisted = Socket & { _httpMessage?: { res?: { rawHeaders: string[] } } | null }

/**
 * node's keepSocketAlive (the documented override point of an agent) as node 20 has it: keep-alive
 * probes on, unreferenced, the agent's idle timeout, shortened to a second below the upstream's
 * `Keep-Alive: timeout` hint (a hint of a second or less: not kept). The hint is read from the
 * answer's raw header lines: node's own reads the answer's header object, which builds it for
 * every forwarded request (the forwarder reads only the raw lines).
 */
function keepSocketAlive(this: HttpAgent & { keepAliveMsecs: number; options: { timeout?: number } }, socket: Persisted): boolean {
  socket.setKeepAlive(true, this.keepAliveMsecs)
  socket.unref()
  let timeout = this.options.timeout || 0
  let keep = true
  const raw = socket._httpMessage?.res?.rawHeaders
  const hint = raw === undefined ? -1 : keepAliveHint(raw)
  if (hint >= 0) {
    const ms = Math.max(0, hint * 1000 - 1000)
    if (ms === 0) keep = false
    else if (ms < timeout) timeout = ms
  }
  if (socket.timeout !== timeout) socket.setTimeout(timeout)
  return keep
}

class UpstreamAgent extends HttpAgent {}
class UpstreamHttpsAgent extends HttpsAgent {}
;(UpstreamAgent.prototype as unknown as { keepSocketAlive: typeof keepSocketAlive }).keepSocketAlive = keepSocketAlive
;(UpstreamHttpsAgent.prototype as unknown as { keepSocketAlive: typeof keepSocketAlive }).keepSocketAlive = keepSocketAlive

/** `fresh`: an agent that opens a new connection for every request (the forwarder's retry). */
export function createAgent(up: Upstream, fresh = false): HttpAgent {
  const common = fresh ? { keepAlive: false } : { keepAlive: true, maxSockets: up.maxSockets, maxFreeSockets: up.maxSockets, timeout: up.idleTimeoutMs }
  if (up.tls === null) return new UpstreamAgent(common)
  return new UpstreamHttpsAgent({ ...common, ...up.tls })
}

export interface Health {
  ok: boolean
  /** The probe's HTTP status, when it got one. */
  status?: number
  /** Why it failed, when it got no status. */
  error?: string
}

/** GET <base><healthPath> through `agent`; healthy on 2xx within `timeoutMs`. */
export function probeHealth(up: Upstream, agent: HttpAgent, timeoutMs: number): Promise<Health> {
  return new Promise((resolve) => {
    const url = new URL(up.base + up.healthPath, up.url.origin)
    const request = up.tls === null ? httpRequest : httpsRequest
    const req = request(url, { method: 'GET', agent, timeout: timeoutMs, headers: { 'user-agent': 'netinv-gateway health' } }, (res) => {
      res.resume()
      const status = res.statusCode ?? 0
      resolve({ ok: status >= 200 && status < 300, status })
    })
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)))
    req.on('error', (err: Error & { code?: string }) => resolve({ ok: false, error: err.code ?? err.message }))
    req.end()
  })
}

/** The largest answer `getJson` reads. */
const JSON_LIMIT = 1024 * 1024

/**
 * GET `path` (from the upstream's origin) through `agent`, its answer as JSON; null when it
 * fails, is no 2xx, is larger than JSON_LIMIT or no JSON, or is not whole within `timeoutMs`.
 */
export function getJson(up: Upstream, agent: HttpAgent, path: string, headers: OutgoingHttpHeaders, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve) => {
    const request = up.tls === null ? httpRequest : httpsRequest
    let timer: NodeJS.Timeout | undefined = undefined
    const done = (value: unknown) => {
      clearTimeout(timer)
      resolve(value)
    }
    const req = request(new URL(path, up.url.origin), { method: 'GET', agent, headers }, (res) => {
      const status = res.statusCode ?? 0
      if (status < 200 || status >= 300) {
        res.resume()
        return done(null)
      }
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > JSON_LIMIT) req.destroy()
        else chunks.push(chunk)
      })
      res.on('end', () => {
        try {
          done(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown)
        } catch {
          done(null)
        }
      })
      res.on('error', () => done(null))
      res.on('aborted', () => done(null))
    })
    timer = setTimeout(() => req.destroy(), timeoutMs)
    req.on('error', () => done(null))
    req.end()
  })
}
