/**
 * Value counts of kept comparisons. For a table whose snapshots have value counts
 * (`catalog/value-counts.ts`: interface names, descriptions, states), the rows of a pair's kept
 * comparison (`kept-comparison.ts`) are counted per value of each counted column as they are
 * written, so the count of a compared request filtered on one such column (`l1` like down) sums the
 * counts of the matching values instead of testing every kept row of the pair (at 10 M, the
 * 962,715 differences of two generations: docs/architecture.md).
 *
 * Storage: `inventory."<kept relation>_vc"` beside the kept relation: `_pair`, `g` (the column's
 * index in `valueCounts`), `n` and the counted columns, with the types of the kept rows; one index,
 * on `(_pair, g)`. Each pair also has the row of all its rows (`g` = -1), written in the same
 * statement as the others: the mark that they are there. A pair kept before them (by an earlier
 * release) has no such row, and its counts test the kept rows. The trigger that deletes a pair's
 * kept rows with its `snapshot_changes` row deletes these too (migration 560), in the same
 * statement, so they are never read without the rows they count.
 *
 * The `change` column of every table's kept comparison is counted already: the pair's counts per
 * kind (`keptChangeCounts`).
 */
import { countedColumnsSql, valueGroupsSql, valueSumSql } from '../catalog/value-counts.js'
import { inventoryRelation } from '../catalog/columns.js'
import type { TableDef } from '../catalog/types.js'
import type { Db, Queryable } from '../../shared/db/index.js'
import type { ValueCounts } from './plan.js'
import type { Params } from './sql-filter.js'
import { CHANGE_KINDS } from './compare.js'

/** The relation of a kept relation's value counts. */
export interface KeptValuesRelation {
  name: string
  /** The kept relation whose rows they count. */
  kept: string
  table: TableDef
}

/** The value counts kept beside `relation` (the kept comparisons of `table`), undefined for a table without value counts. */
export function keptValuesRelation(table: TableDef, relation: string): KeptValuesRelation | undefined {
  return (table.valueCounts?.length ?? 0) > 0 ? { name: `${relation}_vc`, kept: relation, table } : undefined
}

/**
 * Creates the relation unless it exists, shaped by the kept rows' SELECT (`shapeSql`, the columns
 * under their storage names), inside the caller's transaction (which holds the kept relation's lock).
 */
export async function ensureKeptValues(tx: Queryable, values: KeptValuesRelation, shapeSql: string): Promise<void> {
  const exists = await tx.query<{ e: boolean }>('SELECT to_regclass($1) IS NOT NULL AS e', [inventoryRelation(values.name)])
  if (exists.rows[0]?.e) return
  const columns = countedColumnsSql(values.table).map((c) => `c.${c}`)
  await tx.query(`CREATE TABLE ${inventoryRelation(values.name)} AS SELECT 0::int8 AS _pair, 0::int2 AS g, 0::int8 AS n, ${columns.join(', ')} FROM (${shapeSql}) c WITH NO DATA`)
  await tx.query(`CREATE INDEX "${values.name}_g" ON ${inventoryRelation(values.name)} (_pair, g)`)
}

/**
 * The INSERT of the pair's value counts, over `rows` (the kept rows just written, as the keeping's
 * statement returns them, aliased `r`), the row of all of them included.
 */
export function keptValuesInsertSql(values: KeptValuesRelation, pair: string, rows: string): string {
  const groups = valueGroupsSql(values.table, true)
  return `INSERT INTO ${inventoryRelation(values.name)} (_pair, g, n, ${countedColumnsSql(values.table).join(', ')})
    SELECT ${pair}, ${groups.g}, count(*), ${groups.columns} FROM ${rows} r ${groups.groupBy}`
}

/**
 * The pairs kept before their value counts existed (by an earlier release) get them, each in a
 * transaction of its own that first locks its pair's row: a device change deleting it waits, or has
 * deleted it and its rows, and there is nothing to count; another process counting the same pair
 * waits, then finds it counted. Run at start, after the relation exists. Returns how many pairs it counted.
 */
export async function countKeptPairs(db: Db, values: KeptValuesRelation): Promise<number> {
  const uncounted = `NOT EXISTS (SELECT 1 FROM ${inventoryRelation(values.name)} m WHERE m._pair = p.id AND m.g = -1)`
  const pairs = await db.query<{ id: string }>(`SELECT p.id::text AS id FROM inventory.snapshot_changes p WHERE p.relation = $1 AND ${uncounted} ORDER BY p.id`, [values.kept])
  let counted = 0
  for (const { id } of pairs.rows) {
    counted += await db.transaction(async (tx) => {
      const mine = await tx.query(`SELECT 1 FROM inventory.snapshot_changes p WHERE p.id = $1 AND ${uncounted} FOR UPDATE`, [id])
      if (mine.rows.length === 0) return 0
      await tx.query(keptValuesInsertSql(values, '$1::int8', `(SELECT * FROM ${inventoryRelation(values.kept)} k WHERE k._pair = $1::int8)`), [id])
      return 1
    })
  }
  return counted
}

/** The value counts of one pair's kept rows (`plan.ts` sums them), ready when the pair's row of all rows is there. */
export function keptValueCounts(values: KeptValuesRelation, pairId: string): ValueCounts {
  return {
    columns: values.table.valueCounts ?? [],
    sql: (g, predicate, params: Params) => {
      const pair = params.add(pairId, 'int8')
      const ready = `EXISTS (SELECT 1 FROM ${inventoryRelation(values.name)} m WHERE m._pair = ${pair} AND m.g = -1)`
      return valueSumSql(inventoryRelation(values.name), `v._pair = ${pair}`, g, predicate, ready)
    },
  }
}

/**
 * The value counts of a kept comparison's `change` column, for every table: the pair's counts per
 * kind, which its `snapshot_changes` row holds (written with the kept rows, in the same
 * transaction), as the rows of a relation of value counts. A compared count filtered on the kind
 * alone (the web interface's "change" filter) sums them instead of testing every kept row; ready
 * while the pair's row is there.
 */
export function keptChangeCounts(pairId: string): ValueCounts {
  const kinds = CHANGE_KINDS.map((kind) => `('${kind}'::text, p.${kind})`).join(', ')
  const relation = `(SELECT p.id AS _pair, 0 AS g, k.n, k."change" FROM inventory.snapshot_changes p CROSS JOIN LATERAL (VALUES ${kinds}) AS k("change", n))`
  return {
    columns: ['change'],
    sql: (g, predicate, params: Params) => {
      const pair = params.add(pairId, 'int8')
      return valueSumSql(relation, `v._pair = ${pair}`, g, predicate, `EXISTS (SELECT 1 FROM inventory.snapshot_changes m WHERE m.id = ${pair})`)
    },
  }
}
