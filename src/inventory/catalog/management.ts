/**
 * Tables that are not scoped to a snapshot: the snapshots themselves and discovery jobs.
 * Both read the service's own bookkeeping tables (created by the inventory migrations).
 */
import { col } from './columns.js'
import type { TableDef } from './types.js'

/** The snapshot id `$last` resolves to: latest loaded snapshot whose discovery is done. */
export const LAST_SNAPSHOT_SQL =
  "(SELECT l.id FROM inventory.snapshots l WHERE l.status = 'done' AND l.loaded ORDER BY l.ts_end DESC NULLS LAST, l.seq DESC LIMIT 1)"

export const SNAPSHOT_STATUSES = ['run', 'finishing', 'done', 'unloaded', 'error'] as const

export const MANAGEMENT_SNAPSHOTS: TableDef = {
  path: 'management/snapshots',
  title: 'Snapshots',
  description: 'Every snapshot with its state, counts and timestamps (the request has no snapshot key).',
  snapshotScoped: false,
  source: {
    kind: 'derived',
    sql: [
      'SELECT s.id,',
      "CASE WHEN s.status IN ('run', 'finishing', 'error') THEN s.status WHEN s.loaded THEN 'done' ELSE 'unloaded' END AS status,",
      "CASE WHEN s.status IN ('done', 'error') THEN s.status ELSE '' END AS finish_status,",
      "CASE WHEN s.status IN ('run', 'finishing') THEN 'discovering' WHEN s.loaded THEN 'loaded' ELSE 'unloaded' END AS state,",
      "s.loading, s.loaded_size, s.unloaded_size, (s.origin = 'import') AS from_archive,",
      `coalesce(s.id = ${LAST_SNAPSHOT_SQL}, false) AS is_last_snapshot,`,
      's.name, s.note,',
      "ARRAY(SELECT e->>'siteName' FROM jsonb_array_elements(s.sites) e) AS sites,",
      's.locked, s.total_dev_count, s.device_added_count, s.device_removed_count, s.interface_count,',
      's.interface_active_count, s.interface_edge_count, s.user_count,',
      's.ts_start, s.ts_end, s.ts_change, s.creator_username, s.version',
      'FROM inventory.snapshots s',
    ].join(' '),
  },
  columns: [
    col('id', 'string', 'Snapshot id (UUID).'),
    col('status', 'string', 'Discovery state: run/finishing while discovering, then done (loaded), unloaded or error.', { values: SNAPSHOT_STATUSES }),
    col('finishStatus', 'string', 'How discovery ended: done or error; an empty string while it runs.', { values: ['done', 'error', ''] }),
    col('state', 'string', 'Whether the snapshot can be queried.', { values: ['loaded', 'unloaded', 'discovering'] }),
    col('loading', 'boolean', 'Whether a load or unload of the snapshot is in progress.'),
    col('loadedSize', 'integer', "Bytes the snapshot's rows take in the database with their indexes (measured when its discovery, import or clone finished); 0 until then."),
    col('unloadedSize', 'integer', "Bytes of the snapshot's rows alone, without indexes: about what an unloaded snapshot would need at rest (netinv keeps the indexes when unloading, so loading again is instant); 0 until measured."),
    col('fromArchive', 'boolean', 'Whether the snapshot was imported from a snapshot file (POST snapshots/upload).'),
    col('isLastSnapshot', 'boolean', 'Whether $last resolves to this snapshot.'),
    col('name', 'string', 'User-given name, null when none.'),
    col('note', 'string', 'User-given note, null when none.'),
    col('sites', 'stringArray', 'Names of the sites the snapshot covers.'),
    col('locked', 'boolean', 'Whether the snapshot is locked (cannot be deleted).'),
    col('totalDevCount', 'integer', 'Number of devices discovered.'),
    col('deviceAddedCount', 'integer', 'Devices present here but not in the previous snapshot of the same network.'),
    col('deviceRemovedCount', 'integer', 'Devices of the previous snapshot of the same network that are missing here.'),
    col('interfaceCount', 'integer', 'Number of interfaces discovered.'),
    col('interfaceActiveCount', 'integer', 'Interfaces that are operationally up (inventory/interfaces with l2 up).'),
    col('interfaceEdgeCount', 'integer', 'Edge interfaces: switch ports that face end hosts rather than network devices (distinct ports of addressing/mac with edge true).'),
    col('userCount', 'integer', 'End hosts: distinct MAC addresses of addressing/hosts.'),
    col('tsStart', 'timestamp', 'When discovery started (ms since the epoch).'),
    col('tsEnd', 'timestamp', 'When discovery finished (ms since the epoch), null while it runs.'),
    col('tsChange', 'timestamp', 'When the snapshot last changed state, name, note or lock (ms since the epoch).'),
    col('creatorUsername', 'string', 'User who started the discovery or import.'),
    col('version', 'string', 'Product version that created the snapshot, e.g. v7.6.'),
  ],
  key: ['id'],
  defaultSort: { column: 'tsEnd', order: 'desc' },
  indexes: [],
  webPath: '/management/snapshots',
}

export const JOB_STATUSES = ['scheduled', 'running', 'done', 'error'] as const
/** Job names as clients of this API family filter them. */
export const JOB_NAMES = ['discoveryNew', 'discoveryRefresh', 'discoveryAdd', 'configBackup', 'snapshotUpload', 'snapshotClone', 'snapshotLoad', 'snapshotUnload', 'snapshotDownload', 'loadGraphCache', 'saveHistoricalData', 'report'] as const

export const JOBS: TableDef = {
  path: 'jobs',
  title: 'Jobs',
  description: 'Background jobs (discovery, upload, clone, load, unload, download) with their state (the request has no snapshot key).',
  snapshotScoped: false,
  source: {
    kind: 'derived',
    sql: [
      'SELECT j.id, j.name, j.status,',
      "(j.status IN ('done', 'error')) AS is_done,",
      'j.snapshot_id AS snapshot, j.scheduled_at, j.started_at, j.finished_at, j.username, j.progress, j.message, j.download_file',
      'FROM inventory.jobs j',
    ].join(' '),
  },
  columns: [
    col('id', 'string', 'Job id (UUID).'),
    col('name', 'string', 'What the job does (docs/snapshots.md, "Jobs").', { values: JOB_NAMES }),
    col('status', 'string', 'State of the job: scheduled, running, done or error.', { values: JOB_STATUSES }),
    col('isDone', 'boolean', 'Whether the job has finished (done or error).'),
    col('snapshot', 'string', 'Id of the snapshot the job works on.'),
    col('scheduledAt', 'timestamp', 'When the job was accepted (ms since the epoch).'),
    col('startedAt', 'timestamp', 'When the job started running (ms since the epoch).'),
    col('finishedAt', 'timestamp', 'When the job finished (ms since the epoch), null while it runs.'),
    col('username', 'string', 'User who started the job.'),
    col('progress', 'number', 'Fraction of the work done, 0 to 1.'),
    col('message', 'string', 'What the job is doing now, or why it failed.'),
    col('downloadFile', 'string', 'For a snapshotDownload job, the name of the file GET jobs/{id}/download returns; null for other jobs.'),
  ],
  key: ['id'],
  defaultSort: { column: 'scheduledAt', order: 'desc' },
  indexes: [],
  webPath: '/jobs',
}

export const MANAGEMENT_TABLES: readonly TableDef[] = [MANAGEMENT_SNAPSHOTS, JOBS]
