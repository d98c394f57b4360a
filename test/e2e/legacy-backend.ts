/**
 * A legacy backend of the inventory family, as users put behind the gateway: it answers ONLY
 * under `/api/v6.0/` and `/api/v1/`, knows nothing of header versions, scopes or limits, and
 * admits a caller by a check of its own (a static X-API-Token, or a token it verifies with the
 * gateway's JWKS). It records what it received, announces its own deprecation on one endpoint,
 * sets a session cookie and echoes the token it accepted (what careless backends do: the
 * gateway must keep both from clients in `credential` mode).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

interface Teardown {
  teardown(fn: () => unknown): void
}

export const DEVICES = [
  { id: 'd1', hostname: 'core-1' },
  { id: 'd2', hostname: 'edge-1' },
]
export const SITES = [{ id: 's1', name: 'HQ' }]
/** The backend's own sunset of devices/:id (earlier than the gateway's test sunset of 2099). */
export const OWN_SUNSET = 'Thu, 01 Jan 2098 00:00:00 GMT'

export interface Seen {
  method: string
  url: string
  headers: IncomingHttpHeaders
}

/** Admits a request (true) or not (the backend answers 401 in its own body). */
export type Admit = (req: IncomingMessage) => boolean | Promise<boolean>

export interface LegacyBackend {
  url: string
  seen: Seen[]
  /** Closes the listener and every connection: the backend is down. */
  stop(): Promise<void>
}

const PREFIXES = ['/api/v6.0/', '/api/v1/']

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const c of req as AsyncIterable<Buffer>) chunks.push(c)
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined
}

async function answer(req: IncomingMessage, res: ServerResponse, admit: Admit, echo: string | undefined): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://legacy')
  const prefix = PREFIXES.find((p) => url.pathname.startsWith(p))
  if (!prefix) return json(res, 404, { message: 'unknown API version' })
  const endpoint = url.pathname.slice(prefix.length)
  if (endpoint === 'health') return json(res, 200, { status: 'ok' })
  if (!(await admit(req))) return json(res, 401, { message: 'bad token' }, { 'www-authenticate': 'Token realm="legacy"' })
  // What a careless backend sends back: a session for whoever called, the token it accepted.
  const careless: Record<string, string> = { 'set-cookie': 'legacy-session=abc123; Path=/', ...(echo ? { 'x-api-token': echo } : {}) }
  if (endpoint === 'devices' && req.method === 'GET') return json(res, 200, DEVICES, careless)
  if (endpoint === 'devices' && req.method === 'POST') return json(res, 201, { created: await body(req) }, careless)
  const device = /^devices\/([^/]+)$/.exec(endpoint)
  if (device && req.method === 'GET') {
    const found = DEVICES.find((d) => d.id === device[1])
    if (!found) return json(res, 404, { message: `no device ${device[1]}` })
    return json(res, 200, found, { ...careless, deprecation: '@4070908800', sunset: found.id === 'd1' ? OWN_SUNSET : 'Fri, 01 Jan 2100 00:00:00 GMT' })
  }
  if (endpoint === 'sites') return json(res, 200, SITES, careless)
  if (endpoint === 'ping') return json(res, 200, { pong: true }, careless)
  if (endpoint === 'slow') {
    // Longer than the gateway's timeout for this backend (1 s in the tests).
    const timer = setTimeout(() => json(res, 200, { late: true }), 3000)
    res.on('close', () => clearTimeout(timer))
    return
  }
  return json(res, 404, { message: 'no such thing' })
}

/** Starts the backend on port 0; `echo` is the token it echoes back (its service key, say). */
export async function startLegacyBackend(t: Teardown, admit: Admit, echo?: string): Promise<LegacyBackend> {
  const seen: Seen[] = []
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers })
    answer(req, res, admit, echo).catch((err: unknown) => json(res, 500, { message: String(err) }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  let stopped: Promise<void> | undefined
  const stop = () =>
    (stopped ??= new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    }))
  t.teardown(stop)
  return { url, seen, stop }
}
