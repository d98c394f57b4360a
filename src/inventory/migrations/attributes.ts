/**
 * Migrations of device attributes (ids from 301 up; appended to the inventory schema's list):
 * global attributes, copied into every new discovery, and each snapshot's own (dropped with
 * their snapshot).
 */
import type { Migration } from '../../shared/db/index.js'

export const ATTRIBUTE_MIGRATIONS: readonly Migration[] = [
  {
    id: 301,
    name: 'device attributes, global and per snapshot',
    sql: `
      CREATE TABLE inventory.global_attributes (
        id bigserial PRIMARY KEY,
        sn text NOT NULL,
        name text NOT NULL,
        value text NOT NULL,
        updated_at bigint NOT NULL,
        UNIQUE (sn, name)
      );
      CREATE TABLE inventory.snapshot_attributes (
        id bigserial PRIMARY KEY,
        snapshot_id text NOT NULL REFERENCES inventory.snapshots (id) ON DELETE CASCADE,
        sn text NOT NULL,
        name text NOT NULL,
        value text NOT NULL,
        updated_at bigint NOT NULL,
        UNIQUE (snapshot_id, sn, name)
      );
      CREATE INDEX snapshot_attributes_filter ON inventory.snapshot_attributes (snapshot_id, name, value)
    `,
  },
]
