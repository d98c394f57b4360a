import t from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { UNSIMULATED } from '../../helpers/unsimulated.js'
import { startApp } from '../app.js'
import { TABLES, columnSql } from '../../../src/inventory/catalog/index.js'

for (const engine of ENGINES) {
  t.test(`every catalog column reads from its source on ${engine}`, async (t) => {
    const db = await freshDb(t, engine)
    const api = await startApp(t, db)
    // the connectivity report comes from network discoveries only: one of 127.0.0.1 (loopback, allowed), where no agent answers
    await api.call('POST', 'settings/snmp', { version: '2c', community: 'public' })
    await api.call('PATCH', 'settings', { allowedSpecialNetworks: ['127.0.0.0/8'], limits: { timeoutMs: 100, retries: 0 } })
    const network = await api.discover({ source: 'network', seeds: ['127.0.0.1'] })
    const NETWORK_ONLY = new Set(['discovery/connectivity-report'])
    // a global attribute, which the next discovery copies into its own
    await api.call('PUT', 'attributes/global', { attributes: [{ sn: 'ANY-SN', name: 'floor', value: '3' }] })
    // in the small profile ROME-01 has a link seen from one end and BERLIN-02 a duplicated address: every table has rows
    const id = await api.discover({ profile: 'small', sites: ['ROME-01', 'BERLIN-02'] })
    for (const table of TABLES) {
      const from = table.source.kind === 'stored' ? table.source.table : `(${table.source.sql})`
      const where = table.snapshotScoped ? 'WHERE t.snapshot_id = $1' : ''
      const select = table.columns.map((c) => `${columnSql(c)} AS "${c.name}"`).join(', ')
      const snapshot = NETWORK_ONLY.has(table.path) ? network : id
      const r = await db.query<Record<string, unknown>>(`SELECT ${select} FROM ${from} t ${where} ORDER BY t.id LIMIT 50`, table.snapshotScoped ? [snapshot] : [])
      if (table.collected === false) t.equal(r.rows.length, 0, `${table.path} (not collected) has no rows`)
      else if (UNSIMULATED.includes(table.path)) t.equal(r.rows.length, 0, `${table.path}: the simulator models none`)
      else t.ok(r.rows.length > 0, `${table.path} has rows`)
      for (const row of r.rows) t.equal(typeof row.id, 'string', `${table.path} id is a string`)
    }
    const derived = (path: string) => (TABLES.find((x) => x.path === path)!.source as { sql: string }).sql
    const vendors = await db.query<{ devices_count: number }>(
      `SELECT sum(devices_count)::int AS devices_count FROM (${derived('inventory/summary/vendors')}) t WHERE snapshot_id = $1`,
      [id],
    )
    const snap = (await api.call('GET', `snapshots/${id}`)).body as { totalDevCount: number }
    t.equal(vendors.rows[0]!.devices_count, snap.totalDevCount, 'vendor summary adds up to the devices')
    const row = await db.query<Record<string, unknown>>(`SELECT * FROM (${derived('management/snapshots')}) t WHERE id = $1`, [id])
    t.match(row.rows[0], { status: 'done', finish_status: 'done', is_last_snapshot: true, state: 'loaded', sites: ['ROME-01', 'BERLIN-02'] })
  })
}
