/**
 * Comparisons kept: the rows that differ between two snapshots in one table (what `compare.ts`
 * joins the two snapshots to find), written once and then read instead of the join. Snapshots do
 * not change once their rows are in, so a pair's differences stay true until a device of either
 * snapshot is removed or rediscovered or either is deleted.
 *
 * Storage: per catalog table one relation, `inventory."cmp_<table>_<shape>"`, made from the
 * comparison's own SELECT (`CREATE TABLE AS ... WITH NO DATA`), so its columns have exactly the
 * types the join yields (answers read from it are the same bytes), plus `_pair`, the id of the
 * pair's row in `inventory.snapshot_changes` (which also holds the pair's counts per kind).
 * Deleting that row (a device change, `forgetChanges`; a deleted snapshot, whose foreign keys
 * remove it) deletes the kept rows in the same transaction: a trigger of `snapshot_changes`
 * deletes them from the relation the row names (migration 530). Not a foreign key: it checked
 * every kept row as it was written, a tenth of keeping every table on "large" (64.4 s with it,
 * 58.2 s without, interleaved: docs/architecture.md). `<shape>` is a
 * hash of the comparison's SQL, so a release that changes a table's columns or what is compared
 * keeps into a new relation and never reads rows kept by another.
 *
 * Consistency: a pair's rows and counts are written in one transaction that ends by reading both
 * snapshots' `ts_change` FOR SHARE: when either changed since the writer looked, it keeps nothing
 * (a device change under way is waited for, one that starts later waits and then deletes what was
 * kept). Until that transaction commits the pair is "not ready" and the comparison reads the join;
 * every statement that reads kept rows also carries the join, run only when the pair's row is
 * gone by the time the statement starts (`keptComparisonSql`), so no answer mixes the two.
 */
import { createHash } from 'node:crypto'
import type { ColumnDef, TableDef } from '../catalog/types.js'
import { sqlState, type Db, type Deadline, type Queryable } from '../../shared/db/index.js'
import { applyLocalSettings, type StatementSettings } from '../../shared/db/settings.js'
import { timeoutError } from '../../shared/db/pglite-protocol.js'
import { findTable } from '../catalog/index.js'
import { countedColumnsSql } from '../catalog/value-counts.js'
import { inventoryRelation, sqlLiteral } from '../catalog/columns.js'
import { CHANGE_KINDS, COMPARISON_SETTINGS, comparedColumns, comparisonSql, quoted, type ComparedSnapshots } from './compare.js'
import { Params, columnExpr } from './sql-filter.js'
import { countKeptPairs, ensureKeptValues, keptValuesInsertSql, keptValuesRelation, type KeptValuesRelation } from './kept-values.js'

/** A pair's kept comparison of one table: the `snapshot_changes` row that owns its rows. */
export interface KeptComparison {
  /** `inventory.snapshot_changes.id` (int8 as text). */
  id: string
  relation: string
  /** The value counts of its rows, where the table has them (`kept-values.ts`). */
  values: KeptValuesRelation | undefined
}

/** Parameters written as typed NULLs: the comparison's SQL as a shape, without values. */
class NullParams extends Params {
  override add(_value: unknown, cast: string): string {
    return `NULL::${cast}`
  }
}

interface Relation {
  name: string
  /** The comparison's SELECT with NULL snapshots: the columns and types of the kept rows. */
  shapeSql: string
  /** The index a page reads: a pair's rows in the table's default order (`pageIndexSql`). */
  pageIndex: string
  pageKeys: string[]
  /** The value counts of its kept rows, for a table with value counts (`kept-values.ts`). */
  values: KeptValuesRelation | undefined
}

const RELATIONS = new Map<TableDef, Relation>()

/** The relation that keeps `table`'s comparisons. */
export function keptRelation(table: TableDef): Relation {
  let relation = RELATIONS.get(table)
  if (!relation) {
    const pair = { older: '', newer: '' }
    const shapeSql = comparisonSql(table, pair, false, new NullParams())
    const hash = createHash('sha256').update(shapeSql).update('\0').update(comparisonSql(table, pair, true, new NullParams())).digest('hex').slice(0, 12)
    const base = table.path.replace(/[^A-Za-z0-9]+/g, '_').toLowerCase().slice(0, 40)
    const name = `cmp_${base}_${hash}`
    relation = { name, shapeSql, pageIndex: `${name}_page`, pageKeys: pageKeys(table), values: keptValuesRelation(table, name) }
    RELATIONS.set(table, relation)
  }
  return relation
}

