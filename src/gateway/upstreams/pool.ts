/**
 * The connections to one upstream: a keep-alive agent (HTTPS with the upstream's certificate
 * authorities, client certificate and server name), and its health probe over the same agent, so
 * that the probe sees what forwarded requests see (a refused certificate fails both).
 *
 * An unused connection closes after the upstream's `idleTimeoutMs` (node's agent destroys a free
 * socket at its timeout; a socket in use only reports it, and the forwarder's own deadlines bound
 * that): below the upstream server's keep-alive timeout, the gateway closes first, and no request
 * goes out on a connection the upstream is closing at that moment.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { Upstream } from './settings.js'

/** `fresh`: an agent that opens a new connection for every request (the forwarder's retry). */
export function createAgent(up: Upstream, fresh = false): HttpAgent {
  const common = fresh ? { keepAlive: false } : { keepAlive: true, maxSockets: up.maxSockets, maxFreeSockets: up.maxSockets, timeout: up.idleTimeoutMs }
  if (up.tls === null) return new HttpAgent(common)
  return new HttpsAgent({ ...common, ...up.tls })
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
