/**
 * Rules → what the query planner needs (validated filters per severity), and the validation of a
 * custom rule body: its checks are validated exactly like table filters, against its table.
 */
import type { TableDef } from '../catalog/types.js'
import { invalidInput } from '../../shared/errors.js'
import { parseFilter, resolveColumn, validateFilter, type ColorRule, type ValidFilter } from '../query/index.js'
import { NO_MATCH, SEVERITIES, type ReportGroup, type ReportRule, type Severity } from './types.js'

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

const COLORS = [NO_MATCH, 0, 10, 20, 30]
const KEYS = new Set(['name', 'apiEndpoint', 'webEndpoint', 'column', 'defaultColor', 'checks', 'descriptions', 'groups', 'id', 'custom', 'result'])

function fail(message: string): never {
  throw invalidInput([{ message }])
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function descriptionsOf(raw: unknown): ReportRule['descriptions'] {
  if (raw === undefined || raw === null) return {}
  if (!isObject(raw)) fail('"descriptions" must be an object')
  const out: ReportRule['descriptions'] = {}
  if (raw.general !== undefined) {
    if (typeof raw.general !== 'string' || raw.general.length > 2000) fail('"descriptions.general" must be a string of at most 2000 characters')
    out.general = raw.general
  }
  if (raw.checks !== undefined) {
    if (!isObject(raw.checks)) fail('"descriptions.checks" must be an object')
    out.checks = {}
    for (const [key, text] of Object.entries(raw.checks)) {
      if (!(SEVERITIES as readonly string[]).includes(key)) fail(`"descriptions.checks.${key}" is not allowed`)
      if (typeof text !== 'string' || text.length > 2000) fail(`"descriptions.checks.${key}" must be a string of at most 2000 characters`)
      out.checks[key as Severity] = text
    }
  }
  return out
}

/**
 * Validates a custom rule body. With `base` (PATCH) absent fields keep their value.
 * The checks are validated against the rule's table like table filters.
 */
export function validateRuleInput(body: unknown, findTable: FindTable, groups: readonly ReportGroup[], base?: RuleInput): RuleInput {
  if (!isObject(body)) fail('"value" must be of type object')
  for (const key of Object.keys(body)) if (!KEYS.has(key)) fail(`"${key}" is not allowed`)
  const name = body.name ?? base?.name
  if (typeof name !== 'string' || name.trim() === '' || name.length > 200) fail('"name" must be a non-empty string of at most 200 characters')
  let tablePath = base?.tablePath
  if (body.apiEndpoint !== undefined) {
    if (typeof body.apiEndpoint !== 'string') fail('"apiEndpoint" must be a string such as "/v1/tables/inventory/devices"')
    tablePath = findTable(tablePathOf(body.apiEndpoint))?.path
    if (!tablePath) fail('"apiEndpoint" must name a table, e.g. "/v1/tables/inventory/devices"')
  }
  if (!tablePath) fail('"apiEndpoint" is required')
  const table = findTable(tablePath)!
  const column = body.column ?? base?.column
  if (typeof column !== 'string') fail('"column" is required')
  resolveColumn(table, column, 'column')
  const defaultColor = body.defaultColor === undefined ? (base?.defaultColor ?? null) : body.defaultColor
  if (defaultColor !== null && !COLORS.includes(defaultColor as number)) fail(`"defaultColor" must be one of [${COLORS.join(', ')}] or null`)
  const checks = body.checks ?? base?.checks
  if (!isObject(checks) || Object.keys(checks).length === 0) fail('"checks" must be an object with at least one of the keys [0, 10, 20, 30]')
  for (const key of Object.keys(checks)) if (!(SEVERITIES as readonly string[]).includes(key)) fail(`"checks.${key}" is not allowed: keys are [0, 10, 20, 30]`)
  const groupIds = body.groups ?? base?.groups ?? ['custom']
  if (!Array.isArray(groupIds) || groupIds.length > 20) fail('"groups" must be an array of group ids')
  const known = groups.map((g) => g.id)
  const ids = groupIds.map((g, i) => {
    const id = isObject(g) ? g.id : g
    if (typeof id !== 'string' || !known.includes(id)) fail(`"groups[${i}]" must be one of [${known.join(', ')}]`)
    return id
  })
  const input: RuleInput = {
    name: name.trim(),
    tablePath,
    column,
    defaultColor: defaultColor as number | null,
    checks: checks as RuleInput['checks'],
    descriptions: body.descriptions === undefined ? (base?.descriptions ?? {}) : descriptionsOf(body.descriptions),
    groups: [...new Set(ids)],
  }
  compileRule(table, { ...input, id: 'new', custom: true })
  return input
}
