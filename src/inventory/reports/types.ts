/** Intent (colour) rules: the model COMPAT.md describes, as stored and as sent to clients. */

/** Severities a rule may check, highest first: 30 red, 20 amber, 10 blue, 0 green. */
export const SEVERITIES = ['30', '20', '10', '0'] as const
export type Severity = (typeof SEVERITIES)[number]

/** Severity of a value no check matched (unless the rule has a default colour). */
export const NO_MATCH = -1

export interface ReportGroup {
  id: string
  name: string
  description: string
}

/** A rule: per severity a filter object over the rule's table (the same filters as table requests). */
export interface ReportRule {
  id: string
  name: string
  /** Catalog path of the table, e.g. "inventory/devices". */
  tablePath: string
  /** Column whose values the rule colours. */
  column: string
  custom: boolean
  /** Severity of values no check matches; null → -1. */
  defaultColor: number | null
  checks: Partial<Record<Severity, Record<string, unknown>>>
  descriptions: { general?: string; checks?: Partial<Record<Severity, string>> }
  /** Group ids. */
  groups: string[]
}

/** Per-severity counts of one rule on one snapshot. */
export interface RuleResult {
  /** Rows of the table in the snapshot (null when no snapshot could be measured). */
  count: number | null
  /** Rows per checked severity, as decimal strings (the shape clients read). */
  checks: Partial<Record<Severity, string>>
}

/** A rule as `GET reports` sends it. */
export interface ApiReportRule {
  id: string
  name: string
  apiEndpoint: string
  webEndpoint: string
  column: string
  custom: boolean
  /** 1: the rule is active (every rule is computed on request; the 6.x SDK requires the field). */
  status: number
  defaultColor: number | null
  checks: ReportRule['checks']
  descriptions: ReportRule['descriptions']
  /** Groups the rule belongs to; `custom` is false (every group is built in). */
  groups: Array<{ id: string; name: string; custom: boolean }>
  /** Counts on the snapshot; `{count: null, checks: {}}` when there is none (the SDK requires the object). */
  result?: RuleResult
}
