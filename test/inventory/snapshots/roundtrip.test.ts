import t from 'tap'
import { ENGINES, freshDb } from '../../helpers/db.js'
import { startApp } from '../app.js'
import { STORED_TABLES, sourceTables } from '../../../src/inventory/catalog/index.js'

const NDJSON = { 'content-type': 'application/x-ndjson' }

for (const engine of ENGINES) {
  t.test(`export, import, export gives the same file on ${engine}`, async (t) => {
    const db = await freshDb(t, engine)
    const api = await startApp(t, db)
    const id = await api.discover({ sites: ['BERLIN-01', 'LONDON-01', 'PARIS-01'], snapshotName: 'three sites' })
    const first = await api.call('GET', `snapshots/${id}/download`)
    t.equal(first.status, 200)
    t.match(first.headers.get('content-type'), /application\/x-ndjson/)
    const lines = first.text.trimEnd().split('\n')
    t.match(JSON.parse(lines[0]!), { format: 'netinv-snapshot', version: 1, snapshot: { name: 'three sites' } })
    t.match(JSON.parse(lines.at(-1)!), { eof: true, tables: sourceTables().length })
    t.notMatch(first.text, /"table":"networks"/, 'computed tables are not written')

    const up = await api.call('POST', 'snapshots/upload', first.text, NDJSON)
    t.equal(up.status, 201, up.text)
    const imported = (up.body as { id: string }).id
    t.not(imported, id)
    const job = (await api.call('GET', `jobs/${(up.body as { jobId: string }).jobId}`)).body
    t.match(job, { name: 'snapshotUpload', status: 'done', isDone: true })
    const again = await api.call('GET', `snapshots/${imported}/download`)
    t.equal(again.text.length, first.text.length)
    t.ok(again.text === first.text, 'identical content')
    const snap = (await api.call('GET', `snapshots/${imported}`)).body as Record<string, unknown>
    t.match(snap, { status: 'done', state: 'loaded', name: 'three sites', origin: 'import', fromArchive: true })
    const original = (await api.call('GET', `snapshots/${id}`)).body as Record<string, number>
    for (const k of ['interfaceActiveCount', 'interfaceEdgeCount', 'userCount']) t.equal(snap[k], original[k], `${k} measured again from the same rows`)
    t.ok((snap.loadedSize as number) > 0 && (snap.unloadedSize as number) > 0, 'sizes measured')
    const networks = async (snapshot: string) => ((await api.call('POST', 'tables/networks', { snapshot, columns: ['id'], pagination: { limit: 1 } })).body as { _meta: { count: number } })._meta.count
    t.ok((await networks(imported)) > 0)
    t.equal(await networks(imported), await networks(id), 'computed tables are computed again on import')

    // a file of the first release (13 tables) imports: the tables added since are empty
    const firstRelease = STORED_TABLES.slice(0, 13).map((x) => x.path)
    const kept: string[] = [lines[0]!]
    let keep = false
    let rows = 0
    for (const line of lines.slice(1, -1)) {
      const parsed = JSON.parse(line) as { table?: string; end?: string }
      if (parsed.table) keep = firstRelease.includes(parsed.table)
      if (keep) kept.push(line)
      if (keep && Array.isArray(parsed)) rows++
    }
    kept.push(JSON.stringify({ eof: true, tables: firstRelease.length, rows }))
    const old = await api.call('POST', 'snapshots/upload', `${kept.join('\n')}\n`, NDJSON)
    t.equal(old.status, 201, old.text)
    const oldId = (old.body as { id: string }).id
    const fans = await api.call('POST', 'tables/inventory/fans', { snapshot: oldId, columns: ['id'] })
    t.same((fans.body as { _meta: { count: number } })._meta.count, 0, 'a table the file does not have is empty')
    const devices = await api.call('POST', 'tables/inventory/devices', { snapshot: oldId, columns: ['id'], pagination: { limit: 1 } })
    t.ok((devices.body as { _meta: { count: number } })._meta.count > 0)
    t.equal((await api.call('DELETE', `snapshots/${oldId}`)).status, 204)

    // bad files leave nothing behind
    const header = lines[0]!
    const bad: Array<[string, string, number]> = [
      ['not json', 'hello\n', 422],
      ['wrong format', '{"format":"other","version":1}\n', 422],
      ['future version', header.replace('"version":1', '"version":99'), 422],
      ['truncated', lines.slice(0, 20).join('\n'), 422],
      ['unknown table', `${header}\n{"table":"inventory/nope","columns":["id"]}\n`, 422],
      ['computed table', `${header}\n{"table":"networks","columns":["id"]}\n`, 422],
      ['unknown column', `${header}\n{"table":"inventory/devices","columns":["id","bogus"]}\n`, 422],
      ['wrong row width', `${header}\n{"table":"inventory/devices","columns":["id","sn"]}\n["a"]\n`, 422],
      ['bad type', `${header}\n{"table":"inventory/devices","columns":["id","uptime"]}\n["a","soon"]\n{"end":"inventory/devices","rows":1}\n{"eof":true,"tables":1,"rows":1}\n`, 422],
      ['bad address', `${header}\n{"table":"inventory/devices","columns":["id","loginIp"]}\n["a","999.1.1.1"]\n{"end":"inventory/devices","rows":1}\n{"eof":true,"tables":1,"rows":1}\n`, 422],
      ['wrong row count', `${header}\n{"table":"inventory/devices","columns":["id"]}\n["a"]\n{"end":"inventory/devices","rows":5}\n`, 422],
      ['a lone surrogate', `${header}\n{"table":"inventory/devices","columns":["id","hostname"]}\n["a","x\\ud800"]\n{"end":"inventory/devices","rows":1}\n{"eof":true,"tables":1,"rows":1}\n`, 422],
      ['U+0000', `${header}\n{"table":"inventory/devices","columns":["id","hostname"]}\n["a","x\\u0000"]\n{"end":"inventory/devices","rows":1}\n{"eof":true,"tables":1,"rows":1}\n`, 422],
      ['junk after the end', `${header}\n{"eof":true,"tables":0,"rows":0}\nmore\n`, 422],
    ]
    const before = ((await api.call('GET', 'snapshots')).body as unknown[]).length
    for (const [what, body, status] of bad) {
      const r = await api.call('POST', 'snapshots/upload', body, NDJSON)
      t.equal(r.status, status, `${what}: ${r.text.slice(0, 200)}`)
      t.match(r.body, { code: 'API_INVALID_INPUT' }, what)
      if (what === 'a lone surrogate' || what === 'U+0000') t.match(r.body, { message: /^line 3: "\[1\]" must not contain (an unpaired surrogate|the character U\+0000)/ }, `${what}: named by line and place`)
    }
    t.equal(((await api.call('GET', 'snapshots')).body as unknown[]).length, before, 'failed imports leave no snapshot')
    const leftovers = await db.query(`SELECT relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'inventory' AND c.relkind = 'r' AND relname LIKE 'devices\\_s\\_%'`)
    t.equal(leftovers.rows.length, 2, 'and no partition')
  })
}

t.test('an upload above the limit is refused with 413', async (t) => {
  const db = await freshDb(t, 'pglite')
  const api = await startApp(t, db, { server: { uploadLimitBytes: 2048 } })
  const header = JSON.stringify({ format: 'netinv-snapshot', version: 1, snapshot: {} })
  const r = await api.call('POST', 'snapshots/upload', `${header}\n${'x'.repeat(4096)}\n`, NDJSON)
  t.equal(r.status, 413)
})
