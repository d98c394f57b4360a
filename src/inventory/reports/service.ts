/**
 * Intent rules for the routes and the query engine: built-in rules (code) plus custom rules
 * (database), their selection by a table request's `reports`, and their results on a snapshot.
 */
import type { TableDef } from '../catalog/types.js'
import { Deadline, type Db } from '../../shared/db/index.js'
import { ApiError, invalidInput, notFound } from '../../shared/errors.js'
import { mapDbError, type ColorRule } from '../query/index.js'
import { BUILTIN_GROUPS, BUILTIN_RULES } from './builtin.js'
import { compileRule, regexesOf, validateRuleInput, type FindTable, type RuleInput } from './compile.js'
import { tableResults } from './results.js'
import { ruleCreate, rulePatch } from './schema.js'
import { RuleStore } from './store.js'
import type { ApiReportRule, ReportGroup, ReportRule, RuleResult } from './types.js'

/** `status` of a rule as clients read it: every rule is active. */
export const RULE_ACTIVE = 1

export interface ReportServiceDeps {
  db: Db
  findTable: FindTable
  now?: () => number
  /** Statement timeout of the result queries (default 30 s). */
  statementTimeoutMs?: number
}

async function sequential<T>(jobs: ReadonlyArray<() => Promise<T>>): Promise<T[]> {
  const out: T[] = []
  for (const job of jobs) out.push(await job())
  return out
}

export class ReportService {
  private readonly store: RuleStore
  private readonly timeoutMs: number
  constructor(private readonly deps: ReportServiceDeps) {
    this.store = new RuleStore(deps.db, deps.now)
    this.timeoutMs = deps.statementTimeoutMs ?? 30000
  }

  groups(): readonly ReportGroup[] {
    return BUILTIN_GROUPS
  }

  /**
   * Built-in rules whose table is in the catalog, then custom rules that still fit it (a rule
   * saved against an older catalog that no longer validates is left out rather than failing
   * every listing).
   */
  async rules(): Promise<ReportRule[]> {
    const fits = (rule: ReportRule): boolean => {
      const table = this.deps.findTable(rule.tablePath)
      if (!table) return false
      try {
        compileRule(table, rule)
        return true
      } catch {
        return false
      }
    }
    return [...BUILTIN_RULES.filter(fits), ...(await this.store.list()).filter(fits)]
  }

  async get(id: string): Promise<ReportRule> {
    const rule = BUILTIN_RULES.find((r) => r.id === id) ?? (await this.store.get(id))
    if (!rule || !this.deps.findTable(rule.tablePath)) throw notFound(`Report ${JSON.stringify(id).slice(0, 80)} not found`)
    return rule
  }

  /** Compiles a rule body against its table; the database checks its regular expressions. */
  private async checked(input: RuleInput): Promise<RuleInput> {
    const compiled = compileRule(this.deps.findTable(input.tablePath)!, { ...input, id: 'new', custom: true })
    for (const pattern of regexesOf(compiled)) {
      try {
        await this.deps.db.withStatementTimeout(this.timeoutMs).query("SELECT '' ~ $1::text AS ok", [pattern])
      } catch (err) {
        throw mapDbError(err)
      }
    }
    return input
  }

  async create(body: unknown, createdBy: string | null): Promise<ReportRule> {
    return this.store.create(await this.checked(validateRuleInput(ruleCreate.parse(body), this.deps.findTable)), createdBy)
  }

  async update(id: string, body: unknown): Promise<ReportRule> {
    const rule = await this.get(id)
    if (!rule.custom) throw new ApiError('API_CONFLICT', 'Built-in rules cannot be changed')
    const updated = await this.store.update(id, await this.checked(validateRuleInput(rulePatch.parse(body), this.deps.findTable, rule)))
    if (!updated) throw notFound(`Report ${id} not found`)
    return updated
  }

  async remove(id: string): Promise<void> {
    const rule = await this.get(id)
    if (!rule.custom) throw new ApiError('API_CONFLICT', 'Built-in rules cannot be deleted')
    await this.store.remove(id)
  }

  /**
   * Rules a table request's `reports` selects on `table`: a web path selects every rule of the
   * table shown there; a list selects rules by id (ids of other tables' rules are ignored).
   */
  async rulesFor(table: TableDef, reports: string | readonly string[]): Promise<ColorRule[]> {
    const rules = await this.rules()
    const all = rules.filter((r) => r.tablePath === table.path)
    let chosen: ReportRule[]
    if (typeof reports === 'string') {
      const web = `/${reports.replace(/^\/+|\/+$/g, '')}`
      chosen = web === table.webPath.replace(/\/+$/, '') ? all : []
    } else {
      const known = new Set(rules.map((r) => r.id))
      reports.forEach((id, i) => {
        if (!known.has(id)) throw invalidInput([{ message: `"reports[${i}]" is not a known report id` }])
      })
      chosen = all.filter((r) => reports.includes(r.id))
    }
    return chosen.map((r) => compileRule(table, r))
  }

  /** Results of rules on a snapshot: one scan per table, the tables at once on PostgreSQL. */
  /** Results of `rules` on a snapshot; every table's count before one deadline (by default the limit from now). */
  async results(rules: readonly ReportRule[], snapshotId: string | undefined, deadline = Deadline.after(this.timeoutMs)): Promise<Map<string, RuleResult>> {
    const byTable = new Map<string, ReportRule[]>()
    for (const rule of rules) byTable.set(rule.tablePath, [...(byTable.get(rule.tablePath) ?? []), rule])
    const jobs = [...byTable].flatMap(([path, list]) => {
      const table = this.deps.findTable(path)
      if (!table || (table.snapshotScoped && snapshotId === undefined)) return []
      return [() => tableResults(this.deps.db, table, list, snapshotId, deadline)]
    })
    const parts = this.deps.db.kind === 'postgres' ? await Promise.all(jobs.map((job) => job())) : await sequential(jobs)
    return new Map(parts.flatMap((part) => [...part]))
  }

  /** The client shape of a rule, with its result when known. */
  toApi(rule: ReportRule, result?: RuleResult | null): ApiReportRule {
    const table = this.deps.findTable(rule.tablePath)
    const api: ApiReportRule = {
      id: rule.id,
      name: rule.name,
      apiEndpoint: `/v1/tables/${rule.tablePath}`,
      webEndpoint: table?.webPath ?? '',
      column: rule.column,
      custom: rule.custom,
      status: RULE_ACTIVE,
      defaultColor: rule.defaultColor,
      checks: rule.checks,
      descriptions: rule.descriptions,
      groups: rule.groups.map((id) => ({ id, name: BUILTIN_GROUPS.find((g) => g.id === id)?.name ?? id, custom: false })),
    }
    if (result !== undefined) api.result = result ?? { count: null, checks: {} }
    return api
  }
}