/**
 * The keys of a comparison page in the table's default order, as `plan.ts` sorts it (the sort
 * column, then `id`, then `change`), after the pair: a first page, or one sorted the other way (read
 * backwards), is a range of that index in order, read up to its limit, instead of every kept row of
 * the pair and a sort. Only the default sort column: an index per column would cost a write per
 * column of every row kept.
 */
function pageKeys(table: TableDef): string[] {
  const sort = table.defaultSort?.column ?? 'id'
  const keys = [sort, ...(sort === 'id' ? [] : ['id'])].map(quoted)
  return ['_pair', ...keys, '"change"']
}

/** The names of the columns of a comparison's rows, in its order. */
function outputColumns(table: TableDef): string[] {
  return [...table.columns.map((c) => quoted(c.name)), '"change"', '"diff"']
}

/** Relations known to exist, per database (a test makes many). */
const ENSURED = new WeakMap<object, Set<string>>()

/** Creates the relation keeping `table`'s comparisons unless it exists (concurrent callers wait for one another). */
async function ensureRelation(db: Db, relation: Relation): Promise<void> {
  let known = ENSURED.get(db)
  if (!known) ENSURED.set(db, (known = new Set()))
  if (known.has(relation.name)) return
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [relation.name])
    const exists = await tx.query<{ e: boolean; page: boolean }>('SELECT to_regclass($1) IS NOT NULL AS e, to_regclass($2) IS NOT NULL AS page', [
      inventoryRelation(relation.name),
      inventoryRelation(relation.pageIndex),
    ])
    const name = inventoryRelation(relation.name)
    if (!exists.rows[0]?.e) {
      // rows leave with their pair's row through the trigger of snapshot_changes (migration 530)
      await tx.query(`CREATE TABLE ${name} AS SELECT 0::int8 AS _pair, c.* FROM (${relation.shapeSql}) c WITH NO DATA`)
    }
    if (!exists.rows[0]?.page) {
      // (the index leads with the pair: it serves the deletion of a pair's rows too)
      await tx.query(`CREATE INDEX "${relation.pageIndex}" ON ${name} (${relation.pageKeys.join(', ')})`)
      // a relation kept by an earlier release: its index on the pair alone is one more write per row
      const old = await tx.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
          WHERE i.indrelid = $1::regclass AND i.indnatts = 1 AND a.attname = '_pair'`,
        [name],
      )
      for (const row of old.rows) await tx.query(`DROP INDEX inventory."${row.name.replace(/"/g, '""')}"`)
    }
    if (relation.values) await ensureKeptValues(tx, relation.values, relation.shapeSql)
  })
  known.add(relation.name)
}

/**
 * At start: the pairs of `tables` kept before their value counts existed get them
 * (`kept-values.ts`, `countKeptPairs`). Returns how many pairs it counted.
 */
export async function backfillKeptValues(db: Db, tables: readonly TableDef[]): Promise<number> {
  let counted = 0
  for (const table of tables) {
    const relation = keptRelation(table)
    if (!relation.values) continue
    const exists = await db.query<{ e: boolean }>('SELECT to_regclass($1) IS NOT NULL AS e', [inventoryRelation(relation.name)])
    if (!exists.rows[0]?.e) continue
    await ensureRelation(db, relation)
    counted += await countKeptPairs(db, relation.values)
  }
  return counted
}

/** The kept comparison of `table` for the pair, if its rows are kept. */
export async function keptComparison(db: Queryable, pair: ComparedSnapshots, volatile: boolean, table: TableDef): Promise<KeptComparison | undefined> {
  const { name: relation, values } = keptRelation(table)
  const r = await db.query<{ id: string }>(
    'SELECT id::text FROM inventory.snapshot_changes WHERE newer = $1 AND older = $2 AND volatile = $3 AND table_path = $4 AND relation = $5',
    [pair.newer, pair.older, volatile, table.path, relation],
  )
  const id = r.rows[0]?.id
  return id === undefined ? undefined : { id, relation, values }
}

