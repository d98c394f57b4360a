/**
 * `attributeFilters` of a table request: `{"siteName": ["A", "B"], "floor": ["12"]}` keeps the
 * rows of devices whose attribute has one of the values, for every attribute named. A
 * snapshot's table reads that snapshot's attributes (`inventory.snapshot_attributes`); a table
 * without snapshot reads the global ones. A table whose rows belong to no device cannot be
 * filtered so (422).
 */
import { invalidInput } from '../../shared/errors.js'
import { ATTRIBUTE_NAME } from '../attributes/input.js'
import { deviceColumn } from '../catalog/device-key.js'
import type { ColumnDef, TableDef } from '../catalog/types.js'
import { columnExpr, type Params } from './sql-filter.js'

export const MAX_ATTRIBUTE_FILTERS = 50
export const MAX_ATTRIBUTE_VALUES = 1000

/** Attribute name → accepted values, in the order given. */
export type AttributeFilters = ReadonlyArray<readonly [string, readonly string[]]>

export interface ValidAttributeFilter {
  column: ColumnDef
  filters: AttributeFilters
  /** Whether the rows are a snapshot's (its attributes) or not (the global ones). */
  snapshotScoped: boolean
}

function fail(message: string): never {
  throw invalidInput([{ message }])
}

/** Shape check: an object of attribute names to non-empty arrays of strings; {} or null is none. */
export function parseAttributeFilters(raw: unknown): AttributeFilters | undefined {
  if (raw === undefined || raw === null) return undefined
  if (typeof raw !== 'object' || Array.isArray(raw)) fail('"attributeFilters" must be an object {"attributeName": ["value", ...]}')
  const entries = Object.entries(raw as Record<string, unknown>)
  if (entries.length === 0) return undefined
  if (entries.length > MAX_ATTRIBUTE_FILTERS) fail(`"attributeFilters" must name at most ${MAX_ATTRIBUTE_FILTERS} attributes`)
  return entries.map(([name, values]) => {
    if (!ATTRIBUTE_NAME.test(name)) fail(`"attributeFilters.${name.slice(0, 64)}" is not an attribute name (${ATTRIBUTE_NAME.source})`)
    if (!Array.isArray(values) || values.length === 0 || values.length > MAX_ATTRIBUTE_VALUES || !values.every((v) => typeof v === 'string')) {
      fail(`"attributeFilters.${name}" must be a non-empty array of at most ${MAX_ATTRIBUTE_VALUES} strings`)
    }
    return [name, values as string[]] as const
  })
}

/** Resolves the table's device column; 422 when its rows belong to no device. */
export function validateAttributeFilters(table: TableDef, filters: AttributeFilters | undefined): ValidAttributeFilter | undefined {
  if (!filters) return undefined
  const column = deviceColumn(table)
  if (!column) fail(`"attributeFilters" cannot filter table ${table.path}: its rows belong to no device`)
  return { column, filters, snapshotScoped: table.snapshotScoped }
}

/** SQL condition over alias `t`: one membership test per attribute, ANDed. */
export function attributeFilterExpr(f: ValidAttributeFilter, params: Params): string {
  const device = columnExpr(f.column)
  return f.filters
    .map(([name, values]) => {
      const match = `a.name = ${params.add(name, 'text')} AND a.value = ANY(${params.add(values, 'text[]')})`
      return f.snapshotScoped
        ? `${device} IN (SELECT a.sn FROM inventory.snapshot_attributes a WHERE a.snapshot_id = t.snapshot_id AND ${match})`
        : `${device} IN (SELECT a.sn FROM inventory.global_attributes a WHERE ${match})`
    })
    .join(' AND ')
}
