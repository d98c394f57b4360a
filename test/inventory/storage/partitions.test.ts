import t from 'tap'
import { randomUUID } from 'node:crypto'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { migrateInventory } from '../../../src/inventory/migrations/index.js'
import { DEVICES } from '../../../src/inventory/catalog/inventory.js'
import { STORED_TABLES, dropPartitionSql, storageColumns } from '../../../src/inventory/catalog/index.js'
import { MANAGED_DEVS } from '../../../src/inventory/catalog/addressing.js'
import { FANS } from '../../../src/inventory/catalog/environment.js'
import { DUPLICATE_IP } from '../../../src/inventory/catalog/networks.js'
import { ROUTES as ROUTE_TABLE } from '../../../src/inventory/catalog/routing.js'
import {
  cloneSnapshotRows,
  detachSnapshot,
  attachSnapshot,
  dropSnapshotRows,
  loadSnapshotRows,
  streamSnapshotRows,
} from '../../../src/inventory/storage/index.js'
import type { Db } from '../../../src/shared/db/index.js'

function deviceRow(i: number): unknown[] {
  const row: Record<string, unknown> = {
    id: `d${i}`,
    sn: `SN${i}`,
    hostname: i === 0 ? 'we "quote", and,\ncomma' : `host-${i}`,
    siteName: 'HQ',
    vendor: 'cisco',
    loginIp: `10.0.0.${i + 1}`,
    uptime: 1000 + i,
    memoryUtilization: 12.5,
    configReg: i === 1 ? '' : null,
  }
  return storageColumns(DEVICES).map((c) => row[c.name] ?? null)
}

function routeRow(i: number): unknown[] {
  const row: Record<string, unknown> = {
    id: `r${i}`,
    sn: 'SN0',
    hostname: 'host-0',
    network: `10.${i}.0.0/16`,
    prefix: 16,
    protocol: 'static',
    nexthop: [{ ip: '192.0.2.1', intName: null, ad: 1, metric: 0, vrfLeak: null }],
    nhCount: 1,
  }
  return storageColumns(ROUTE_TABLE).map((c) => row[c.name] ?? null)
}

async function count(db: Db, table: string, id: string): Promise<number> {
  const r = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE snapshot_id = $1`, [id])
  return r.rows[0]!.n
}

for (const engine of ENGINES) {
  t.test(`partitions on ${engine}`, async (t) => {
    const db = await freshDb(t, engine)
    await migrateInventory(db)
    const a = randomUUID()
    const counts = await loadSnapshotRows(db, a, [
      { table: DEVICES, rows: [0, 1, 2].map(deviceRow) },
      { table: ROUTE_TABLE, rows: (async function* () { for (let i = 0; i < 3; i++) yield routeRow(i) })() },
    ])
    t.equal(counts['inventory/devices'], 3)
    t.equal(counts['networks/routes'], 3)
    t.equal(counts['inventory/interfaces'], 0, 'tables not given get an empty partition')
    t.equal(await count(db, 'inventory.devices', a), 3)
    const dev = await db.query<Record<string, unknown>>(`SELECT * FROM inventory.devices WHERE snapshot_id = $1 ORDER BY id`, [a])
    t.equal(dev.rows[0]!.hostname, 'we "quote", and,\ncomma', 'CSV quoting round-trips')
    t.equal(dev.rows[1]!.config_reg, '', 'empty string stays empty')
    t.equal(dev.rows[0]!.config_reg, null, 'null stays null')
    t.equal(dev.rows[0]!.login_ip, '10.0.0.1')
    const routes = await db.query<Record<string, unknown>>(`SELECT * FROM inventory.routes WHERE snapshot_id = $1 AND network <<= '10.1.0.0/16'`, [a])
    t.same(routes.rows.map((r) => r.nexthop), [[{ ip: '192.0.2.1', intName: null, ad: 1, metric: 0, vrfLeak: null }]])

    const b = randomUUID()
    await cloneSnapshotRows(db, a, b)
    t.equal(await count(db, 'inventory.devices', b), 3, 'clone copies rows')
    const exported: unknown[][] = []
    await streamSnapshotRows(db, DEVICES, b, async (rows) => void exported.push(...rows))
    t.same(exported, [0, 1, 2].map(deviceRow), 'streamed rows equal the loaded ones')

    await detachSnapshot(db, a)
    t.equal(await count(db, 'inventory.devices', a), 0, 'detached rows are invisible')
    await attachSnapshot(db, a)
    t.equal(await count(db, 'inventory.devices', a), 3, 're-attached rows are back')

    await dropSnapshotRows(db, a)
    t.equal(await count(db, 'inventory.devices', a), 0, 'dropped')
    t.equal(await count(db, 'inventory.devices', b), 3, 'the clone survives')

    const d = randomUUID()
    const sliced = await loadSnapshotRows(db, d, [
      { table: DEVICES, rows: [deviceRow(0)] },
      { table: ROUTE_TABLE, rows: [routeRow(0)] },
      { table: DEVICES, rows: [deviceRow(1), deviceRow(2)] },
    ])
    t.equal(sliced['inventory/devices'], 3, 'slices of one table append to its partition')
    t.equal(await count(db, 'inventory.devices', d), 3)

    const c = randomUUID()
    await t.rejects(loadSnapshotRows(db, c, [{ table: DEVICES, rows: [['too', 'short']] }]), /values per row/)
    const left = await db.query(`SELECT 1 FROM pg_class WHERE relname LIKE $1`, [`%${c.replace(/-/g, '')}%`])
    t.equal(left.rows.length, 0, 'a failed load leaves no partition behind')
  })
}

t.test('a snapshot taken before tables were added gets them when attached or cloned', async (t) => {
  const db = await freshDb(t, 'pglite')
  await migrateInventory(db)
  const old = randomUUID()
  const manage = (i: number, ip: string) =>
    storageColumns(MANAGED_DEVS).map((c) => ({ id: `m${i}`, sn: `SN${i}`, hostname: `host-${i}`, siteName: 'HQ', intName: 'Gi1', ip, net: `${ip}/32`, vrf: '', type: 'primary' })[c.name] ?? null)
  await loadSnapshotRows(db, old, [{ table: MANAGED_DEVS, rows: [manage(1, '10.0.0.1'), manage(2, '10.0.0.1'), manage(3, '10.0.0.3')] }])
  t.equal(await count(db, 'inventory.duplicate_ip', old), 2, 'computed tables are filled at load')
  // what a snapshot of the first release looks like: no partitions of the later tables
  await detachSnapshot(db, old)
  for (const table of STORED_TABLES.slice(13)) await db.query(dropPartitionSql(table, old))
  const clone = randomUUID()
  await cloneSnapshotRows(db, old, clone)
  t.equal(await count(db, 'inventory.duplicate_ip', clone), 2, 'a clone computes them from the copied rows')
  t.equal(await count(db, 'inventory.fans', clone), 0, 'and has empty partitions of the others')
  await attachSnapshot(db, old)
  t.equal(await count(db, 'inventory.duplicate_ip', old), 2, 'attaching computes them')
  t.equal(await count(db, 'inventory.networks', old), 2)
  t.equal(await count(db, 'inventory.fans', old), 0)
  const streamed: unknown[][] = []
  await streamSnapshotRows(db, FANS, randomUUID(), async (rows) => void streamed.push(...rows))
  t.same(streamed, [], 'a missing partition streams no rows')
  await t.rejects(loadSnapshotRows(db, randomUUID(), [{ table: DUPLICATE_IP, rows: [] }]), /computed/, 'computed tables are never loaded from a source')
})
