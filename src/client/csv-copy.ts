/**
 * Copies a CSV export to the output and holds it to its row count: a complete export ends with
 * the trailer `X-Row-Count` (declared in `Trailer`), and a copy that got fewer rows, or an
 * export cut before its end (a transport error, or no trailer where one was declared), fails
 * instead of leaving a short file that looks whole.
 */
import type { IncomingMessage } from 'node:http'
import { Transform, type TransformCallback } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { ClientError } from './api.js'

export const ROW_COUNT_TRAILER = 'x-row-count'

const QUOTE = 0x22
const NEWLINE = 0x0a

/** Counts the records of RFC 4180 text as it passes (a line break inside quotes is no record end). */
export class CsvRecordCounter extends Transform {
  records = 0
  private quoted = false

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    for (const byte of chunk) {
      if (byte === QUOTE) this.quoted = !this.quoted
      else if (byte === NEWLINE && !this.quoted) this.records++
    }
    cb(null, chunk)
  }
}

function declaresRowCount(res: IncomingMessage): boolean {
  const declared = res.headers.trailer
  return declared !== undefined && declared.split(',').some((name) => name.trim().toLowerCase() === ROW_COUNT_TRAILER)
}

/** Streams `res` into `out` (left open); resolves with the rows copied once their count is checked. */
export async function copyCsv(res: IncomingMessage, out: NodeJS.WritableStream): Promise<number> {
  const counter = new CsvRecordCounter()
  try {
    await pipeline(res, counter, out, { end: false })
  } catch (err) {
    const rows = Math.max(0, counter.records - 1)
    throw new ClientError(`the export was cut after ${rows} rows (${(err as Error & { code?: string }).code ?? (err as Error).message}): the output is incomplete`)
  }
  const rows = Math.max(0, counter.records - 1)
  if (!declaresRowCount(res)) return rows
  const said = res.trailers[ROW_COUNT_TRAILER]
  if (said === undefined) throw new ClientError(`the export ended without its row count after ${rows} rows: the output may be incomplete`)
  if (Number(said) !== rows) throw new ClientError(`the export holds ${rows} rows of the ${said} the server sent: the output is incomplete`)
  return rows
}
