/** Reading a byte stream as UTF-8 lines, with limits on total size and line length. */
import { ApiError } from '../../shared/errors.js'

export const MAX_LINE_BYTES = 16 * 1024 * 1024

/** Yields the lines of a stream (without "\n"); 413 past `limit` bytes, 422 for a huge line. */
export async function* readLines(source: AsyncIterable<Buffer | string>, limit: number): AsyncGenerator<string> {
  let size = 0
  let pending: Buffer[] = []
  let pendingBytes = 0
  for await (const raw of source) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw
    size += chunk.length
    if (size > limit) throw new ApiError('API_PAYLOAD_TOO_LARGE', `Snapshot file larger than ${limit} bytes`)
    let start = 0
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl)
      const line = pendingBytes > 0 ? Buffer.concat([...pending, piece]).toString('utf8') : piece.toString('utf8')
      pending = []
      pendingBytes = 0
      start = nl + 1
      yield line
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start))
      pendingBytes += chunk.length - start
      if (pendingBytes > MAX_LINE_BYTES) throw new ApiError('API_INVALID_INPUT', `A line of the snapshot file is longer than ${MAX_LINE_BYTES} bytes`, { errors: [{ message: 'line too long' }] })
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending).toString('utf8')
}
