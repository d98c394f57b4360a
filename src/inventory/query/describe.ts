/**
 * What users need to write a table request: per table its columns, types, meaning, operators and
 * an example body. Served by `GET tables/<path>/description` and rendered into docs/tables.md.
 */
import type { TableDef } from '../catalog/types.js'
import { CONFIG_SCHEMA } from '../../shared/config/index.js'
import { OPERATORS_BY_TYPE, elementType } from './operators.js'
import { MAX_FILTER_CONDITIONS, MAX_FILTER_DEPTH, MAX_FILTER_NODES } from './parse.js'
import { MAX_PATTERN_SIZE, MAX_PATTERN_TRANSITIONS } from './pattern.js'

export interface TableDescription {
  path: string
  legacyPaths: string[]
  title: string
  description: string
  snapshotScoped: boolean
  /** Whether netinv fills the table (false: a technology it does not collect; the table has its columns and no rows). */
  collected: boolean
  webPath: string
  defaultSort: TableDef['defaultSort']
  /** Natural key and volatile columns: what a comparison of two snapshots joins on and ignores. */
  key: string[]
  volatile: string[]
  columns: Array<{ name: string; type: string; description: string; values?: readonly string[]; operators: string[] }>
  exampleRequest: Record<string, unknown>
}

function operatorsOf(type: TableDef['columns'][number]['type']): string[] {
  const element = elementType(type)
  const base: string[] = [...OPERATORS_BY_TYPE[type]]
  if (element) base.push(`any/all: ${OPERATORS_BY_TYPE[element].filter((op) => op !== 'empty').join(', ')}`)
  return base
}

function exampleFilter(table: TableDef): Record<string, unknown> {
  const text = table.columns.find((c) => c.type === 'string' && c.name !== 'id')
  if (!text) return {}
  return text.values?.length ? { [text.name]: ['eq', text.values[0]] } : { [text.name]: ['like', 'a'] }
}

export function describeTable(table: TableDef): TableDescription {
  const example: Record<string, unknown> = {}
  if (table.snapshotScoped) example.snapshot = '$last'
  example.columns = table.columns.map((c) => c.name)
  example.filters = exampleFilter(table)
  example.pagination = { start: 0, limit: 100 }
  example.sort = { column: table.defaultSort.column, order: table.defaultSort.order }
  if (table.snapshotScoped) example.reports = table.webPath
  return {
    path: table.path,
    legacyPaths: [...(table.legacyPaths ?? [])],
    title: table.title,
    description: table.description,
    snapshotScoped: table.snapshotScoped,
    collected: table.collected !== false,
    webPath: table.webPath,
    defaultSort: table.defaultSort,
    key: [...(table.key ?? [])],
    volatile: [...(table.volatile ?? [])],
    columns: table.columns.map((c) => ({
      name: c.name,
      type: c.type,
      description: c.description,
      ...(c.values ? { values: c.values } : {}),
      operators: operatorsOf(c.type),
    })),
    exampleRequest: example,
  }
}

/** A table as `GET tables` lists it: what it is and its columns, without operators or example. */
export type TableSummary = Omit<TableDescription, 'columns' | 'exampleRequest'> & { columns: Array<Omit<TableDescription['columns'][number], 'operators'>> }

export function summarizeTable(table: TableDef): TableSummary {
  const { columns, exampleRequest: _example, ...rest } = describeTable(table)
  return { ...rest, columns: columns.map(({ operators: _operators, ...c }) => c) }
}

function rowsOf(table: TableDef): string {
  if (table.collected === false) return 'not collected'
  if (table.source.kind === 'derived') return 'view'
  return table.source.compute === undefined ? 'stored' : 'computed at load'
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
}

