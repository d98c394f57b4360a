/**
 * Rules → what the query planner needs (validated filters per severity), and what the schema of
 * a custom rule body (schema.ts) cannot check: its checks are validated exactly like table
 * filters, against its table.
 */
import type { TableDef } from '../catalog/types.js'
import { invalidInput } from '../../shared/errors.js'
import { parseFilter, resolveColumn, validateFilter, type ColorRule, type ValidFilter } from '../query/index.js'
import type { RuleBody } from './schema.js'
import { NO_MATCH, SEVERITIES, type ReportRule } from './types.js'

export type FindTable = (path: string) => TableDef | undefined

/** A rule's checks compiled against its table, highest severity first. */
export function compileRule(table: TableDef, rule: ReportRule): ColorRule {
  resolveColumn(table, rule.column, 'column')
  const checks = SEVERITIES.filter((s) => rule.checks[s] !== undefined).map((s) => ({
    severity: Number(s),
    filter: validateFilter(parseFilter(rule.checks[s], `checks.${s}`), { table }),
  }))
  return { id: rule.id, column: rule.column, checks, fallback: rule.defaultColor ?? NO_MATCH }
}

const REGEX_OPS = new Set(['reg', 'nreg', 'ireg', 'nireg'])

/** Regular expressions a compiled rule uses (checked by the database when a rule is saved). */
export function regexesOf(rule: ColorRule): string[] {
  const out: string[] = []
  const walk = (f: ValidFilter): void => {
    if (f.kind !== 'cond') return f.children.forEach(walk)
    const c = f.cond
    if ((c.kind === 'value' || c.kind === 'array') && REGEX_OPS.has(c.op)) out.push(String(c.value))
  }
  rule.checks.forEach((check) => walk(check.filter))
  return out
}

/** "/v1/tables/inventory/devices", "/api/v1/tables/…", "tables/…" or "inventory/devices" → catalog path. */
export function tablePathOf(apiEndpoint: string): string {
  return apiEndpoint.replace(/^\/+/, '').replace(/^api\//, '').replace(/^v\d+(\.\d+)?\//, '').replace(/^tables\//, '').replace(/\/+$/, '')
}

export type RuleInput = Pick<ReportRule, 'name' | 'tablePath' | 'column' | 'defaultColor' | 'checks' | 'descriptions' | 'groups'>

function fail(message: string): never {
  throw invalidInput([{ message }])
}

function descriptionsOf(raw: RuleBody['descriptions']): ReportRule['descriptions'] {
  if (raw === undefined || raw === null) return {}
  const out: ReportRule['descriptions'] = {}
  if (raw.general !== undefined) out.general = raw.general
  if (raw.checks !== undefined) out.checks = Object.fromEntries(Object.entries(raw.checks).filter(([, text]) => text !== undefined))
  return out
}

/**
 * Applies a custom rule body checked against its schema (schema.ts); with `base` (PATCH)
 * absent fields keep their value. What depends on the rule's table is checked here: that
 * `apiEndpoint` names a table, the column, and the checks like table filters.
 */
export function validateRuleInput(body: RuleBody, findTable: FindTable, base?: RuleInput): RuleInput {
  const name = body.name ?? base?.name
  if (name === undefined) fail('"name" must be a non-empty string of at most 200 characters')
  let tablePath = base?.tablePath
  if (body.apiEndpoint !== undefined) {
    tablePath = findTable(tablePathOf(body.apiEndpoint))?.path
    if (!tablePath) fail('"apiEndpoint" must name a table, e.g. "/v1/tables/inventory/devices"')
  }
  if (!tablePath) fail('"apiEndpoint" is required')
  const table = findTable(tablePath)!
  const column = body.column ?? base?.column
  if (column === undefined) fail('"column" is required')
  resolveColumn(table, column, 'column')
  const checks = body.checks ?? base?.checks
  if (checks === undefined) fail(`"checks" must be an object with at least one of the keys [0, 10, 20, 30]`)
  const groupIds = (body.groups ?? base?.groups ?? ['custom']).map((g) => (typeof g === 'string' ? g : g.id))
  const input: RuleInput = {
    name: name.trim(),
    tablePath,
    column,
    defaultColor: body.defaultColor === undefined ? (base?.defaultColor ?? null) : body.defaultColor,
    checks: checks as RuleInput['checks'],
    descriptions: body.descriptions === undefined ? (base?.descriptions ?? {}) : descriptionsOf(body.descriptions),
    groups: [...new Set(groupIds)],
  }
  compileRule(table, { ...input, id: 'new', custom: true })
  return input
}
