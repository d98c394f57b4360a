/**
 * Reading a byte stream as UTF-8 lines of JSON, with limits checked on the bytes as they arrive,
 * before a line is decoded or parsed: the total size, each line's length (the first line, the
 * header, has a smaller bound than the rows) and how deep a line nests arrays and objects.
 */
import { ApiError, invalidInput } from '../../shared/errors.js'
import { JsonNesting } from '../../shared/json-nesting.js'

/** The bounds of a snapshot file's lines (docs/snapshot-format.md, "Limits"). */
export const LINE_LIMITS = {
  /** The header line: the snapshot's metadata (its sites and settings are its larger part). */
  headerBytes: 1024 * 1024,
  /** Any other line (a row, with its json values). */
  lineBytes: 16 * 1024 * 1024,
  /** Arrays and objects inside one another on one line (a row is one; a network discovery's header needs 5: its site rules). */
  depth: 8,
} as const

export type LineLimits = { readonly [K in keyof typeof LINE_LIMITS]: number }

const tooLong = (line: number, max: number) => new ApiError('API_INVALID_INPUT', `line ${line}: longer than ${max} bytes`, { errors: [{ message: 'line too long' }] })
const tooDeep = (line: number, max: number) => invalidInput(`line ${line}: arrays and objects nested deeper than ${max} levels`)

/** Yields the lines of a stream (without "\n"); 413 past `limit` bytes, 422 for a line beyond `lines`. */
export async function* readLines(source: AsyncIterable<Buffer | string>, limit: number, lines: LineLimits = LINE_LIMITS): AsyncGenerator<string> {
  const nesting = new JsonNesting(lines.depth)
  let size = 0
  let pending: Buffer[] = []
  let pendingBytes = 0
  let line = 1
  const maxBytes = () => (line === 1 ? lines.headerBytes : lines.lineBytes)
  for await (const raw of source) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw
    size += chunk.length
    if (size > limit) throw new ApiError('API_PAYLOAD_TOO_LARGE', `Snapshot file larger than ${limit} bytes`)
    let start = 0
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      if (pendingBytes + nl - start > maxBytes()) throw tooLong(line, maxBytes())
      if (!nesting.feed(chunk, start, nl)) throw tooDeep(line, lines.depth)
      const piece = chunk.subarray(start, nl)
      const text = pendingBytes > 0 ? Buffer.concat([...pending, piece]).toString('utf8') : piece.toString('utf8')
      pending = []
      pendingBytes = 0
      start = nl + 1
      nesting.reset()
      line++
      yield text
    }
    if (start < chunk.length) {
      pendingBytes += chunk.length - start
      if (pendingBytes > maxBytes()) throw tooLong(line, maxBytes())
      if (!nesting.feed(chunk, start)) throw tooDeep(line, lines.depth)
      pending.push(chunk.subarray(start))
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending).toString('utf8')
}
