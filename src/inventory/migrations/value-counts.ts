/**
 * Migration 550: the parent table of the interfaces' value counts (`catalog/value-counts.ts`),
 * partitioned by snapshot like the rows. Frozen text, generated once from the catalog
 * (`valuesParentSql`): an applied migration never changes. Snapshots taken before it get their
 * value counts at the next start (`storage/value-counts.ts`); until then their counts scan.
 */
export const VALUE_COUNTS_SQL = `
CREATE TABLE IF NOT EXISTS inventory.interfaces_values (snapshot_id text NOT NULL, g smallint NOT NULL, n bigint NOT NULL, "hostname" text, "site_name" text, "int_name" text, "dscr" text, "l1" text, "l2" text) PARTITION BY LIST (snapshot_id);
`
