/**
 * The OpenAPI view of the table catalog: per table, the request body (columns and sort column
 * from the table's columns, the shape and bounds the engine's parse stage enforces) and the
 * response (a row with each column's type, enumeration and deprecation; `_meta`; CSV).
 */
import type { ColumnDef, ColumnType, TableDef } from '../catalog/index.js'
import { MAX_COLUMNS, TABLE_REQUEST_KEYS } from '../query/parse.js'
import { COMPARE_OPERATORS, VALUE_OPERATORS } from '../query/types.js'
/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it) or any part of the document, as plain data. */
export type JsonSchema = Record<string, unknown>

const REF = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` })

const BASE: Record<ColumnType, JsonSchema> = {
  string: { type: 'string' },
  integer: { type: 'integer' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  timestamp: { type: 'integer', description: 'Milliseconds since the epoch.' },
  ip: { type: 'string', description: 'IP address.' },
  network: { type: 'string', description: 'Network in CIDR notation.' },
  mac: { type: 'string', description: 'MAC address, lower-case colon form.' },
  stringArray: { type: 'array', items: { type: 'string' } },
  integerArray: { type: 'array', items: { type: 'integer' } },
  ipArray: { type: 'array', items: { type: 'string' } },
  json: {},
}

/** A column's value: its type (or null), or, with `reports`, `{data, severity}` around it. */
export function columnSchema(c: ColumnDef): JsonSchema {
  const base = BASE[c.type]
  const value: JsonSchema = c.values ? { enum: [...c.values, null] } : c.type === 'json' ? {} : { ...base, type: [base.type as string, 'null'] }
  const schema: JsonSchema = { anyOf: [value, REF('ColouredValue')], description: c.description }
  if (c.deprecated !== undefined) {
    schema.deprecated = true
    schema.description = `${c.description} Deprecated: ${c.deprecated}`
  }
  return schema
}

/** Schema names of a table: "inventory/devices" → "InventoryDevices" (one shared name for the uncollected ones). */
export function tableSchemaName(table: TableDef): string {
  if (table.collected === false) return UNCOLLECTED_SCHEMA
  return table.path.split(/[/-]/).map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join('')
}

export function tableRequestSchema(table: TableDef): JsonSchema {
  const names = table.columns.map((c) => c.name)
  const properties: Record<string, JsonSchema> = {
    columns: { type: 'array', minItems: 1, maxItems: MAX_COLUMNS, items: { enum: names }, description: 'Columns to return: each row has exactly these keys.' },
    filters: REF('TableFilter'),
    pagination: REF('TablePagination'),
    sort: {
      type: ['object', 'null'],
      properties: { column: { enum: table.snapshotScoped ? [...names, 'change'] : names }, order: { enum: ['asc', 'desc'], default: 'asc' } },
      required: ['column'],
      additionalProperties: false,
      description: `Default: ${table.defaultSort.column} ${table.defaultSort.order}, then id.`,
    },
    reports: { anyOf: [{ type: 'string', description: 'Web path of the table, e.g. ' + table.webPath }, { type: 'array', maxItems: 1000, items: { type: 'string' } }, { type: 'null' }], description: 'Colour reports: each column with a rule comes back as {data, severity}.' },
    format: REF('TableFormat'),
    attributeFilters: {
      type: ['object', 'null'],
      additionalProperties: { type: 'array', minItems: 1, items: { type: 'string' } },
      description: 'Attribute name → accepted values: only rows of devices whose attribute (attributes/global, attributes/local) has one of them.',
    },
  }
  if (table.snapshotScoped) {
    properties.snapshot = { type: ['string', 'null'], description: 'A snapshot id, or $last, $prev, $lastLocked.', examples: ['$last'] }
    properties.compare = REF('TableCompare')
  }
  // A key the engine accepts that is not described here yet is still accepted by the document.
  for (const key of undescribedTableKeys()) properties[key] = { description: 'Accepted; not described yet.' }
  return { type: 'object', properties, required: ['columns'], additionalProperties: false }
}

const DESCRIBED = ['snapshot', 'columns', 'filters', 'pagination', 'sort', 'reports', 'format', 'attributeFilters', 'compare']

/** Keys of a table request the engine accepts (parse.ts) that have no schema here yet. */
export function undescribedTableKeys(): string[] {
  return TABLE_REQUEST_KEYS.filter((k) => !DESCRIBED.includes(k))
}

export function tableRowSchema(table: TableDef): JsonSchema {
  const properties: Record<string, JsonSchema> = Object.fromEntries(table.columns.map((c) => [c.name, columnSchema(c)]))
  // rows of a comparison (`compare` in the request) say how they differ
  if (table.snapshotScoped) Object.assign(properties, { change: REF('RowChange'), diff: REF('RowDiff') })
  return { type: 'object', properties, additionalProperties: false }
}

export function tableResponseSchema(table: TableDef): JsonSchema {
  return {
    type: 'object',
    properties: { data: { type: 'array', items: REF(`${tableSchemaName(table)}Row`) }, _meta: REF('TableMeta') },
    required: ['data', '_meta'],
  }
}

/**
 * The schemas every table netinv does not collect shares (`collected: false`): they all answer
 * with no rows, so one request schema (any column names; the table's own are listed by its
 * description endpoint and `GET tables`) and one response schema serve them, which keeps the
 * document the gateway reads and composes small.
 */
export function uncollectedTableComponents(): Record<string, JsonSchema> {
  const request = tableRequestSchema({ path: 'uncollected', title: '', description: '', snapshotScoped: true, source: { kind: 'derived', sql: '' }, columns: [], defaultSort: { column: 'id', order: 'asc' }, indexes: [], webPath: '/' })
  const properties = request.properties as Record<string, JsonSchema>
  properties.columns = { type: 'array', minItems: 1, maxItems: MAX_COLUMNS, items: { type: 'string' }, description: 'Columns to return: those `GET tables/<path>/description` lists.' }
  properties.sort = { type: ['object', 'null'], properties: { column: { type: 'string' }, order: { enum: ['asc', 'desc'], default: 'asc' } }, required: ['column'], additionalProperties: false }
  properties.reports = { anyOf: [{ type: 'string' }, { type: 'array', maxItems: 1000, items: { type: 'string' } }, { type: 'null' }], description: 'Accepted; a table without rows has nothing to colour.' }
  return {
    [`${UNCOLLECTED_SCHEMA}Request`]: request,
    [`${UNCOLLECTED_SCHEMA}Response`]: {
      type: 'object',
      properties: { data: { type: 'array', maxItems: 0, items: {}, description: 'Always empty: netinv does not collect the technology.' }, _meta: REF('TableMeta') },
      required: ['data', '_meta'],
    },
  }
}

/** Name of the schemas of uncollected tables (their Request and Response). */
export const UNCOLLECTED_SCHEMA = 'UncollectedTable'

/** The schemas every table shares. */
export function tableComponents(): Record<string, JsonSchema> {
  const condition: JsonSchema = {
    type: 'array',
    description: '[operator, value], ["column", op, otherColumn], ["color", op, severity], or ["any"|"all", op, value].',
    anyOf: [
      { prefixItems: [{ enum: [...VALUE_OPERATORS] }, {}], minItems: 2, maxItems: 2 },
      { prefixItems: [{ const: 'column' }, { enum: [...COMPARE_OPERATORS] }, { type: 'string' }], minItems: 3, maxItems: 3 },
      { prefixItems: [{ const: 'color' }, { enum: [...COMPARE_OPERATORS] }, {}], minItems: 3, maxItems: 3 },
      { prefixItems: [{ enum: ['any', 'all'] }, { enum: VALUE_OPERATORS.filter((o) => o !== 'empty') }, {}], minItems: 3, maxItems: 3 },
    ],
  }
  return {
    TableFilter: {
      type: ['object', 'null'],
      description: 'Column name → condition; several keys are ANDed; `and` / `or` hold lists of filter objects.',
      properties: { and: { type: 'array', items: REF('TableFilter') }, or: { type: 'array', items: REF('TableFilter') } },
      additionalProperties: REF('TableCondition'),
    },
    TableCondition: condition,
    TableCompare: {
      type: ['object', 'null'],
      description: 'Compare with another snapshot (docs/comparison.md): only rows added, removed or changed since it, each with `change` and `diff`.',
      properties: {
        snapshot: { type: 'string', minLength: 1, description: 'The older snapshot: an id, or $prev (the one before of the same network), $last, $lastLocked.' },
        volatile: { type: 'boolean', default: false, description: 'Compare the volatile columns (uptime, counters, timestamps) too.' },
      },
      required: ['snapshot'],
      additionalProperties: false,
    },
    RowChange: { enum: ['added', 'removed', 'changed'], description: 'In a comparison: how the row differs.' },
    RowDiff: {
      type: ['object', 'null'],
      description: 'In a comparison: for a changed row, each differing column with its old and new value; null otherwise.',
      additionalProperties: { type: 'object', properties: { old: {}, new: {} }, required: ['old', 'new'] },
    },
    TablePagination: {
      type: ['object', 'null'],
      properties: { start: { type: 'integer', minimum: 0 }, limit: { type: 'integer', minimum: 0, description: 'At most the configured query.maxLimit.' } },
      additionalProperties: false,
    },
    TableFormat: {
      type: ['object', 'null'],
      properties: { dataType: { enum: ['csv', 'json'] }, exportToFile: { type: 'boolean' } },
      description: 'dataType "csv" (or exportToFile alone) answers text/csv.',
    },
    TableMeta: {
      type: 'object',
      properties: {
        limit: { type: ['integer', 'null'] },
        start: { type: 'integer' },
        count: { type: 'integer', description: 'Matching rows in all.' },
        size: { type: 'integer', description: 'Rows in this page.' },
        truncated: { const: true, description: 'Present when the request named no `pagination.limit` and the default limit of its address generation left matching rows out.' },
      },
      required: ['start', 'count', 'size'],
    },
    ColouredValue: {
      type: 'object',
      properties: { data: {}, severity: { enum: [-1, 0, 10, 20, 30], description: '-1 no check matched, 0 green, 10 blue, 20 amber, 30 red.' } },
      required: ['data', 'severity'],
    },
  }
}
