/**
 * Tables of technologies netinv neither simulates nor discovers (ACI, MPLS, multicast, QoS,
 * wireless clients, ...), defined so that clients written for the API family find every table
 * they know: each answers with its columns and no rows. The source is an empty relation with the
 * columns' storage types, so such a table has no storage table, no partition per snapshot and no
 * load step: it costs nothing when a snapshot is created, loaded or deleted.
 */
import { STORAGE_TYPES } from '../storage-types.js'
import { col, deviceColumns, idColumn, storageName } from '../columns.js'
import type { ColumnDef, ColumnType, TableDef } from '../types.js'

/** The sentence every such table's description ends with (clients and tests look for it). */
export const NOT_COLLECTED = 'Not collected by netinv: it neither simulates nor discovers this technology, so the table answers with its columns and no rows.'

/** A column of an uncollected table: `[name, type, description]`. */
export type ColumnSpec = readonly [name: string, type: ColumnType, description: string]

export interface UncollectedSpec {
  /** Endpoint path under tables/. */
  path: string
  title: string
  /** What the table holds where the technology is collected (one sentence). */
  what: string
  /** The table's own columns (after `id` and, for per-device tables, `sn`, `hostname`, `siteName`). */
  columns: readonly ColumnSpec[]
  /** Whether rows belong to one device each (adds `sn`, `hostname`, `siteName`); default true. */
  perDevice?: boolean
}

/** `SELECT NULL::<type> AS "<column>", ... WHERE false`: no rows, the columns typed as stored ones would be. */
export function emptyRelationSql(columns: readonly ColumnDef[]): string {
  const cols = ['NULL::text AS snapshot_id', ...columns.map((c) => `NULL::${STORAGE_TYPES[c.type]} AS "${storageName(c.name)}"`)]
  return `SELECT ${cols.join(', ')} WHERE false`
}

/** The table of one uncollected technology's endpoint. */
export function uncollected(spec: UncollectedSpec): TableDef {
  const own = spec.columns.map(([name, type, description]) => col(name, type, description))
  const base = spec.perDevice === false ? [idColumn('row')] : [idColumn('row'), ...deviceColumns()]
  const columns = [...base, ...own.filter((c) => !base.some((b) => b.name === c.name))]
  // the address a device was reached on is no property of it (volatile, as in every table)
  const valueColumns = columns.filter((c) => c.name !== 'id' && c.name !== 'loginIp').map((c) => c.name)
  const volatile = columns.some((c) => c.name === 'loginIp') ? ['loginIp'] : undefined
  return {
    path: spec.path,
    title: spec.title,
    description: `${spec.what} ${NOT_COLLECTED}`,
    snapshotScoped: true,
    source: { kind: 'derived', sql: emptyRelationSql(columns) },
    columns,
    defaultSort: { column: spec.perDevice === false ? 'id' : 'hostname', order: 'asc' },
    // no rows to tell apart: a row would be its values (any of them may be null), so a comparison
    // of two snapshots, always empty, still has a key to join on
    key: valueColumns.length > 0 ? valueColumns : ['id'],
    nullableKey: valueColumns,
    ...(volatile ? { volatile } : {}),
    indexes: [],
    webPath: `/technology/${spec.path}`,
    collected: false,
  }
}
