/**
 * The file of a `multipart/form-data` body, as a stream of its bytes, read as they arrive: the
 * first part that carries a file (a `filename` in its Content-Disposition, or the field named
 * `file`), as the Python SDK's `snapshot_upload` and browsers send it. The other parts are
 * skipped; nothing is held but a boundary's length of bytes. A body that is not well-formed
 * multipart is a 422 naming what is wrong.
 */
import { invalidInput } from '../errors.js'

/** The boundary of a `multipart/form-data` content type; undefined for any other type. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined
  const [type, ...params] = contentType.split(';')
  if (type!.trim().toLowerCase() !== 'multipart/form-data') return undefined
  for (const param of params) {
    const eq = param.indexOf('=')
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'boundary') continue
    const value = param.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1')
    // RFC 2046: 1 to 70 characters
    if (value.length >= 1 && value.length <= 70) return value
  }
  throw invalidInput([{ message: 'multipart/form-data needs a boundary of 1 to 70 characters' }])
}

/** Headers of a part end after this many bytes at most, or the body is refused. */
const MAX_PART_HEADERS = 8192

function malformed(what: string): Error {
  return invalidInput([{ message: `Malformed multipart/form-data body: ${what}` }])
}

/** Whether a part's headers say it is the uploaded file. */
function isFilePart(headers: string): boolean {
  const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? ''
  return /;\s*filename\*?=/i.test(disposition) || /;\s*name="?file"?(;|\s*$)/i.test(disposition)
}

/** The bytes of the body's file part (see the module comment). */
export async function* multipartFile(body: AsyncIterable<Buffer>, boundary: string): AsyncGenerator<Buffer> {
  const opening = Buffer.from(`--${boundary}`)
  const delimiter = Buffer.from(`\r\n--${boundary}`)
  const iterator = body[Symbol.asyncIterator]()
  let buffer: Buffer = Buffer.alloc(0)
  const more = async (): Promise<boolean> => {
    const next = await iterator.next()
    if (next.done) return false
    buffer = buffer.length === 0 ? next.value : Buffer.concat([buffer, next.value])
    return true
  }
  try {
    // the preamble, then the first boundary line
    let at = -1
    while ((at = buffer.indexOf(opening)) < 0) {
      if (buffer.length > MAX_PART_HEADERS) throw malformed('no opening boundary')
      if (!(await more())) throw malformed('no opening boundary')
    }
    buffer = buffer.subarray(at + opening.length)
    for (;;) {
      // after a boundary: "--" ends the body, CRLF starts a part
      while (buffer.length < 2) if (!(await more())) throw malformed('the body ends inside a boundary line')
      if (buffer[0] === 0x2d && buffer[1] === 0x2d) throw malformed('no file part (send the file as the form field "file")')
      let end = -1
      while ((end = buffer.indexOf('\r\n\r\n')) < 0) {
        if (buffer.length > MAX_PART_HEADERS) throw malformed('part headers too long')
        if (!(await more())) throw malformed('the body ends inside the headers of a part')
      }
      const headers = buffer.subarray(0, end).toString('latin1')
      buffer = buffer.subarray(end + 4)
      const wanted = isFilePart(headers)
      // the part's content runs to the next delimiter; keep back what could be its start
      for (;;) {
        const found = buffer.indexOf(delimiter)
        if (found >= 0) {
          if (wanted && found > 0) yield buffer.subarray(0, found)
          buffer = buffer.subarray(found + delimiter.length)
          if (wanted) return
          break
        }
        const keep = Math.min(buffer.length, delimiter.length - 1)
        if (wanted && buffer.length > keep) yield buffer.subarray(0, buffer.length - keep)
        buffer = buffer.subarray(buffer.length - keep)
        if (!(await more())) throw malformed('the body ends inside a part (no closing boundary)')
      }
    }
  } finally {
    // the rest of the body is the caller's (its lingering close reads it): never destroyed here
    await iterator.return?.()
  }
}
