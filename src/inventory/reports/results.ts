/**
 * Per-rule counts per severity on one snapshot, computed in the database: one scan per table,
 * whatever the number of rules on it.
 */
import type { TableDef } from '../catalog/types.js'
import { queryBefore, type Db, type Deadline } from '../../shared/db/index.js'
import { Params, mapDbError, severityExpr, sourceSql } from '../query/index.js'
import { compileRule } from './compile.js'
import { SEVERITIES, type ReportRule, type RuleResult, type Severity } from './types.js'

/**
 * Severities a rule's result counts: those it checks, and its default colour (rows no check
 * matched take it; clients fetch the rows of every severity the result names).
 */
function counted(rule: ReportRule, s: Severity): boolean {
  return rule.checks[s] !== undefined || rule.defaultColor === Number(s)
}

/** Counts of the rules of one table (all rules must belong to it). */
export async function tableResults(
  db: Db,
  table: TableDef,
  rules: readonly ReportRule[],
  snapshotId: string | undefined,
  deadline: Deadline,
): Promise<Map<string, RuleResult>> {
  const out = new Map<string, RuleResult>()
  if (rules.length === 0) return out
  const params = new Params()
  const severities = rules.map((rule, i) => `${severityExpr([compileRule(table, rule)], params)} AS s${i}`)
  const where = table.snapshotScoped ? ` WHERE t.snapshot_id = ${params.add(snapshotId, 'text')}` : ''
  const counts: string[] = ['count(*)::int8 AS n']
  rules.forEach((rule, i) => {
    for (const s of SEVERITIES) if (counted(rule, s)) counts.push(`count(*) FILTER (WHERE s${i} = ${Number(s)})::int8 AS r${i}_${s}`)
  })
  const sql = `SELECT ${counts.join(', ')} FROM (SELECT ${severities.join(', ')} FROM ${sourceSql(table, snapshotId === undefined ? undefined : { id: snapshotId, params })}${where}) x`
  let row: Record<string, number>
  try {
    row = (await queryBefore<Record<string, number>>(db, deadline, undefined, sql, params.values)).rows[0] ?? {}
  } catch (err) {
    throw mapDbError(err)
  }
  rules.forEach((rule, i) => {
    const checks: RuleResult['checks'] = {}
    for (const s of SEVERITIES) if (counted(rule, s)) checks[s] = String(Number(row[`r${i}_${s}`] ?? 0))
    out.set(rule.id, { count: Number(row.n ?? 0), checks })
  })
  return out
}
