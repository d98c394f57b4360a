/** Reading request bodies with a size limit and content-type check, into our error codes. */
import type { IncomingMessage } from 'node:http'
import { ApiError, invalidInput } from '../errors.js'
import { unstorableText } from './json-text.js'

/**
 * The chunks of a request's body, to read with `for await`. Leaving the loop before the end (a
 * refusal while the body still arrives) leaves the request alone: a request stream's own iterator
 * destroys it then, and with it the connection, so the answer never went out and the client (or
 * the gateway, which then answered 502) got a reset. The rest of the body is the lingering
 * close's to read (closeAfterBody).
 */
export function bodyChunks(req: IncomingMessage): AsyncIterable<Buffer> {
  return { [Symbol.asyncIterator]: () => req.iterator({ destroyOnReturn: false }) as AsyncIterator<Buffer> }
}

/** Reads the whole body as a Buffer, refusing more than `limit` bytes with 413. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) throw new ApiError('API_PAYLOAD_TOO_LARGE')
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of bodyChunks(req)) {
    size += chunk.length
    if (size > limit) throw new ApiError('API_PAYLOAD_TOO_LARGE')
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false
  const type = value.split(';')[0]!.trim().toLowerCase()
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}

/** Whether a content type's charset (if it names one) is UTF-8, the only one JSON bodies may use. */
function utf8Charset(type: string): boolean {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(type)?.[1]?.toLowerCase()
  return charset === undefined || charset === 'utf-8' || charset === 'utf8'
}

/** Whether the body comes as sent (no gzip or other coding: node undoes only chunked). */
function plainCoding(req: IncomingMessage): boolean {
  const content = req.headers['content-encoding']?.trim().toLowerCase()
  if (content !== undefined && content !== '' && content !== 'identity') return false
  const transfer = req.headers['transfer-encoding']
  return transfer === undefined || transfer.split(',').every((c) => c.trim().toLowerCase() === 'chunked')
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * Reads a JSON body. Empty body → undefined. A body with a content type other than JSON, a
 * charset other than UTF-8, or a content coding (gzip, ...) → 415; bytes that are not UTF-8, or malformed JSON → 400; a string or
 * key no stored text can hold (U+0000, an unpaired surrogate) → 422 naming each.
 */
export async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  if (!plainCoding(req)) {
    req.resume()
    throw new ApiError('API_UNSUPPORTED_MEDIA_TYPE', 'Request bodies are read as sent: no content or transfer coding other than chunked')
  }
  const buf = await readBody(req, limit)
  if (buf.length === 0) return undefined
  const type = req.headers['content-type']
  if (type !== undefined && (!isJsonContentType(type) || !utf8Charset(type))) throw new ApiError('API_UNSUPPORTED_MEDIA_TYPE')
  let text: string
  try {
    text = UTF8.decode(buf)
  } catch {
    throw new ApiError('API_MALFORMED_REQUEST', 'The request body is not valid UTF-8')
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new ApiError('API_MALFORMED_REQUEST', 'Malformed JSON in request body')
  }
  const issues = unstorableText(text, value)
  if (issues.length > 0) throw invalidInput(issues)
  return value
}

/** A JSON object body is required: anything else is 400/422. */
export async function readJsonObject(req: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  const body = await readJson(req, limit)
  if (body === undefined) return {}
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('API_INVALID_INPUT', 'Request body must be a JSON object', { errors: [{ message: '"value" must be of type object' }] })
  }
  return body as Record<string, unknown>
}
