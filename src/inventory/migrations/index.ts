/** Numbered forward migrations of the "inventory" schema. */
import { migrate, type Db, type Migration } from '../../shared/db/index.js'
import { BOOKKEEPING_SQL } from './bookkeeping.js'
import { SNAPSHOT_TABLES_SQL } from './snapshot-tables.js'
import { REPORT_MIGRATIONS } from '../reports/migrations.js'

export const INVENTORY_MIGRATIONS: readonly Migration[] = [
  { id: 1, name: 'snapshots, jobs and settings', sql: BOOKKEEPING_SQL },
  { id: 2, name: 'snapshot tables partitioned by snapshot', sql: SNAPSHOT_TABLES_SQL },
  {
    id: 3,
    name: 'job owner and heartbeat',
    // which service instance runs a job, and when it last said so: a restarting or second
    // replica fails only jobs whose owner stopped beating, never another live instance's
    sql: 'ALTER TABLE inventory.jobs ADD COLUMN owner text, ADD COLUMN heartbeat_at bigint',
  },
  ...REPORT_MIGRATIONS,
]

export async function migrateInventory(db: Db): Promise<number[]> {
  return migrate(db, 'inventory', INVENTORY_MIGRATIONS)
}
