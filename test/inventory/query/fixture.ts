/**
 * A table of every column type, defined in the test (the engine only knows `TableDef`s), with
 * storage in schema `qt` partitioned the way the catalog's tables are: one column `snapshot_id`.
 */
import type { Db } from '../../../src/shared/db/index.js'
import type { TableDef } from '../../../src/inventory/catalog/types.js'

export const ITEMS: TableDef = {
  path: 'test/items',
  legacyPaths: ['test/itemsLegacy'],
  title: 'Items',
  description: 'Rows of every column type.',
  snapshotScoped: true,
  source: { kind: 'stored', table: 'qt.items' },
  columns: [
    { name: 'id', type: 'string', description: 'Row id.' },
    { name: 'name', type: 'string', description: 'Name.' },
    { name: 'site', type: 'string', description: 'Site.' },
    { name: 'siteUpper', type: 'string', description: 'Site in capitals.', sql: 'upper(t.site)' },
    { name: 'count', type: 'integer', description: 'A count.' },
    { name: 'other', type: 'integer', description: 'Another count.' },
    { name: 'ratio', type: 'number', description: 'A ratio.' },
    { name: 'up', type: 'boolean', description: 'Whether up.' },
    { name: 'ts', type: 'timestamp', description: 'A time.' },
    { name: 'ip', type: 'ip', description: 'An address.' },
    { name: 'net', type: 'network', description: 'A network.' },
    { name: 'mac', type: 'mac', description: 'A MAC address.' },
    { name: 'tags', type: 'stringArray', description: 'Tags.' },
    { name: 'vlans', type: 'integerArray', description: 'VLANs.' },
    { name: 'addrs', type: 'ipArray', description: 'Addresses.' },
    { name: 'extra', type: 'json', description: 'Nested value.' },
  ],
  defaultSort: { column: 'name', order: 'asc' },
  indexes: [['name', 'id']],
  webPath: '/test/items',
}

/** A table without snapshots (like management/snapshots). */
export const PLAIN: TableDef = {
  path: 'test/plain',
  title: 'Plain',
  description: 'A table without snapshots.',
  snapshotScoped: false,
  source: { kind: 'derived', sql: 'SELECT i.id, i.name, i.count FROM qt.items i' },
  columns: [
    { name: 'id', type: 'string', description: 'Row id.' },
    { name: 'name', type: 'string', description: 'Name.' },
    { name: 'count', type: 'integer', description: 'A count.' },
  ],
  defaultSort: { column: 'count', order: 'desc' },
  indexes: [],
  webPath: '/test/plain',
}

export interface Item {
  id: string
  name: string | null
  site: string | null
  count: number | null
  other: number | null
  ratio: number | null
  up: boolean | null
  ts: number | null
  ip: string | null
  net: string | null
  mac: string | null
  tags: string[] | null
  vlans: number[] | null
  addrs: string[] | null
  extra: unknown
}

export const COLUMNS_SQL = `
  snapshot_id text NOT NULL, id text NOT NULL, name text, site text, count bigint, other bigint,
  ratio double precision, up boolean, ts bigint, ip inet, net cidr, mac text, tags text[],
  vlans bigint[], addrs inet[], extra jsonb`

export async function createItems(db: Db): Promise<void> {
  await db.exec(`CREATE SCHEMA IF NOT EXISTS qt; CREATE TABLE qt.items (${COLUMNS_SQL}) PARTITION BY LIST (snapshot_id)`)
}

/** Inserts rows of one snapshot (creating its partition). */
export async function insertItems(db: Db, snapshot: string, rows: readonly Item[]): Promise<void> {
  const part = `qt.items_${snapshot.replace(/[^a-z0-9]/gi, '_')}`
  await db.exec(`CREATE TABLE ${part} PARTITION OF qt.items FOR VALUES IN ('${snapshot.replace(/'/g, "''")}')`)
  for (const r of rows) {
    await db.query(
      `INSERT INTO qt.items VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::inet, $11::cidr, $12, $13::text[], $14::bigint[], $15::inet[], $16::jsonb)`,
      [snapshot, r.id, r.name, r.site, r.count, r.other, r.ratio, r.up, r.ts, r.ip, r.net, r.mac, r.tags, r.vlans, r.addrs, r.extra === undefined ? null : JSON.stringify(r.extra)],
    )
  }
}

/** A few hand-made rows with known answers. */
export function sampleItems(): Item[] {
  const base: Omit<Item, 'id' | 'name'> = {
    site: 'paris', count: 1, other: 1, ratio: 0.5, up: true, ts: 1_700_000_000_000, ip: '10.0.0.1', net: '10.0.0.0/24',
    mac: 'aa:bb:cc:dd:ee:01', tags: ['core'], vlans: [10, 20], addrs: ['10.0.0.1'], extra: { a: 1 },
  }
  return [
    { ...base, id: 'i1', name: 'alpha' },
    { ...base, id: 'i2', name: 'Beta', site: 'berlin', count: 5, other: 3, ip: '10.1.2.3', net: '10.1.0.0/16', up: false, tags: ['edge', 'wan'], vlans: [30], extra: [] },
    { ...base, id: 'i3', name: 'gamma_1%', site: '', count: 10, other: 10, ratio: 1.5, ip: '192.168.1.1', net: '192.168.0.0/16', tags: [], vlans: [], addrs: [], extra: null },
    { ...base, id: 'i4', name: null, site: null, count: null, other: 2, ratio: null, up: null, ts: null, ip: null, net: null, mac: null, tags: null, vlans: null, addrs: null, extra: null },
    { ...base, id: 'i5', name: 'delta', site: 'paris', count: 7, other: 9, ip: '2001:db8::1', net: '2001:db8::/32', mac: 'AA:BB:CC:DD:EE:05'.toLowerCase(), tags: ['core', 'edge'], vlans: [10, 40], addrs: ['10.9.9.9', '2001:db8::9'] },
  ]
}
