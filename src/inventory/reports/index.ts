/** Intent (colour) reports: rules, groups, custom-rule store, results per snapshot. */
export { ReportService, type ReportServiceDeps } from './service.js'
export { BUILTIN_RULES, BUILTIN_GROUPS } from './builtin.js'
export { compileRule, validateRuleInput, tablePathOf, type FindTable, type RuleInput } from './compile.js'
export { tableResults } from './results.js'
export { REPORT_MIGRATIONS } from './migrations.js'
export type * from './types.js'
