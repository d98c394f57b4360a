/**
 * The table request as the engine sees it after each stage: parsed (shape checked, names not yet
 * known to exist), validated (every name resolved against the table's catalog definition), planned
 * (SQL text plus parameters).
 */
import type { ColumnDef } from '../catalog/types.js'
import type { StatementSettings } from '../../shared/db/index.js'
import type { AttributeFilters, ValidAttributeFilter } from './attribute-filter.js'

/** Operators of a `[operator, value]` condition. */
export const VALUE_OPERATORS = [
  'eq', 'neq', 'ieq', 'nieq', 'like', 'notlike', 'reg', 'nreg', 'ireg', 'nireg',
  'gt', 'gte', 'lt', 'lte', 'empty', 'cidr',
] as const
export type ValueOperator = (typeof VALUE_OPERATORS)[number]

/** Operators allowed in `["column", op, other]` and `["color", op, severity]`. */
export const COMPARE_OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'] as const
export type CompareOperator = (typeof COMPARE_OPERATORS)[number]

export type Condition =
  | { kind: 'value'; op: ValueOperator; value: unknown }
  | { kind: 'column'; op: CompareOperator; other: string }
  | { kind: 'color'; op: CompareOperator; value: unknown }
  | { kind: 'array'; quantifier: 'any' | 'all'; op: ValueOperator; value: unknown }

/** A filter tree: several keys of one filter object are ANDed. */
export type FilterNode =
  | { kind: 'and' | 'or'; children: FilterNode[] }
  | { kind: 'cond'; column: string; cond: Condition; path: string }

export interface ParsedRequest {
  snapshot: string | undefined
  columns: string[]
  filters: FilterNode | undefined
  pagination: { start: number; limit: number | undefined } | undefined
  sort: { column: string; order: 'asc' | 'desc' } | undefined
  /** A web path ("/inventory/devices") or a list of rule ids. */
  reports: string | string[] | undefined
  /** True when the body asks for a CSV export. */
  csv: boolean
  /** `attributeFilters`: attribute name → accepted values (undefined when none). */
  attributeFilters?: AttributeFilters | undefined
  /** A comparison with an older snapshot (`compare.ts`); `volatile` compares volatile columns too. */
  compare?: { snapshot: string; volatile: boolean }
}

/** A condition whose columns are resolved and whose value is normalised for its SQL parameter. */
export type ValidCondition =
  | { kind: 'value'; column: ColumnDef; op: ValueOperator; value: unknown }
  | { kind: 'column'; column: ColumnDef; op: CompareOperator; other: ColumnDef }
  | { kind: 'color'; column: ColumnDef; op: CompareOperator; value: number }
  | { kind: 'array'; column: ColumnDef; quantifier: 'any' | 'all'; op: ValueOperator; value: unknown }

export type ValidFilter = { kind: 'and' | 'or'; children: ValidFilter[] } | { kind: 'cond'; cond: ValidCondition }

/** One colour rule reduced to what the planner needs: per severity, a validated filter. */
export interface ColorRule {
  id: string
  column: string
  /** Checks from the highest severity down; the first that matches gives the severity. */
  checks: Array<{ severity: number; filter: ValidFilter }>
  /** Severity when no check matches (-1 unless the rule sets a default colour). */
  fallback: number
}

export interface ValidRequest {
  columns: ColumnDef[]
  filter: ValidFilter | undefined
  start: number
  /** undefined: every row (CSV export without pagination). */
  limit: number | undefined
  /** The request named no `pagination.limit`: the server's default decided it (`_meta.truncated` when it left rows out). */
  limitDefaulted?: boolean
  sort: { column: ColumnDef; order: 'asc' | 'desc' }
  /** Columns that come back as `{data, severity}`, with their rules. */
  colors: Map<string, ColorRule[]>
  csv: boolean
  /** Rows kept by device attributes (`attributeFilters`). */
  attributes?: ValidAttributeFilter | undefined
}

export interface SqlPlan {
  /** Page (or whole export) query: selects `c0..cN` (columns) and `s0..sN` (severities). */
  select: { sql: string; params: unknown[] }
  /** Count query; `settings`: its own, where they differ from the page's. */
  count: { sql: string; params: unknown[]; settings?: StatementSettings }
  /** Output keys of c<i> columns, in order. */
  columnNames: string[]
  /** Column name → index of its `s<i>` severity output. */
  severityIndex: Map<string, number>
  /** PostgreSQL settings both statements run under (`SET LOCAL`, see `shared/db/settings.ts`), unless the count has its own. */
  settings?: StatementSettings
}
