/**
 * Migrations of network discovery (ids from 200 up; appended to the inventory schema's list):
 * the connectivity report's snapshot table, SNMP credentials with the one that worked per
 * address, and a stop request on jobs.
 */
import type { Migration } from '../../shared/db/index.js'

/** Frozen text (an applied migration never changes), written from the catalog's definition. */
const CONNECTIVITY_SQL = `
CREATE TABLE IF NOT EXISTS inventory.connectivity (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "ip" inet,
  "result" text,
  "credential" text,
  "error" text,
  "duration_ms" bigint,
  "tries" bigint,
  "source" text,
  "found_by" text,
  "sn" text,
  "hostname" text
) PARTITION BY LIST (snapshot_id);
-- snapshots stored before this table existed get an empty partition, attached when theirs are
-- (no line of the block ends in a semicolon: migrations are split into statements there)
DO $$ DECLARE r record; hex text; sid text; BEGIN
  FOR r IN SELECT c.relname, c.relispartition FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'inventory' AND c.relname LIKE 'devices\\_s\\_%' LOOP
    hex := substr(r.relname, 11); sid := substr(hex, 1, 8) || '-' || substr(hex, 9, 4) || '-' || substr(hex, 13, 4) || '-' || substr(hex, 17, 4) || '-' || substr(hex, 21, 12)
    ; EXECUTE format('CREATE TABLE IF NOT EXISTS inventory.%I (LIKE inventory.connectivity INCLUDING DEFAULTS, CONSTRAINT %I CHECK (snapshot_id = %L))',
      'connectivity_s_' || hex, 'connectivity_s_' || hex || '_snap', sid)
    ; IF r.relispartition THEN
      EXECUTE format('ALTER TABLE inventory.connectivity ATTACH PARTITION inventory.%I FOR VALUES IN (%L)', 'connectivity_s_' || hex, sid)
    ; END IF
  ; END LOOP
; END $$
`

export const DISCOVERY_MIGRATIONS: readonly Migration[] = [
  { id: 200, name: 'connectivity report of network discoveries', sql: CONNECTIVITY_SQL },
  {
    id: 201,
    name: 'SNMP credentials (secrets sealed) and the one that worked per address',
    sql: `
      CREATE TABLE inventory.snmp_credentials (
        id text PRIMARY KEY,
        position integer NOT NULL,
        name text NOT NULL,
        version text NOT NULL CHECK (version IN ('2c', '3')),
        username text,
        auth_protocol text,
        priv_protocol text,
        secret text NOT NULL,
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL
      );
      CREATE TABLE inventory.snmp_remembered (
        address text PRIMARY KEY,
        credential_id text NOT NULL,
        updated_at bigint NOT NULL
      )
    `,
  },
  {
    id: 202,
    name: 'stop requests of jobs',
    // a stop reaches the job through the database, whichever replica runs it
    sql: 'ALTER TABLE inventory.jobs ADD COLUMN stop_requested_by text, ADD COLUMN stop_requested_at bigint',
  },
]