/** The counts of the pair's kept comparison of `table`, if it is kept. */
export async function keptCounts(db: Queryable, pair: ComparedSnapshots, volatile: boolean, table: TableDef): Promise<KeptCounts | undefined> {
  const r = await db.query<{ added: string; removed: string; changed: string }>(
    'SELECT added::text, removed::text, changed::text FROM inventory.snapshot_changes WHERE newer = $1 AND older = $2 AND volatile = $3 AND table_path = $4 AND relation = $5',
    [pair.newer, pair.older, volatile, table.path, keptRelation(table).name],
  )
  const row = r.rows[0]
  return row && { added: Number(row.added), removed: Number(row.removed), changed: Number(row.changed) }
}

/**
 * The comparison relation (as `comparisonSql`) read from the kept rows; the join runs instead
 * only if the kept rows are gone when the statement starts (an uncorrelated `NOT EXISTS` is a
 * one-time filter: the join's plan is never executed while they are there).
 */
export function keptComparisonSql(table: TableDef, kept: KeptComparison, pair: ComparedSnapshots, volatile: boolean, params: Params): string {
  return keptComparisonBranches(table, kept, pair, volatile, params).join(' UNION ALL ')
}

/**
 * `keptComparisonSql` as its two relations, of which at most one holds rows when a statement runs
 * (the kept rows are deleted with their pair's row): for a page that reads each on its own
 * (`planQuery`'s `branches`), the kept rows in order from the relation's page index.
 */
export function keptComparisonBranches(table: TableDef, kept: KeptComparison, pair: ComparedSnapshots, volatile: boolean, params: Params): [string, string] {
  const id = params.add(kept.id, 'int8')
  return [
    `SELECT ${outputColumns(table).join(', ')} FROM ${inventoryRelation(kept.relation)} WHERE _pair = ${id}`,
    `SELECT * FROM (${comparisonSql(table, pair, volatile, params)}) j WHERE NOT EXISTS (SELECT 1 FROM inventory.snapshot_changes WHERE id = ${id})`,
  ]
}

/**
 * The snapshots' last change (`ts_change`), or undefined when either is not loaded or is being
 * loaded or unloaded (its partitions are or may soon be detached: its rows are not what the join
 * would read; an unload marks it `loading` before it detaches, under the row lock the keeping's
 * last check shares).
 */
async function versions(db: Queryable, pair: ComparedSnapshots): Promise<[string, string] | undefined> {
  const r = await db.query<{ id: string; ts_change: string }>('SELECT id, ts_change::text FROM inventory.snapshots WHERE id = ANY($1) AND loaded AND NOT loading', [
    [pair.newer, pair.older],
  ])
  const of = (id: string) => r.rows.find((row) => row.id === id)?.ts_change
  const [newer, older] = [of(pair.newer), of(pair.older)]
  return newer === undefined || older === undefined ? undefined : [newer, older]
}

/**
 * How a table's comparison is kept: the statement's settings on PostgreSQL, the SELECT of the rows
 * that differ (`comparisonSql` unless a benchmark measures another), whether a table declaring
 * `rowFrom` compares both snapshots whole anyway, the statistics target of the ANALYZE of
 * the relation afterwards (undefined: the server's; false: none), and whether the rows' value
 * counts are written with them. The product keeps as `KEEPING`;
 * `bench/keeping.ts` measures the others against it (docs/architecture.md).
 */
export interface KeepingWay {
  settings: StatementSettings
  sql?: typeof comparisonSql
  whole?: boolean
  statistics?: number | false
  /** false: the rows without their value counts (`kept-values.ts`; what an earlier release kept). */
  values?: false
}

/**
 * The comparison's settings, with 64 MB of `work_mem` for the keeping's transaction (as many tables
 * at a time as `query.keepingConcurrency` in the background, two for a request): the join spills
 * in fewer batches, and a column computed by a correlated subquery stays a hashed subplan, built
 * once, where the server's 4 MB turns it into index probes per row once its rows outgrow it (so it
 * did at 10 M's proportions for the switch ports' `edge`, since stored: 8.1 s against 3.6 s;
 * docs/architecture.md).
 */
export const KEEPING: KeepingWay = { settings: { ...COMPARISON_SETTINGS, work_mem: '64MB' } }

