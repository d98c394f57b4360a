/**
 * The order in which a discovery's keeping takes the tables when it keeps several at once
 * (`keepChanges`): the heaviest first, weighed by what the relations they read of the two
 * snapshots hold on disk, and those kept from another table's kept rows (`rowFrom`) last, once
 * that table is kept. Each lane takes the next table when it is free, so with the heavy tables
 * first the lanes end within a small table of each other. In catalog order a lane waited for the
 * counters' keeping before the views computed from them could start, and the MTU and radio views,
 * which read both snapshots' interfaces, came last, one lane idle meanwhile (docs/architecture.md).
 */
import type { Queryable } from '../../shared/db/index.js'
import { STORED_TABLES, partitionName, type StoredTableDef, type TableDef } from '../catalog/index.js'
import { isMaterialised, materialisedPartitionName } from '../catalog/materialised.js'
import type { ComparedSnapshots } from './compare.js'
import { baseRelation } from './kept-comparison.js'

const READS = new Map<TableDef, readonly StoredTableDef[]>()

/** The stored tables a derived table's SQL reads. */
function storedTablesRead(table: TableDef): readonly StoredTableDef[] {
  if (table.source.kind === 'stored') return [table as StoredTableDef]
  let read = READS.get(table)
  if (!read) {
    const sql = table.source.sql
    read = STORED_TABLES.filter((t) => baseRelation(t.source.table).test(sql))
    READS.set(table, read)
  }
  return read
}

/** The names of the relations of one snapshot a table's comparison reads. */
function relationsRead(table: TableDef, snapshotId: string): string[] {
  if (isMaterialised(table)) return [materialisedPartitionName(table, snapshotId)]
  return storedTablesRead(table).map((t) => partitionName(t, snapshotId))
}

/** `tables` in the order to keep them for the pair, several at a time. */
export async function keepingOrder(db: Queryable, pair: ComparedSnapshots, tables: readonly TableDef[]): Promise<TableDef[]> {
  // the views kept from another's kept rows read nothing of the snapshots (undefined): after all the others
  const reads = new Map(tables.map((t) => [t, t.rowFrom === undefined ? [pair.older, pair.newer].flatMap((id) => relationsRead(t, id)) : undefined]))
  const r = await db.query<{ relname: string; bytes: string }>(
    `SELECT c.relname, pg_table_size(c.oid)::text AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'inventory' AND c.relname = ANY($1)`,
    [[...new Set([...reads.values()].flatMap((names) => names ?? []))]],
  )
  const bytes = new Map(r.rows.map((row) => [row.relname, Number(row.bytes)]))
  const weights = new Map([...reads].map(([t, names]) => [t, names === undefined ? -1 : names.reduce((sum, name) => sum + (bytes.get(name) ?? 0), 0)]))
  return [...tables].sort((a, b) => weights.get(b)! - weights.get(a)!)
}
