/**
 * A snapshot's rows on disk: one partition per stored table. Loading creates each partition
 * detached, bulk-loads it with COPY, builds its indexes, and attaches all of them at the end,
 * so a half-loaded snapshot is never visible. Unloading detaches (rows kept, invisible to
 * queries), loading re-attaches (instant: a CHECK constraint spares the validation scan),
 * deleting drops the partitions (cheap at any size), cloning copies them. A table added by a later
 * release has no partition in older snapshots: it reads as empty, and gets an empty partition when
 * the snapshot is attached or cloned.
 */
import type { Db, Queryable } from '../../shared/db/index.js'
import {
  STORED_TABLES,
  attachPartitionSql,
  computeSql,
  fillSql,
  partitionColumns,
  copyIntoSql,
  createPartitionSql,
  dropPartitionSql,
  isComputed,
  partitionIndexSql,
  partitionName,
  partitionTable,
  storageColumns,
  type StoredTableDef,
} from '../catalog/index.js'
import { attachRelations, backfillLoaded, detachRelations, relationState } from './snapshot-relations.js'
import { dropMaterialised } from './materialised.js'
import { companionBuildJobs, companionDropSql, computedOf } from './computed.js'
import { csvChunks } from './csv.js'

/** Rows of one table: values in `storageColumns(table)` order. */
export interface TableRows {
  table: StoredTableDef
  rows: AsyncIterable<readonly unknown[]> | Iterable<readonly unknown[]>
}

export type ProgressFn = (table: StoredTableDef, rowsSoFar: number) => void | Promise<void>

