/**
 * Replacing or removing some devices' rows in a loaded snapshot, atomically: in one transaction
 * every source table (those a discovery fills) loses the rows of the devices named, takes the
 * new rows given for them, the tables of no one device (hosts, sites) follow (site-figures.ts),
 * and the computed tables and sort positions are computed again from the result. Readers see the snapshot before
 * or after, never in between.
 */
import type { Db, Queryable } from '../../shared/db/index.js'
import { Pace } from '../../shared/pace.js'
import { HOSTS } from '../catalog/addressing.js'
import { DEVICES } from '../catalog/inventory.js'
import {
  STORED_TABLES,
  computeSql,
  fillSql,
  copyIntoSql,
  deviceColumn,
  isComputed,
  partitionTable,
  storageColumns,
  storageName,
  type StoredTableDef,
} from '../catalog/index.js'
import { csvChunks } from './csv.js'
import { followHosts, hostsSeenBy, refreshSites } from './site-figures.js'
import { recomputeRelations } from './snapshot-relations.js'
import { computedOf } from './computed.js'
import type { TableRows } from './partitions.js'

/** New rows per table, values in `storageColumns(table)` order. */
export type DeviceRows = Map<StoredTableDef, unknown[][]>

/** Index of a table's device column among its storage columns (-1: rows of no one device). */
function deviceIndex(table: StoredTableDef): number {
  const column = deviceColumn(table)
  return column ? storageColumns(table).findIndex((c) => c.name === column.name) : -1
}

/** The source tables whose rows belong to a device. */
function deviceTables(): StoredTableDef[] {
  return STORED_TABLES.filter((t) => !isComputed(t) && deviceIndex(t) >= 0)
}

/**
 * Keeps, from a source's slices, the rows of the devices in `sns`, and the hosts they saw (with
 * only what they saw of them); rows of other devices and the other tables of no one device are
 * dropped. `onSlice` runs between slices (e.g. a stop check). The rows are read in turns of the
 * event loop (shared/pace.ts).
 */
export async function pickDeviceRows(source: Iterable<TableRows>, sns: ReadonlySet<string> | ((sn: string) => boolean), onSlice: () => void = () => {}): Promise<DeviceRows> {
  const wanted = typeof sns === 'function' ? sns : (sn: string) => sns.has(sn)
  const out: DeviceRows = new Map()
  const pace = new Pace()
  for (const { table, rows } of source) {
    onSlice()
    if (table === HOSTS) {
      out.set(table, await hostsSeenBy(rows, wanted, pace))
      continue
    }
    const at = isComputed(table) ? -1 : deviceIndex(table)
    if (at < 0) continue
    const list = out.get(table) ?? []
    for await (const row of rows) {
      const sn = row[at]
      if (typeof sn === 'string' && wanted(sn)) list.push([...row])
      if (pace.due) await pace.turn()
    }
    out.set(table, list)
  }
  return out
}

/** Serials of the devices a set of rows describes (their inventory/devices rows). */
export function devicesIn(rows: DeviceRows): string[] {
  const at = deviceIndex(DEVICES)
  return (rows.get(DEVICES) ?? []).map((r) => r[at] as string)
}

export interface DeviceRowsHooks {
  /** First in the transaction: lock and check the snapshot (throw to change nothing). */
  before(tx: Queryable): Promise<void>
  /** Last in the transaction, with the rows per table after the change. */
  after(tx: Queryable, counts: Record<string, number>): Promise<void>
}

/**
 * In one transaction: the rows of `sns` leave every source table of the snapshot, `rows` go
 * in, hosts and sites follow, computed and materialised tables and positions are computed again.
 * Returns rows per table.
 */
export async function replaceDeviceRows(db: Db, snapshotId: string, sns: readonly string[], rows: DeviceRows, hooks: DeviceRowsHooks): Promise<Record<string, number>> {
  return db.transaction(async (tx) => {
    await hooks.before(tx)
    for (const table of deviceTables()) {
      const column = storageName(deviceColumn(table)!.name)
      await tx.query(`DELETE FROM ${partitionTable(table, snapshotId)} WHERE "${column}" = ANY($1::text[])`, [[...sns]])
      const fresh = rows.get(table)
      if (fresh && fresh.length > 0) await db.copyFrom(copyIntoSql(table, snapshotId), csvChunks(fresh, storageColumns(table), `"${snapshotId}"`), tx)
    }
    // the devices' new rows have their columns set at load at the default: set them (their other rows are theirs alone)
    for (const table of deviceTables()) for (const sql of fillSql(table, snapshotId, { column: deviceColumn(table)!.name, param: '$1::text[]' })) await tx.query(sql, [[...sns]])
    await followHosts(tx, snapshotId, sns, rows.get(HOSTS) ?? [])
    await refreshSites(tx, snapshotId)
    for (const table of STORED_TABLES) {
      if (!isComputed(table)) continue
      await tx.query(`DELETE FROM ${partitionTable(table, snapshotId)}`)
      await tx.query(computeSql(table, snapshotId))
    }
    // the sort positions, value counts and materialised tables of the rows as they are now
    await recomputeRelations(tx, computedOf(snapshotId))
    const counts: Record<string, number> = {}
    for (const table of STORED_TABLES) {
      const r = await tx.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${partitionTable(table, snapshotId)}`)
      counts[table.path] = Number(r.rows[0]!.n)
    }
    await hooks.after(tx, counts)
    return counts
  })
}
