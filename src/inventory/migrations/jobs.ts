/**
 * Jobs as clients of this API family see them: the names they filter `tables/jobs` on, and the
 * file a download job produced.
 */
import type { Migration } from '../../shared/db/index.js'

export const JOB_MIGRATIONS: readonly Migration[] = [
  {
    id: 300,
    name: 'job names as clients filter them, and the file of a download job',
    sql: `
      ALTER TABLE inventory.jobs ADD COLUMN download_file text;
      UPDATE inventory.jobs SET name = CASE name
        WHEN 'discovery' THEN 'discoveryNew'
        WHEN 'import' THEN 'snapshotUpload'
        WHEN 'clone' THEN 'snapshotClone'
        WHEN 'load' THEN 'snapshotLoad'
        ELSE name END;
      CREATE INDEX jobs_name_started ON inventory.jobs (name, started_at DESC)
    `,
  },
]
