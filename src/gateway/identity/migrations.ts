/**
 * The identity schema of the gateway: users, API keys, refresh tokens, the (hashed) addresses
 * users signed in from, and the audit trail. Numbered forward migrations, applied at start and by `netinv migrate`.
 * Times are milliseconds since the epoch (int8) so that a test clock can drive every expiry.
 */
import { migrate, type Db, type Migration } from '../../shared/db/index.js'

export const IDENTITY_SCHEMA = 'identity'

export const IDENTITY_MIGRATIONS: readonly Migration[] = [
  {
    id: 1,
    name: 'users, api keys, refresh tokens',
    sql: `
CREATE TABLE identity.users (
  id text PRIMARY KEY,
  username text NOT NULL,
  password_hash text,
  scopes text[] NOT NULL DEFAULT '{}',
  is_admin boolean NOT NULL DEFAULT false,
  eula_approved boolean NOT NULL DEFAULT false,
  email text,
  timezone text NOT NULL DEFAULT 'UTC',
  is_local boolean NOT NULL DEFAULT true,
  created_at int8 NOT NULL,
  updated_at int8 NOT NULL
);
CREATE UNIQUE INDEX users_username_key ON identity.users (lower(username));
CREATE TABLE identity.api_keys (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES identity.users (id) ON DELETE CASCADE,
  key_hash text NOT NULL UNIQUE,
  description text NOT NULL DEFAULT '',
  scopes text[] NOT NULL DEFAULT '{}',
  expires_at int8,
  last_used_at int8,
  usage_count int8 NOT NULL DEFAULT 0,
  created_at int8 NOT NULL
);
CREATE INDEX api_keys_user_idx ON identity.api_keys (user_id);
CREATE TABLE identity.refresh_tokens (
  id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  user_id text NOT NULL REFERENCES identity.users (id) ON DELETE CASCADE,
  family_id text NOT NULL,
  created_at int8 NOT NULL,
  last_used_at int8 NOT NULL,
  expires_at int8 NOT NULL,
  used_at int8,
  replaced_by text,
  successor_sealed text,
  revoked_at int8
);
CREATE INDEX refresh_tokens_family_idx ON identity.refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user_idx ON identity.refresh_tokens (user_id);
CREATE INDEX refresh_tokens_expiry_idx ON identity.refresh_tokens (expires_at);
`,
  },
  {
    id: 2,
    name: 'sign-in addresses',
    sql: `
CREATE TABLE identity.sign_in_addresses (
  pair text PRIMARY KEY,
  seen_at int8 NOT NULL
);
CREATE INDEX sign_in_addresses_seen_idx ON identity.sign_in_addresses (seen_at);
`,
  },
  {
    id: 3,
    name: 'directory users',
    sql: `
ALTER TABLE identity.users ADD COLUMN ldap_dn text;
ALTER TABLE identity.users ADD COLUMN sso_provider text;
`,
  },
  {
    id: 4,
    name: 'audit trail',
    sql: `
CREATE TABLE identity.audit_events (
  seq int8 PRIMARY KEY,
  at int8 NOT NULL,
  actor_id text,
  actor_name text,
  actor_method text NOT NULL,
  api_key_id text,
  request_id text,
  client_ip text,
  action text NOT NULL,
  target text,
  outcome text NOT NULL,
  reason text,
  before_json text,
  after_json text,
  prev_hash text NOT NULL,
  hash text NOT NULL
);
CREATE INDEX audit_events_at_idx ON identity.audit_events (at);
CREATE TABLE identity.audit_anchor (
  id int4 PRIMARY KEY,
  seq int8 NOT NULL,
  hash text NOT NULL
);
`,
  },  {
    id: 5,
    name: 'single sign-on subjects',
    sql: `
ALTER TABLE identity.users ADD COLUMN sso_subject text;
`,
  },
  {
    id: 6,
    name: 'single sign-on provider sessions',
    sql: `
CREATE TABLE identity.provider_sessions (
  family_id text PRIMARY KEY,
  provider text NOT NULL,
  subject text NOT NULL,
  tokens_sealed text NOT NULL,
  updated_at int8 NOT NULL
);
`,
  },
]

/** Applies the pending identity migrations; returns the ids applied. */
export async function migrateIdentity(db: Db): Promise<number[]> {
  return migrate(db, IDENTITY_SCHEMA, IDENTITY_MIGRATIONS)
}