async function partitionExists(db: Queryable, table: StoredTableDef, snapshotId: string): Promise<{ exists: boolean; attached: boolean }> {
  return relationState(db, partitionName(table, snapshotId))
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
 * Loads a snapshot's rows and attaches every partition at the end, so a half-loaded snapshot is
 * never visible. The source yields slices of tables in any order; a table may come back (the
 * simulator yields every table per batch of sites, so each site is modelled once): its first
 * slice creates the partition, each slice is one COPY. Tables the source never named get an
 * empty partition; then computed tables are filled from the others. Indexes are built and
 * statistics gathered after all rows are in — `concurrency` at a time on PostgreSQL. Returns rows per table path. On failure
 * every partition created here is dropped.
 */
export async function loadSnapshotRows(
  db: Db,
  snapshotId: string,
  source: AsyncIterable<TableRows> | Iterable<TableRows>,
  onProgress: ProgressFn = () => {},
  concurrency = 1,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  const created: StoredTableDef[] = []
  try {
    for await (const { table, rows } of source) {
      if (isComputed(table)) throw new TypeError(`${table.path} is computed from the other tables and cannot be loaded`)
      if (!created.includes(table)) {
        created.push(table)
        await db.query(createPartitionSql(table, snapshotId))
        counts[table.path] = 0
      }
      const before = counts[table.path]!
      const tracked = counted(rows, async (n) => {
        counts[table.path] = before + n
        await onProgress(table, before + n)
      })
      await db.copyFrom(copyIntoSql(table, snapshotId), csvChunks(tracked, storageColumns(table), `"${snapshotId}"`))
    }
    for (const table of STORED_TABLES) {
      if (created.includes(table)) continue
      created.push(table)
      counts[table.path] = await createPartition(db, table, snapshotId)
    }
    // columns set once the rows are in (before the indexes: no index to update)
    for (const table of created) for (const sql of fillSql(table, snapshotId)) await db.query(sql)
    // each job a list of statements run in order: an index, a table's positions or value counts
    // (detached), or its statistics, which the planner needs from the first statement that reads the rows: the
    // materialised tables computed as they are attached, the comparison kept right after
    const queue: string[][] = [
      ...created.flatMap((table) => partitionIndexSql(table, snapshotId).map((sql) => [sql])),
      ...companionBuildJobs(snapshotId),
      ...created.map((table) => [analyzeSql(table, snapshotId)]),
    ]
    const worker = async () => {
      for (let job = queue.shift(); job !== undefined; job = queue.shift()) for (const sql of job) await db.query(sql)
    }
    await Promise.all(Array.from({ length: db.kind === 'postgres' ? Math.max(1, concurrency) : 1 }, worker))
    await attachSnapshot(db, snapshotId)
    return counts
  } catch (err) {
    for (const table of created) await db.query(dropPartitionSql(table, snapshotId)).catch(() => {})
    for (const sql of companionDropSql(snapshotId)) await db.query(sql).catch(() => {})
    throw err
  }
}

/**
 * Gathers a partition's statistics. Without them the planner guesses: on "huge" it probed the
 * 7.8 M switch ports by interface name for each of 286,535 neighbours (a materialised table's
 * SQL, still running after 6 minutes); with them the same statement took 29 s.
 */
function analyzeSql(table: StoredTableDef, snapshotId: string): string {
  return `ANALYZE ${partitionTable(table, snapshotId)}`
}

/** Creates a detached partition: empty, or for a computed table filled from the others; returns its rows. */
async function createPartition(db: Queryable, table: StoredTableDef, snapshotId: string): Promise<number> {
  await db.query(createPartitionSql(table, snapshotId))
  return isComputed(table) ? (await db.query(computeSql(table, snapshotId))).rowCount : 0
}

/**
 * Makes a snapshot's rows visible to queries (idempotent). A table the snapshot has no partition
 * of (added after it was taken) gets one: empty, or computed from the snapshot's other tables;
 * what it lacks of what its rows come with (`computed.ts`: sort positions, value counts,
 * materialised tables; taken before them) is computed from the attached rows, in the same
 * transaction.
 */
export async function attachSnapshot(db: Db, snapshotId: string): Promise<void> {
  await db.transaction(async (tx) => {
    for (const table of STORED_TABLES) {
      const state = await partitionExists(tx, table, snapshotId)
      if (!state.exists) {
        await createPartition(tx, table, snapshotId)
        for (const sql of partitionIndexSql(table, snapshotId)) await tx.query(sql)
      }
      if (!state.attached) await tx.query(attachPartitionSql(table, snapshotId))
    }
    await attachComputed(tx, snapshotId)
  })
}

/**
 * What a snapshot's attached rows come with (`computed.ts`), each computed where the snapshot
 * lacks it, then attached, in `tx`. Returns how many it computed.
 */
export async function attachComputed(tx: Queryable, snapshotId: string): Promise<number> {
  return attachRelations(tx, computedOf(snapshotId))
}

/**
 * The loaded snapshots taken before some of what `attachComputed` makes existed get it, each in a
 * transaction of its own; returns how many changed. Run at start, after the migrations.
 */
export function backfillComputed(db: Db): Promise<number> {
  return backfillLoaded(db, attachComputed)
}

/** Hides a snapshot's rows from queries without deleting them (idempotent). */
export async function detachSnapshot(db: Db, snapshotId: string): Promise<void> {
  await db.transaction(async (tx) => {
    for (const table of STORED_TABLES) {
      const state = await partitionExists(tx, table, snapshotId)
      if (state.attached) await tx.query(`ALTER TABLE ${table.source.table} DETACH PARTITION ${partitionTable(table, snapshotId)}`)
    }
    await detachRelations(tx, computedOf(snapshotId))
  })
}

/** Deletes a snapshot's rows: drops its partitions and what they come with, attached or not. */
export async function dropSnapshotRows(db: Db, snapshotId: string): Promise<void> {
  await dropMaterialised(db, snapshotId)
  for (const sql of companionDropSql(snapshotId)) await db.query(sql)
  for (const table of STORED_TABLES) await db.query(dropPartitionSql(table, snapshotId))
}

/** Copies every partition of `fromId` into new partitions of `toId` (attached when done, unless `attach` is false). */
export async function cloneSnapshotRows(db: Db, fromId: string, toId: string, attach = true): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  const created: StoredTableDef[] = []
  try {
    for (const table of STORED_TABLES) {
      created.push(table)
      if (!(await partitionExists(db, table, fromId)).exists) {
        // a table added after the source was taken: empty, or computed from the copied tables
        counts[table.path] = await createPartition(db, table, toId)
      } else {
        await db.query(createPartitionSql(table, toId))
        const cols = partitionColumns(table).map((c) => `"${c.storage}"`).join(', ')
        const r = await db.query(
          `INSERT INTO ${partitionTable(table, toId)} (snapshot_id, ${cols}) SELECT $1, ${cols} FROM ${partitionTable(table, fromId)}`,
          [toId],
        )
        counts[table.path] = r.rowCount
      }
      for (const sql of partitionIndexSql(table, toId)) await db.query(sql)
      await db.query(analyzeSql(table, toId))
    }
    for (const job of companionBuildJobs(toId)) for (const sql of job) await db.query(sql)
    if (attach) await attachSnapshot(db, toId)
    return counts
  } catch (err) {
    for (const table of created) await db.query(dropPartitionSql(table, toId)).catch(() => {})
    for (const sql of companionDropSql(toId)) await db.query(sql).catch(() => {})
    throw err
  }
}

/** Streams a table's rows of a snapshot (attached or not; none without a partition) in id order, values in storage order. */
export async function streamSnapshotRows(
  db: Db,
  table: StoredTableDef,
  snapshotId: string,
  onBatch: (rows: unknown[][]) => Promise<void>,
  batchSize = 2000,
): Promise<void> {
  if (!(await partitionExists(db, table, snapshotId)).exists) return
  const cols = storageColumns(table)
  const list = cols.map((c) => `"${c.storage}"`).join(', ')
  await db.stream<Record<string, unknown>>(`SELECT ${list} FROM ${partitionTable(table, snapshotId)} ORDER BY id COLLATE "C"`, [], batchSize, async (rows) => {
    await onBatch(rows.map((r) => cols.map((c) => r[c.storage] ?? null)))
  })
}
