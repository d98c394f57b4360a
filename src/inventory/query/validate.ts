/**
 * Stage 2: a parsed request → a `ValidRequest`, every name resolved against the table's catalog
 * definition. Unknown columns are 422 in the shape SDKs parse for column discovery:
 * `"columns[0]" must be one of [a, b, c]`; operators that do not fit a column's type are 422
 * naming column and operator. A value outside an enumerated column's documented values is not an
 * error: it matches what it matches (nothing, for `eq`).
 */
import type { ColumnDef, TableDef } from '../catalog/types.js'
import { invalidInput, type ValidationIssue } from '../../shared/errors.js'
import { OPERATORS_BY_TYPE, columnOperators, elementType, family, normaliseValue, type ScalarType } from './operators.js'
import { validateAttributeFilters } from './attribute-filter.js'
import type { ColorRule, FilterNode, ParsedRequest, ValidCondition, ValidFilter, ValidRequest, ValueOperator } from './types.js'

function fail(message: string): never {
  throw invalidInput([{ message }])
}

function columnList(table: TableDef): string {
  return `[${table.columns.map((c) => c.name).join(', ')}]`
}

/** The column of `table` named `name`, or a 422 listing the table's columns. */
export function resolveColumn(table: TableDef, name: string, path: string): ColumnDef {
  const column = table.columns.find((c) => c.name === name)
  if (!column) fail(`"${path}" must be one of ${columnList(table)}`)
  return column
}

export interface FilterContext {
  table: TableDef
  /** Columns that have colour rules in this request; `color` conditions are refused when absent. */
  colors?: ReadonlyMap<string, readonly ColorRule[]>
}

function validateCondition(node: Extract<FilterNode, { kind: 'cond' }>, ctx: FilterContext): ValidCondition {
  const column = resolveColumn(ctx.table, node.column, node.path)
  const { cond, path } = node
  const type = column.type
  switch (cond.kind) {
    case 'value': {
      const allowed = OPERATORS_BY_TYPE[type]
      if (!allowed.includes(cond.op)) {
        fail(`"${path}" operator "${cond.op}" does not fit column ${column.name} of type ${type}; allowed: [${allowed.join(', ')}]`)
      }
      const scalar = elementType(type) ? 'array' : type === 'json' ? 'json' : (type as ScalarType)
      // a value an enumerated column never holds is a valid question with an empty answer (`eq`
      // matches no row, `neq` every row): clients filter on names a release may not have yet
      return { kind: 'value', column, op: cond.op, value: normaliseValue(scalar, cond.op, cond.value, path, column.name) }
    }
    case 'array': {
      const element = elementType(type)
      if (!element) fail(`"${path}" operator "${cond.quantifier}" needs an array column; ${column.name} is of type ${type}`)
      const allowed: readonly ValueOperator[] = OPERATORS_BY_TYPE[element].filter((op) => op !== 'empty')
      if (!allowed.includes(cond.op)) {
        fail(`"${path}" operator "${cond.op}" does not fit the elements of column ${column.name} (${element}); allowed: [${allowed.join(', ')}]`)
      }
      if (cond.value === null) fail(`"${path}" value of "${cond.op}" must not be null (column ${column.name})`)
      return { kind: 'array', column, quantifier: cond.quantifier, op: cond.op, value: normaliseValue(element, cond.op, cond.value, path, column.name) }
    }
    case 'column': {
      const other = resolveColumn(ctx.table, cond.other, `${path}[2]`)
      const fam = family(type)
      if (fam === undefined || family(other.type) !== fam) {
        fail(`"${path}" cannot compare column ${column.name} (${type}) with column ${other.name} (${other.type})`)
      }
      const allowed = columnOperators(fam)
      if (!allowed.includes(cond.op)) {
        fail(`"${path}" operator "${cond.op}" does not fit column ${column.name} of type ${type}; allowed: [${allowed.join(', ')}]`)
      }
      return { kind: 'column', column, op: cond.op, other }
    }
    case 'color': {
      if (!ctx.colors) fail(`"${path}" operator "color" is not allowed here`)
      if (!ctx.colors.has(column.name)) {
        const withRules = [...ctx.colors.keys()]
        fail(`"${path}" operator "color" needs a report on column ${column.name}; "reports" colour [${withRules.join(', ')}]`)
      }
      const n = typeof cond.value === 'string' && /^-?\d+$/.test(cond.value) ? Number(cond.value) : cond.value
      if (typeof n !== 'number' || !Number.isInteger(n)) fail(`"${path}" severity must be an integer (-1, 0, 10, 20, 30)`)
      return { kind: 'color', column, op: cond.op, value: n }
    }
  }
}

/** Validates a parsed filter tree against a table. */
export function validateFilter(node: FilterNode, ctx: FilterContext): ValidFilter {
  if (node.kind === 'cond') return { kind: 'cond', cond: validateCondition(node, ctx) }
  return { kind: node.kind, children: node.children.map((child) => validateFilter(child, ctx)) }
}

export interface ValidateOptions {
  defaultLimit: number
  /** Colour rules the request's `reports` selected (already validated against the table). */
  rules: readonly ColorRule[]
}

function validateColumns(table: TableDef, names: readonly string[]): ColumnDef[] {
  const issues: ValidationIssue[] = []
  const seen = new Set<string>()
  const columns: ColumnDef[] = []
  names.forEach((name, i) => {
    const column = table.columns.find((c) => c.name === name)
    if (!column) issues.push({ message: `"columns[${i}]" must be one of ${columnList(table)}` })
    else if (!seen.has(name)) {
      seen.add(name)
      columns.push(column)
    }
  })
  if (issues.length > 0) throw invalidInput(issues)
  return columns
}

/** Stage 2 of a table request. */
export function validateRequest(table: TableDef, parsed: ParsedRequest, options: ValidateOptions): ValidRequest {
  const columns = validateColumns(table, parsed.columns)
  const colors = new Map<string, ColorRule[]>()
  for (const rule of options.rules) {
    const list = colors.get(rule.column) ?? []
    list.push(rule)
    colors.set(rule.column, list)
  }
  const filter = parsed.filters ? validateFilter(parsed.filters, { table, colors }) : undefined
  const sortSpec = parsed.sort ?? table.defaultSort
  const sortColumn = resolveColumn(table, sortSpec.column, 'sort.column')
  if (sortColumn.type === 'json') fail(`"sort.column" column ${sortColumn.name} of type json cannot be sorted`)
  const start = parsed.pagination?.start ?? 0
  const limit = parsed.pagination?.limit ?? (parsed.csv && !parsed.pagination ? undefined : options.defaultLimit)
  const attributes = validateAttributeFilters(table, parsed.attributeFilters)
  const limitDefaulted = parsed.pagination?.limit === undefined && limit !== undefined
  return { columns, filter, start, limit, ...(limitDefaulted ? { limitDefaulted } : {}), sort: { column: sortColumn, order: sortSpec.order }, colors, csv: parsed.csv, ...(attributes ? { attributes } : {}) }
}
