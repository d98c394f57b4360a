/** The table query engine: parse → validate against the catalog → plan → execute. */
export { parseTableRequest, parseFilter, formatAsksCsv, MAX_FILTER_DEPTH, MAX_FILTER_CONDITIONS, MAX_FILTER_NODES, MAX_COLUMNS } from './parse.js'
export { validateRequest, validateFilter, resolveColumn, type FilterContext } from './validate.js'
export { planQuery, shapeRow, sourceSql } from './plan.js'
export { Params, filterExpr, severityExpr, columnExpr } from './sql-filter.js'
export { executePlan, mapDbError } from './execute.js'
export { streamCsv, csvLine, csvField } from './csv.js'
export { OPERATORS_BY_TYPE } from './operators.js'
export { CHANGE_KINDS, COMPARISON_SETTINGS, changeCountSql, comparedColumns, comparisonSql, comparisonTable, notComparable, type ChangeKind, type ComparedSnapshots } from './compare.js'
export {
  prepareTableQuery,
  runTableQuery,
  streamTableCsv,
  queryTable,
  type TableQueryDeps,
  type QueryLimits,
  type TableResponse,
  type PreparedQuery,
} from './engine.js'
export type * from './types.js'
export { describeTable, renderTablesDoc, summarizeTable, type TableDescription, type TableSummary } from './describe.js'
export { QueryAdmission, queryAdmission, type Admitted } from './admission.js'
export { COMPARABLE_TABLES, countChanges, forgetChanges, keepChanges, type TableChanges } from './change-counts.js'
export { backgroundKeeping, keepOnce, trackBackground } from './keeping.js'
