/**
 * The column that says which device a table's row belongs to: the device serial of a part
 * (`deviceSn`), the `sn` of most tables, the local end of a neighbour row (`localSn`). Used by
 * `attributeFilters` and by removing or rediscovering devices of a snapshot.
 */
import type { ColumnDef, TableDef } from './types.js'

const DEVICE_KEYS = ['deviceSn', 'sn', 'localSn'] as const

/** The device column of a table, or undefined when its rows belong to no one device. */
export function deviceColumn(table: TableDef): ColumnDef | undefined {
  for (const name of DEVICE_KEYS) {
    const column = table.columns.find((c) => c.name === name)
    if (column && column.type === 'string') return column
  }
  return undefined
}
