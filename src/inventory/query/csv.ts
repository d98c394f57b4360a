/**
 * CSV export of a table query: streamed from a server-side cursor straight into the response, so a
 * large export never sits in memory. Headers are written with the first batch: an error before it
 * (bad regular expression, unknown snapshot) is still a normal JSON error response.
 *
 * A complete export ends with the trailer `X-Row-Count` (declared in `Trailer`): the rows it holds,
 * the header line not counted. An export cut after its headers (the database lost mid-cursor) is
 * never ended cleanly: its connection is destroyed (see sendError), so the chunked body lacks its
 * last chunk and the trailer, and every HTTP client sees a transport error rather than a short file.
 */
import type { ServerResponse } from 'node:http'
import type { Db } from '../../shared/db/index.js'
import { mapDbError } from './execute.js'
import type { SqlPlan } from './types.js'

/** The trailer that ends a complete export with its row count. */
export const ROW_COUNT_TRAILER = 'X-Row-Count'

/** Rows fetched from the cursor per round trip. */
export const CSV_BATCH_ROWS = 2000

/**
 * A text a spreadsheet would run as a formula when the export is opened (`=HYPERLINK(...)`,
 * `+cmd|...`, `-`, `@`, or a tab or carriage return before one). Device names, descriptions and
 * neighbour announcements come from the network, where anyone with a port can set them.
 */
const FORMULA = /^[=+\-@\t\r]/

/**
 * One CSV field (RFC 4180): arrays and objects as JSON text, null as an empty field, and a text
 * that would start a formula led by an apostrophe (OWASP's CSV injection advice), which a
 * spreadsheet shows as text and does not display. Numbers are written as they are.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return ''
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value)
  if (typeof value === 'string' && FORMULA.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`
}

export interface CsvOptions {
  /** Offered as the download name (`Content-Disposition: attachment`) when set. */
  filename?: string
}

function waitDrain(res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      res.off('close', onClose)
      resolve()
    }
    const onClose = () => {
      res.off('drain', onDrain)
      reject(new Error('client closed the connection'))
    }
    res.once('drain', onDrain)
    res.once('close', onClose)
  })
}

/** Streams the plan's rows as `text/csv`. */
export async function streamCsv(db: Db, plan: SqlPlan, res: ServerResponse, options: CsvOptions = {}): Promise<CsvWritten> {
  let started = false
  let count = 0
  let bytes = 0
  const start = () => {
    if (started) return
    started = true
    const headers: Record<string, string> = { 'content-type': 'text/csv; charset=utf-8', trailer: ROW_COUNT_TRAILER }
    if (options.filename) headers['content-disposition'] = `attachment; filename="${options.filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`
    res.writeHead(200, headers)
    const head = csvLine(plan.columnNames)
    bytes += Buffer.byteLength(head)
    res.write(head)
  }
  try {
    await db.stream<Record<string, unknown>>(plan.select.sql, plan.select.params, CSV_BATCH_ROWS, async (rows) => {
      if (res.destroyed) throw new Error('client closed the connection')
      start()
      let text = ''
      for (const row of rows) text += csvLine(plan.columnNames.map((_, i) => row[`c${i}`]))
      count += rows.length
      bytes += Buffer.byteLength(text)
      if (!res.write(text)) await waitDrain(res)
    }, plan.settings)
  } catch (err) {
    throw mapDbError(err)
  }
  start()
  res.addTrailers({ [ROW_COUNT_TRAILER]: String(count) })
  res.end()
  return { rows: count, bytes }
}

/** What an export wrote: rows and bytes of CSV text. */
export interface CsvWritten {
  rows: number
  bytes: number
}
