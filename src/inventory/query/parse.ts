/**
 * Stage 1: the raw JSON body → a `ParsedRequest`. Checks shapes only (types, operator names,
 * bounds on size and depth); names are checked against the catalog in `validate.ts`.
 * Every problem is a 422 in the `errors: [{message}]` shape.
 */
import { invalidInput, type ValidationIssue } from '../../shared/errors.js'
import { parseAttributeFilters } from './attribute-filter.js'
import { COMPARE_OPERATORS, VALUE_OPERATORS, type CompareOperator, type Condition, type FilterNode, type ParsedRequest, type ValueOperator } from './types.js'

/** Nesting of `and`/`or` allowed in one filter tree. */
export const MAX_FILTER_DEPTH = 12
/** Conditions allowed in one filter tree (including rule checks). */
export const MAX_FILTER_CONDITIONS = 500
/**
 * Elements allowed in one filter tree: every filter object (empty ones included) and every
 * condition counts, so `{"and": [{}, {}, ...]}` is bounded like conditions are.
 */
export const MAX_FILTER_NODES = 2000
/** Entries allowed in `columns`. */
export const MAX_COLUMNS = 500

/** The keys a table request may have (the OpenAPI document describes each: src/inventory/openapi/tables.ts). */
export const TABLE_REQUEST_KEYS: readonly string[] = ['snapshot', 'columns', 'filters', 'pagination', 'sort', 'reports', 'format', 'attributeFilters', 'compare']
const KNOWN_KEYS = new Set(TABLE_REQUEST_KEYS)
const ORDERS = new Set(['asc', 'desc'])

function fail(message: string): never {
  throw invalidInput([{ message }])
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function isValueOperator(v: unknown): v is ValueOperator {
  return typeof v === 'string' && (VALUE_OPERATORS as readonly string[]).includes(v)
}

function isCompareOperator(v: unknown): v is CompareOperator {
  return typeof v === 'string' && (COMPARE_OPERATORS as readonly string[]).includes(v)
}

function quote(path: string): string {
  return `"${path}"`
}

function parseCondition(raw: unknown, path: string): Condition {
  if (!Array.isArray(raw)) fail(`${quote(path)} must be an array [operator, value]`)
  const [head, second, third] = raw as unknown[]
  if (head === 'column' || head === 'color') {
    if (raw.length !== 3) fail(`${quote(path)} must be ["${head}", operator, ${head === 'column' ? 'otherColumn' : 'severity'}]`)
    if (!isCompareOperator(second)) fail(`${quote(`${path}[1]`)} must be one of [${COMPARE_OPERATORS.join(', ')}]`)
    if (head === 'column') {
      if (typeof third !== 'string') fail(`${quote(`${path}[2]`)} must be a column name`)
      return { kind: 'column', op: second, other: third }
    }
    return { kind: 'color', op: second, value: third }
  }
  if (head === 'any' || head === 'all') {
    if (raw.length !== 3) fail(`${quote(path)} must be ["${head}", operator, value]`)
    if (!isValueOperator(second) || second === 'empty') {
      fail(`${quote(`${path}[1]`)} must be one of [${VALUE_OPERATORS.filter((o) => o !== 'empty').join(', ')}]`)
    }
    return { kind: 'array', quantifier: head, op: second, value: third }
  }
  if (raw.length !== 2) fail(`${quote(path)} must be an array [operator, value]`)
  if (!isValueOperator(head)) {
    fail(`${quote(`${path}[0]`)} must be one of [${[...VALUE_OPERATORS, 'column', 'color', 'any', 'all'].join(', ')}]`)
  }
  return { kind: 'value', op: head, value: second }
}

interface Budget {
  conditions: number
  nodes: number
}

function spend(budget: Budget, nodes: number): void {
  budget.nodes += nodes
  if (budget.nodes > MAX_FILTER_NODES) fail(`"filters" may hold at most ${MAX_FILTER_NODES} filter objects and conditions`)
}

function parseFilterObject(raw: unknown, path: string, depth: number, budget: Budget): FilterNode {
  if (depth > MAX_FILTER_DEPTH) fail(`${quote(path)} nests and/or deeper than ${MAX_FILTER_DEPTH} levels`)
  if (!isObject(raw)) fail(`${quote(path)} must be an object`)
  spend(budget, 1)
  const children: FilterNode[] = []
  for (const [key, value] of Object.entries(raw)) {
    const childPath = `${path}.${key}`
    if (key === 'and' || key === 'or') {
      if (!Array.isArray(value)) fail(`${quote(childPath)} must be an array of filter objects`)
      // refused before any element is looked at: a list longer than what is left cannot fit
      if (budget.nodes + value.length > MAX_FILTER_NODES) spend(budget, value.length)
      const nested = value.map((item, i) => parseFilterObject(item, `${childPath}[${i}]`, depth + 1, budget))
      children.push({ kind: key, children: nested })
      continue
    }
    budget.conditions += 1
    if (budget.conditions > MAX_FILTER_CONDITIONS) fail(`"filters" may hold at most ${MAX_FILTER_CONDITIONS} conditions`)
    spend(budget, 1)
    children.push({ kind: 'cond', column: key, cond: parseCondition(value, childPath), path: childPath })
  }
  return children.length === 1 ? children[0]! : { kind: 'and', children }
}

/** Parses one filter object (a request's `filters` or a report check). */
export function parseFilter(raw: unknown, path = 'filters', budget: Budget = { conditions: 0, nodes: 0 }): FilterNode {
  return parseFilterObject(raw, path, 0, budget)
}

function parseInteger(value: unknown, path: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) fail(`${quote(path)} must be an integer`)
  if (value < min) fail(`${quote(path)} must be greater than or equal to ${min}`)
  if (value > max) fail(`${quote(path)} must be less than or equal to ${max}`)
  return value
}

