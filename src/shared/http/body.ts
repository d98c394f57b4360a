/** Reading request bodies with a size limit and content-type check, into our error codes. */
import type { IncomingMessage } from 'node:http'
import { ApiError } from '../errors.js'

/** Reads the whole body as a Buffer, refusing more than `limit` bytes with 413. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) throw new ApiError('API_PAYLOAD_TOO_LARGE')
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) {
      req.resume()
      throw new ApiError('API_PAYLOAD_TOO_LARGE')
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false
  const type = value.split(';')[0]!.trim().toLowerCase()
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}

/**
 * Reads a JSON body. Empty body → undefined. A body with a content type other than JSON → 415;
 * malformed JSON → 400.
 */
export async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const buf = await readBody(req, limit)
  if (buf.length === 0) return undefined
  const type = req.headers['content-type']
  if (type !== undefined && !isJsonContentType(type)) throw new ApiError('API_UNSUPPORTED_MEDIA_TYPE')
  try {
    return JSON.parse(buf.toString('utf8'))
  } catch {
    throw new ApiError('API_MALFORMED_REQUEST', 'Malformed JSON in request body')
  }
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
