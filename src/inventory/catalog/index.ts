/**
 * The table catalog: every table of the API, defined once. Validation, the query planner, the
 * storage DDL, the simulator, the table description endpoint and docs/tables.md all read it.
 */
import { storageName } from './columns.js'
import { TABLES } from './tables.js'
import type { ColumnDef, TableDef } from './types.js'

export type { ColumnDef, ColumnType, StoredTableDef, TableDef } from './types.js'
export { INVENTORY_SCHEMA, storageName } from './columns.js'
export { JOB_NAMES, LAST_SNAPSHOT_SQL } from './management.js'
export * from './ddl.js'

export { TABLES } from './tables.js'

const BY_PATH = new Map<string, TableDef>()
for (const table of TABLES) {
  for (const p of [table.path, ...(table.legacyPaths ?? [])]) {
    if (BY_PATH.has(p)) throw new Error(`duplicate table path ${p}`)
    BY_PATH.set(p, table)
  }
}

/** The table at an endpoint path (kebab-case, or a v4 camelCase legacy path); undefined if none. */
export function findTable(path: string): TableDef | undefined {
  return BY_PATH.get(path.replace(/^\/+|\/+$/g, ''))
}

/** A column of a table by API name. */
export function findColumn(table: TableDef, name: string): ColumnDef | undefined {
  return table.columns.find((c) => c.name === name)
}

/** The SQL expression of a column over the source alias `t`. */
export function columnSql(column: ColumnDef): string {
  return column.sql ?? `t."${storageName(column.name)}"`
}
export { deviceColumn } from './device-key.js'
