/** Writing responses: JSON bodies and the one error body shape. */
import type { ServerResponse } from 'node:http'
import type { Logger } from 'pino'
import { toErrorResponse } from '../errors.js'

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy()
    return
  }
  const text = JSON.stringify(body)
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  })
  res.end(text)
}

export function sendEmpty(res: ServerResponse, status = 204, headers: Record<string, string> = {}): void {
  res.writeHead(status, headers)
  res.end()
}

/**
 * Sends any thrown value as an error response. 5xx are logged at error with the original,
 * 4xx at debug; the body of a 5xx never says anything internal.
 */
export function sendError(res: ServerResponse, err: unknown, log: Logger): void {
  const { status, body, headers } = toErrorResponse(err)
  if (status >= 500) log.error({ err }, 'request failed')
  else log.debug({ code: body.code }, 'request rejected')
  if (res.headersSent) {
    res.destroy()
    return
  }
  sendJson(res, status, body, headers)
}
