/**
 * `snapshots/{id}/devices` over HTTP: DELETE removes devices' rows from every table (computed
 * tables and site counts follow, the snapshot's figures too), POST rediscovers them from the
 * snapshot's source as a job (the simulator gives back the same rows), and every refusal is a
 * clear error: unknown serials or addresses, a locked, unloaded or uploaded snapshot.
 */
import t from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { asVersion, startApp } from '../app.js'
import { replaceDeviceRows } from '../../../src/inventory/storage/index.js'

type Page = { data: Array<Record<string, unknown>>; _meta: { count: number } }
const NDJSON = { 'content-type': 'application/x-ndjson' }

for (const engine of ENGINES) {
  t.test(`devices of a snapshot on ${engine}`, async (t) => {
    const db = await freshDb(t, engine)
    const api = await startApp(t, db)
    const id = await api.discover({ profile: 'lab' })
    const table = async (path: string, body: Record<string, unknown>) => {
      const r = await api.call('POST', `tables/${path}`, { snapshot: id, ...body })
      t.equal(r.status, 200, `${path}: ${r.text.slice(0, 200)}`)
      return r.body as Page
    }
    const snapshot = async () => (await api.call('GET', `snapshots/${id}`)).body as Record<string, number>
    const managed = async () => ((await api.call('POST', 'tables/management/snapshots', { columns: ['id', 'interfaceCount', 'interfaceActiveCount', 'totalDevCount'], filters: { id: ['eq', id] } })).body as Page).data[0]!
    const sumSites = async () => (await table('inventory/sites', { columns: ['devicesCount'], pagination: { limit: 1000 } })).data.reduce((n, r) => n + Number(r.devicesCount), 0)
    const ofDevice = async (sn: string) => ({
      interfaces: (await table('inventory/interfaces', { columns: ['id', 'sn', 'intName', 'l1', 'l2', 'primaryIp', 'mac'], filters: { sn: ['eq', sn] }, sort: { column: 'id', order: 'asc' }, pagination: { limit: 1000 } })).data,
      neighbors: (await table('neighbors/all', { columns: ['id'], filters: { localSn: ['eq', sn] } }))._meta.count,
      vlanSummary: (await table('vlan/device-summary', { columns: ['id'], filters: { sn: ['eq', sn] } }))._meta.count,
      parts: (await table('inventory/pn', { columns: ['id'], filters: { deviceSn: ['eq', sn] } }))._meta.count,
    })

    const devices = (await table('inventory/devices', { columns: ['sn', 'loginIp', 'devType'], filters: { devType: ['eq', 'switch'] }, pagination: { limit: 3 } })).data
    t.equal(devices.length, 3)
    const [a, b, c] = devices.map((d) => ({ sn: String(d.sn), ip: String(d.loginIp) })) as [{ sn: string; ip: string }, { sn: string; ip: string }, { sn: string; ip: string }]
    const before = await snapshot()
    const beforeManaged = await managed()
    const aBefore = await ofDevice(a.sn)
    const bBefore = await ofDevice(b.sn)
    t.ok(aBefore.interfaces.length > 0 && aBefore.neighbors > 0 && aBefore.vlanSummary > 0, 'the device has rows in stored and computed tables')
    t.equal(await sumSites(), before.totalDevCount)

    // refusals first: nothing changes
    const unknown = await api.call('DELETE', `snapshots/${id}/devices`, [a.sn, 'NO-SUCH-SN'])
    t.equal(unknown.status, 422)
    t.match(unknown.body, { code: 'API_INVALID_INPUT', errors: [{ message: /^"\[1\]" is not the serial number of a device of snapshot .*NO-SUCH-SN/, path: '[1]' }] }, 'named at its place in the bare array')
    const repeated = await api.call('POST', `snapshots/${id}/devices`, { snList: [a.sn, a.sn, 'NO-SUCH-SN'] })
    t.match(repeated.body, { errors: [{ message: /^"snList\[2\]" is not the serial number/, path: 'snList[2]' }] }, 'at its place in the body, repeats counted')
    t.equal((await api.call('DELETE', `snapshots/${id}/devices`, { snList: [a.sn] })).status, 422, 'DELETE takes a bare array')
    t.equal((await api.call('DELETE', `snapshots/${id}/devices`, [])).status, 422)
    t.match((await api.call('DELETE', 'snapshots/00000000-0000-4000-8000-000000000000/devices', [a.sn])).body, { code: 'API_NOT_FOUND' })
    t.equal((await api.call('POST', `snapshots/${id}/lock`)).status, 200)
    t.match((await api.call('DELETE', `snapshots/${id}/devices`, [a.sn])).body, { code: 'API_SNAPSHOT_LOCKED' })
    t.match((await api.call('POST', `snapshots/${id}/devices`, { snList: [a.sn] })).body, { code: 'API_SNAPSHOT_LOCKED' })
    t.equal((await api.call('POST', `snapshots/${id}/unlock`)).status, 200)
    t.equal((await api.call('POST', `snapshots/${id}/unload`)).status, 204)
    const unloaded = await api.call('DELETE', `snapshots/${id}/devices`, [a.sn])
    t.equal(unloaded.status, 409)
    t.match(unloaded.body, { code: 'API_SNAPSHOT_NOT_LOADED', message: String })
    t.match((await api.call('POST', `snapshots/${id}/devices`, { snList: [a.sn] })).body, { code: 'API_SNAPSHOT_NOT_LOADED' })
    t.equal((await api.call('POST', `snapshots/${id}/load`)).status, 204)
    t.same(await ofDevice(a.sn), aBefore, 'unchanged by the refusals')

    // removal: every table, computed ones and site counts included; the figures follow
    t.equal((await api.call('DELETE', `snapshots/${id}/devices`, [a.sn, b.sn])).status, 204)
    t.same(await ofDevice(a.sn), { interfaces: [], neighbors: 0, vlanSummary: 0, parts: 0 })
    t.equal((await table('inventory/devices', { columns: ['id'], filters: { sn: ['eq', b.sn] } }))._meta.count, 0)
    const after = await snapshot()
    t.equal(after.totalDevCount, before.totalDevCount! - 2)
    t.equal((await table('inventory/devices', { columns: ['id'] }))._meta.count, after.totalDevCount)
    t.equal(after.interfaceCount, before.interfaceCount! - aBefore.interfaces.length - bBefore.interfaces.length)
    t.equal(await sumSites(), after.totalDevCount, 'sites count the devices left')
    t.ok((await managed()).interfaceActiveCount! < beforeManaged.interfaceActiveCount!, 'measured again')

    // rediscovery by serial: a job; the simulator gives the same rows back
    const refused = await api.call('POST', `snapshots/${id}/devices`, { snList: [a.sn] })
    t.equal(refused.status, 422, 'a removed device is no longer in the snapshot')
    t.match((await api.call('POST', `snapshots/${id}/devices`, { snList: [c.sn], ipList: [c.ip] })).body, { code: 'API_INVALID_INPUT' })
    t.match((await api.call('POST', `snapshots/${id}/devices`, { ipList: ['10.0.0.999'] })).body, { errors: [{ message: /"ipList\[0\]" must be an IPv4 address/ }] })
    t.match((await api.call('POST', `snapshots/${id}/devices`, { ipList: [a.ip] })).body, { errors: [{ message: /not the management address of a device/ }] })

    const cBefore = await ofDevice(c.sn)
    // rows gone stale (one changed, one lost, a computed one lost) are what the rediscovery replaces
    await db.query('UPDATE inventory.interfaces SET l1 = $3 WHERE snapshot_id = $1 AND sn = $2', [id, c.sn, 'stale'])
    await db.query('DELETE FROM inventory.neighbors WHERE snapshot_id = $1 AND local_sn = $2', [id, c.sn])
    await db.query('DELETE FROM inventory.vlan_device_summary WHERE snapshot_id = $1 AND sn = $2', [id, c.sn])
    t.notSame(await ofDevice(c.sn), cBefore)
    const started = await api.call('POST', `snapshots/${id}/devices`, { snList: [c.sn] })
    t.equal(started.status, 202)
    const { jobId } = started.body as { jobId: string }
    const job = await api.waitJob(jobId)
    t.match(job, { name: 'discoveryRefresh', status: 'done', snapshot: id, message: /rediscovered 1 devices/ })
    t.same(await ofDevice(c.sn), cBefore, 'same rows')
    const jobs = await api.call('POST', 'tables/jobs', { columns: ['id', 'name', 'status', 'snapshot'], filters: { name: ['eq', 'discoveryRefresh'], snapshot: ['eq', id] } })
    t.match((jobs.body as Page).data, [{ id: jobId, status: 'done' }], 'clients find the job in tables/jobs')
    const byIp = await api.call('POST', `snapshots/${id}/devices`, { ipList: [c.ip] })
    t.equal(byIp.status, 202)
    t.match(await api.waitJob((byIp.body as { jobId: string }).jobId), { name: 'discoveryAdd', status: 'done' })
    t.equal((await snapshot()).totalDevCount, after.totalDevCount)

    // a rediscovery can be stopped like a discovery: it ends in error and changes nothing
    await db.query('UPDATE inventory.interfaces SET l1 = $3 WHERE snapshot_id = $1 AND sn = $2', [id, c.sn, 'stale'])
    const staleC = await ofDevice(c.sn)
    const running = await api.call('POST', `snapshots/${id}/devices`, { snList: [c.sn] })
    t.equal(running.status, 202)
    const stop = await api.call('POST', `jobs/${(running.body as { jobId: string }).jobId}/stop`)
    t.equal(stop.status, 200, stop.text)
    t.match(stop.body, { name: 'discoveryRefresh', status: 'error', isDone: true, message: /stopped by alice; the snapshot is unchanged/ })
    t.same(await ofDevice(c.sn), staleC, 'the stopped rediscovery replaced nothing')
    t.match((await api.call('POST', `jobs/${(running.body as { jobId: string }).jobId}/stop`)).body, { code: 'API_CONFLICT', message: /already finished/ })
    // version 1 (the original and path generations) answers 200, as the Ansible collection tests
    const again = await api.call('POST', `snapshots/${id}/devices`, { snList: [c.sn] }, asVersion(1, 'original'))
    t.equal(again.status, 200, 'version 1: 200')
    t.match(await api.waitJob((again.body as { jobId: string }).jobId), { status: 'done' })
    t.same(await ofDevice(c.sn), cBefore, 'a later rediscovery runs')

    // a change that fails at its end leaves nothing of itself
    const failing = replaceDeviceRows(db, id, [c.sn], new Map(), {
      before: async () => {},
      after: async () => {
        throw new Error('failed at the end')
      },
    })
    await t.rejects(failing, /failed at the end/)
    t.same(await ofDevice(c.sn), cBefore, 'rolled back whole')

    // an uploaded snapshot: devices can be removed, not rediscovered
    const file = await api.call('GET', `snapshots/${id}/download`)
    const up = await api.call('POST', 'snapshots/upload', file.text, NDJSON)
    const imported = (up.body as { id: string; jobId: string }).id
    await api.waitJob((up.body as { jobId: string }).jobId)
    const noSource = await api.call('POST', `snapshots/${imported}/devices`, { snList: [c.sn] })
    t.equal(noSource.status, 409)
    t.match(noSource.body, { code: 'API_CONFLICT', message: String })
    t.equal((await api.call('DELETE', `snapshots/${imported}/devices`, [c.sn])).status, 204)
  })
}
