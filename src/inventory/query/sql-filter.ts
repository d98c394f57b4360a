/**
 * Validated filters → SQL boolean expressions. Values always travel as parameters with an
 * explicit cast; identifiers come only from the catalog. Negated operators (neq, nieq, notlike,
 * nreg, nireg) are `NOT COALESCE(<positive>, false)`, so a null value never matches the positive
 * form and always matches the negated one.
 */
import { storageName } from '../catalog/columns.js'
import type { ColumnDef, ColumnType } from '../catalog/types.js'
import { elementType, type ScalarType } from './operators.js'
import type { ColorRule, CompareOperator, ValidCondition, ValidFilter, ValueOperator } from './types.js'

/** Collects parameters; `add` returns the placeholder with its cast. */
export class Params {
  readonly values: unknown[] = []
  add(value: unknown, cast: string): string {
    this.values.push(value)
    return `$${this.values.length}::${cast}`
  }
}

/** SQL expression of a column over the source alias `t`. */
export function columnExpr(column: ColumnDef): string {
  if (column.sql) return `(${column.sql})`
  return `t."${storageName(column.name).replace(/"/g, '""')}"`
}

const CAST: Record<ScalarType, string> = {
  string: 'text',
  mac: 'text',
  integer: 'int8',
  timestamp: 'int8',
  number: 'float8',
  boolean: 'bool',
  ip: 'inet',
  network: 'cidr',
}

const COMPARE_SQL: Record<CompareOperator, string> = { eq: '=', neq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' }

const NEGATED: ReadonlySet<ValueOperator> = new Set(['neq', 'nieq', 'notlike', 'nreg', 'nireg'])
const POSITIVE: Partial<Record<ValueOperator, ValueOperator>> = { neq: 'eq', nieq: 'ieq', notlike: 'like', nreg: 'reg', nireg: 'ireg' }

function not(positive: string): string {
  return `NOT COALESCE(${positive}, false)`
}

/** Text form used by like/regex operators. */
function textExpr(expr: string, type: ColumnType): string {
  if (type === 'ip') return `host(${expr})`
  if (type === 'network' || type === 'json') return `(${expr})::text`
  return expr
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

function emptyExpr(expr: string, type: ColumnType): string {
  if (type === 'string' || type === 'mac') return `(${expr} IS NULL OR ${expr} = '')`
  if (elementType(type)) return `(${expr} IS NULL OR cardinality(${expr}) = 0)`
  if (type === 'json') return `(${expr} IS NULL OR (${expr})::jsonb IN ('null'::jsonb, '[]'::jsonb, '{}'::jsonb))`
  return `${expr} IS NULL`
}

/** A value operator on an expression of a given type (scalar, json, or array for `empty`). */
export function valuePredicate(expr: string, type: ColumnType, op: ValueOperator, value: unknown, params: Params): string {
  if (op === 'empty') return value ? emptyExpr(expr, type) : `NOT ${emptyExpr(expr, type)}`
  if (value === null) return op === 'eq' ? `${expr} IS NULL` : `${expr} IS NOT NULL`
  if (NEGATED.has(op)) return not(valuePredicate(expr, type, POSITIVE[op]!, value, params))
  const scalar = type as ScalarType
  switch (op) {
    case 'eq':
      return `${expr} = ${params.add(value, CAST[scalar])}`
    case 'ieq':
      return `lower(${expr}) = lower(${params.add(value, 'text')})`
    case 'like':
      return `${textExpr(expr, type)} ILIKE ${params.add(`%${escapeLike(String(value))}%`, 'text')}`
    case 'reg':
      return `${textExpr(expr, type)} ~ ${params.add(value, 'text')}`
    case 'ireg':
      return `${textExpr(expr, type)} ~* ${params.add(value, 'text')}`
    case 'cidr':
      return `${expr} <<= ${params.add(value, 'inet')}`
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return `${expr} ${COMPARE_SQL[op]} ${params.add(value, CAST[scalar])}`
    default:
      throw new Error(`unhandled operator ${op}`)
  }
}

/** Severity of a column: the highest-first CASE of each rule, the greatest over several rules. */
export function severityExpr(rules: readonly ColorRule[], params: Params): string {
  const cases = rules.map((rule) => {
    if (rule.checks.length === 0) return String(rule.fallback)
    const whens = rule.checks.map((check) => `WHEN ${filterExpr(check.filter, params)} THEN ${check.severity}`)
    return `CASE ${whens.join(' ')} ELSE ${rule.fallback} END`
  })
  return cases.length === 1 ? cases[0]! : `GREATEST(${cases.join(', ')})`
}

export interface FilterSqlContext {
  colors?: ReadonlyMap<string, readonly ColorRule[]>
}

function conditionExpr(cond: ValidCondition, params: Params, ctx: FilterSqlContext): string {
  const expr = columnExpr(cond.column)
  switch (cond.kind) {
    case 'value':
      return valuePredicate(expr, cond.column.type, cond.op, cond.value, params)
    case 'array': {
      const element = elementType(cond.column.type)!
      const inner = valuePredicate('e.v', element, cond.op, cond.value, params)
      return cond.quantifier === 'any'
        ? `EXISTS (SELECT 1 FROM unnest(${expr}) AS e(v) WHERE ${inner})`
        : `NOT EXISTS (SELECT 1 FROM unnest(${expr}) AS e(v) WHERE ${not(inner)})`
    }
    case 'column': {
      const positive = `${expr} ${COMPARE_SQL[cond.op]} ${columnExpr(cond.other)}`
      return cond.op === 'neq' ? not(positive) : positive
    }
    case 'color': {
      const rules = ctx.colors?.get(cond.column.name) ?? []
      const sev = severityExpr(rules, params)
      const positive = `(${sev}) ${COMPARE_SQL[cond.op]} ${params.add(cond.value, 'int4')}`
      return cond.op === 'neq' ? not(positive) : positive
    }
  }
}

/** A validated filter tree → one SQL boolean expression. Empty and/or lists impose nothing. */
export function filterExpr(filter: ValidFilter, params: Params, ctx: FilterSqlContext = {}): string {
  if (filter.kind === 'cond') return `(${conditionExpr(filter.cond, params, ctx)})`
  if (filter.children.length === 0) return 'true'
  const parts = filter.children.map((child) => filterExpr(child, params, ctx))
  return parts.length === 1 ? parts[0]! : `(${parts.join(filter.kind === 'and' ? ' AND ' : ' OR ')})`
}
