/**
 * Device attributes (site, floor, ... per device serial) as tables: the global ones, copied into
 * every new discovery, and each snapshot's own. Kept in the inventory's bookkeeping tables
 * (`inventory.global_attributes`, `inventory.snapshot_attributes`), managed by
 * `attributes/global` and `attributes/local`, and used by `attributeFilters` in table requests.
 */
import { col } from './columns.js'
import type { TableDef } from './types.js'

const COLUMNS = [
  col('id', 'string', 'Attribute id (the `id` list of a delete names these).'),
  col('sn', 'string', 'Serial number of the device the attribute is set on.'),
  col('name', 'string', 'Attribute name, e.g. siteName or floor (case-sensitive).'),
  col('value', 'string', 'Attribute value (case-sensitive).'),
]

export const GLOBAL_ATTRIBUTES: TableDef = {
  path: 'global-attributes',
  title: 'Global attributes',
  description: 'Attributes per device serial applied to every new discovery (the request has no snapshot key).',
  snapshotScoped: false,
  source: { kind: 'derived', sql: 'SELECT a.id::text AS id, a.sn, a.name, a.value FROM inventory.global_attributes a' },
  columns: COLUMNS,
  // one value per device and name; the id is a row number of its own in every snapshot
  key: ['sn', 'name'],
  volatile: ['id'],
  defaultSort: { column: 'sn', order: 'asc' },
  indexes: [],
  webPath: '/settings/global-attributes',
}

export const SNAPSHOT_ATTRIBUTES: TableDef = {
  path: 'snapshot-attributes',
  title: 'Snapshot attributes',
  description: "Attributes per device serial of one snapshot (its copy of the global ones when discovered, changed since by attributes/local).",
  snapshotScoped: true,
  source: { kind: 'derived', sql: 'SELECT a.snapshot_id, a.id::text AS id, a.sn, a.name, a.value FROM inventory.snapshot_attributes a' },
  columns: COLUMNS,
  // one value per device and name; the id is a row number of its own in every snapshot
  key: ['sn', 'name'],
  volatile: ['id'],
  defaultSort: { column: 'sn', order: 'asc' },
  indexes: [],
  webPath: '/settings/snapshot-attributes',
}

export const ATTRIBUTE_TABLES: readonly TableDef[] = [GLOBAL_ATTRIBUTES, SNAPSHOT_ATTRIBUTES]
