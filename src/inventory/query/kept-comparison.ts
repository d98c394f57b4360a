/**
 * Comparisons kept: the rows that differ between two snapshots in one table (what `compare.ts`
 * joins the two snapshots to find), written once and then read instead of the join. Snapshots do
 * not change once their rows are in, so a pair's differences stay true until a device of either
 * snapshot is removed or rediscovered or either is deleted.
 *
 * Storage: per catalog table one relation, `inventory."cmp_<table>_<shape>"`, made from the
 * comparison's own SELECT (`CREATE TABLE AS ... WITH NO DATA`), so its columns have exactly the
 * types the join yields (answers read from it are the same bytes), plus `_pair`, the id of the
 * pair's row in `inventory.snapshot_changes` (which also holds the pair's counts per kind). It is
 * partitioned by `_pair`: each pair's rows are written into a table of their own, indexed once
 * they are all in (a sort, half the cost of growing the index row by row: docs/architecture.md),
 * then attached; readers name the relation and `_pair`, which prunes to that partition.
 * Deleting that row (a device change, `forgetChanges`; a deleted snapshot, whose foreign keys
 * remove it) deletes the kept rows in the same transaction: a trigger of `snapshot_changes`
 * deletes them from the relation the row names (migration 530); the emptied partition is dropped
 * later (`dropForgottenPartitions`), as dropping it there would lock out every reader of the
 * table. Not a foreign key: it checked every kept row as it was written, a tenth of keeping every
 * table on "large" (64.4 s with it, 58.2 s without, interleaved: docs/architecture.md). `<shape>`
 * is a hash of the comparison's SQL, so a release that changes a table's columns or what is
 * compared keeps into a new relation and never reads rows kept by another.
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
import { INVENTORY_SCHEMA, inventoryRelation, sqlLiteral } from '../catalog/columns.js'
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
  /** The start of the names of its partitions, one per pair (`partitionName`). */
  partitions: string
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
    relation = { name, partitions: `cmp_${hash}`, shapeSql, pageIndex: `${name}_page`, pageKeys: pageKeys(table), values: keptValuesRelation(table, name) }
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

/** The partition of `relation` that holds one pair's rows (short: the relation's hash and the pair's id). */
function partitionName(relation: Relation, pairId: string): string {
  return `${relation.partitions}_${pairId}`
}

/**
 * Creates the relation keeping `table`'s comparisons unless it exists (concurrent callers wait for
 * one another): partitioned by pair, with the page index declared on it (each partition gets it
 * when its rows are in, `keepComparison`). A relation kept by an earlier release, one table for
 * every pair, becomes its first partition, holding the pairs it has (`adoptPlainRelation`).
 */
async function ensureRelation(db: Db, relation: Relation): Promise<void> {
  let known = ENSURED.get(db)
  if (!known) ENSURED.set(db, (known = new Set()))
  if (known.has(relation.name)) return
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [relation.name])
    const name = inventoryRelation(relation.name)
    const r = await tx.query<{ kind: string | null }>('SELECT (SELECT c.relkind::text FROM pg_class c WHERE c.oid = to_regclass($1)) AS kind', [name])
    const kind = r.rows[0]?.kind ?? null
    if (kind !== 'p') {
      // rows leave with their pair's row through the trigger of snapshot_changes (migration 530)
      if (kind === null) await tx.query(`CREATE TABLE ${name} AS SELECT 0::int8 AS _pair, c.* FROM (${relation.shapeSql}) c WITH NO DATA`)
      await adoptPlainRelation(tx, relation)
    }
    if (relation.values) await ensureKeptValues(tx, relation.values, relation.shapeSql)
  })
  known.add(relation.name)
}

/**
 * Turns the plain relation `relation.name` into the partitioned one of the same name: renamed to its
 * first partition (`<partitions>_0`) which, when it holds rows (pairs kept by an earlier release),
 * is attached for the pairs it holds; an empty one is dropped. Attaching gives it the page index
 * where it lacks one; its index on `_pair` alone (an earlier release's) is dropped first.
 */
