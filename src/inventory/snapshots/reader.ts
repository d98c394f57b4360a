/**
 * Parsing a "netinv-snapshot" file while it streams in: the header, then each table section as
 * a stream of rows in storage column order (fed straight to COPY), then the closing line.
 * Anything malformed is a 422 naming the line.
 */
import type { Static } from '@sinclair/typebox'
import { invalidInput } from '../../shared/errors.js'
import { unstorableText } from '../../shared/http/index.js'
import { findTable, isComputed, storageColumns, type StoredTableDef } from '../catalog/index.js'
import type { TableRows } from '../storage/index.js'
import { bodyValidator } from '../../shared/schema/index.js'
import { SnapshotFileHeader } from './fields.js'
import { FORMAT_NAME, FORMAT_VERSION, type SnapshotHeader } from './format.js'

type Json = Record<string, unknown>

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const headerFields = bodyValidator(SnapshotFileHeader, { all: true })

/** The longest text a row's value may be, or hold in its list (docs/snapshot-format.md, "Limits"). */
export const ROW_TEXT_CHARS = 64 * 1024
const tooLong = (v: unknown): boolean => typeof v === 'string' && v.length > ROW_TEXT_CHARS

export class SnapshotFileReader {
  /** Number of the last line read (1-based). */
  line = 0
  finished = false
  private readonly it: AsyncIterator<string>
  private readonly seen = new Set<string>()

  constructor(lines: AsyncIterable<string>) {
    this.it = lines[Symbol.asyncIterator]()
  }

  fail(message: string): never {
    throw invalidInput(`line ${this.line}: ${message}`)
  }

  private async next(): Promise<unknown> {
    const r = await this.it.next()
    if (r.done) this.fail('unexpected end of file (the file is truncated)')
    this.line++
    let value: unknown
    try {
      value = JSON.parse(r.value)
    } catch {
      return this.fail('not valid JSON')
    }
    // text no stored string can hold would fail the copy, or be kept as U+FFFD
    const unstorable = unstorableText(r.value, value)[0]
    if (unstorable) this.fail(unstorable.message)
    return value
  }

  async header(): Promise<SnapshotHeader> {
    const h = await this.next()
    if (!isObject(h) || h.format !== FORMAT_NAME) this.fail(`not a ${FORMAT_NAME} file`)
    if (h.version !== FORMAT_VERSION) this.fail(`unsupported format version ${JSON.stringify(h.version)}; this release reads version ${FORMAT_VERSION}`)
    // the fields a user sets are held to the API's own limits, the others to the documented ones
    const problems = headerFields.problems(h)
    if (problems.length > 0) {
      const named = problems.map((p) => ({ ...p, message: `line ${this.line}: ${p.message}` }))
      throw invalidInput(named)
    }
    return (h as Static<typeof SnapshotFileHeader>).snapshot as SnapshotHeader
  }

  /** The table sections, in file order; ends at the closing line. */
  async *tables(): AsyncGenerator<TableRows> {
    for (;;) {
      const obj = await this.next()
      if (isObject(obj) && obj.eof === true) {
        if (obj.tables !== this.seen.size) this.fail(`the file announces ${JSON.stringify(obj.tables)} tables but holds ${this.seen.size}`)
        this.finished = true
        return
      }
      if (!isObject(obj) || typeof obj.table !== 'string') this.fail('expected a table section line {"table", "columns"} or the closing line')
      const table = findTable(obj.table)
      if (!table || table.source.kind !== 'stored' || table.path !== obj.table) this.fail(`unknown table ${JSON.stringify(obj.table).slice(0, 80)}`)
      if (isComputed(table as StoredTableDef)) this.fail(`table ${table.path} is computed from the other tables on import; leave it out`)
      if (this.seen.has(table.path)) this.fail(`table ${table.path} appears twice`)
      this.seen.add(table.path)
      yield { table: table as StoredTableDef, rows: this.rows(table as StoredTableDef, obj.columns) }
    }
  }

  private async *rows(table: StoredTableDef, columns: unknown): AsyncGenerator<unknown[]> {
    const storage = storageColumns(table).map((c) => c.name)
    if (!Array.isArray(columns) || !columns.every((c) => typeof c === 'string')) this.fail('"columns" must be an array of column names')
    const names = columns as string[]
    const unknown = names.filter((c) => !storage.includes(c))
    if (unknown.length > 0) this.fail(`unknown columns of ${table.path}: ${unknown.slice(0, 5).join(', ')}`)
    if (new Set(names).size !== names.length) this.fail(`repeated columns in ${table.path}`)
    if (!names.includes('id')) this.fail(`table ${table.path} needs its "id" column`)
    const at = storage.map((c) => names.indexOf(c))
    const types = names.map((c) => storageColumns(table).find((s) => s.name === c)!.type)
    let n = 0
    for (;;) {
      const row = await this.next()
      if (Array.isArray(row)) {
        if (row.length !== names.length) this.fail(`expected ${names.length} values, got ${row.length}`)
        const long = row.findIndex((v, i) => tooLong(v) || (types[i] !== 'json' && Array.isArray(v) && v.some(tooLong)))
        if (long >= 0) this.fail(`"[${long}]" (${names[long]}) holds a text longer than ${ROW_TEXT_CHARS} characters`)
        n++
        yield at.map((i) => (i < 0 ? null : row[i]))
        continue
      }
      if (isObject(row) && row.end === table.path) {
        if (row.rows !== n) this.fail(`section ${table.path} announces ${JSON.stringify(row.rows)} rows but holds ${n}`)
        return
      }
      this.fail(`expected a row of ${table.path} (a JSON array) or its end line`)
    }
  }

  /** After the closing line only blank lines may follow. */
  async rest(): Promise<void> {
    for (let r = await this.it.next(); !r.done; r = await this.it.next()) {
      this.line++
      if (r.value.trim() !== '') this.fail('content after the closing line')
    }
  }
}
