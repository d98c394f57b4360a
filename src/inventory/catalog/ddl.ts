/**
 * Storage DDL generated from the catalog. Every stored table is a parent table partitioned by
 * snapshot (`PARTITION BY LIST (snapshot_id)`); a snapshot's rows go into a partition of their
 * own, created detached, bulk-loaded, indexed, then attached. Identifiers come only from the
 * catalog and from validated UUIDs, never from user text.
 */
import { INVENTORY_SCHEMA, storageName } from './columns.js'
import { STORED_TABLES } from './tables.js'
import type { ColumnType, StoredTableDef, TableDef } from './types.js'
import { STORAGE_TYPES } from './storage-types.js'

export type { StoredTableDef } from './types.js'

export { STORAGE_TYPES } from './storage-types.js'

export interface StorageColumn {
  /** API name. */
  name: string
  /** Storage column name (snake_case). */
  storage: string
  type: ColumnType
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** Whether a string is a snapshot id (lower-case UUID). */
export function isSnapshotId(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value)
}

function assertSnapshotId(id: string): void {
  if (!isSnapshotId(id)) throw new Error(`not a snapshot id: ${JSON.stringify(id)}`)
}

export { STORED_TABLES } from './tables.js'

/** Columns sources write into a stored table (those neither computed by `sql` nor set `atLoad`), in catalog order. */
export function storageColumns(table: TableDef): StorageColumn[] {
  return table.columns.filter((c) => c.sql === undefined && c.atLoad === undefined).map((c) => ({ name: c.name, storage: storageName(c.name), type: c.type }))
}

/** Columns of a stored table set once its rows are in (`atLoad`). */
export function loadedColumns(table: TableDef): StorageColumn[] {
  return table.columns.filter((c) => c.atLoad !== undefined).map((c) => ({ name: c.name, storage: storageName(c.name), type: c.type }))
}

/** Every column a partition holds besides `snapshot_id`: what sources write, then what is set at load. */
export function partitionColumns(table: TableDef): StorageColumn[] {
  return [...storageColumns(table), ...loadedColumns(table)]
}

/** `{inventory.<table>}` in catalog SQL replaced by that stored table's partition of the snapshot. */
function partitionsOf(sql: string, snapshotId: string, of: string): string {
  return sql.replace(/\{(inventory\.[a-z0-9_]+)\}/g, (_, name: string) => {
    const base = STORED_TABLES.find((t) => t.source.table === name)
    if (!base) throw new Error(`${of} reads ${name}, which is not a stored table`)
    return partitionTable(base, snapshotId)
  })
}

/**
 * The UPDATEs that set a partition's `atLoad` columns once its rows are in: each row keeps the
 * column's default unless the column's condition holds. With `sns`, only those devices' rows
 * (a rediscovery: their rows are new, with the default).
 */
export function fillSql(table: StoredTableDef, snapshotId: string, sns?: { column: string; param: string }): string[] {
  return table.columns.flatMap((c) => {
    if (!c.atLoad) return []
    const only = sns ? ` AND t."${storageName(sns.column)}" = ANY(${sns.param})` : ''
    const where = partitionsOf(c.atLoad.where, snapshotId, table.path)
    return [`UPDATE ${partitionTable(table, snapshotId)} t SET "${storageName(c.name)}" = ${!c.atLoad.default} WHERE (${where})${only}`]
  })
}

