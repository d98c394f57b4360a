/**
 * Some devices of a loaded snapshot: which of them it holds, the state it must be in to change
 * them, and their removal. The change itself is one transaction (storage/device-rows.ts), under
 * a lock of the snapshot's row that checks its state again, and ends with the snapshot's
 * figures measured from the result.
 */
import type { Db, Queryable } from '../../shared/db/index.js'
import { ApiError, invalidInput } from '../../shared/errors.js'
import { partitionTable } from '../catalog/index.js'
import { DEVICES } from '../catalog/inventory.js'
import { replaceDeviceRows, type DeviceRows } from '../storage/index.js'
import type { DeviceSelection } from './device-input.js'
import { measureSnapshot } from './figures.js'
import { forgetChanges } from '../query/change-counts.js'
import { pruneConfigTexts, snapshotConfigHashes } from '../discovery/network/ssh/texts.js'
import { getSnapshot, updateSnapshot, type SnapshotRow } from './store.js'

/** Refuses a snapshot whose devices cannot change now: locked, busy, failed or not loaded. */
export function assertDevicesEditable(s: SnapshotRow): void {
  if (s.locked) throw new ApiError('API_SNAPSHOT_LOCKED', `Snapshot ${s.id} is locked; unlock it before changing its devices`)
  if (s.status === 'run' || s.status === 'finishing') throw new ApiError('API_SNAPSHOT_BUSY', `Snapshot ${s.id} is being discovered`)
  if (s.loading) throw new ApiError('API_SNAPSHOT_BUSY', `Snapshot ${s.id} is being loaded or unloaded`)
  if (s.status === 'error') throw new ApiError('API_CONFLICT', `Snapshot ${s.id} failed and holds no data`)
  if (!s.loaded) throw new ApiError('API_SNAPSHOT_NOT_LOADED', `Snapshot ${s.id} is not loaded; load it first (POST snapshots/${s.id}/load)`)
}

/** Locks the snapshot's row and checks its state again (first step of every change). */
export async function lockEditable(tx: Queryable, id: string): Promise<SnapshotRow> {
  await tx.query('SELECT id FROM inventory.snapshots WHERE id = $1 FOR UPDATE', [id])
  const s = await getSnapshot(tx, id)
  assertDevicesEditable(s)
  return s
}

export interface KnownDevice {
  sn: string
  loginIp: string | null
}

/**
 * The snapshot's devices a selection names; 422 listing every serial or address it does not
 * hold (unless `allowNewAddresses`, for a network rediscovery that may find new devices), each at
 * its place in the body: `list` names the body's list (the body itself when empty).
 */
export async function selectDevices(
  db: Queryable,
  id: string,
  selection: DeviceSelection,
  options: { allowNewAddresses?: boolean; list?: string } = {},
): Promise<{ devices: KnownDevice[]; newAddresses: string[] }> {
  const { allowNewAddresses = false, list = selection.by === 'sn' ? 'snList' : 'ipList' } = options
  const column = selection.by === 'sn' ? 'sn' : 'host(login_ip)'
  const r = await db.query<{ sn: string; login_ip: string | null }>(
    `SELECT sn, host(login_ip) AS login_ip FROM ${partitionTable(DEVICES, id)} WHERE ${column} = ANY($1::text[])`,
    [selection.values],
  )
  const devices = r.rows.map((d) => ({ sn: d.sn, loginIp: d.login_ip }))
  const found = new Set(devices.map((d) => (selection.by === 'sn' ? d.sn : d.loginIp)))
  const missing = selection.values.map((v, i) => [v, i] as const).filter(([v]) => !found.has(v))
  if (missing.length > 0 && !(selection.by === 'ip' && allowNewAddresses)) {
    throw invalidInput(
      missing.slice(0, 50).map(([v, i]) => ({
        message: `"${list}[${i}]" is not ${selection.by === 'sn' ? 'the serial number' : 'the management address'} of a device of snapshot ${id}: ${JSON.stringify(v).slice(0, 80)}`,
        path: `${list}[${i}]`,
      })),
    )
  }
  return { devices, newAddresses: [...new Set(missing.map(([v]) => v))] }
}

/**
 * Replaces the rows of devices `sns` with `rows` (none: removal) in one transaction, and records
 * the snapshot's new figures.
 * `beforeCommit` runs last inside it: a throw there (a stop request) leaves the snapshot unchanged.
 */
export async function changeDevices(db: Db, id: string, sns: readonly string[], rows: DeviceRows, now: () => number, beforeCommit?: (tx: Queryable) => Promise<void>): Promise<Record<string, number>> {
  let replaced: string[] = []
  const counts = await replaceDeviceRows(db, id, sns, rows, {
    before: async (tx) => {
      await lockEditable(tx, id)
      replaced = await snapshotConfigHashes(tx, id, sns)
    },
    after: async (tx, counts) => {
      const measures = await measureSnapshot(tx, id)
      const devices = counts[DEVICES.path] ?? 0
      await updateSnapshot(tx, id, {
        ...measures,
        counts,
        total_dev_count: devices,
        licensed_dev_count: devices,
        interface_count: counts['inventory/interfaces'] ?? 0,
        ts_change: now(),
      })
      // after ts_change: a count of changes under way keeps nothing (query/change-counts.ts)
      await forgetChanges(tx, id)
      await beforeCommit?.(tx)
    },
  })
  // the configuration texts of the replaced rows that no snapshot refers to any more
  await pruneConfigTexts(db, replaced, now())
  return counts
}

/** DELETE snapshots/{id}/devices: removes the devices' rows from every table of the snapshot. */
export async function removeDevices(db: Db, id: string, sns: readonly string[], now: () => number): Promise<void> {
  assertDevicesEditable(await getSnapshot(db, id))
  await selectDevices(db, id, { by: 'sn', values: [...sns] }, { list: '' })
  await changeDevices(db, id, sns, new Map(), now)
}
