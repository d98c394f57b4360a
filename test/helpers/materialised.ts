/**
 * Checks of materialised tables (`catalog/materialised.ts`) against the SQL they replace.
 */
import type { Test } from 'tap'
import type { Db } from '../../src/shared/db/index.js'
import { materialisedPartition, materialisedPartitionName, materialisedTables, type MaterialisedTableDef } from '../../src/inventory/catalog/materialised.js'
import { relationState } from '../../src/inventory/storage/snapshot-relations.js'

/** Rows as sorted JSON texts: a multiset to compare. */
export async function rowsOf(db: Db, sql: string): Promise<string[]> {
  const r = await db.query<{ j: string }>(`SELECT row_to_json(x)::text AS j FROM (${sql}) x`)
  return r.rows.map((row) => row.j).sort()
}

const viewRows = (db: Db, table: MaterialisedTableDef, id: string) => rowsOf(db, `SELECT * FROM (${table.source.sql}) v WHERE v.snapshot_id = '${id}'`)

/** Every materialised table's kept partition is attached and holds exactly the rows its SQL yields now. */
export async function checkKept(t: Test, db: Db, id: string, when: string, tables: readonly MaterialisedTableDef[] = materialisedTables()): Promise<void> {
  for (const table of tables) {
    t.ok((await relationState(db, materialisedPartitionName(table, id))).attached, `${when}: ${table.path} is kept`)
    t.same(await rowsOf(db, `SELECT * FROM ${materialisedPartition(table, id)}`), await viewRows(db, table, id), `${when}: ${table.path} kept rows are its SQL's`)
  }
}

