/** Numbered forward migrations of the "inventory" schema. */
import { migrate, type Db, type Migration } from '../../shared/db/index.js'
import { BOOKKEEPING_SQL } from './bookkeeping.js'
import { storageDdl } from '../catalog/ddl.js'
import { REPORT_MIGRATIONS } from '../reports/migrations.js'

export const INVENTORY_MIGRATIONS: readonly Migration[] = [
  { id: 1, name: 'snapshots, jobs and settings', sql: BOOKKEEPING_SQL },
  {
    id: 2,
    name: 'snapshot tables partitioned by snapshot',
    // Generated from the catalog as it was when this migration was written; a later change of
    // a stored table needs a migration of its own (ALTER TABLE on the parent reaches partitions).
    sql: storageDdl().join(';\n'),
  },
  ...REPORT_MIGRATIONS,
]

export async function migrateInventory(db: Db): Promise<number[]> {
  return migrate(db, 'inventory', INVENTORY_MIGRATIONS)
}
