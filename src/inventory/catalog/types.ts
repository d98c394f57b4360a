/**
 * The shape of the table catalog. Each table is defined once; the definition feeds validation,
 * the query planner, the storage DDL, the simulator's rows, the table description endpoint and
 * docs/tables.md.
 */

/**
 * Column value types. Storage: string → text, integer → bigint, number → double precision,
 * boolean → boolean, timestamp → bigint (ms since the epoch), ip → inet, network → cidr,
 * mac → text (lower-case colon form), stringArray → text[], integerArray → bigint[],
 * ipArray → inet[], json → jsonb.
 */
export type ColumnType =
  | 'string'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'timestamp'
  | 'ip'
  | 'network'
  | 'mac'
  | 'stringArray'
  | 'integerArray'
  | 'ipArray'
  | 'json'

export interface ColumnDef {
  /** API name (camelCase), as clients send it in `columns`, `filters` and `sort`. */
  name: string
  type: ColumnType
  /** What the value means, for the table description and docs. */
  description: string
  /**
   * SQL expression over the source alias `t` that yields the value. Defaults to the quoted
   * storage column `t."<snake_case name>"`.
   */
  sql?: string
  /** Fixed set of values, when the column is an enumeration (documented; a filter on another value matches no row). */
  values?: readonly string[]
  /**
   * A column kept for older clients: what to use instead. Still served; marked
   * `deprecated: true` in the OpenAPI document.
   */
  deprecated?: string
  /**
   * A list (array or JSON array) whose order means nothing (the gateways of a host, the protocols
   * that saw a link): a comparison of two snapshots compares it as a set.
   */
  unordered?: true
  /**
   * A yes/no column of a stored table that no source writes: stored with `default` for every row,
   * then set to the opposite, once, where `where` holds (SQL over the row `t` and the snapshot's
   * partitions `{inventory.<table>}`) when the snapshot's rows are in, and for a rediscovered
   * device's rows (`catalog/ddl.ts`, `fillSql`). For a value that would otherwise be computed from
   * another table at every read.
   */
  atLoad?: { default: boolean; where: string }
}

export interface TableDef {
  /** Endpoint path under tables/, kebab-case: "inventory/devices". */
  path: string
  /** v4-era camelCase paths accepted too (e.g. "addressing/managedDevs"). */
  legacyPaths?: readonly string[]
  title: string
  description: string
  /** Whether a request names a snapshot (false for management/snapshots and jobs). */
  snapshotScoped: boolean
  /**
   * Where rows come from: a storage table that the catalog creates (`{ kind: 'stored', table }`),
   * or an SQL relation over other tables (`{ kind: 'derived', sql }`), e.g. a GROUP BY summary.
   * Snapshot-scoped sources expose a `snapshot_id` column.
   *
   * A stored table with `compute` is filled from the snapshot's other tables when the snapshot
   * is loaded, never by a discovery source: `compute` is a SELECT yielding the storage columns,
   * reading other stored tables as `{inventory.<table>}` (replaced by that table's partition of
   * the snapshot). Used where a view would aggregate or join the large per-interface tables on
   * every request.
   *
   * A derived table with `materialised` keeps its rows computed per snapshot when the snapshot's
   * rows are attached (`catalog/materialised.ts`), and reads the SQL only for a snapshot whose
   * rows are not computed yet. For the views whose every page would otherwise aggregate or join
   * a whole snapshot's large tables.
   */
  source: { kind: 'stored'; table: string; compute?: string } | { kind: 'derived'; sql: string; materialised?: true }
  columns: readonly ColumnDef[]
  defaultSort: { column: string; order: 'asc' | 'desc' }
  /**
   * The natural key: the columns that name the same row in two snapshots (devices: `sn`;
   * interfaces: `sn` + `intName`), unique within a snapshot. A comparison of two snapshots joins
   * on it (`query/compare.ts`).
   */
  key?: readonly string[]
  /**
   * Key columns that may be null on some rows (e.g. the port an unmanaged neighbour advertises):
   * compared so that null matches null (and the empty string). The others are compared as they
   * are, which lets the database use their statistics; they must never be null.
   */
  nullableKey?: readonly string[]
  /**
   * Columns whose value moves between two discoveries without anything having changed (uptime,
   * counters, timestamps): a comparison ignores them unless asked (`compare.volatile`).
   */
  volatile?: readonly string[]
  /**
   * For a derived table whose every row is computed from one row of another table, a stored one
   * (`rowFrom`, its path), with the same key, reading that table's relation once in its SQL, and
   * whose compared columns (those not volatile) are copies of that row's columns of the same names
   * (e.g. interfaces/load from interfaces/counters): its rows differ between two snapshots exactly
   * where that row differs in those columns. Keeping its comparison (not of volatile columns) then
   * computes its rows from the other table's kept ones instead of reading both snapshots whole
   * (`query/kept-comparison.ts`).
   */
  rowFrom?: string
  /** Column names to index after a snapshot's rows are loaded (one entry per index). */
  indexes: ReadonlyArray<readonly string[]>
  /**
   * Sort columns whose position of every row (in the table's total order: the column, then `id`)
   * is computed once with the snapshot's rows (`catalog/positions.ts`), so that a page without
   * filters sorted by one of them is an index range at any offset. For the large tables only.
   */
  positions?: readonly string[]
  /**
   * Columns whose distinct values are counted once with the snapshot's rows
   * (`catalog/value-counts.ts`), so that the count of rows matching filters on one of them sums
   * the counts of the matching values instead of testing every row. Stored columns whose values
   * repeat across rows (names, descriptions, states); for the large tables only. Changing the list
   * changes the parent's columns: a migration of its own.
   */
  valueCounts?: readonly string[]
  /** Web path of the table in the UI, used by intent reports (e.g. "/inventory/devices"). */
  webPath: string
  /**
   * `false` for a table of a technology netinv neither simulates nor discovers: it exists so that
   * clients written for the API family find it, answers with its columns and no rows, costs no
   * storage (an empty relation, no partition per snapshot), and `GET tables` lists it with
   * `collected: false`. Absent for every table netinv fills.
   */
  collected?: false
}

/** A table whose rows a snapshot stores (one partition per snapshot). */
export type StoredTableDef = TableDef & { source: { kind: 'stored'; table: string; compute?: string } }
