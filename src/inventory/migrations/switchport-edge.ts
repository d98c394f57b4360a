/**
 * Migration 540: `interfaces/switchports`' `edge` stored, set once when a snapshot's rows are in
 * (catalog `atLoad`), instead of computed from the neighbours at every read. Existing partitions,
 * attached or not (an unloaded snapshot's), get the column with its default, then `false` on the
 * ports that have a neighbour, as a load sets it (`catalog/ddl.ts`, `fillSql`). Adding a column
 * with a constant default rewrites no row; the UPDATE touches only the ports with a neighbour.
 */
export const SWITCHPORT_EDGE_SQL = `
ALTER TABLE inventory.switchports ADD COLUMN IF NOT EXISTS edge boolean NOT NULL DEFAULT true;

-- one statement: no semicolon ends a line inside it (the migration runner splits statements there)
DO $$ DECLARE p record; neighbors text; BEGIN
  FOR p IN SELECT c.relname, c.relispartition FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'inventory' AND c.relkind = 'r' AND c.relname LIKE 'switchports\\_s\\_%' LOOP
    IF NOT p.relispartition THEN EXECUTE format('ALTER TABLE inventory.%I ADD COLUMN IF NOT EXISTS edge boolean NOT NULL DEFAULT true', p.relname); END IF
    ; neighbors := 'neighbors' || substr(p.relname, length('switchports') + 1)
    ; IF to_regclass(format('inventory.%I', neighbors)) IS NOT NULL THEN EXECUTE format(
        'UPDATE inventory.%I t SET edge = false WHERE EXISTS (SELECT 1 FROM inventory.%I n WHERE n.local_sn = t.sn AND n.local_int = t.int_name)',
        p.relname, neighbors); END IF
  ; END LOOP
; END $$;
`