/**
 * For a table whose rows are copies of another's in what it compares (`rowFrom`), its differences
 * computed from that table's kept ones: its SQL run over the kept rows in place of that table's
 * relation, each row with the kept row's `change` and the entries of its `diff` for the columns
 * compared here (a row changed only in columns this table does not compare is no change here).
 * Undefined when that comparison is not kept, or for a comparison of volatile columns (computed
 * ones here, whose old values the kept rows do not hold).
 */
async function derivedSql(tx: Queryable, table: TableDef, pair: ComparedSnapshots, volatile: boolean, params: Params): Promise<string | undefined> {
  const base = table.rowFrom === undefined ? undefined : findTable(table.rowFrom)
  if (volatile || table.source.kind !== 'derived' || base?.source.kind !== 'stored') return undefined
  const kept = await keptComparison(tx, pair, false, base)
  if (!kept) return undefined
  const id = params.add(kept.id, 'int8')
  const rows = `(SELECT NULL::text AS snapshot_id, k.* FROM ${inventoryRelation(kept.relation)} k WHERE k._pair = ${id}) AS ${base.source.table.split('.').pop()!}`
  const source = table.source.sql.replace(baseRelation(base.source.table), rows)
  const column = (name: string) => table.columns.find((c) => c.name === name)!
  const entry = (c: ColumnDef) => `k."diff" -> ${sqlLiteral(c.name)}`
  const compared = comparedColumns(table, false)
  const diff = `('{' || concat_ws(',', ${compared.map((c) => `CASE WHEN ${entry(c)} IS NOT NULL THEN ${sqlLiteral(JSON.stringify(c.name) + ':')} || (${entry(c)})::text END`).join(', ')}) || '}')::json`
  const differs = compared.map((c) => `${entry(c)} IS NOT NULL`)
  return (
    `SELECT ${table.columns.map((c) => `${columnExpr(c)} AS ${quoted(c.name)}`).join(', ')}, k."change",` +
    ` CASE WHEN k."change" = 'changed' THEN ${compared.length > 0 ? diff : `'{}'::json`} END AS "diff"` +
    ` FROM (${source}) t JOIN ${inventoryRelation(kept.relation)} k ON k._pair = ${id} AND ${table.key!.map((name) => `k.${quoted(name)} = ${columnExpr(column(name))}`).join(' AND ')}` +
    ` WHERE ${[`k."change" <> 'changed'`, ...differs].join(' OR ')}`
  )
}

/** The one mention of a stored table's relation in a derived table's SQL. */
export function baseRelation(relation: string): RegExp {
  return new RegExp(`(?<![\\w."])${relation.replace(/\./g, '\\.')}(?![\\w"])`, 'g')
}


/** The SELECT of the rows a keeping writes for the pair (`params` gets its values). */
export async function keepingSql(tx: Queryable, table: TableDef, pair: ComparedSnapshots, volatile: boolean, params: Params, way: KeepingWay = KEEPING): Promise<string> {
  const derived = way.whole ? undefined : await derivedSql(tx, table, pair, volatile, params)
  return derived ?? (way.sql ?? comparisonSql)(table, pair, volatile, params)
}

/** Thrown inside the keeping transaction to roll it back: a snapshot changed meanwhile. */
class Changed extends Error {}

export interface KeptCounts {
  added: number
  removed: number
  changed: number
}

/**
 * Writes the comparison of `table` for the pair with its counts, in one transaction before
 * `deadline` (on PostgreSQL under the comparison's settings). Answers the counts, those of a
 * writer that got there first, or undefined when a snapshot changed meanwhile (nothing kept).
 */
