/**
 * Tables of device hardware: fans, power supplies, modules (the health of the parts listed in
 * inventory/pn) and the vendors' end-of-life milestones of installed parts.
 */
import { col, deviceColumns, idColumn } from './columns.js'
import type { StoredTableDef, TableDef } from './types.js'

/** Serial number of the part itself, as `sn` of its inventory/pn row. */
const partSn = (what: string) => col('partSn', 'string', `Serial number of the ${what} itself (the \`sn\` of its inventory/pn row), null when the device reports none.`)

/** Name, description, part number and serial of a part, as its inventory/pn row has them. */
const partColumns = (what: string, example: string) => [
  col('name', 'string', `Name of the ${what} as the device reports it, e.g. "${example}" (the \`name\` of its inventory/pn row).`),
  col('dscr', 'string', `Description of the ${what} as reported by the device.`),
  col('pid', 'string', `Product identifier (orderable part number) of the ${what}.`),
  partSn(what),
]

export const FANS: StoredTableDef = {
  path: 'inventory/fans',
  title: 'Fans',
  description: 'Fan trays of every device with their operational state (environment monitoring: ENTITY-SENSOR / vendor environment MIBs, `show environment`).',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.fans' },
  columns: [
    idColumn('fan'),
    ...deviceColumns(),
    col('name', 'string', 'Name of the fan tray as the device reports it, e.g. "Fan Tray 1" (the `name` of its inventory/pn row).'),
    partSn('fan tray'),
    col('fanState', 'string', 'Operational state as reported (lower case): ok when healthy, fail when it stopped or reports a fault.', { values: ['ok', 'fail'] }),
    col('speed', 'integer', 'Fan speed in revolutions per minute, null when the device does not report it or the fan stopped.'),
  ],
  key: ['sn', 'name'],
  volatile: ['speed'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['fanState']],
  webPath: '/technology/platforms/environment/fans',
}

export const POWER_SUPPLIES: StoredTableDef = {
  path: 'inventory/power-supplies',
  legacyPaths: ['inventory/powerSupplies'],
  title: 'Power supplies',
  description: 'Power supply units of every device with their operational state.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.power_supplies' },
  columns: [
    idColumn('power supply'),
    ...deviceColumns(),
    ...partColumns('power supply', 'Power Supply 1'),
    col('pwSupplyState', 'string', 'Operational state (lower case): ok when it delivers power, present when inserted without input power, fail on a fault.', {
      values: ['ok', 'present', 'fail'],
    }),
  ],
  key: ['sn', 'name'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['pwSupplyState']],
  webPath: '/technology/platforms/environment/power-supplies',
}

export const MODULES: StoredTableDef = {
  path: 'inventory/modules',
  title: 'Modules',
  description: 'Modules of every device: the chassis or, for stacks, each stack member, with its operational state.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.modules' },
  columns: [
    idColumn('module'),
    ...deviceColumns(),
    ...partColumns('module', 'Switch 2'),
    col('moduleState', 'string', 'Operational state (lower case): powered-up when running, powered-down when switched off, err-disabled when shut down by a fault.', {
      values: ['powered-up', 'powered-down', 'err-disabled'],
    }),
  ],
  key: ['sn', 'name'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['moduleState']],
  webPath: '/technology/platforms/environment/modules',
}

const milestones = [
  col('endSale', 'timestamp', 'Last day the part could be ordered (ms since the epoch), null when not announced.'),
  col('endMaintenance', 'timestamp', 'Last day of software maintenance releases (ms since the epoch), null when not announced.'),
  col('endSupport', 'timestamp', 'Last day of vendor support (ms since the epoch), null when not announced.'),
] as const

export const EOF_DETAIL: StoredTableDef = {
  path: 'reports/eof/detail',
  title: 'End of life: parts',
  description: 'Every installed part (inventory/pn) whose vendor announced end-of-life milestones, with the milestones.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'inventory.eof_detail' },
  columns: [
    idColumn('part'),
    ...deviceColumns(),
    col('vendor', 'string', 'Vendor of the part.'),
    col('pid', 'string', 'Product identifier (orderable part number) the milestones apply to.'),
    partSn('part'),
    col('replacement', 'string', 'Product the vendor names as the replacement, null when none.'),
    ...milestones,
  ],
  key: ['sn', 'pid', 'partSn'],
  nullableKey: ['pid', 'partSn'],
  defaultSort: { column: 'hostname', order: 'asc' },
  indexes: [['hostname', 'id'], ['pid']],
  webPath: '/inventory/end-of-life-milestones/detail',
}

export const EOF_SUMMARY: TableDef = {
  path: 'reports/eof/summary',
  title: 'End of life: summary',
  description: 'Part numbers with announced end-of-life milestones and how many are installed, computed from reports/eof/detail.',
  snapshotScoped: true,
  source: {
    kind: 'derived',
    sql: [
      "SELECT snapshot_id, concat_ws('/', vendor, pid) AS id, vendor, pid, max(replacement) AS replacement,",
      'max(end_sale) AS end_sale, max(end_maintenance) AS end_maintenance, max(end_support) AS end_support, count(*)::bigint AS count',
      'FROM inventory.eof_detail GROUP BY snapshot_id, vendor, pid',
    ].join(' '),
  },
  columns: [
    col('id', 'string', 'The vendor/pid the row counts (unique per snapshot).'),
    col('vendor', 'string', 'Vendor of the part.'),
    col('pid', 'string', 'Product identifier (orderable part number).'),
    col('replacement', 'string', 'Product the vendor names as the replacement, null when none.'),
    ...milestones,
    col('count', 'integer', 'Number of installed parts with this part number.'),
  ],
  key: ['vendor', 'pid'],
  nullableKey: ['vendor', 'pid'],
  defaultSort: { column: 'count', order: 'desc' },
  indexes: [],
  webPath: '/inventory/end-of-life-milestones/summary',
}

export const ENVIRONMENT_TABLES: readonly TableDef[] = [FANS, POWER_SUPPLIES, MODULES, EOF_DETAIL, EOF_SUMMARY]
