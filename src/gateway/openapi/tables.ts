/**
 * The OpenAPI view of the table catalog: per table, the request body (columns and sort column
 * from the table's columns, the shape and bounds the engine's parse stage enforces) and the
 * response (a row with each column's type, enumeration and deprecation; `_meta`; CSV).
 */
import type { ColumnDef, ColumnType, TableDef } from '../../inventory/catalog/index.js'
import { MAX_COLUMNS, TABLE_REQUEST_KEYS } from '../../inventory/query/parse.js'
import { COMPARE_OPERATORS, VALUE_OPERATORS } from '../../inventory/query/types.js'
import type { JsonSchema } from './types.js'

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

/** Schema names of a table: "inventory/devices" → "InventoryDevices". */
export function tableSchemaName(table: TableDef): string {
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
      properties: { column: { enum: names }, order: { enum: ['asc', 'desc'], default: 'asc' } },
      required: ['column'],
      additionalProperties: false,
      description: `Default: ${table.defaultSort.column} ${table.defaultSort.order}, then id.`,
    },
    reports: { anyOf: [{ type: 'string', description: 'Web path of the table, e.g. ' + table.webPath }, { type: 'array', maxItems: 1000, items: { type: 'string' } }, { type: 'null' }], description: 'Colour reports: each column with a rule comes back as {data, severity}.' },
    format: REF('TableFormat'),
    attributeFilters: { type: ['object', 'null'], maxProperties: 0, description: 'Not supported: filter on the table columns instead.' },
  }
  if (table.snapshotScoped) {
    properties.snapshot = { type: ['string', 'null'], description: 'A snapshot id, or $last, $prev, $lastLocked.', examples: ['$last'] }
  }
  // A key the engine accepts that is not described here yet is still accepted by the document.
  for (const key of undescribedTableKeys()) properties[key] = { description: 'Accepted; not described yet.' }
  return { type: 'object', properties, required: ['columns'], additionalProperties: false }
}

const DESCRIBED = ['snapshot', 'columns', 'filters', 'pagination', 'sort', 'reports', 'format', 'attributeFilters']

/** Keys of a table request the engine accepts (parse.ts) that have no schema here yet. */
export function undescribedTableKeys(): string[] {
  return TABLE_REQUEST_KEYS.filter((k) => !DESCRIBED.includes(k))
}

export function tableRowSchema(table: TableDef): JsonSchema {
  return { type: 'object', properties: Object.fromEntries(table.columns.map((c) => [c.name, columnSchema(c)])), additionalProperties: false }
}

export function tableResponseSchema(table: TableDef): JsonSchema {
  return {
    type: 'object',
    properties: { data: { type: 'array', items: REF(`${tableSchemaName(table)}Row`) }, _meta: REF('TableMeta') },
    required: ['data', '_meta'],
  }
}

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
      properties: { limit: { type: ['integer', 'null'] }, start: { type: 'integer' }, count: { type: 'integer', description: 'Matching rows in all.' }, size: { type: 'integer', description: 'Rows in this page.' } },
      required: ['start', 'count', 'size'],
    },
    ColouredValue: {
      type: 'object',
      properties: { data: {}, severity: { enum: [-1, 0, 10, 20, 30], description: '-1 no check matched, 0 green, 10 blue, 20 amber, 30 red.' } },
      required: ['data', 'severity'],
    },
  }
}
