/**
 * Management consistency: software versions per platform and the devices' configurations
 * (saved per snapshot, and their versions across every loaded snapshot).
 */
import { col, deviceColumns, idColumn } from './columns.js'
import type { StoredTableDef, TableDef } from './types.js'

export const OSVER_CONSISTENCY: TableDef = {
  path: 'management/osver-consistency',
  legacyPaths: ['management/osverConsistency'],
  title: 'Software version consistency',
  description: 'Software versions running on each platform and the share of the platform each holds, computed from inventory/devices.',
  snapshotScoped: true,
  source: {
    kind: 'derived',
    sql: [
      "SELECT snapshot_id, concat_ws('/', vendor, platform, version) AS id, vendor, family, platform, version, count(*)::bigint AS count,",
      'round((100.0 * count(*) / sum(count(*)) OVER (PARTITION BY snapshot_id, vendor, platform))::numeric, 2)::float8 AS pct',
      'FROM inventory.devices GROUP BY snapshot_id, vendor, family, platform, version',
    ].join(' '),
  },
  columns: [
    col('id', 'string', 'The vendor/platform/version the row counts (unique per snapshot).'),
    col('vendor', 'string', 'Vendor of the platform.'),
    col('family', 'string', 'Operating system family.'),
    col('platform', 'string', 'Hardware platform.'),
    col('version', 'string', 'Software version.'),
    col('count', 'integer', 'Devices of the platform running this version.'),
    col('pct', 'number', 'Those devices as a percentage of all devices of the platform (0–100).'),
  ],
  key: ['vendor', 'family', 'platform', 'version'],
  nullableKey: ['vendor', 'family', 'platform', 'version'],
  defaultSort: { column: 'platform', order: 'asc' },
  indexes: [],
  webPath: '/inventory/os-versions',
}

export const CONFIG_SAVED: StoredTableDef = {
  path: 'management/configuration/saved',
  title: 'Saved configuration',
  description: 'The running configuration of every device at discovery: a fingerprint, and whether it was saved to the startup configuration.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.config_saved' },
  columns: [
    idColumn('device'),
    ...deviceColumns(),
    col('hash', 'string', 'Fingerprint (SHA-1, hex) of the running configuration with volatile lines (timestamps, counters) left out; equal hashes mean equal configurations.'),
    col('status', 'string', 'saved when the startup configuration equals the running one, unsaved when changes were not saved yet; null when the device does not show its startup configuration.', { values: ['saved', 'unsaved'] }),
  ],
  key: ['sn'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['sn']],
  webPath: '/technology/management/saved-config-consistency',
}

export const CONFIGURATION: TableDef = {
  path: 'management/configuration',
  title: 'Configuration versions',
  description:
    'Every distinct configuration of every device seen by the loaded snapshots, with when it was first and last seen (from management/configuration/saved of each loaded snapshot; the request has no snapshot key).',
  snapshotScoped: false,
  source: {
    kind: 'derived',
    sql: [
      "SELECT c.sn || '/' || c.hash AS id, c.sn, (array_agg(c.hostname ORDER BY s.ts_start DESC, s.seq DESC))[1] AS hostname,",
      '(array_agg(c.site_name ORDER BY s.ts_start DESC, s.seq DESC))[1] AS site_name, c.hash,',
      '(array_agg(c.status ORDER BY s.ts_start DESC, s.seq DESC))[1] AS status, min(s.ts_start) AS last_change_at, max(s.ts_start) AS last_check_at,',
      'count(*)::bigint AS snapshot_count',
      'FROM inventory.config_saved c JOIN inventory.snapshots s ON s.id = c.snapshot_id GROUP BY c.sn, c.hash',
    ].join(' '),
  },
  columns: [
    col('id', 'string', 'The device serial number/configuration hash the row describes.'),
    ...deviceColumns().map((c) => ({ ...c, description: `${c.description.replace(/\.$/, '')}, as the latest snapshot with this configuration saw it.` })),
    col('hash', 'string', 'Fingerprint of the configuration (as in management/configuration/saved).'),
    col('status', 'string', 'Whether the configuration was saved, as the latest snapshot with it saw it.', { values: ['saved', 'unsaved'] }),
    col('lastChangeAt', 'timestamp', 'Start of the first discovery that saw this configuration (ms since the epoch): when the change was noticed.'),
    col('lastCheckAt', 'timestamp', 'Start of the latest discovery that saw this configuration (ms since the epoch).'),
    col('snapshotCount', 'integer', 'Number of loaded snapshots with this configuration.'),
  ],
  key: ['sn'],
  volatile: ['lastCheckAt', 'snapshotCount'],
  defaultSort: { column: 'lastChangeAt', order: 'desc' },
  indexes: [],
  webPath: '/management/configuration',
}

export const CONSISTENCY_TABLES: readonly TableDef[] = [OSVER_CONSISTENCY, CONFIG_SAVED, CONFIGURATION]