/** docs/tables.md: generated from the catalog (a test fails when the file is stale). */
export function renderTablesDoc(tables: readonly TableDef[]): string {
  const lines = [
    '# Tables',
    '',
    '<!-- Generated from the table catalog by renderTablesDoc() (src/inventory/query/describe.ts): run `npm run docs`. Do not edit. -->',
    '',
    'Every table answers `POST /api/tables/<path>` with a table request (`columns`, `filters`, `pagination`,',
    '`sort`, `reports`, `format`) and describes itself at `GET /api/tables/<path>/description`; `GET /api/tables`',
    'lists them all with their columns. The v4-era camelCase names ("Also at") answer too, e.g. under `/api/v1/`.',
    'Rows are stored per snapshot as discovery (or an imported file) found them, computed from the other tables when',
    'the snapshot is loaded, or read through a view of other tables (column "Rows").',
    'A table whose Rows say "not collected" is one of the API family\'s tables for a technology netinv neither simulates nor',
    'discovers: it answers every request with its columns and no rows, and `GET /api/tables` lists it with `collected: false`',
    '(every other table: `collected: true`). It has no storage, so it costs nothing when a snapshot is created or loaded.',
    'Filters: `[operator, value]`; `["column", op, otherColumn]`; `["color", op, severity]` (with `reports`);',
    '`["any" | "all", op, value]` on array columns; `and` / `or` hold lists of filter objects.',
    'Negated operators (`neq`, `nieq`, `notlike`, `nreg`, `nireg`) match null values. A column\'s "Values" list what it holds;',
    '`eq` on another value is no error and matches no row (`neq`: every row). Sorting puts nulls last',
    '(ascending) or first (descending) and breaks ties by `id`.',
    'Comparison: `"compare": {"snapshot": "<id | $prev | $last | $lastLocked>"}` next to `snapshot` answers the rows that',
    'differ between the two snapshots, joined on the table\'s key, with `change` (added, removed, changed) and `diff`;',
    'volatile columns are ignored unless `"volatile": true` (see docs/comparison.md).',
    `Limits: \`pagination.limit\` defaults to ${CONFIG_SCHEMA.properties.query.properties.defaultLimit.default} under \`/api/\` and to ${CONFIG_SCHEMA.properties.query.properties.legacyDefaultLimit.default} under \`/api/v1/\` and`,
    `\`/api/v<major>.<minor>/\` (their clients expect every row without \`pagination\`); when that default leaves matching rows`,
    'out, `_meta.truncated` is `true` (`_meta.count` is every matching row). An explicit limit may not exceed ' +
      `${CONFIG_SCHEMA.properties.query.properties.maxLimit.default} (config \`query.defaultLimit\`, \`query.legacyDefaultLimit\`, \`query.maxLimit\`; larger is 422);`,
    `filters nest \`and\`/\`or\` at most ${MAX_FILTER_DEPTH} deep with at most ${MAX_FILTER_CONDITIONS} conditions and ${MAX_FILTER_NODES} ` +
      'filter objects and conditions in all (empty objects count). A CSV export',
    '(`format: {exportToFile: true, dataType: "csv"}` or `Accept: text/csv`) without `pagination` holds every matching row;',
    'it is streamed (chunked), and a complete export ends with the HTTP trailer `X-Row-Count: <rows>` (declared in the `Trailer`',
    'header; the header line is not counted). An export cut after it began (the database lost mid-export) is aborted, never',
    'ended as if whole: the body lacks its last chunk and the trailer, which HTTP clients report as a transport error (curl:',
    '`(18) transfer closed with outstanding read data remaining`); a reader that may miss transport errors checks the trailer',
    'against the rows it got, as `netinv query --csv` does;',
    "a text that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is written with a leading `'` so that a spreadsheet shows it instead of running it as a formula (numbers are written as they are).",
    '`attributeFilters: {"siteName": ["A", "B"], "floor": ["12"]}` keeps the rows of devices whose attributes have one of the values,',
    'for every attribute named: a snapshot\'s own attributes (`tables/snapshot-attributes`, managed by `attributes/local`; a discovery',
    'starts from the global ones of `attributes/global`), the global ones for a table without snapshot. The device of a row is its',
    '`deviceSn`, `sn` or `localSn` column; a table whose rows belong to no device answers 422.',
    `Regular expressions (\`reg\`, \`nreg\`, \`ireg\`, \`nireg\`, also in report rules; PostgreSQL's syntax) are checked before any database sees them, the same on both databases, ` +
      'by the size of the automaton they compile to: an upper bound of its states (one per atom, anchor or lookaround, times the repetition counts around it) ' +
      'and of its transitions (pairs of them that can match one after the other), computed from the pattern. ' +
      `A pattern above ${MAX_PATTERN_SIZE} states (\`(\\w{1,255}){1,255}\`) or ${MAX_PATTERN_TRANSITIONS} transitions ` +
      '(`(.*){1,255}(.*){1,255}x`: every copy of `.*` can match nothing, so each may follow every other) is refused with 422 ' +
      '"the pattern\'s repetitions multiply to more than N states/transitions", naming the filter. Also refused: back-references (`\\1`), ' +
      'unbounded repetitions of something unbounded or that can match nothing (`(a+)+`, `(a|a?)+`; write `a+`, `a*`), ' +
      'and lookaheads holding an unbounded repetition (`(?=.*x)`: PostgreSQL matches a lookahead again from every position, ' +
      'quadratic in the length of the value; bound it, `(?=.{0,50}x)`).',
    '',
    `Time limit: a table request stops after ` +
      `${CONFIG_SCHEMA.properties.query.properties.statementTimeoutMs.default} ms (config \`query.statementTimeoutMs\`) with 503`,
    '`API_QUERY_TIMEOUT`: one limit for the whole request from its start, page and count together (the count runs under what',
    'the page left; a report\'s results and a snapshot\'s changes likewise); CSV exports stream without a limit.',
    'On the embedded database (PGlite, no `DATABASE_URL`), which serves one statement at a time, the limit also counts the wait for its turn,',
    'and a statement past it is stopped by restarting the database (about half a second, during which other requests wait).',
    `One caller may run at most ${CONFIG_SCHEMA.properties.query.properties.maxConcurrentPerPrincipal.default} table queries at once ` +
      `(config \`query.maxConcurrentPerPrincipal\`); up to ${CONFIG_SCHEMA.properties.query.properties.maxQueuedPerPrincipal.default} more wait for their turn, in order`,
    '(`query.maxQueuedPerPrincipal`), so clients that send every page at once (aio-ipfabric, whose retry of a 429 waits 4 to 10 s; the SDKs, which never retry)',
    'get them all; beyond those, 429 with `Retry-After`. On the embedded database a caller\'s queries',
    'take turns in a lane of their own, one in the database at a time, the others waiting in order: so another caller\'s query',
    'waits behind at most one query of each caller (its share: one query in turn with every other caller who is waiting);',
    'a query still waiting when its limit passes is answered 503 `API_QUERY_TIMEOUT` with `Retry-After` and never starts.',
    'The gateway\'s per-IP limit (`rateLimit.perSecond`, 100) counts every request too: a client fetching more pages than that',
    'within one second from one address gets 429 with `Retry-After` for the rest (raise it for such clients: docs/operations.md).',
    '',
    '| Table | Path | Snapshot | Rows |',
    '|---|---|---|---|',
    ...tables.map((t) => `| [${cell(t.title)}](#${t.path.replace(/[^a-z0-9]+/gi, '-')}) | \`${t.path}\` | ${t.snapshotScoped ? 'yes' : 'no'} | ${rowsOf(t)} |`),
    '',
  ]
  for (const table of tables) {
    const d = describeTable(table)
    lines.push(`<a id="${table.path.replace(/[^a-z0-9]+/gi, '-')}"></a>`, `## ${cell(d.title)}: \`${d.path}\``, '', cell(d.description), '')
    if (d.legacyPaths.length > 0) lines.push(`Also at: ${d.legacyPaths.map((p) => `\`${p}\``).join(', ')}.`, '')
    lines.push(`Default sort: \`${d.defaultSort.column}\` ${d.defaultSort.order}. Web path (for \`reports\`): \`${d.webPath}\`.`, '')
    const volatile = d.volatile.length > 0 ? `; volatile (a comparison ignores them unless asked): ${d.volatile.map((c) => `\`${c}\``).join(', ')}` : ''
    const unordered = table.columns.filter((c) => c.unordered).map((c) => `\`${c.name}\``)
    const sets = unordered.length > 0 ? `; compared as sets (their order means nothing): ${unordered.join(', ')}` : ''
    lines.push(`Key: ${d.key.map((c) => `\`${c}\``).join(', ')}${volatile}${sets}.`, '')
    lines.push('| Column | Type | Meaning | Operators |', '|---|---|---|---|')
    for (const c of d.columns) {
      const values = c.values ? ` Values: ${c.values.map((v) => `\`${v}\``).join(', ')}.` : ''
      lines.push(`| \`${c.name}\` | ${c.type} | ${cell(c.description)}${cell(values)} | ${cell(c.operators.join(', '))} |`)
    }
    lines.push('', 'Example request body:', '', '```json', JSON.stringify(d.exampleRequest), '```', '')
  }
  return lines.join('\n')
}
