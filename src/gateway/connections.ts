/**
 * The public listener's guard at the connection level, around the pipeline:
 * - a request's header section must arrive within `server.headersTimeoutMs` (then 408);
 * - a client silent for `server.clientTimeoutMs` in the middle of its request body gets 408, one
 *   that takes nothing of its response for as long is cut (the forwarder then releases the
 *   upstream request), and a connection silent before its request is closed; a wait on the
 *   upstream or on a handler is not the client's doing and is not cut here (the forwarder has
 *   its own deadlines);
 * - what node's HTTP parser refuses (broken framing, oversized headers, the header timeout) is
 *   answered with our JSON body, where node would answer with an empty one;
 * - CONNECT, and an Expect other than 100-continue, are refused with our JSON body.
 * Draining is not done here: src/shared/http/drain.ts.
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { Logger } from 'pino'
import type { Config } from '../shared/config/index.js'
import { ERRORS, type ErrorCode } from '../shared/errors.js'
import { PRODUCT_VERSION } from '../shared/product.js'
import type { ClientErrorKind, GatewayMetrics } from './metrics.js'

export interface ConnectionGuardOptions {
  config(): Readonly<Config>
  metrics: GatewayMetrics
  log: Logger
  /**
   * Answers 408 to the request of `res` the way the pipeline answers errors (its headers, access
   * line, connection closed after); false when `res` belongs to no API request.
   */
  answerTimeout(res: ServerResponse): boolean
}

/**
 * The response node writes on a socket now: node's own record, which its default clientError
 * handling reads too (`_httpMessage`, set while a response is in flight on the socket).
 */
function currentResponse(socket: Duplex): ServerResponse | undefined {
  return (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined
}

/** Whether the client may still write to this socket without corrupting a response it reads. */
function mayAnswer(socket: Duplex): boolean {
  const res = currentResponse(socket)
  return socket.writable && (res === undefined || !res.headersSent)
}

/**
 * The spec's version headers of an answer given before any routing: no endpoint, so no versions
 * (empty, as for an unknown endpoint: see completeVersionHeaders), and the product's version.
 */
const VERSION_HEADERS = `x-api-versions-supported: \r\nx-api-version-used: \r\nx-product-version: ${PRODUCT_VERSION}\r\n`

/** Writes a whole error response in our body shape straight to the socket, then closes it. */
function refuse(socket: Duplex, code: ErrorCode): void {
  const { status, message } = ERRORS[code]
  const body = JSON.stringify({ code, message })
  socket.write(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${VERSION_HEADERS}content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  )
  socket.destroy()
}

/** Node's parser and timeout errors: what to answer, and how to count it. */
function clientErrorAnswer(code: string | undefined): { code: ErrorCode; kind: ClientErrorKind } | null {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { code: 'API_REQUEST_TIMEOUT', kind: 'headers_timeout' }
  if (code === 'HPE_HEADER_OVERFLOW') return { code: 'API_HEADERS_TOO_LARGE', kind: 'headers_too_large' }
  if (code?.startsWith('HPE_')) return { code: 'API_MALFORMED_REQUEST', kind: 'malformed' }
  // A reset or a broken pipe: the client is gone, nothing to answer.
  return null
}

/** The request's body is unfinished and the gateway would take more of it: it waits on the client. */
function waitsForBody(req: IncomingMessage): boolean {
  return !req.complete && req.readableLength < req.readableHighWaterMark
}

export function guardConnections(server: Server, options: ConnectionGuardOptions): void {
  const { metrics, log } = options
  const { headersTimeoutMs, clientTimeoutMs } = options.config().server
  server.headersTimeout = headersTimeoutMs
  // Node arms every new connection with this inactivity timeout; 'timeout' below decides.
  server.timeout = clientTimeoutMs
  server.on('timeout', (socket: Socket) => {
    const res = currentResponse(socket)
    // Silent before a request (a first one, or after a kept-alive one): close.
    if (res === undefined) {
      socket.destroy()
      return
    }
    if (waitsForBody(res.req)) {
      metrics.clientError('body_timeout')
      if (res.headersSent || !options.answerTimeout(res)) socket.destroy()
      return
    }
    if (res.headersSent && res.writableNeedDrain) {
      metrics.clientError('stopped_reading')
      log.info({ path: res.req.url, timeoutMs: clientTimeoutMs }, 'the client took nothing of its response for the client timeout: connection closed')
      socket.destroy()
      return
    }
    // Waiting on the upstream or a handler: look again after another period.
    socket.setTimeout(clientTimeoutMs)
  })

  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => {
    const answer = clientErrorAnswer(err.code)
    if (answer === null || !mayAnswer(socket)) {
      socket.destroy()
      return
    }
    metrics.clientError(answer.kind)
    log.debug({ code: err.code }, 'refused at the HTTP level')
    refuse(socket, answer.code)
  })

  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    metrics.clientError('unsupported')
    refuse(socket, 'API_METHOD_NOT_ALLOWED')
  })

  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    metrics.clientError('unsupported')
    refuse(res.socket!, 'API_EXPECTATION_FAILED')
  })
}