async function adoptPlainRelation(tx: Queryable, relation: Relation): Promise<void> {
  const name = inventoryRelation(relation.name)
  const first = `${relation.partitions}_0`
  await tx.query(`ALTER TABLE ${name} RENAME TO "${first}"`)
  const indexes = await tx.query<{ name: string; pair: boolean }>(
    `SELECT c.relname AS name, (i.indnatts = 1 AND a.attname = '_pair') AS pair FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0] WHERE i.indrelid = $1::regclass`,
    [inventoryRelation(first)],
  )
  for (const index of indexes.rows) {
    const quotedName = `inventory."${index.name.replace(/"/g, '""')}"`
    if (index.pair) await tx.query(`DROP INDEX ${quotedName}`)
    else if (index.name === relation.pageIndex) await tx.query(`ALTER INDEX ${quotedName} RENAME TO "${first}_page"`)
  }
  await tx.query(`CREATE TABLE ${name} (LIKE ${inventoryRelation(first)}) PARTITION BY LIST (_pair)`)
  await tx.query(`ALTER TABLE ${name} ALTER COLUMN _pair SET NOT NULL`)
  await tx.query(`CREATE INDEX "${relation.pageIndex}" ON ${name} (${relation.pageKeys.join(', ')})`)
  const pairs = await tx.query<{ id: string }>(`SELECT DISTINCT _pair::text AS id FROM ${inventoryRelation(first)} WHERE _pair IS NOT NULL`)
  if (pairs.rows.length === 0) await tx.query(`DROP TABLE ${inventoryRelation(first)}`)
  else {
    // (every kept row has its pair: a scan that checks it, and one more for the attach, once per table)
    await tx.query(`ALTER TABLE ${inventoryRelation(first)} ALTER COLUMN _pair SET NOT NULL`)
    await tx.query(`ALTER TABLE ${name} ATTACH PARTITION ${inventoryRelation(first)} FOR VALUES IN (${pairs.rows.map((p) => sqlLiteral(p.id) + '::int8').join(', ')})`)
  }
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

/**
 * Drops the partitions of `tables`' kept relations whose pair is forgotten (its `snapshot_changes`
 * row deleted: the trigger emptied them then, in the deleting transaction, which could not drop
 * them without taking every reader's lock). On PostgreSQL each is detached `CONCURRENTLY` (readers
 * of the other pairs go on; it waits for those that may still see it), then dropped; a detach a
 * crash cut short is finished first. On the embedded database, with one session, each is dropped.
 * Run after a discovery's keeping and at start. Returns how many it dropped.
 */
export async function dropForgottenPartitions(db: Db, tables: readonly TableDef[]): Promise<number> {
  const parents = tables.map((table) => keptRelation(table).name)
  const r = await db.query<{ parent: string; part: string; pending: boolean }>(
    `SELECT p.relname AS parent, c.relname AS part, i.inhdetachpending AS pending
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent JOIN pg_namespace n ON n.oid = p.relnamespace
      WHERE n.nspname = $2 AND p.relname = ANY($1) AND c.relname ~ '_[1-9][0-9]*$'
        AND NOT EXISTS (SELECT 1 FROM inventory.snapshot_changes s WHERE s.id = substring(c.relname FROM '_([0-9]+)$')::int8)`,
    [parents, INVENTORY_SCHEMA],
  )
  let dropped = 0
  for (const { parent, part, pending } of r.rows) {
    try {
      if (db.kind === 'postgres') {
        await db.query(`ALTER TABLE ${inventoryRelation(parent)} DETACH PARTITION ${inventoryRelation(part)} ${pending ? 'FINALIZE' : 'CONCURRENTLY'}`)
      }
      await db.query(`DROP TABLE IF EXISTS ${inventoryRelation(part)}`)
      dropped++
    } catch {
      // another process dropped it meanwhile, or a detach was cut short: the next pass finishes it
    }
  }
  return dropped
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
  // the table's SQL over each kept row in turn (a lateral reference: PostgreSQL pulls the row's
  // projection up into one scan of the kept rows, where a join of its result back to them by key
  // read them twice and hashed one side; docs/architecture.md)
  const rows = `(SELECT NULL::text AS snapshot_id, _kept.*) AS ${base.source.table.split('.').pop()!}`
  const source = table.source.sql.replace(baseRelation(base.source.table), rows)
  const column = (name: string) => table.columns.find((c) => c.name === name)!
  const entry = (c: ColumnDef) => `_kept."diff" -> ${sqlLiteral(c.name)}`
  const compared = comparedColumns(table, false)
  const diff = `('{' || concat_ws(',', ${compared.map((c) => `CASE WHEN ${entry(c)} IS NOT NULL THEN ${sqlLiteral(JSON.stringify(c.name) + ':')} || (${entry(c)})::text END`).join(', ')}) || '}')::json`
  const differs = compared.map((c) => `${entry(c)} IS NOT NULL`)
  const sameRow = table.key!.map((name) => `_kept.${quoted(name)} = ${columnExpr(column(name))}`)
  return (
    `SELECT ${table.columns.map((c) => `${columnExpr(c)} AS ${quoted(c.name)}`).join(', ')}, _kept."change",` +
    ` CASE WHEN _kept."change" = 'changed' THEN ${compared.length > 0 ? diff : `'{}'::json`} END AS "diff"` +
    ` FROM ${inventoryRelation(kept.relation)} _kept CROSS JOIN LATERAL (${source}) t` +
    ` WHERE _kept._pair = ${id} AND ${sameRow.join(' AND ')} AND (${[`_kept."change" <> 'changed'`, ...differs].join(' OR ')})`
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
  /** The partition this keeping wrote the pair's rows into, if it did (not another writer). */
  let keptInto: string | undefined
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
      // the pair's rows go into a partition of their own, indexed once they are in (a sort) rather than
      // entry by entry, then attached (docs/architecture.md); the partition's check spares the attach a scan
      const partName = partitionName(relation, id)
      const part = inventoryRelation(partName)
      await tx.query(`CREATE TABLE ${part} (LIKE ${inventoryRelation(relation.name)} INCLUDING CONSTRAINTS, CHECK (_pair = ${sqlLiteral(id)}::int8))`)
      const written = await tx.query<{ added: string; removed: string; changed: string }>(
        `WITH kept AS (INSERT INTO ${part} SELECT ${pairParam}, c.* FROM (${await keepingSql(tx, table, pair, volatile, params, way)}) c RETURNING ${returning.join(', ')})
         ${values ? `, counted AS (${keptValuesInsertSql(values, pairParam, 'kept')})` : ''}
         SELECT ${counts.join(', ')} FROM kept`,
        params.values,
      )
      const row = written.rows[0]!
      keptInto = partName
      if (Number(row.added) + Number(row.removed) + Number(row.changed) === 0) await tx.query(`DROP TABLE ${part}`)
      else {
        await tx.query(`CREATE INDEX "${partName}_page" ON ${part} (${relation.pageKeys.join(', ')})`)
        await tx.query(`ALTER TABLE ${inventoryRelation(relation.name)} ATTACH PARTITION ${part} FOR VALUES IN (${sqlLiteral(id)}::int8)`)
      }
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
  // statistics of the pair's partition (a sample: cheap), so that the planner knows how many rows
  // the pair has rather than guessing for a table autovacuum has not seen yet
  if (counts && keptInto !== undefined && counts.added + counts.removed + counts.changed > 0 && way.statistics !== false) {
    const target = way.statistics
    const analyze = `ANALYZE ${inventoryRelation(keptInto)}`
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
