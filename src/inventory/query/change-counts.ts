/**
 * The counts of rows added, removed and changed per table between two snapshots (what `GET
 * snapshots/{id}/changes` answers), kept once per pair with the rows that differ
 * (`kept-comparison.ts`): snapshots do not change once their rows are in, so a pair's counts and
 * rows stay true until a device of either snapshot is removed or rediscovered (which forgets them
 * in its transaction, `forgetChanges`) or either is deleted (foreign keys remove the pair's rows,
 * and a trigger their kept rows). A
 * discovery keeps its comparison with the snapshot before it in the background when it ends
 * (`keepChanges`, from `discovery/discover.ts`), so a later request reads it and one that comes
 * meanwhile waits for the tables under way (`keeping.ts`) and keeps the others; any other pair is
 * kept on its first request, only the tables not kept yet.
 */
import { Deadline, queryBefore, type Db, type Queryable } from '../../shared/db/index.js'
import { TABLES, type TableDef } from '../catalog/index.js'
import { COMPARISON_SETTINGS, changeCountSql, notComparable, type ComparedSnapshots } from './compare.js'
import { mapDbError } from './execute.js'
import { dropForgottenPartitions, keptRelation } from './kept-comparison.js'
import { keepOnce } from './keeping.js'
import { keepingOrder } from './keeping-order.js'
import { Params } from './sql-filter.js'

export interface TableChanges {
  table: string
  added: number
  removed: number
  changed: number
}

/** The tables a comparison can count (snapshot tables with a key), in catalog order. */
// tables netinv does not collect have no rows: nothing to keep or count between two snapshots
export const COMPARABLE_TABLES: readonly TableDef[] = TABLES.filter((table) => table.collected !== false && notComparable(table) === undefined)

/** Tables counted at once on PostgreSQL; PGlite runs one statement at a time anyway. */
const COUNT_CONCURRENCY = 2

type CountRow = { table_path: string; relation: string; added: string; removed: string; changed: string }

async function keptChanges(db: Queryable, pair: ComparedSnapshots, volatile: boolean): Promise<Map<string, TableChanges>> {
  const r = await db.query<CountRow>(
    'SELECT table_path, relation, added::text, removed::text, changed::text FROM inventory.snapshot_changes WHERE newer = $1 AND older = $2 AND volatile = $3',
    [pair.newer, pair.older, volatile],
  )
  // counts kept with another release's rows of a table (another shape) are not its counts now
  const current = new Map(COMPARABLE_TABLES.map((table) => [table.path, keptRelation(table).name]))
  const rows = r.rows.filter((row) => current.get(row.table_path) === row.relation)
  return new Map(rows.map((row) => [row.table_path, { table: row.table_path, added: Number(row.added), removed: Number(row.removed), changed: Number(row.changed) }]))
}

/**
 * The changes between two snapshots per comparable table, in catalog order: those kept, and for
 * the others the comparison kept now with its counts (`kept-comparison.ts`; every statement
 * before `deadline`), or, when a snapshot changed while it was written, counted by the join.
 */
export async function countChanges(db: Db, pair: ComparedSnapshots, volatile: boolean, deadline: Deadline): Promise<TableChanges[]> {
  // a snapshot against itself differs in nothing: no join to run and nothing to keep
  if (pair.older === pair.newer) return COMPARABLE_TABLES.map((table) => ({ table: table.path, added: 0, removed: 0, changed: 0 }))
  const kept = await keptChanges(db, pair, volatile)
  const missing = COMPARABLE_TABLES.filter((table) => !kept.has(table.path))
  if (missing.length > 0) for (const c of await countTables(db, pair, volatile, deadline, missing)) kept.set(c.table, c)
  return COMPARABLE_TABLES.map((table) => kept.get(table.path)!)
}

async function countTables(db: Db, pair: ComparedSnapshots, volatile: boolean, deadline: Deadline, tables: readonly TableDef[]): Promise<TableChanges[]> {
  const count = async (table: TableDef): Promise<TableChanges> => {
    try {
      const counts = await keepOnce(db, pair, volatile, table, deadline)
      if (counts) return { table: table.path, ...counts }
    } catch (err) {
      throw mapDbError(err)
    }
    const params = new Params()
    const sql = changeCountSql(table, pair, volatile, params)
    try {
      const row = (await queryBefore<{ added: number; removed: number; changed: number }>(db, deadline, COMPARISON_SETTINGS, sql, params.values)).rows[0]!
      return { table: table.path, added: Number(row.added), removed: Number(row.removed), changed: Number(row.changed) }
    } catch (err) {
      throw mapDbError(err)
    }
  }
  const concurrency = db.kind === 'postgres' ? COUNT_CONCURRENCY : 1
  return eachTable(await inKeepingOrder(db, pair, tables, concurrency), concurrency, count)
}

/** The tables to keep, the heaviest first where several are kept at once, so that the lanes end together. */
async function inKeepingOrder(db: Db, pair: ComparedSnapshots, tables: readonly TableDef[], concurrency: number): Promise<readonly TableDef[]> {
  return concurrency > 1 && tables.length > 1 ? keepingOrder(db, pair, tables) : tables
}

/** `fn` of every table, `concurrency` at a time, in order; the first failure (or `signal`) stops the rest. */
async function eachTable<T>(tables: readonly TableDef[], concurrency: number, fn: (table: TableDef) => Promise<T>, signal?: AbortSignal): Promise<T[]> {
  const out: T[] = new Array(tables.length)
  let next = 0
  let failed = false
  const worker = async () => {
    while (next < tables.length && !failed) {
      signal?.throwIfAborted()
      const i = next++
      try {
        out[i] = await fn(tables[i]!)
      } catch (err) {
        failed = true
        throw err
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return out
}

/**
 * Keeps the comparison of the pair for every comparable table not kept yet, `concurrency` tables
 * at a time (background work: `query.keepingConcurrency`), each within `tableLimitMs`; stops between tables when
 * `signal` aborts. Answers how many tables it kept (a table whose snapshot changed meanwhile is
 * left to the first request).
 */
export async function keepChanges(db: Db, pair: ComparedSnapshots, volatile: boolean, tableLimitMs: number, signal?: AbortSignal, concurrency = 1): Promise<number> {
  const kept = await keptChanges(db, pair, volatile)
  const missing = COMPARABLE_TABLES.filter((table) => !kept.has(table.path))
  const done = await eachTable(await inKeepingOrder(db, pair, missing, concurrency), concurrency, async (table) => (await keepOnce(db, pair, volatile, table, Deadline.after(tableLimitMs))) !== undefined, signal)
  // the partitions of pairs forgotten since (a snapshot deleted, a device rediscovered) go; they are
  // empty, so a failure here leaves them to the next pass rather than failing the keeping
  await dropForgottenPartitions(db, COMPARABLE_TABLES).catch(() => 0)
  return done.filter(Boolean).length
}

/**
 * Forgets the kept counts and rows of every pair with snapshot `id`, after its rows changed; run
 * in the transaction that changed them, after it updated the snapshot's `ts_change`.
 */
export async function forgetChanges(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM inventory.snapshot_changes WHERE newer = $1 OR older = $1', [id])
}
