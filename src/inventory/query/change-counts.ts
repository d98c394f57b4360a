/**
 * The counts of rows added, removed and changed per table between two snapshots (what `GET
 * snapshots/{id}/changes` answers), counted once per pair and kept: snapshots do not change once
 * their rows are in, so a pair's counts stay true until a device of either snapshot is removed or
 * rediscovered (which forgets them in its transaction, `forgetChanges`) or either is deleted
 * (the foreign keys remove them). A discovery counts its changes against the snapshot before it
 * when it ends (`discovery/discover.ts`), so the first request reads them; any other pair is
 * counted on its first request, only the tables not counted yet.
 */
import { queryBefore, type Db, type Deadline, type Queryable } from '../../shared/db/index.js'
import { TABLES, type TableDef } from '../catalog/index.js'
import { COMPARISON_SETTINGS, changeCountSql, notComparable, type ComparedSnapshots } from './compare.js'
import { mapDbError } from './execute.js'
import { Params } from './sql-filter.js'

export interface TableChanges {
  table: string
  added: number
  removed: number
  changed: number
}

/** The tables a comparison can count (snapshot tables with a key), in catalog order. */
export const COMPARABLE_TABLES: readonly TableDef[] = TABLES.filter((table) => notComparable(table) === undefined)

/** Tables counted at once on PostgreSQL; PGlite runs one statement at a time anyway. */
const COUNT_CONCURRENCY = 2

type CountRow = { table_path: string; added: string; removed: string; changed: string }

async function keptChanges(db: Queryable, pair: ComparedSnapshots, volatile: boolean): Promise<Map<string, TableChanges>> {
  const r = await db.query<CountRow>(
    'SELECT table_path, added::text, removed::text, changed::text FROM inventory.snapshot_changes WHERE newer = $1 AND older = $2 AND volatile = $3',
    [pair.newer, pair.older, volatile],
  )
  return new Map(r.rows.map((row) => [row.table_path, { table: row.table_path, added: Number(row.added), removed: Number(row.removed), changed: Number(row.changed) }]))
}

/** The snapshots' last change (`ts_change`), read before counting. */
async function versions(db: Queryable, pair: ComparedSnapshots): Promise<[number, number] | undefined> {
  const r = await db.query<{ id: string; ts_change: string }>('SELECT id, ts_change::text FROM inventory.snapshots WHERE id = ANY($1)', [[pair.newer, pair.older]])
  const of = (id: string) => r.rows.find((row) => row.id === id)?.ts_change
  const [newer, older] = [of(pair.newer), of(pair.older)]
  return newer === undefined || older === undefined ? undefined : [Number(newer), Number(older)]
}

/**
 * Keeps counts made from the snapshots as they were at `seen`. The snapshot rows are read FOR
 * SHARE: a device change under way holds them, so the insert waits for it and then sees its new
 * `ts_change` and keeps nothing; one that starts later waits for the insert and forgets what it kept.
 */
async function keep(db: Queryable, pair: ComparedSnapshots, volatile: boolean, seen: [number, number], counts: TableChanges[]): Promise<void> {
  if (counts.length === 0) return
  await db.query(
    `INSERT INTO inventory.snapshot_changes (newer, older, volatile, table_path, added, removed, changed)
     SELECT $1, $2, $3, c.table_path, c.added, c.removed, c.changed
       FROM unnest($6::text[], $7::int8[], $8::int8[], $9::int8[]) AS c(table_path, added, removed, changed)
      WHERE (SELECT ts_change FROM inventory.snapshots WHERE id = $1 FOR SHARE) = $4
        AND (SELECT ts_change FROM inventory.snapshots WHERE id = $2 FOR SHARE) = $5
     ON CONFLICT DO NOTHING`,
    [pair.newer, pair.older, volatile, seen[0], seen[1], counts.map((c) => c.table), counts.map((c) => c.added), counts.map((c) => c.removed), counts.map((c) => c.changed)],
  )
}

/**
 * The changes between two snapshots per comparable table, in catalog order: those kept, and the
 * others counted now (every statement before `deadline`) and kept.
 */
export async function countChanges(db: Db, pair: ComparedSnapshots, volatile: boolean, deadline: Deadline): Promise<TableChanges[]> {
  const kept = await keptChanges(db, pair, volatile)
  const missing = COMPARABLE_TABLES.filter((table) => !kept.has(table.path))
  if (missing.length > 0) {
    const seen = await versions(db, pair)
    const counted = await countTables(db, pair, volatile, deadline, missing)
    if (seen) await keep(db, pair, volatile, seen, counted)
    for (const c of counted) kept.set(c.table, c)
  }
  return COMPARABLE_TABLES.map((table) => kept.get(table.path)!)
}

async function countTables(db: Db, pair: ComparedSnapshots, volatile: boolean, deadline: Deadline, tables: readonly TableDef[]): Promise<TableChanges[]> {
  const count = async (table: TableDef): Promise<TableChanges> => {
    const params = new Params()
    const sql = changeCountSql(table, pair, volatile, params)
    try {
      const row = (await queryBefore<{ added: number; removed: number; changed: number }>(db, deadline, COMPARISON_SETTINGS, sql, params.values)).rows[0]!
      return { table: table.path, added: Number(row.added), removed: Number(row.removed), changed: Number(row.changed) }
    } catch (err) {
      throw mapDbError(err)
    }
  }
  const out: TableChanges[] = new Array(tables.length)
  let next = 0
  let failed = false
  const worker = async () => {
    while (next < tables.length && !failed) {
      const i = next++
      try {
        out[i] = await count(tables[i]!)
      } catch (err) {
        failed = true
        throw err
      }
    }
  }
  await Promise.all(Array.from({ length: db.kind === 'postgres' ? COUNT_CONCURRENCY : 1 }, worker))
  return out
}

/**
 * Forgets the kept counts of every pair with snapshot `id`, after its rows changed; run in the
 * transaction that changed them, after it updated the snapshot's `ts_change`.
 */
export async function forgetChanges(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM inventory.snapshot_changes WHERE newer = $1 OR older = $1', [id])
}
