/** Numbered forward migrations of the "inventory" schema. */
import { migrate, type Db, type Migration } from '../../shared/db/index.js'
import { BOOKKEEPING_SQL } from './bookkeeping.js'
import { SNAPSHOT_TABLES_SQL } from './snapshot-tables.js'
import { ADDED_TABLES_SQL } from './added-tables.js'
import { REPORT_MIGRATIONS } from '../reports/migrations.js'
import { DISCOVERY_MIGRATIONS } from './discovery.js'
import { JOB_MIGRATIONS } from './jobs.js'
import { ATTRIBUTE_MIGRATIONS } from './attributes.js'

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
  {
    id: 4,
    name: 'snapshot sizes and interface, edge and user counts',
    // measured once the rows are in (discovery, import, clone); 0 for snapshots taken before
    sql: [
      'ALTER TABLE inventory.snapshots ADD COLUMN loaded_size bigint NOT NULL DEFAULT 0, ADD COLUMN unloaded_size bigint NOT NULL DEFAULT 0,',
      'ADD COLUMN interface_active_count bigint NOT NULL DEFAULT 0, ADD COLUMN interface_edge_count bigint NOT NULL DEFAULT 0,',
      'ADD COLUMN user_count bigint NOT NULL DEFAULT 0',
    ].join(' '),
  },
  { id: 5, name: 'snapshot tables added after the first release', sql: ADDED_TABLES_SQL },
  ...REPORT_MIGRATIONS,
  ...DISCOVERY_MIGRATIONS,
  ...JOB_MIGRATIONS,
  ...ATTRIBUTE_MIGRATIONS,
  {
    id: 400,
    name: 'rows per table of each snapshot',
    // counted once a snapshot's rows are in (snapshots/figures.ts); null for snapshots taken
    // before, whose counts are scanned as they always were until they are measured at start
    sql: 'ALTER TABLE inventory.snapshots ADD COLUMN row_counts jsonb',
  },
  {
    id: 401,
    name: 'changes per table between two snapshots, kept',
    // query/change-counts.ts: counted once per pair, gone with either snapshot
    sql: `CREATE TABLE inventory.snapshot_changes (
      newer text NOT NULL REFERENCES inventory.snapshots (id) ON DELETE CASCADE,
      older text NOT NULL REFERENCES inventory.snapshots (id) ON DELETE CASCADE,
      volatile boolean NOT NULL,
      table_path text NOT NULL,
      added bigint NOT NULL,
      removed bigint NOT NULL,
      changed bigint NOT NULL,
      PRIMARY KEY (newer, older, volatile, table_path)
    );
    CREATE INDEX snapshot_changes_older ON inventory.snapshot_changes (older)`,
  },
]

export async function migrateInventory(db: Db): Promise<number[]> {
  return migrate(db, 'inventory', INVENTORY_MIGRATIONS)
}
