/**
 * Columns set once a snapshot's rows are in (`atLoad`: `interfaces/switchports`' `edge`): after a
 * discovery, a snapshot file uploaded, a clone, a device rediscovered and the migration of
 * partitions made before (an unloaded snapshot's among them), every row holds what the neighbours
 * say, on both engines; a table request reads the stored value and never the neighbours.
 */
import t from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { startApp } from '../app.js'
import { findTable, partitionTable } from '../../../src/inventory/catalog/index.js'
import type { StoredTableDef } from '../../../src/inventory/catalog/index.js'
import type { Db } from '../../../src/shared/db/index.js'
import { prepareTableQuery } from '../../../src/inventory/query/index.js'
import { SWITCHPORT_EDGE_SQL } from '../../../src/inventory/migrations/switchport-edge.js'
import { testDeps } from '../query/helpers.js'

const SWITCHPORTS = findTable('interfaces/switchports') as StoredTableDef

/** The snapshot's switch ports: how many, how many have a neighbour, and how many rows say otherwise. */
async function edges(db: Db, snapshot: string): Promise<{ ports: number; linked: number; wrong: number }> {
  const r = await db.query<{ ports: number; linked: number; wrong: number }>(
    `SELECT count(*)::int AS ports, count(*) FILTER (WHERE l.linked)::int AS linked, count(*) FILTER (WHERE t.edge = l.linked)::int AS wrong
       FROM inventory.switchports t,
            LATERAL (SELECT EXISTS (SELECT 1 FROM inventory.neighbors n WHERE n.snapshot_id = t.snapshot_id AND n.local_sn = t.sn AND n.local_int = t.int_name) AS linked) l
      WHERE t.snapshot_id = $1`,
    [snapshot],
  )
  return r.rows[0]!
}

for (const engine of ENGINES) {
  t.test(`edge ports are set when the rows are in, on ${engine}`, async (t) => {
    const db = await freshDb(t, engine)
    const api = await startApp(t, db)
    const id = await api.discover({ profile: 'small', sites: ['ROME-01', 'BERLIN-02'] })
    const found = await edges(db, id)
    t.ok(found.linked > 0 && found.linked < found.ports, `a discovery: ${found.ports} ports, ${found.linked} with a neighbour`)
    t.equal(found.wrong, 0, 'every port says whether it has a neighbour')

    // a table request reads the stored value
    const body = { snapshot: id, columns: ['id', 'edge'], filters: { edge: ['eq', false] }, pagination: { start: 0, limit: 0 } }
    const answer = await api.call('POST', 'tables/interfaces/switchports', body)
    t.equal((answer.body as { _meta: { count: number } })._meta.count, found.linked, 'edge false: the ports with a neighbour')
    const prepared = await prepareTableQuery(testDeps(db, [id]), SWITCHPORTS, body)
    t.notMatch(prepared.plan.select.sql + prepared.plan.count.sql, /neighbors/, 'no request reads the neighbours')

    // a snapshot file uploaded: loaded as a discovery is
    const file = await api.call('GET', `snapshots/${id}/download`)
    t.equal(file.status, 200)
    const up = await api.call('POST', 'snapshots/upload', file.text, { 'content-type': 'application/x-ndjson' })
    t.equal(up.status, 201, up.text)
    const uploaded = (up.body as { id: string }).id
    await api.waitJob((up.body as { jobId: string }).jobId)
    t.same(await edges(db, uploaded), found, 'an uploaded snapshot: the same')

    // a clone copies the column
    const cloned = await api.call('POST', `snapshots/${id}/clone`)
    const clone = (cloned.body as { id: string }).id
    await api.waitJob((cloned.body as { jobId: string }).jobId)
    t.equal((await api.call('POST', 'snapshots/load', [{ jobDetail: Date.now(), id: clone }])).status, 200)
    for (let i = 0; i < 200 && (((await api.call('GET', `snapshots/${clone}`)).body as { state: string }).state !== 'loaded'); i++) await new Promise((r) => setTimeout(r, 100))
    t.same(await edges(db, clone), found, 'a clone: the same')

    // a device with a linked port rediscovered: its new rows are set too
    const device = await db.query<{ sn: string }>('SELECT min(sn) AS sn FROM inventory.switchports WHERE snapshot_id = $1 AND NOT edge', [id])
    const again = await api.call('POST', `snapshots/${id}/devices`, { snList: [device.rows[0]!.sn] })
    t.equal(again.status, 202, again.text)
    t.match(await api.waitJob((again.body as { jobId: string }).jobId), { status: 'done' })
    t.same(await edges(db, id), found, 'a device rediscovered: the same')

    // partitions made before the column was stored: the migration sets it, on an unloaded snapshot's too
    t.equal((await api.call('POST', `snapshots/${uploaded}/unload`)).status, 204)
    await db.query(`ALTER TABLE ${partitionTable(SWITCHPORTS, uploaded)} DROP COLUMN edge`)
    await db.query(`UPDATE ${partitionTable(SWITCHPORTS, id)} SET edge = true`)
    t.equal((await edges(db, id)).wrong, found.linked, 'as the column was added: every port an edge')
    await db.exec(SWITCHPORT_EDGE_SQL)
    t.equal((await api.call('POST', `snapshots/${uploaded}/load`)).status, 204)
    t.same(await edges(db, id), found, 'migrated: the same')
    t.same(await edges(db, uploaded), found, 'and the unloaded snapshot, loaded again')
  })
}
