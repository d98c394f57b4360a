/** Migrations of the intent-rule store (ids from 100 up; appended to the inventory schema's list). */
import type { Migration } from '../../shared/db/index.js'

export const REPORT_MIGRATIONS: readonly Migration[] = [
  {
    id: 100,
    name: 'custom intent rules',
    sql: `
      CREATE TABLE inventory.report_rules (
        id text PRIMARY KEY,
        name text NOT NULL,
        table_path text NOT NULL,
        column_name text NOT NULL,
        default_color integer,
        checks jsonb NOT NULL,
        descriptions jsonb NOT NULL DEFAULT '{}'::jsonb,
        groups jsonb NOT NULL DEFAULT '[]'::jsonb,
        created_by text,
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL
      );
      CREATE INDEX report_rules_table ON inventory.report_rules (table_path)
    `,
  },
]