function parsePagination(raw: unknown, maxLimit: number): ParsedRequest['pagination'] {
  if (raw === undefined || raw === null) return undefined
  if (!isObject(raw)) fail('"pagination" must be an object')
  for (const key of Object.keys(raw)) if (key !== 'start' && key !== 'limit') fail(`"pagination.${key}" is not allowed`)
  const start = raw.start === undefined ? 0 : parseInteger(raw.start, 'pagination.start', 0, Number.MAX_SAFE_INTEGER)
  const limit = raw.limit === undefined ? undefined : parseInteger(raw.limit, 'pagination.limit', 0, maxLimit)
  return { start, limit }
}

function parseSort(raw: unknown): ParsedRequest['sort'] {
  if (raw === undefined || raw === null) return undefined
  if (!isObject(raw)) fail('"sort" must be an object')
  for (const key of Object.keys(raw)) if (key !== 'column' && key !== 'order') fail(`"sort.${key}" is not allowed`)
  if (typeof raw.column !== 'string') fail('"sort.column" must be a string')
  const order = raw.order === undefined ? 'asc' : typeof raw.order === 'string' ? raw.order.toLowerCase() : undefined
  if (order === undefined || !ORDERS.has(order)) fail('"sort.order" must be one of [asc, desc]')
  return { column: raw.column, order: order as 'asc' | 'desc' }
}

function parseReports(raw: unknown): ParsedRequest['reports'] {
  if (raw === undefined || raw === null) return undefined
  if (typeof raw === 'string') return raw
  if (Array.isArray(raw) && raw.length <= 1000 && raw.every((r) => typeof r === 'string')) return raw as string[]
  return fail('"reports" must be a web path string or an array of report ids')
}

function parseFormat(raw: unknown): boolean {
  if (raw === undefined || raw === null) return false
  if (!isObject(raw)) fail('"format" must be an object')
  if (raw.dataType !== undefined && raw.dataType !== 'csv' && raw.dataType !== 'json') fail('"format.dataType" must be one of [csv, json]')
  if (raw.exportToFile !== undefined && typeof raw.exportToFile !== 'boolean') fail('"format.exportToFile" must be a boolean')
  return formatAsksCsv(raw)
}

/**
 * Whether a body's `format` asks for CSV (`dataType: "csv"`, or `exportToFile` without a data
 * type). Read before parsing, for content negotiation; an invalid `format` is never CSV here.
 */
export function formatAsksCsv(body: unknown): boolean {
  const format = isObject(body) && 'format' in body ? body.format : body
  if (!isObject(format)) return false
  return format.dataType === 'csv' || (format.exportToFile === true && format.dataType === undefined)
}

function parseCompare(raw: unknown): NonNullable<ParsedRequest['compare']> {
  if (!isObject(raw)) fail('"compare" must be an object {"snapshot": <id | $prev | $last | $lastLocked>}')
  for (const key of Object.keys(raw)) if (key !== 'snapshot' && key !== 'volatile') fail(`"compare.${key}" is not allowed`)
  if (raw.snapshot === '') fail('"compare.snapshot" is empty: give a snapshot id or one of [$prev, $last, $lastLocked] (in a shell, a body in double quotes turns "$prev" into nothing: quote it with single quotes, or write \\$prev)')
  if (typeof raw.snapshot !== 'string') fail('"compare.snapshot" must be a snapshot id or one of [$prev, $last, $lastLocked]')
  if (raw.volatile !== undefined && typeof raw.volatile !== 'boolean') fail('"compare.volatile" must be a boolean')
  return { snapshot: raw.snapshot, volatile: raw.volatile === true }
}

function parseColumns(raw: unknown): string[] {
  if (!Array.isArray(raw)) fail('"columns" must be an array of column names')
  if (raw.length === 0) fail('"columns" must contain at least 1 items')
  if (raw.length > MAX_COLUMNS) fail(`"columns" must contain at most ${MAX_COLUMNS} items`)
  raw.forEach((c, i) => {
    if (typeof c !== 'string') fail(`"columns[${i}]" must be a string`)
  })
  return raw as string[]
}

/** Parses a table request body. `maxLimit` is the documented largest `pagination.limit`. */
export function parseTableRequest(body: unknown, maxLimit: number): ParsedRequest {
  if (!isObject(body)) fail('"value" must be of type object')
  const issues: ValidationIssue[] = []
  for (const key of Object.keys(body)) if (!KNOWN_KEYS.has(key)) issues.push({ message: `"${key}" is not allowed` })
  if (issues.length > 0) throw invalidInput(issues)
  if (body.columns === undefined) fail('"columns" is required')
  const snapshot = body.snapshot
  if (snapshot !== undefined && snapshot !== null && typeof snapshot !== 'string') fail('"snapshot" must be a string')
  return {
    snapshot: typeof snapshot === 'string' ? snapshot : undefined,
    columns: parseColumns(body.columns),
    filters: body.filters === undefined || body.filters === null ? undefined : parseFilter(body.filters),
    pagination: parsePagination(body.pagination, maxLimit),
    sort: parseSort(body.sort),
    reports: parseReports(body.reports),
    csv: parseFormat(body.format),
    attributeFilters: parseAttributeFilters(body.attributeFilters),
    ...(body.compare === undefined || body.compare === null ? {} : { compare: parseCompare(body.compare) }),
  }
}
