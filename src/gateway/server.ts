/**
 * Runs the gateway: the public listener and the admin listener (/metrics), kept apart from the
 * app. close() drains (src/shared/http/drain.ts): stop accepting, answer every request received,
 * let in-flight requests finish (up to the grace period), then close what is left.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { listening } from './listening.js'
import { drainable } from '../shared/http/drain.js'
import { createGateway, type Gateway, type GatewayDeps } from './app.js'
import { guardConnections } from './connections.js'

export interface StartGatewayOptions extends GatewayDeps {
  port: number
  host?: string
  /** Admin listener port (0 picks one); the admin listener binds `adminHost` (default loopback). */
  adminPort: number
  adminHost?: string
}

export interface RunningGateway {
  gateway: Gateway
  server: Server
  admin: Server
  url: string
  adminUrl: string
  /** Drains and closes both listeners; in-flight requests get `graceMs` (default: config). */
  close(graceMs?: number): Promise<void>
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

function urlOf(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`
}

export async function startGateway(options: StartGatewayOptions): Promise<RunningGateway> {
  const gateway = createGateway(options)
  // What the upstreams publish (which tables exist, the document) is read before the first
  // request is answered; an upstream that is away does not hold the start (its `*` paths are 503
  // until it is read: upstreams/documents.ts).
  await gateway.documentsRead()
  const host = options.host ?? '0.0.0.0'
  const adminHost = options.adminHost ?? '127.0.0.1'
  const { headersTimeoutMs } = options.config.server
  // requestTimeout 0: an upload may take long; a silent client is cut by the connection guard.
  // Node checks the header timeout every connectionsCheckingInterval.
  const server = createServer(
    // requireHostHeader false: the route stage refuses a Host-less HTTP/1.1 request in our body.
    {
      keepAliveTimeout: 65000,
      requestTimeout: 0,
      headersTimeout: headersTimeoutMs,
      connectionsCheckingInterval: Math.min(30000, Math.max(1000, headersTimeoutMs / 4)),
      requireHostHeader: false,
    },
    gateway.handle,
  )
  guardConnections(server, { config: gateway.config, metrics: gateway.metrics, log: options.log, answerTimeout: gateway.answerTimeout })
  const admin = createServer(gateway.handleAdmin)
  const publicDrain = drainable(server)
  const adminDrain = drainable(admin)
  const port = await listen(server, options.port, host)
  const adminPort = await listen(admin, options.adminPort, adminHost)
  const url = urlOf(host, port)
  const adminUrl = urlOf(adminHost, adminPort)
  const where = listening(host, port)
  options.log.info({ bind: where.bind, url: where.url, urls: where.urls, adminUrl }, 'gateway listening')
  let closing: Promise<void> | null = null
  return {
    gateway,
    server,
    admin,
    url,
    adminUrl,
    close(graceMs) {
      closing ??= (async () => {
        gateway.startDrain()
        await publicDrain.drain(graceMs ?? gateway.config().server.shutdownGraceMs)
        await adminDrain.drain(0)
        await gateway.close()
      })()
      return closing
    },
  }
}
