/**
 * Small builders for catalog definitions, so each table group reads as a list of columns.
 * Column storage names are the snake_case of the API name unless `sql` is set.
 */
import type { ColumnDef, ColumnType } from './types.js'

/** The schema every inventory storage table and relation lives in. */
export const INVENTORY_SCHEMA = 'inventory'

/** A relation of the inventory schema by its unquoted name, quoted for SQL: inventory."<name>". */
export function inventoryRelation(name: string): string {
  return `${INVENTORY_SCHEMA}."${name}"`
}

/** One column. */
export function col(name: string, type: ColumnType, description: string, extra: Partial<Omit<ColumnDef, 'name' | 'type' | 'description'>> = {}): ColumnDef {
  return { name, type, description, ...extra }
}

/** API name → storage column name: "memoryTotalBytes" → "memory_total_bytes". */
export function storageName(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
}

/** A text as an SQL string literal. */
export function sqlLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`
}

/** The row id every table carries (clients count rows with `columns: ["id"]`). */
export function idColumn(what: string): ColumnDef {
  return col('id', 'string', `Stable identifier of the ${what} within its snapshot.`)
}

/** Serial number, hostname and site of the device a row belongs to. */
export function deviceColumns(): ColumnDef[] {
  return [
    col('sn', 'string', 'Serial number of the device the row was collected from (unique per snapshot).'),
    col('hostname', 'string', 'Hostname of the device.'),
    col('siteName', 'string', 'Site the device belongs to.'),
  ]
}

export const DEVICE_TYPES = ['router', 'switch', 'l3switch', 'fw', 'ap', 'wlc', 'lb'] as const