export async function keepComparison(
  db: Db,
  pair: ComparedSnapshots,
  volatile: boolean,
  table: TableDef,
  deadline: Deadline,
  way: KeepingWay = KEEPING,
): Promise<KeptCounts | undefined> {
  const relation = keptRelation(table)
  await ensureRelation(db, relation)
  const seen = await versions(db, pair)
  if (!seen) return undefined
  const remaining = () => {
    const ms = Math.floor(deadline.remaining())
    if (ms < 1) throw timeoutError()
    return ms
  }
  // PostgreSQL: the pool that carries the whole limit (one per limit, as `queryBefore` uses), each
  // statement under what remains (SET LOCAL); PGlite: what remains, its wait for a turn included
  const bounded = db.kind === 'postgres' ? db.withStatementTimeout(deadline.limitMs) : db.withStatementTimeout(remaining())
  const settle = async (tx: Queryable) => {
    if (db.kind === 'postgres') await applyLocalSettings(tx, { ...way.settings, statement_timeout: `${remaining()}ms` })
  }
  let counts: KeptCounts | undefined
  try {
    counts = await bounded.transaction(async (tx): Promise<KeptCounts | undefined> => {
      await settle(tx)
      // counts (or rows) kept by another release's shape of the table: replaced
      await tx.query('DELETE FROM inventory.snapshot_changes WHERE newer = $1 AND older = $2 AND volatile = $3 AND table_path = $4 AND relation <> $5', [
        pair.newer,
        pair.older,
        volatile,
        table.path,
        relation.name,
      ])
      const mine = await tx.query<{ id: string }>(
        `INSERT INTO inventory.snapshot_changes (newer, older, volatile, table_path, added, removed, changed, relation)
         VALUES ($1, $2, $3, $4, 0, 0, 0, $5) ON CONFLICT DO NOTHING RETURNING id::text`,
        [pair.newer, pair.older, volatile, table.path, relation.name],
      )
      const id = mine.rows[0]?.id
      if (id === undefined) {
        // another writer kept them first (this insert waited for its commit)
        const r = await tx.query<{ added: string; removed: string; changed: string }>(
          'SELECT added::text, removed::text, changed::text FROM inventory.snapshot_changes WHERE newer = $1 AND older = $2 AND volatile = $3 AND table_path = $4',
          [pair.newer, pair.older, volatile, table.path],
        )
        const row = r.rows[0]
        return row && { added: Number(row.added), removed: Number(row.removed), changed: Number(row.changed) }
      }
      await settle(tx)
      const params = new Params()
      const pairParam = params.add(id, 'int8')
      const counts = CHANGE_KINDS.map((kind) => `count(*) FILTER (WHERE "change" = '${kind}')::int8 AS ${kind}`)
      // the value counts of the rows, where the table has them, counted from what the INSERT returns
      const values = way.values === false ? undefined : relation.values
      const returning = ['"change"', ...(values ? countedColumnsSql(values.table) : [])]
      const written = await tx.query<{ added: string; removed: string; changed: string }>(
        `WITH kept AS (INSERT INTO ${inventoryRelation(relation.name)} SELECT ${pairParam}, c.* FROM (${await keepingSql(tx, table, pair, volatile, params, way)}) c RETURNING ${returning.join(', ')})
         ${values ? `, counted AS (${keptValuesInsertSql(values, pairParam, 'kept')})` : ''}
         SELECT ${counts.join(', ')} FROM kept`,
        params.values,
      )
      const row = written.rows[0]!
      await tx.query('UPDATE inventory.snapshot_changes SET added = $2, removed = $3, changed = $4 WHERE id = $1', [id, row.added, row.removed, row.changed])
      const now = await tx.query<{ newer: string | null; older: string | null }>(
        `SELECT (SELECT ts_change::text FROM inventory.snapshots WHERE id = $1 AND loaded AND NOT loading FOR SHARE) AS newer,
                (SELECT ts_change::text FROM inventory.snapshots WHERE id = $2 AND loaded AND NOT loading FOR SHARE) AS older`,
        [pair.newer, pair.older],
      )
      if (now.rows[0]?.newer !== seen[0] || now.rows[0]?.older !== seen[1]) throw new Changed()
      return { added: Number(row.added), removed: Number(row.removed), changed: Number(row.changed) }
    })
  } catch (err) {
    if (err instanceof Changed) return undefined
    // a snapshot deleted meanwhile (the pair row's foreign key to it): nothing to keep
    if (sqlState(err) === '23503') return undefined
    throw err
  }
  // statistics of the relation with the new rows (a sample: cheap), so that the planner knows how
  // many rows a pair has rather than guessing for a table autovacuum has not seen yet
  if (counts && counts.added + counts.removed + counts.changed > 0 && way.statistics !== false) {
    const target = way.statistics
    const analyze = `ANALYZE ${inventoryRelation(relation.name)}`
    await (target === undefined || db.kind !== 'postgres'
      ? bounded.query(analyze)
      : bounded.transaction(async (tx) => {
          await applyLocalSettings(tx, { default_statistics_target: String(target) })
          await tx.query(analyze)
        })
    ).catch(() => {})
  }
  return counts
}
