/**
 * A snapshot's rows on disk: one partition per stored table. Loading creates each partition
 * detached, bulk-loads it with COPY, builds its indexes, and attaches all of them at the end,
 * so a half-loaded snapshot is never visible. Unloading detaches (rows kept, invisible to
 * queries), loading re-attaches (instant: a CHECK constraint spares the validation scan),
 * deleting drops the partitions (cheap at any size), cloning copies them.
 */
import type { Db, Queryable } from '../../shared/db/index.js'
import {
  STORED_TABLES,
  attachPartitionSql,
  copyIntoSql,
  createPartitionSql,
  dropPartitionSql,
  partitionIndexSql,
  partitionName,
  partitionTable,
  storageColumns,
  type StoredTableDef,
} from '../catalog/index.js'
import { csvChunks } from './csv.js'

/** Rows of one table: values in `storageColumns(table)` order. */
export interface TableRows {
  table: StoredTableDef
  rows: AsyncIterable<readonly unknown[]> | Iterable<readonly unknown[]>
}

export type ProgressFn = (table: StoredTableDef, rowsSoFar: number) => void | Promise<void>

async function partitionExists(db: Queryable, table: StoredTableDef, snapshotId: string): Promise<{ exists: boolean; attached: boolean }> {
  const r = await db.query<{ attached: boolean }>(
    `SELECT c.relispartition AS attached FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'inventory' AND c.relname = $1`,
    [partitionName(table, snapshotId)],
  )
  return { exists: r.rows.length > 0, attached: r.rows[0]?.attached === true }
}

async function* counted(
  rows: AsyncIterable<readonly unknown[]> | Iterable<readonly unknown[]>,
  onRow: (n: number) => void | Promise<void>,
): AsyncGenerator<readonly unknown[]> {
  let n = 0
  for await (const r of rows) {
    yield r
    n++
    if (n % 50000 === 0) await onRow(n)
  }
  await onRow(n)
}

/**
 * Loads a snapshot's tables, in the order the source yields them, then attaches every
 * partition (tables the source skipped get an empty one). Returns rows per table path. On
 * failure every partition created here is dropped and the error rethrown.
 */
export async function loadSnapshotRows(
  db: Db,
  snapshotId: string,
  source: AsyncIterable<TableRows> | Iterable<TableRows>,
  onProgress: ProgressFn = () => {},
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  const created: StoredTableDef[] = []
  try {
    for await (const { table, rows } of source) {
      if (counts[table.path] !== undefined) throw new Error(`table ${table.path} given twice`)
      await db.query(createPartitionSql(table, snapshotId))
      created.push(table)
      let total = 0
      const prefix = `"${snapshotId}"`
      const tracked = counted(rows, async (n) => {
        total = n
        await onProgress(table, n)
      })
      await db.copyFrom(copyIntoSql(table, snapshotId), csvChunks(tracked, storageColumns(table), prefix))
      counts[table.path] = total
      for (const sql of partitionIndexSql(table, snapshotId)) await db.query(sql)
    }
    for (const table of STORED_TABLES) {
      if (created.includes(table)) continue
      await db.query(createPartitionSql(table, snapshotId))
      created.push(table)
      for (const sql of partitionIndexSql(table, snapshotId)) await db.query(sql)
      counts[table.path] = 0
    }
    await attachSnapshot(db, snapshotId)
    return counts
  } catch (err) {
    for (const table of created) await db.query(dropPartitionSql(table, snapshotId)).catch(() => {})
    throw err
  }
}

/** Makes a snapshot's rows visible to queries (idempotent). */
export async function attachSnapshot(db: Db, snapshotId: string): Promise<void> {
  await db.transaction(async (tx) => {
    for (const table of STORED_TABLES) {
      const state = await partitionExists(tx, table, snapshotId)
      if (!state.exists) throw new Error(`snapshot ${snapshotId} has no partition of ${table.path}`)
      if (!state.attached) await tx.query(attachPartitionSql(table, snapshotId))
    }
  })
}

/** Hides a snapshot's rows from queries without deleting them (idempotent). */
export async function detachSnapshot(db: Db, snapshotId: string): Promise<void> {
  await db.transaction(async (tx) => {
    for (const table of STORED_TABLES) {
      const state = await partitionExists(tx, table, snapshotId)
      if (state.attached) await tx.query(`ALTER TABLE ${table.source.table} DETACH PARTITION ${partitionTable(table, snapshotId)}`)
    }
  })
}

/** Deletes a snapshot's rows: drops its partitions, attached or not. */
export async function dropSnapshotRows(db: Db, snapshotId: string): Promise<void> {
  for (const table of STORED_TABLES) await db.query(dropPartitionSql(table, snapshotId))
}

/** Copies every partition of `fromId` into new partitions of `toId` (attached when done). */
export async function cloneSnapshotRows(db: Db, fromId: string, toId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  const created: StoredTableDef[] = []
  try {
    for (const table of STORED_TABLES) {
      await db.query(createPartitionSql(table, toId))
      created.push(table)
      const cols = storageColumns(table).map((c) => `"${c.storage}"`).join(', ')
      const r = await db.query(
        `INSERT INTO ${partitionTable(table, toId)} (snapshot_id, ${cols}) SELECT $1, ${cols} FROM ${partitionTable(table, fromId)}`,
        [toId],
      )
      counts[table.path] = r.rowCount
      for (const sql of partitionIndexSql(table, toId)) await db.query(sql)
    }
    await attachSnapshot(db, toId)
    return counts
  } catch (err) {
    for (const table of created) await db.query(dropPartitionSql(table, toId)).catch(() => {})
    throw err
  }
}

/** Streams a table's rows of a snapshot (attached or not) in id order, values in storage order. */
export async function streamSnapshotRows(
  db: Db,
  table: StoredTableDef,
  snapshotId: string,
  onBatch: (rows: unknown[][]) => Promise<void>,
  batchSize = 2000,
): Promise<void> {
  const cols = storageColumns(table)
  const list = cols.map((c) => `"${c.storage}"`).join(', ')
  await db.stream<Record<string, unknown>>(`SELECT ${list} FROM ${partitionTable(table, snapshotId)} ORDER BY id COLLATE "C"`, [], batchSize, async (rows) => {
    await onBatch(rows.map((r) => cols.map((c) => r[c.storage] ?? null)))
  })
}
