/**
 * An OTLP/HTTP (JSON) receiver for the trace tests: every span posted to /v1/traces, decoded,
 * with the `service.name` of the process that sent it.
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedSpan {
  service: string
  traceId: string
  spanId: string
  parentSpanId: string
  name: string
  kind: number
  attributes: Record<string, unknown>
}

/** An OTLP id as hex, whether the exporter wrote hex (OTLP/JSON) or base64. */
function hexId(id: unknown): string {
  if (typeof id !== 'string' || id === '') return ''
  return /^[0-9a-f]+$/.test(id) && (id.length === 32 || id.length === 16) ? id : Buffer.from(id, 'base64').toString('hex')
}

/** OTLP attribute values ({stringValue}, {intValue}, ...) as plain values. */
function plain(attrs: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const a of (attrs ?? []) as { key: string; value: Record<string, unknown> }[]) {
    const v = a.value
    out[a.key] = v.stringValue ?? (v.intValue === undefined ? (v.boolValue ?? v.doubleValue) : Number(v.intValue))
  }
  return out
}

interface ResourceSpans {
  resource?: { attributes?: unknown }
  scopeSpans?: { spans?: Record<string, unknown>[] }[]
}

export interface Receiver {
  url: string
  spans: ReceivedSpan[]
  /** "<method> <url> <content-type>" of each post. */
  posts: string[]
}

export async function receiver(t: { teardown(fn: () => Promise<void>): void }): Promise<Receiver> {
  const spans: ReceivedSpan[] = []
  const posts: string[] = []
  const server = createServer((req: IncomingMessage, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (c: string) => (body += c))
    req.on('end', () => {
      posts.push(`${req.method} ${req.url} ${req.headers['content-type']}`)
      const doc = JSON.parse(body) as { resourceSpans?: ResourceSpans[] }
      for (const rs of doc.resourceSpans ?? []) {
        const service = String(plain(rs.resource?.attributes)['service.name'] ?? '')
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? []) {
            spans.push({ service, traceId: hexId(s.traceId), spanId: hexId(s.spanId), parentSpanId: hexId(s.parentSpanId), name: String(s.name), kind: Number(s.kind), attributes: plain(s.attributes) })
          }
      }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{}')
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  t.teardown(() => new Promise<void>((r) => server.close(() => r())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, posts }
}

/** Waits (up to 30 s) until `done` holds for the spans received. */
export async function until(spans: ReceivedSpan[], done: (s: ReceivedSpan[]) => boolean): Promise<void> {
  for (const giveUp = Date.now() + 30_000; Date.now() < giveUp && !done(spans); ) await new Promise((r) => setTimeout(r, 100))
}
