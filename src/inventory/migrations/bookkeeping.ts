/**
 * The service's own tables: snapshots (one row per snapshot, whatever its state), jobs
 * (background work with progress) and settings (global discovery settings, one JSON document
 * per key). Timestamps are milliseconds since the epoch (bigint), as the API shows them.
 */
export const BOOKKEEPING_SQL = `
CREATE TABLE inventory.snapshots (
  id text PRIMARY KEY,
  seq bigserial NOT NULL,
  name text,
  note text,
  -- discovery state: run, finishing, done, error
  status text NOT NULL CHECK (status IN ('run', 'finishing', 'done', 'error')),
  loaded boolean NOT NULL DEFAULT false,
  loading boolean NOT NULL DEFAULT false,
  locked boolean NOT NULL DEFAULT false,
  -- where the rows came from: simulator, import, clone
  origin text NOT NULL,
  settings jsonb NOT NULL DEFAULT '{}',
  sites jsonb NOT NULL DEFAULT '[]',
  errors jsonb NOT NULL DEFAULT '[]',
  counts jsonb NOT NULL DEFAULT '{}',
  total_dev_count bigint NOT NULL DEFAULT 0,
  licensed_dev_count bigint NOT NULL DEFAULT 0,
  device_added_count bigint NOT NULL DEFAULT 0,
  device_removed_count bigint NOT NULL DEFAULT 0,
  interface_count bigint NOT NULL DEFAULT 0,
  ts_start bigint NOT NULL,
  ts_end bigint,
  ts_change bigint NOT NULL,
  creator_username text,
  version text NOT NULL,
  initial_version text NOT NULL,
  job_id text
);
CREATE INDEX snapshots_last ON inventory.snapshots (ts_end DESC NULLS LAST, seq DESC);
CREATE TABLE inventory.jobs (
  id text PRIMARY KEY,
  seq bigserial NOT NULL,
  name text NOT NULL,
  status text NOT NULL CHECK (status IN ('scheduled', 'running', 'done', 'error')),
  snapshot_id text,
  scheduled_at bigint NOT NULL,
  started_at bigint,
  finished_at bigint,
  username text,
  progress double precision NOT NULL DEFAULT 0,
  message text
);
CREATE INDEX jobs_snapshot ON inventory.jobs (snapshot_id);
CREATE TABLE inventory.settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at bigint NOT NULL
)
`
