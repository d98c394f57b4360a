/**
 * Migration 520: the optics levels of transceivers (interfaces/transceivers/statistics), collected
 * by network discovery from ENTITY-SENSOR-MIB or CISCO-ENTITY-SENSOR-MIB. Frozen text: an applied
 * migration never changes. Snapshots taken before it have no partition of the table: it reads as
 * empty for them until the snapshot is next attached, which creates it.
 */
export const TRANSCEIVER_STATISTICS_SQL = `
CREATE TABLE IF NOT EXISTS inventory.transceiver_statistics (
  snapshot_id text NOT NULL,
  "id" text NOT NULL,
  "sn" text,
  "hostname" text,
  "site_name" text,
  "int_name" text,
  "channel" bigint,
  "temperature" double precision,
  "voltage" double precision,
  "tx_bias" double precision,
  "tx_power" double precision,
  "rx_power" double precision
) PARTITION BY LIST (snapshot_id);
`
