/**
 * Migrations of network discovery (ids from 200 up; appended to the inventory schema's list):
 * the connectivity report's snapshot table, SNMP credentials with the one that worked per
 * address, the networks a credential is limited to, and a stop request on jobs.
 */
import type { Migration } from '../../shared/db/index.js'

/**
 * Frozen text (an applied migration never changes), written from the catalog's definition.
 * Snapshots taken before it read as empty here until next attached, which creates their partition.
 */
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
) PARTITION BY LIST (snapshot_id)
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
  {
    id: 203,
    name: 'networks an SNMP credential is limited to',
    // a JSON array of IPv4 networks; empty: the credential is offered to every address discovery contacts
    sql: `ALTER TABLE inventory.snmp_credentials ADD COLUMN networks text NOT NULL DEFAULT '[]'`,
  },
  {
    id: 230,
    name: 'SSH credentials (secrets sealed), the host keys seen per address, configuration texts by fingerprint',
    // a host key is recorded on first contact and every later one must equal it
    // (network/ssh/host-keys.ts); a configuration text is kept once per fingerprint, masked
    sql: `
      CREATE TABLE inventory.ssh_credentials (
        id text PRIMARY KEY,
        position integer NOT NULL,
        name text NOT NULL,
        username text NOT NULL,
        port integer NOT NULL,
        secret text NOT NULL,
        networks text NOT NULL DEFAULT '[]',
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL
      );
      CREATE TABLE inventory.ssh_host_keys (
        address text NOT NULL,
        port integer NOT NULL,
        algorithm text NOT NULL,
        fingerprint text NOT NULL,
        first_seen_at bigint NOT NULL,
        last_seen_at bigint NOT NULL,
        PRIMARY KEY (address, port)
      );
      CREATE TABLE inventory.config_texts (
        hash text PRIMARY KEY,
        text text NOT NULL,
        stored_at bigint NOT NULL
      )
    `,
  },
]
