/**
 * Figures of a snapshot measured from its own rows once they are in (discovery, import, clone),
 * whatever source filled them: sizes of its partitions and the interface, edge and user counts of
 * tables/management/snapshots, and the rows of each stored table (what a request without filters
 * answers as its count, `query/plan.ts`). Partitions are read by name, so attached or not.
 */
import type { Db, Queryable } from '../../shared/db/index.js'
import { STORED_TABLES, partitionName, partitionTable } from '../catalog/index.js'
import { HOSTS, MAC } from '../catalog/addressing.js'
import { INTERFACES } from '../catalog/inventory.js'
import type { TableDef } from '../catalog/types.js'
import type { Params } from '../query/sql-filter.js'
import { updateSnapshot } from './store.js'

export interface SnapshotMeasures {
  loaded_size: number
  unloaded_size: number
  interface_active_count: number
  interface_edge_count: number
  user_count: number
  /** Rows per stored table (path → rows). */
  row_counts: Record<string, number>
}

export async function measureSnapshot(db: Queryable, id: string): Promise<SnapshotMeasures> {
  // each partition of the snapshot with its sizes; a table added by a later release has none in an
  // older snapshot: it reads as empty
  const partitions = await db.query<{ relname: string; loaded: string; unloaded: string }>(
    `SELECT c.relname, pg_total_relation_size(c.oid)::text AS loaded, pg_table_size(c.oid)::text AS unloaded
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'inventory' AND c.relname = ANY($1)`,
    [STORED_TABLES.map((t) => partitionName(t, id))],
  )
  const counts = await db.query<{ active: string; edge: string; users: string }>(
    `SELECT (SELECT count(*) FROM ${partitionTable(INTERFACES, id)} WHERE l2 = 'up')::text AS active,
            (SELECT count(*) FROM (SELECT DISTINCT sn, int_name FROM ${partitionTable(MAC, id)} WHERE edge) e)::text AS edge,
            (SELECT count(DISTINCT mac) FROM ${partitionTable(HOSTS, id)})::text AS users`,
  )
  const names = new Set(partitions.rows.map((r) => r.relname))
  const counted = STORED_TABLES.filter((t) => names.has(partitionName(t, id)))
  const rows = counted.length === 0 ? { rows: [] } : await db.query<{ path: string; n: string }>(
    counted.map((t, i) => `SELECT $${i + 1}::text AS path, count(*)::text AS n FROM ${partitionTable(t, id)}`).join(' UNION ALL '),
    counted.map((t) => t.path),
  )
  const c = counts.rows[0]!
  const rowCounts: Record<string, number> = Object.fromEntries(STORED_TABLES.map((t) => [t.path, 0]))
  for (const { path, n } of rows.rows) rowCounts[path] = Number(n)
  return {
    loaded_size: partitions.rows.reduce((sum, r) => sum + Number(r.loaded), 0),
    unloaded_size: partitions.rows.reduce((sum, r) => sum + Number(r.unloaded), 0),
    interface_active_count: Number(c.active),
    interface_edge_count: Number(c.edge),
    user_count: Number(c.users),
    row_counts: rowCounts,
  }
}

/** Measures a snapshot and stores the figures in its bookkeeping row. */
export async function recordMeasures(db: Queryable, id: string): Promise<SnapshotMeasures> {
  const m = await measureSnapshot(db, id)
  await updateSnapshot(db, id, { ...m })
  return m
}

/**
 * Snapshots finished before the figures existed (size 0, or no rows per table) are measured once
 * at start; returns how many. A snapshot whose partitions are gone is skipped.
 */
export async function backfillMeasures(db: Db): Promise<number> {
  const r = await db.query<{ id: string }>("SELECT id FROM inventory.snapshots WHERE status = 'done' AND (loaded_size = 0 OR row_counts IS NULL) AND NOT loading")
  let n = 0
  for (const { id } of r.rows) {
    const exists = await db.query('SELECT 1 FROM pg_class WHERE relname = $1', [partitionName(INTERFACES, id)])
    if (exists.rows.length === 0) continue
    await recordMeasures(db, id)
    n++
  }
  return n
}

/**
 * The rows of a stored table in a snapshot as measured with them (`row_counts`), or NULL where
 * they were not measured yet: what a table request without filters answers as its count.
 */
export function countedRowsSql(table: TableDef, snapshotId: string, params: Params): string | undefined {
  if (table.source.kind !== 'stored') return undefined
  const id = params.add(snapshotId, 'text')
  return `SELECT (s.row_counts ->> ${params.add(table.path, 'text')})::int8 FROM inventory.snapshots s WHERE s.id = ${id}`
}
