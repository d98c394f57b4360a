/** Rows given as objects keyed by API column name, turned into values in storage column order. */
import { storageColumns, type StoredTableDef } from '../catalog/index.js'

export function* objectValues(table: StoredTableDef, rows: Iterable<Record<string, unknown>>): Generator<unknown[]> {
  const names = storageColumns(table).map((c) => c.name)
  for (const row of rows) yield names.map((n) => row[n] ?? null)
}
