/**
 * Encoding rows as CSV text for `COPY ... WITH (FORMAT csv)`, by catalog column type. NULL is
 * an unquoted empty field; every other value that could be misread is quoted.
 */
import { Pace } from '../../shared/pace.js'
import type { ColumnType } from '../catalog/index.js'

const NEEDS_QUOTES = /[",\n\r\\]/

function quote(text: string): string {
  return text.length === 0 || NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

function arrayLiteral(values: readonly unknown[], column: string): string {
  const items = values.map((v) => {
    if (v === null || v === undefined) return 'NULL'
    if (typeof v !== 'string' && typeof v !== 'number') throw new TypeError(`${column}: array elements must be strings or numbers`)
    return `"${String(v).replace(/[\\"]/g, (c) => `\\${c}`)}"`
  })
  return `{${items.join(',')}}`
}

/** One value as a CSV field; throws TypeError naming the column when it does not fit the type. */
export function csvField(value: unknown, type: ColumnType, column: string): string {
  if (value === null || value === undefined) return ''
  switch (type) {
    case 'string':
    case 'ip':
    case 'network':
    case 'mac':
      if (typeof value !== 'string') throw new TypeError(`${column}: expected a string`)
      return quote(value)
    case 'integer':
    case 'timestamp':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new TypeError(`${column}: expected an integer`)
      return String(value)
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`${column}: expected a number`)
      return String(value)
    case 'boolean':
      if (typeof value !== 'boolean') throw new TypeError(`${column}: expected a boolean`)
      return value ? 't' : 'f'
    case 'stringArray':
    case 'integerArray':
    case 'ipArray':
      if (!Array.isArray(value)) throw new TypeError(`${column}: expected an array`)
      return quote(arrayLiteral(value, column))
    case 'json':
      return quote(JSON.stringify(value))
  }
}

export interface CsvColumn {
  name: string
  type: ColumnType
}

/**
 * Slices of CSV text of about `chunkBytes`, made of whole lines; `prefix` fields lead each line.
 * The rows are encoded (and a generated source produces them) in turns of the event loop
 * (shared/pace.ts): a COPY whose socket never pushes back would otherwise hold the loop for the
 * whole table.
 */
export async function* csvChunks(
  rows: AsyncIterable<readonly unknown[]> | Iterable<readonly unknown[]>,
  columns: readonly CsvColumn[],
  prefix: string,
  chunkBytes = 256 * 1024,
): AsyncGenerator<string> {
  let buf = ''
  const pace = new Pace()
  for await (const values of rows) {
    if (values.length !== columns.length) throw new TypeError(`expected ${columns.length} values per row, got ${values.length}`)
    let line = prefix
    for (let i = 0; i < columns.length; i++) {
      const c = columns[i]!
      line += `,${csvField(values[i], c.type, c.name)}`
    }
    buf += `${line}\n`
    if (buf.length >= chunkBytes) {
      yield buf
      buf = ''
    }
    if (pace.due) await pace.turn()
  }
  if (buf.length > 0) yield buf
}
