/**
 * Migration 420 on a database that has snapshots already, on both engines: every switch port,
 * of loaded and of unloaded snapshots, gets its dynamic MAC count from the snapshot's MAC table;
 * an unloaded snapshot's partition gets the new column, so it can be loaded again; the tables the
 * migration adds read as empty for older snapshots until they are next attached, which computes them.
 */
import t from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { startApp, type Client } from '../app.js'
import { migrateInventory } from '../../../src/inventory/migrations/index.js'

type Row = Record<string, unknown>

async function rows(app: Client, path: string, snapshot: string, columns: string[]): Promise<Row[]> {
  const r = await app.call('POST', `tables/${path}`, { snapshot, columns, pagination: { limit: 10000 } })
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`)
  return (r.body as { data: Row[] }).data
}

/** Dynamic MAC rows per port, and each port's dynamicMacCount, as "hostname intName count". */
async function counts(app: Client, snapshot: string): Promise<{ truth: string[]; kept: string[] }> {
  const learned = new Map<string, number>()
  for (const m of await rows(app, 'addressing/mac', snapshot, ['hostname', 'intName', 'type'])) {
    if (m.type === 'dynamic') learned.set(`${String(m.hostname)} ${String(m.intName)}`, (learned.get(`${String(m.hostname)} ${String(m.intName)}`) ?? 0) + 1)
  }
  const ports = await rows(app, 'interfaces/switchports', snapshot, ['hostname', 'intName', 'dynamicMacCount'])
  return {
    truth: ports.map((p) => `${String(p.hostname)} ${String(p.intName)} ${learned.get(`${String(p.hostname)} ${String(p.intName)}`) ?? 0}`).sort(),
    kept: ports.map((p) => `${String(p.hostname)} ${String(p.intName)} ${String(p.dynamicMacCount)}`).sort(),
  }
}

const NEW_TABLES = ['ipv6_managed_devs', 'ipv6_neighbors', 'fhrp_group_members', 'gateway_redundancy']

for (const engine of ENGINES) {
  t.test(`migration 420 on snapshots taken before it (${engine})`, async (t) => {
    const db = await freshDb(t, engine)
    const app = await startApp(t, db)
    const loaded = await app.discover({ profile: 'small', sites: ['ROME-01'] })
    const unloaded = await app.discover({ profile: 'small', sites: ['BERLIN-02'] })
    t.equal((await app.call('POST', `snapshots/${unloaded}/unload`)).status, 204)

    // the database as it was before migration 420
    await db.exec('ALTER TABLE inventory.switchports DROP COLUMN dynamic_mac_count')
    await db.exec(`ALTER TABLE inventory.switchports_s_${unloaded.replace(/-/g, '')} DROP COLUMN dynamic_mac_count`)
    for (const table of NEW_TABLES) await db.exec(`DROP TABLE inventory.${table} CASCADE`)
    await db.query('DELETE FROM inventory.schema_migrations WHERE id = 420')

    t.same(await migrateInventory(db), [420])
    const before = await counts(app, loaded)
    t.ok(before.truth.length > 0 && before.truth.some((x) => !x.endsWith(' 0')), 'ports with dynamic MAC addresses')
    t.same(before.kept, before.truth, 'a loaded snapshot: the count of each port')
    t.same(await rows(app, 'fhrp/group-members', loaded, ['id']), [], 'a new table reads as empty until the snapshot is attached again')

    const load = await app.call('POST', `snapshots/${unloaded}/load`)
    t.ok(load.status >= 200 && load.status < 300, load.text)
    for (let i = 0; i < 300; i++) {
      const s = (await app.call('GET', `snapshots/${unloaded}`)).body as { loaded?: boolean; state?: string; loading?: boolean }
      if (s.loaded === true || s.state === 'loaded') break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const after = await counts(app, unloaded)
    t.ok(after.truth.some((x) => !x.endsWith(' 0')))
    t.same(after.kept, after.truth, 'an unloaded snapshot, loaded again: the count of each port')
    t.ok((await rows(app, 'fhrp/group-members', unloaded, ['id'])).length > 0, 'attaching computes the new tables')
  })
}
