/**
 * Migrations are frozen text, so the catalog and the migrated schema can drift apart: this test
 * migrates a fresh database and checks that every stored catalog table and column exists with
 * the catalog's storage type (and no column the catalog dropped lingers). A catalog change
 * without a migration fails here.
 */
import t from 'tap'
import { freshPostgres } from '../../helpers/db.js'
import type { Queryable } from '../../../src/shared/db/index.js'
import { STORAGE_TYPES, STORED_TABLES, partitionColumns, type StoredTableDef } from '../../../src/inventory/catalog/index.js'
import { INVENTORY_MIGRATIONS, migrateInventory } from '../../../src/inventory/migrations/index.js'

const ADVICE = 'the catalog changed without a migration: add one to src/inventory/migrations (never edit an applied migration)'

/** Differences between the stored catalog tables and the tables of a migrated database. */
async function schemaDrift(db: Queryable, tables: readonly StoredTableDef[]): Promise<string[]> {
  const r = await db.query<{ tbl: string; col: string; type: string; notnull: boolean }>(
    `SELECT n.nspname || '.' || c.relname AS tbl, a.attname AS col, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS notnull
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid
      WHERE n.nspname = 'inventory' AND c.relkind = 'p' AND a.attnum > 0 AND NOT a.attisdropped`,
  )
  const actual = new Map<string, Map<string, string>>()
  for (const row of r.rows) {
    if (!actual.has(row.tbl)) actual.set(row.tbl, new Map())
    actual.get(row.tbl)!.set(row.col, row.type)
  }
  const drift: string[] = []
  for (const table of tables) {
    const have = actual.get(table.source.table)
    if (!have) {
      drift.push(`table ${table.source.table} (${table.path}) is missing`)
      continue
    }
    const want = new Map([['snapshot_id', 'text'], ...partitionColumns(table).map((c) => [c.storage, STORAGE_TYPES[c.type]] as [string, string])])
    for (const [col, type] of want) {
      const got = have.get(col)
      if (got === undefined) drift.push(`column ${table.source.table}.${col} (${type}) is missing`)
      else if (got !== type) drift.push(`column ${table.source.table}.${col} is ${got}, the catalog says ${type}`)
    }
    for (const col of have.keys()) if (!want.has(col)) drift.push(`column ${table.source.table}.${col} is not in the catalog`)
  }
  return drift
}

t.test('the migrated schema holds every stored catalog table and column with its storage type', async (t) => {
  const { db } = await freshPostgres(t)
  t.same(await migrateInventory(db), INVENTORY_MIGRATIONS.map((m) => m.id))
  const drift = await schemaDrift(db, STORED_TABLES)
  t.same(drift, [], `${ADVICE}:\n${drift.join('\n')}`)

  await t.test('the check sees a catalog change that no migration made', async (t) => {
    const devices = STORED_TABLES.find((x) => x.path === 'inventory/devices')!
    const changed: StoredTableDef = {
      ...devices,
      columns: [
        ...devices.columns.filter((c) => c.name !== 'hostname').map((c) => (c.name === 'uptime' ? { ...c, type: 'string' as const } : c)),
        { name: 'rackUnit', type: 'integer', description: 'Rack unit.' },
      ],
    }
    const found = await schemaDrift(db, [changed])
    t.same(found.sort(), [
      'column inventory.devices.hostname is not in the catalog',
      'column inventory.devices.rack_unit (bigint) is missing',
      'column inventory.devices.uptime is bigint, the catalog says text',
    ])
    t.same(await schemaDrift(db, [{ ...devices, source: { kind: 'stored', table: 'inventory.racks' } }]), ['table inventory.racks (inventory/devices) is missing'])
  })
})

t.test('migration 2 is frozen text, not generated at run time', async (t) => {
  const m2 = INVENTORY_MIGRATIONS.find((m) => m.id === 2)!
  const { SNAPSHOT_TABLES_SQL } = await import('../../../src/inventory/migrations/snapshot-tables.js')
  t.equal(m2.sql, SNAPSHOT_TABLES_SQL)
  t.match(m2.sql, /CREATE TABLE IF NOT EXISTS inventory\.devices \(/)
})