/** Unqualified storage table name: "inventory.devices" → "devices". */
export function baseTableName(table: StoredTableDef): string {
  const [schema, name] = table.source.table.split('.')
  if (schema !== INVENTORY_SCHEMA || !name || !/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad storage table ${table.source.table}`)
  return name
}

/** CREATE TABLE of a partitioned parent table. */
export function parentTableSql(table: StoredTableDef): string {
  const loaded = table.columns.flatMap((c) => (c.atLoad ? [`"${storageName(c.name)}" boolean NOT NULL DEFAULT ${c.atLoad.default}`] : []))
  const cols = [...storageColumns(table).map((c) => `"${c.storage}" ${STORAGE_TYPES[c.type]}${c.name === 'id' ? ' NOT NULL' : ''}`), ...loaded]
  return `CREATE TABLE IF NOT EXISTS ${table.source.table} (snapshot_id text NOT NULL, ${cols.join(', ')}) PARTITION BY LIST (snapshot_id)`
}

/** Name of the partition of one snapshot: "devices_s_<uuid hex>" (unqualified). */
export function partitionName(table: StoredTableDef, snapshotId: string): string {
  assertSnapshotId(snapshotId)
  return `${baseTableName(table)}_s_${snapshotId.replace(/-/g, '')}`
}

/**
 * A relation kept beside a stored table per snapshot, computed from its rows (`<table>_<kind>`:
 * the sort positions, "interfaces_positions"; the value counts, "interfaces_values"): its
 * parent, partitioned by snapshot like the rows, and a snapshot's partition of it.
 */
export function companionParent(table: StoredTableDef, kind: string): string {
  return `${INVENTORY_SCHEMA}.${baseTableName(table)}_${kind}`
}

/** Unqualified name of a snapshot's partition of a companion relation: "interfaces_positions_s_<uuid hex>". */
export function companionPartitionName(table: StoredTableDef, kind: string, snapshotId: string): string {
  return partitionName(table, snapshotId).replace(`${baseTableName(table)}_s_`, `${baseTableName(table)}_${kind}_s_`)
}

export function companionPartition(table: StoredTableDef, kind: string, snapshotId: string): string {
  return `${INVENTORY_SCHEMA}.${companionPartitionName(table, kind, snapshotId)}`
}

/** A snapshot's (detached) partition of a companion relation, with the CHECK constraint that spares the attach its validation scan. */
export function createCompanionSql(table: StoredTableDef, kind: string, snapshotId: string): string {
  return `CREATE TABLE ${companionPartition(table, kind, snapshotId)} (LIKE ${companionParent(table, kind)}, CONSTRAINT ${companionPartitionName(table, kind, snapshotId)}_snap CHECK (snapshot_id = '${snapshotId}'))`
}

export function attachCompanionSql(table: StoredTableDef, kind: string, snapshotId: string): string {
  return `ALTER TABLE ${companionParent(table, kind)} ATTACH PARTITION ${companionPartition(table, kind, snapshotId)} FOR VALUES IN ('${snapshotId}')`
}

export function detachCompanionSql(table: StoredTableDef, kind: string, snapshotId: string): string {
  return `ALTER TABLE ${companionParent(table, kind)} DETACH PARTITION ${companionPartition(table, kind, snapshotId)}`
}

export function dropCompanionSql(table: StoredTableDef, kind: string, snapshotId: string): string {
  return `DROP TABLE IF EXISTS ${companionPartition(table, kind, snapshotId)}`
}

/** Qualified partition name. */
export function partitionTable(table: StoredTableDef, snapshotId: string): string {
  return `${INVENTORY_SCHEMA}.${partitionName(table, snapshotId)}`
}

/**
 * A detached partition ready for COPY. The CHECK constraint lets ATTACH skip its validation
 * scan, so attaching is instant at any size.
 */
export function createPartitionSql(table: StoredTableDef, snapshotId: string): string {
  return `CREATE TABLE ${partitionTable(table, snapshotId)} (LIKE ${table.source.table} INCLUDING DEFAULTS, CONSTRAINT ${partitionName(table, snapshotId)}_snap CHECK (snapshot_id = '${snapshotId}'))`
}

/** `COPY ... FROM STDIN` into a partition, columns in storage order (snapshot_id first). */
export function copyIntoSql(table: StoredTableDef, snapshotId: string): string {
  const cols = ['snapshot_id', ...storageColumns(table).map((c) => `"${c.storage}"`)]
  return `COPY ${partitionTable(table, snapshotId)} (${cols.join(', ')}) FROM STDIN WITH (FORMAT csv)`
}

/** CREATE INDEX statements of a loaded partition (run after the load). */
export function partitionIndexSql(table: StoredTableDef, snapshotId: string): string[] {
  const part = partitionTable(table, snapshotId)
  return table.indexes.map((cols, i) => {
    const list = cols.map((c) => `"${storageName(c)}"`).join(', ')
    return `CREATE INDEX ${partitionName(table, snapshotId)}_i${i} ON ${part} (${list})`
  })
}

export function attachPartitionSql(table: StoredTableDef, snapshotId: string): string {
  return `ALTER TABLE ${table.source.table} ATTACH PARTITION ${partitionTable(table, snapshotId)} FOR VALUES IN ('${snapshotId}')`
}

/** Whether a stored table is computed from the snapshot's other tables rather than filled by a source. */
export function isComputed(table: StoredTableDef): boolean {
  return table.source.compute !== undefined
}

/** The stored tables sources fill (discovery, snapshot files), in load order. */
export function sourceTables(): StoredTableDef[] {
  return STORED_TABLES.filter((t) => !isComputed(t))
}

/**
 * INSERT that fills a computed table's (empty) partition from the snapshot's partitions of the
 * tables it reads; every `{inventory.<table>}` must name a stored table.
 */
export function computeSql(table: StoredTableDef, snapshotId: string): string {
  const sql = table.source.compute
  if (sql === undefined) throw new Error(`${table.path} is not computed`)
  const from = partitionsOf(sql, snapshotId, table.path)
  const cols = storageColumns(table).map((c) => `"${c.storage}"`)
  return `INSERT INTO ${partitionTable(table, snapshotId)} (snapshot_id, ${cols.join(', ')}) SELECT '${snapshotId}', ${cols.join(', ')} FROM (${from}) c`
}

export function dropPartitionSql(table: StoredTableDef, snapshotId: string): string {
  return `DROP TABLE IF EXISTS ${partitionTable(table, snapshotId)}`
}

/** The DDL of every parent table (used by the inventory migrations). */
export function storageDdl(): string[] {
  return STORED_TABLES.map(parentTableSql)
}
