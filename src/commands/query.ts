/**
 * `netinv query <table> [--columns a,b] [--filter col:op:value] [--sort col:desc] [--snapshot id]
 * [--limit n] [--start n] [--csv | --json]`: a table request (`POST tables/<path>`), every
 * matching row by pages of 1000 unless --limit; CSV streamed as the server writes it, and held to
 * the row count its trailer gives (a short export fails).
 * `netinv query --tables` lists the tables.
 */
import { once } from 'node:events'
import type { ApiClient } from '../client/api.js'
import { copyCsv } from '../client/csv-copy.js'
import { TextTable } from '../client/output.js'
import { combineFilters, fetchTables, pageThrough, parseFilter, parseSort, resolveTable, type Filter, type Row, type TableInfo } from '../client/tables.js'
import { flag, integerOption, listOption, stringOption, UsageError, type Command, type OptionSpec, type Parsed } from './args.js'
import { clientCommand } from './client-command.js'
import type { OutputStream } from './io.js'

/** The options of a table request, shared with `netinv diff --table`. */
export const TABLE_OPTIONS: Record<string, OptionSpec> = {
  columns: { type: 'string', value: 'a,b', multiple: true, description: 'columns to return (default: every column of the table)' },
  filter: {
    type: 'string',
    value: 'filter',
    multiple: true,
    description: 'column:operator:value (e.g. vendor:eq:cisco, mtu:gt:1500, hostname:like:core) or a JSON filter object; several are ANDed',
  },
  sort: { type: 'string', value: 'column', description: 'sort by column (column:desc or -column for descending)' },
  limit: { type: 'string', value: 'n', description: 'at most n rows (default: every matching row, fetched by pages)' },
  start: { type: 'string', value: 'n', description: 'skip the first n rows' },
  'page-size': { type: 'string', value: 'n', description: 'rows per request when paging (default 1000)' },
  csv: { type: 'boolean', description: 'CSV as the server exports it (exit 1 when the export ends short of its row count)' },
  json: { type: 'boolean', description: 'one JSON object per row' },
}

export type OutputFormat = 'text' | 'csv' | 'json'

export function outputFormat(p: Parsed): OutputFormat {
  if (flag(p, 'csv') && flag(p, 'json')) throw new UsageError('--csv and --json exclude each other')
  return flag(p, 'csv') ? 'csv' : flag(p, 'json') ? 'json' : 'text'
}

/** columns, filters and sort of a table request from the options. */
export function requestOf(p: Parsed, table: TableInfo, extraFilters: readonly Filter[] = []): { columns: string[]; body: Record<string, unknown> } {
  const columns = listOption(p, 'columns', true)
  const chosen = columns.length > 0 ? columns : table.columns.map((c) => c.name)
  const filters = combineFilters([...listOption(p, 'filter').map((f) => parseFilter(f, table.columns)), ...extraFilters])
  const sort = stringOption(p, 'sort')
  return { columns: chosen, body: { columns: chosen, ...(filters ? { filters } : {}), ...(sort !== undefined ? { sort: parseSort(sort) } : {}) } }
}

export interface RowPrinter {
  /** Columns of the text table (default: the requested ones); JSON rows are printed as they come. */
  columns?: string[]
  cell?: (row: Row, column: string) => string
}

/** Where printTable writes: the rows on stdout, the count on a terminal's stderr. */
export interface TableOutput {
  stdout: OutputStream
  stderr: OutputStream
}

/** Runs the request in the chosen format on stdout. */
export async function printTable(client: ApiClient, path: string, body: Record<string, unknown>, p: Parsed, out: TableOutput, printer: RowPrinter = {}): Promise<void> {
  const { stdout, stderr } = out
  const format = outputFormat(p)
  const start = integerOption(p, 'start', 0) ?? 0
  const limit = integerOption(p, 'limit', 1)
  const pageSize = integerOption(p, 'page-size', 1)
  if (format === 'csv') {
    const paged = limit !== undefined || start > 0 ? { pagination: { start, ...(limit !== undefined ? { limit } : {}) } } : {}
    const res = await client.okStream('POST', `tables/${path}`, { body: { ...body, ...paged }, accept: 'text/csv' })
    await copyCsv(res, stdout)
    return
  }
  const columns = printer.columns ?? (body.columns as string[])
  const text = format === 'text' ? new TextTable(columns, stdout) : undefined
  let shown = 0
  const count = await pageThrough(client, path, body, { start, ...(limit !== undefined ? { limit } : {}), ...(pageSize !== undefined ? { pageSize } : {}) }, async (rows) => {
    shown += rows.length
    if (text) text.write(rows, printer.cell)
    else for (const row of rows) stdout.write(JSON.stringify(row) + '\n')
    // the next page waits for a slow reader instead of piling up in memory
    if (stdout.writableNeedDrain) await once(stdout, 'drain')
  })
  text?.end()
  if (stderr.isTTY && format === 'text') stderr.write(`${shown} of ${count} rows\n`)
}

function listTables(tables: readonly TableInfo[], stdout: OutputStream): void {
  const table = new TextTable(['path', 'title', 'snapshot'], stdout)
  table.write(tables.map((t) => ({ path: t.path, title: t.title ?? '', snapshot: t.snapshotScoped ? 'yes' : 'no' })))
  table.end()
}

export const queryCommand: Command = clientCommand(
  {
    name: 'query',
    summary: 'query a table of a snapshot: columns, filters, sort, a range or every row, as text, CSV or JSON',
    description:
      'The table is its path (inventory/interfaces), a table of the inventory group by its name (interfaces)\n' +
      'or the end of one path (bgp/neighbors); a name close to several tables is an error that lists them.\n' +
      'Operators of --filter: docs/tables.md.',
    positionals: [{ name: 'table', description: 'the table (see --tables)', optional: true }],
    options: {
      snapshot: { type: 'string', value: 'id', description: 'snapshot id, $last (default), $prev or $lastLocked' },
      ...TABLE_OPTIONS,
      tables: { type: 'boolean', description: 'list the tables and exit' },
    },
    examples: [
      'netinv query devices --columns hostname,vendor,model --filter vendor:eq:cisco --sort hostname',
      "netinv query interfaces --filter 'l1:eq:down' --filter '{\"or\": [{\"mtu\": [\"gt\", 1500]}, {\"speedValue\": [\"empty\", true]}]}' --csv > down.csv",
      'netinv query routes --snapshot \'$prev\' --limit 20 --json',
    ],
  },
  async (p, client, io) => {
    const tables = await fetchTables(client)
    if (flag(p, 'tables')) {
      listTables(tables, io.stdout)
      return 0
    }
    const [name] = p.positionals
    if (name === undefined) throw new UsageError('missing <table> (netinv query --tables lists them)')
    outputFormat(p)
    const table = resolveTable(tables, name)
    const { body } = requestOf(p, table)
    if (table.snapshotScoped) body.snapshot = stringOption(p, 'snapshot') ?? '$last'
    else if (stringOption(p, 'snapshot') !== undefined) throw new UsageError(`${table.path} does not belong to a snapshot: --snapshot does not apply`)
    await printTable(client, table.path, body, p, io)
    return 0
  },
)
