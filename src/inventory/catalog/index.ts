/**
 * The table catalog: every table of the API, defined once. Validation, the query planner, the
 * storage DDL, the simulator, the table description endpoint and docs/tables.md all read it.
 */
import { ADDRESSING_TABLES } from './addressing.js'
import { INVENTORY_TABLES } from './inventory.js'
import { LAYER2_TABLES } from './layer2.js'
import { MANAGEMENT_TABLES } from './management.js'
import { ROUTING_TABLES } from './routing.js'
import { storageName } from './columns.js'
import type { ColumnDef, TableDef } from './types.js'

export type { ColumnDef, ColumnType, StoredTableDef, TableDef } from './types.js'
export { INVENTORY_SCHEMA, storageName } from './columns.js'
export { LAST_SNAPSHOT_SQL } from './management.js'
export * from './ddl.js'

export const TABLES: readonly TableDef[] = [...INVENTORY_TABLES, ...ADDRESSING_TABLES, ...ROUTING_TABLES, ...LAYER2_TABLES, ...MANAGEMENT_TABLES]

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
